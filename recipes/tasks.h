// tasks.h — runs a file's independent per-nest work (planning, pictures) on
// the cores there are. A file of thousands of small stencils is planned and
// drawn nest by nest; one thread per nest (what planning once did) starts
// thousands of threads, one thread in all leaves cores idle.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace recipe::recipes {

// Calls f(0) … f(tasks-1) on up to one thread per core, the calling thread
// among them; each thread takes the lowest task not yet taken. Returns when
// all are done and rethrows the first exception a task threw (no task starts
// after one has thrown).
template <typename F>
void for_each_task(std::size_t tasks, F&& f) {
    if (tasks == 0) return;
    const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, tasks);
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
    for (std::size_t w = 1; w < threads; ++w) workers.emplace_back(work, w);
    work(0);
    for (auto& t : workers) t.join();
    for (const auto& e : failures)
        if (e) std::rethrow_exception(e);
}

}  // namespace recipe::recipes
