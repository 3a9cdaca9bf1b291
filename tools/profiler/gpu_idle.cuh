// gpu_idle.cuh — how long the GPUs sit unused before each cold start the
// profiler measures in a fresh process. A user runs a program seconds or
// minutes after the last one, and CUDA then starts slower:
// - one H200: cudaFree(0) took 284-309 ms after 2-8 s of idling, 198-225 ms
//   within a second of another process (bench/kernel/startup_after_idle.cu);
// - a host of 4 H200s (bench/multi/probe.sh): the same program 3 s after the
//   previous one exited started 0.08-0.12 s later than at once.
#pragma once

#include <chrono>
#include <thread>

namespace profiler {

constexpr int idle_seconds_before_cold_start = 3;

// Sleeps until the GPUs have sat unused idle_seconds_before_cold_start since
// the last cold child ended (cold_child_ended); at once before the first.
inline std::chrono::steady_clock::time_point& last_cold_child_end() {
    static std::chrono::steady_clock::time_point t{};
    return t;
}
inline void wait_for_idle_gpus() {
    const auto end = last_cold_child_end();
    if (end == std::chrono::steady_clock::time_point{}) return;
    std::this_thread::sleep_until(end + std::chrono::seconds(idle_seconds_before_cold_start));
}
inline void cold_child_ended() { last_cold_child_end() = std::chrono::steady_clock::now(); }

}  // namespace profiler
