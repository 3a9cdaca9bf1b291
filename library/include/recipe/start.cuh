// start.cuh — CUDA's start-up, paid off the critical path.
//
// The first CUDA call of a process creates the device's context: a few
// hundred milliseconds on an H100 or H200 host, more than many a converted
// loop saves. A program declares one `recipe::EarlyStart` at file scope
// (every emitted .cu does); its constructor begins that start-up on a thread
// of its own before main runs, so the program's own work before its first
// library call hides it. Every run waits for the start-up (or does it, when
// nothing began it) and counts the wait as its `startup` phase.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <mutex>
#include <thread>

namespace recipe {
namespace detail {

class Startup {
public:
    static Startup& get() {
        static Startup startup;
        return startup;
    }

    // Begins the start-up on a thread of its own (once per process).
    void begin_async() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (started_) return;
        started_ = true;
        thread_ = std::thread([this] { result_ = cudaFree(nullptr); });
    }

    // Waits for the start-up, doing it here when nothing began it. Returns
    // the milliseconds waited (0 once it is done) and sets *error to the
    // start-up's result.
    double wait(cudaError_t* error) {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto t0 = std::chrono::steady_clock::now();
        if (!started_) {
            started_ = true;
            result_ = cudaFree(nullptr);
        } else if (thread_.joinable()) {
            thread_.join();
        } else {
            *error = result_;
            return 0;
        }
        *error = result_;
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }

    ~Startup() {
        if (thread_.joinable()) thread_.join();
    }

private:
    Startup() = default;
    std::mutex mutex_;
    bool started_ = false;
    std::thread thread_;
    cudaError_t result_ = cudaSuccess;
};

}  // namespace detail

// Declare one at file scope: `static recipe::EarlyStart recipe_early_start;`.
struct EarlyStart {
    EarlyStart() { detail::Startup::get().begin_async(); }
};

}  // namespace recipe
