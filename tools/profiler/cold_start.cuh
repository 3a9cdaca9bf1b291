// cold_start.cuh — what a user's program pays that a warm, repeated call
// does not (docs/model.md, "The program's run"): CUDA's start-up in a fresh
// process, and the extra time of the process's first library run over its
// second as an emitted program pays it (its pool allocated beforehand by
// the start-up thread, as recipe::EarlyStart does: the kernel's module
// loaded, first copies, the output array's fresh pages), and the exit of a
// process with a CUDA context (its teardown): as it is, and after
// recipe::release_async (the pool freed and the GPU reset on a thread, as an
// emitted program does after its last call), with that release's own time.
// Each measurement is a fresh
// process (the profiler run again with --cold-child), run before the
// profiler itself uses CUDA: no process of ours holds the GPU meanwhile, as
// none does when a user starts a program. One child is run first and
// discarded (a machine just started is slower at its first). Each child
// starts once the GPU has sat unused as long as before a user's program
// (gpu_idle.cuh).
#pragma once

#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <recipe/recipe.cuh>

#include "gpu_idle.cuh"
#include "library_costs.cuh"
#include "sample_kernels.cuh"

namespace profiler {

struct ColdStart {
    double startup_ns = 0;                          // cudaFree(0) as a process's first CUDA call, median
    double teardown_ns = 0;                         // exit() of a process with a CUDA context, until reaped, median
    double release_ns = 0;             // recipe::release_async's thread, from the call until it is done, median
    double exit_after_release_ns = 0;  // exit() once that release is done, until reaped, median
    std::vector<double> first_call_bytes, first_call_ns;  // bytes out of the run; extra of the first run
    int first_call_threads = 0;                           // the staging threads of those runs (0: the library's default)
    int processes = 0;
    // Sizes whose first call read dearer than the next larger size's and
    // were measured again (a first call faults its fresh output's pages in,
    // so its extra grows with them): what was done, for the profile's source
    // note and the progress line; empty when none.
    std::string first_call_note;
    std::string error;  // non-empty when a child failed
};

namespace detail {

struct ChildResult {
    double startup_ns = -1;
    double first_ns = -1;
    double second_ns = -1;
    std::int64_t exit_at_ns = 0;  // steady clock (CLOCK_MONOTONIC, shared by processes) when exit() began
    double release_ns = -1;       // recipe::release_async before the exit, how long it took; -1: none made
};

inline std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// In a fresh process: CUDA's start-up, then the same staged run (the
// emitted programs' usual host mode: the user's malloc'd arrays) twice, on
// `threads` staging threads (0: the library's default); `release`: then
// recipe::release_async, waited for (its time), as the exit's prelude.
inline ChildResult cold_child(std::int64_t n, int threads, bool release) {
    ChildResult r;
    const auto t0 = std::chrono::steady_clock::now();
    if (cudaFree(nullptr) != cudaSuccess) return r;
    r.startup_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    // What an emitted program's start-up thread does before its first call
    // (recipe::EarlyStart with the plan's recipe::PoolSize): the device and
    // staging blocks, the streams and the staging threads allocated and
    // waited for here, so that the first run's extra is only what that
    // program's first call pays. The run below takes 2 streams × (a tile in
    // + a tile out) of n/16 floats, n bytes in each block: twice that is
    // reserved (a pooled block at least as large is kept, detail/pool.cuh).
    recipe::PoolSize size;
    size.device_bytes = size.pinned_bytes = 2 * n;
    size.streams = 2;
    size.host_threads = threads;
    recipe::detail::Startup::get().begin_async(size);
    cudaError_t started = cudaSuccess;
    recipe::detail::Startup::get().wait(&started);
    if (started != cudaSuccess) return r;
    float* in = static_cast<float*>(std::malloc(static_cast<std::size_t>(n) * sizeof(float)));
    float* out = static_cast<float*>(std::malloc(static_cast<std::size_t>(n) * sizeof(float)));
    if (!in || !out) return r;
    // The program filled its input; its output is fresh, first written by
    // the nest (the model's assumption, docs/model.md): the first run's
    // unpacking faults its pages in.
    std::memset(in, 0, static_cast<std::size_t>(n) * sizeof(float));
    recipe::Config c;
    c.scheme = recipe::Scheme::Scalable;
    c.extents = {n, 1, 1};
    c.space = recipe::Box{{0, 0, 0}, {n, 1, 1}};
    c.tile = {n / 16, 1, 1};
    c.copy = recipe::CopyMethod::Merged;
    c.streams = 2;
    c.block = dim3(256, 1, 1);
    c.host = recipe::HostMemory::Staged;
    c.name = "recipe-profile cold";
    c.host_threads = threads;
    try {
        auto once = [&] {
            return recipe::run(c, samples::moving_average, recipe::inputs(recipe::input(static_cast<const float*>(in))),
                               recipe::outputs(recipe::output(out)), 0, 1).total * 1e6;
        };
        r.first_ns = once();
        r.second_ns = once();
    } catch (const recipe::Error&) {
        r.first_ns = r.second_ns = -1;
    }
    std::free(in);
    std::free(out);
    if (release && r.second_ns >= 0) {
        if (!recipe::release_async()) return ChildResult{};
        r.release_ns = recipe::detail::Startup::get().join_release() * 1e6;
    }
    return r;
}

// Runs cold_child(n) in a fresh process: this program again (exec), with
// `--cold-child N FD` (cold_child_main), so that the child starts cold
// whatever this process has done with CUDA.
inline bool run_child(std::int64_t n, int threads, bool release, ChildResult* result) {
    wait_for_idle_gpus();
    int fds[2];
    if (pipe(fds) != 0) return false;
    const pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        close(fds[0]);
        const std::string count = std::to_string(n), fd = std::to_string(fds[1]), t = std::to_string(threads);
        execl("/proc/self/exe", "recipe-profile", "--cold-child", count.c_str(), fd.c_str(), t.c_str(),
              release ? "release" : "exit", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    ChildResult r;
    const ssize_t got = read(fds[0], &r, sizeof r);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    cold_child_ended();
    r.exit_at_ns = now_ns() - r.exit_at_ns;  // now: the exit's duration
    if (got != static_cast<ssize_t>(sizeof r) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
    *result = r;
    return r.startup_ns >= 0 && r.first_ns >= 0 && r.second_ns >= 0 && (!release || r.release_ns >= 0);
}

}  // namespace detail

// The GPUs CUDA sees, asked in a child process: cudaGetDeviceCount starts
// the driver, which then keeps every visible GPU set up for as long as this
// process lives, so the cold starts measured after it would meet GPUs no
// user's program finds set up (on a host of 4 H200s: a program's start-up
// took 1.0-1.3 s, the children of a profiler that had counted its GPUs
// 0.2 s). Returns false, with the reason, when CUDA sees none or fails.
inline bool count_devices_in_child(int* devices, std::string* why) {
    int fds[2];
    if (pipe(fds) != 0) return false;
    const pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        close(fds[0]);
        int n = 0;
        const cudaError_t e = cudaGetDeviceCount(&n);
        char text[256] = {};
        std::snprintf(text, sizeof text, "%d %s", e == cudaSuccess ? n : -1,
                      e == cudaSuccess ? "no device" : cudaGetErrorString(e));
        const ssize_t w = write(fds[1], text, sizeof text);
        _exit(w == static_cast<ssize_t>(sizeof text) ? 0 : 1);
    }
    close(fds[1]);
    char text[256] = {};
    const ssize_t got = read(fds[0], text, sizeof text);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != static_cast<ssize_t>(sizeof text)) {
        *why = "the process asking CUDA for its GPUs failed";
        return false;
    }
    text[sizeof text - 1] = 0;
    char* rest = nullptr;
    const long n = std::strtol(text, &rest, 10);
    if (n <= 0) {
        *why = rest && *rest == ' ' ? rest + 1 : "no device";
        return false;
    }
    *devices = static_cast<int>(n);
    return true;
}

// The child's side: `recipe-profile --cold-child N FD THREADS release|exit`.
// Writes its ChildResult to FD and exits normally, so that CUDA tears its
// context down as a user's program does (the parent times that exit).
inline int cold_child_main(const char* count, const char* fd, const char* threads, const char* ending) {
    detail::ChildResult r = detail::cold_child(std::atoll(count), std::atoi(threads), std::string(ending) == "release");
    r.exit_at_ns = detail::now_ns();
    const int out = std::atoi(fd);
    const ssize_t w = write(out, &r, sizeof r);
    close(out);
    return w == static_cast<ssize_t>(sizeof r) ? 0 : 1;
}

// Fresh processes: CUDA's start-up, the first run's extra (on `threads`
// staging threads, 0: the library's default), the exit.
inline ColdStart measure_cold_start(bool quick, int threads = 0) {
    ColdStart cs;
    const int reps = quick ? 1 : 5;
    std::vector<double> startups, teardowns, releases, exits_after_release;
    {
        detail::ChildResult discarded;
        if (!detail::run_child(std::int64_t(1) << 20, threads, false, &discarded)) {
            cs.error = "a child process measuring a cold run failed";
            return cs;
        }
    }
    const std::vector<std::int64_t> sizes = {std::int64_t(1) << 20, std::int64_t(1) << 24, std::int64_t(1) << 27};
    std::vector<std::vector<double>> extras(sizes.size());
    auto measure = [&](std::size_t i, int count) {
        for (int r = 0; r < count; ++r) {
            detail::ChildResult c;
            // Every other process releases CUDA before it exits, as an
            // emitted program does after its last call.
            const bool release = cs.processes++ % 2 == 1;
            if (!detail::run_child(sizes[i], threads, release, &c)) {
                cs.error = "a child process measuring a cold run of " + std::to_string(sizes[i]) + " floats failed" +
                           (release ? " (releasing CUDA before its exit)" : "");
                return false;
            }
            startups.push_back(c.startup_ns);
            if (release) {
                releases.push_back(c.release_ns);
                exits_after_release.push_back(static_cast<double>(c.exit_at_ns));
            } else {
                teardowns.push_back(static_cast<double>(c.exit_at_ns));
            }
            extras[i].push_back(std::max(0.0, c.first_ns - c.second_ns));
        }
        return true;
    };
    for (std::size_t i = 0; i < sizes.size(); ++i)
        if (!measure(i, reps)) return cs;
    // A smaller output's first call dearer than a larger one's is a spell of
    // the host, not the first call (one H100 host read 42 ms at 4 MiB against
    // 12 at 64 MiB): that size is measured twice as many times again, at
    // most twice, and a reading that stays so is named in the note.
    for (std::size_t i = sizes.size() - 1; i-- > 0;) {
        int rounds = 0;
        while (detail::median_of(extras[i]) > detail::median_of(extras[i + 1]) && rounds < 2) {
            if (!measure(i, 2 * reps)) return cs;
            ++rounds;
        }
        if (rounds == 0) continue;
        const bool still = detail::median_of(extras[i]) > detail::median_of(extras[i + 1]);
        cs.first_call_note += (cs.first_call_note.empty() ? "" : "; ") + std::to_string(sizes[i] * 4 >> 20) +
                              " MiB read dearer than " + std::to_string(sizes[i + 1] * 4 >> 20) + " MiB and was measured " +
                              std::to_string(extras[i].size()) + " times in all" +
                              (still ? ", and stayed dearer" : "");
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        cs.first_call_bytes.push_back(static_cast<double>(sizes[i] * static_cast<std::int64_t>(sizeof(float))));
        cs.first_call_ns.push_back(detail::median_of(extras[i]));
    }
    cs.startup_ns = detail::median_of(startups);
    cs.teardown_ns = detail::median_of(teardowns);
    cs.release_ns = detail::median_of(releases);
    cs.exit_after_release_ns = detail::median_of(exits_after_release);
    return cs;
}

}  // namespace profiler
