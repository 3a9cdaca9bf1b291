// detail/part_worker.cuh — a host thread that issues one GPU's share of a
// region, in order. A region over several GPUs issued every GPU's launches
// and NCCL calls from the caller's thread, one GPU after another; on 4 H200s
// that host work, not the GPUs, set the pace of a step (a region of 8192^2
// Jacobi steps scaled 2.66x on 3 GPUs and 2.68x on 4). With a worker per GPU
// each GPU's calls are issued at once, and its allocations too.
#pragma once

#include <cuda_runtime.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "recipe/error.cuh"

namespace recipe::detail {

class PartWorker {
public:
    explicit PartWorker(int device) : thread_([this, device] { loop(device); }) {}
    PartWorker(const PartWorker&) = delete;
    PartWorker& operator=(const PartWorker&) = delete;

    ~PartWorker() { stop(); }

    // Drops the jobs not begun, runs `last` (if any) on the worker's thread
    // after the job in hand, and ends the thread: what a job made on this
    // thread (a pool's lock, the GPU's resources) is released there.
    void stop(std::function<void()> last = {}) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (stop_) return;
            stop_ = true;
            jobs_.clear();
            last_ = std::move(last);
        }
        wake_.notify_all();
        thread_.join();
    }

    // Queues `job` after those posted before it (none after a failure:
    // what follows on this GPU would build on the failed job).
    void post(std::function<void()> job) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (broken_) return;
            jobs_.push_back(std::move(job));
        }
        wake_.notify_all();
    }

    // Waits until every job posted has run (or been dropped after a
    // failure); rethrows the first failure, once.
    void drain() {
        std::unique_lock<std::mutex> lock(mutex_);
        idle_.wait(lock, [this] { return jobs_.empty() && !busy_; });
        rethrow_locked();
    }

    // Rethrows a failure already seen, without waiting.
    void rethrow_if_failed() {
        std::lock_guard<std::mutex> lock(mutex_);
        rethrow_locked();
    }

private:
    void rethrow_locked() {
        if (!failed_) return;
        std::exception_ptr f = failed_;
        failed_ = nullptr;
        std::rethrow_exception(f);
    }

    void loop(int device) {
        // The device's context is current for every job; a failure here is
        // the first job's (its own cudaSetDevice-free calls would fail too).
        const cudaError_t set = cudaSetDevice(device);
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
            if (stop_) {
                if (last_ && set == cudaSuccess) last_();  // never throws: teardown
                return;
            }
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            busy_ = true;
            lock.unlock();
            std::exception_ptr failed;
            try {
                if (set != cudaSuccess) check(set, "cudaSetDevice", [] { return std::string("recipe::Region"); });
                job();
            } catch (...) {
                failed = std::current_exception();
            }
            lock.lock();
            busy_ = false;
            if (failed) {
                if (!broken_) failed_ = failed;
                broken_ = true;
                jobs_.clear();
            }
            if (jobs_.empty()) idle_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::deque<std::function<void()>> jobs_;
    bool busy_ = false;
    bool stop_ = false;
    bool broken_ = false;  // a job failed: no more run
    std::exception_ptr failed_;
    std::function<void()> last_;
    std::thread thread_;  // last: starts once the members above exist
};

}  // namespace recipe::detail
