// parallel.h — runs the parts of a large file's analysis side by side. A
// large file is cut into a few more parts than there are threads, and each
// thread takes the next part when it is done with one, so that a part that
// happens to be slow does not leave the other cores idle at the end. There
// are never more than a handful of threads, so there is no pool.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <ostream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace recipe::analyzer {

// How many threads the analysis of one large file uses: one per core this
// process may run on (a container's or taskset's limit counts, which
// hardware_concurrency() ignores), two at least, eight at most.
inline std::size_t analysis_threads() {
    static const std::size_t n = [] {
        std::size_t cores = std::thread::hardware_concurrency();
#if defined(__linux__)
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0) cores = static_cast<std::size_t>(CPU_COUNT(&set));
#endif
        return std::clamp<std::size_t>(cores, 2, 8);
    }();
    return n;
}

// Calls f(0) … f(tasks-1) on up to `threads` threads, the calling thread
// being one of them; each thread takes the lowest task not yet taken.
// Returns once all are done, then rethrows the first exception any task
// threw (no new task starts after one has thrown). Where no thread can be
// had, the calling thread does all the tasks.
template <typename F>
void for_each_task(std::size_t tasks, std::size_t threads, F&& f) {
    if (tasks == 0) return;
    threads = std::clamp<std::size_t>(threads, 1, tasks);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::vector<std::exception_ptr> failures(threads);
    auto work = [&](std::size_t worker) {
        try {
            for (std::size_t t; !failed.load() && (t = next.fetch_add(1)) < tasks;) f(t);
        } catch (...) {
            failures[worker] = std::current_exception();
            failed.store(true);
        }
    };
    std::vector<std::thread> workers;
    for (std::size_t w = 1; w < threads; ++w) {
        try {
            workers.emplace_back(work, w);
        } catch (const std::system_error&) {
            break;  // the threads started so far and this one share the tasks
        }
    }
    work(0);
    for (auto& w : workers) w.join();
    for (auto& e : failures)
        if (e) std::rethrow_exception(e);
}

// Formats items [0, count) in runs of `per_run` on the analysis threads and
// writes the runs to `out` in order, a few runs at a time, so that only
// those few runs' text is held at once. format(begin, end, text) appends
// items [begin, end) to `text`.
template <typename Format>
void write_in_runs(std::ostream& out, std::size_t count, std::size_t per_run, Format&& format) {
    std::size_t runs = (count + per_run - 1) / per_run;
    std::size_t threads = analysis_threads();
    std::size_t batch = 2 * threads;
    std::vector<std::string> text(std::min(batch, runs));
    for (std::size_t first = 0; first < runs; first += batch) {
        std::size_t n = std::min(batch, runs - first);
        for_each_task(n, threads, [&](std::size_t k) {
            text[k].clear();
            std::size_t begin = (first + k) * per_run;
            format(begin, std::min(count, begin + per_run), text[k]);
        });
        for (std::size_t k = 0; k < n; ++k) out.write(text[k].data(), static_cast<std::streamsize>(text[k].size()));
    }
}

// Calls f(0) … f(n-1), each on a thread of its own (f(0) on the calling
// thread); see for_each_task.
template <typename F>
void run_in_parallel(std::size_t n, F&& f) {
    for_each_task(n, n, f);
}

}  // namespace recipe::analyzer
