// start.cuh — CUDA's start-up, paid off the critical path.
//
// The first CUDA call of a process creates the device's context: a few
// hundred milliseconds on an H100 or H200 host, more than many a converted
// loop saves. A program declares one `recipe::EarlyStart` at file scope
// (every emitted .cu does); its constructor begins that start-up on a thread
// of its own before main runs, so the program's own work before its first
// library call hides it. Every run waits for the start-up (or does it, when
// nothing began it) and counts the wait as its `startup` phase.
//
// Given the most the program's runs will need (`recipe::PoolSize`, which
// `recipe advise` writes from the plan), the same thread then allocates it:
// the device block, the page-locked staging block (touched by the staging
// threads), the streams and their events. The first run takes them into the
// library's pool (detail/pool.cuh), so that no run of the program waits for
// an allocation its work could have hidden.
//
// The exit is the same problem at the other end: a process that used CUDA
// pays its context's teardown when it exits (about 100 ms on an H200 host).
// `recipe::release_async()`, called after the program's last library call
// (the emitted .cu calls it there), frees the pool and resets the GPU on a
// thread of its own while the program's remaining work runs; the exit waits
// for what is left of it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "recipe/detail/host_copy.cuh"
#include "recipe/detail/nccl.cuh"
#include "recipe/detail/pool.cuh"
#include "recipe/detail/report_level.cuh"
#include "recipe/detail/resources.cuh"
#include "recipe/error.cuh"

namespace recipe {

// The most any run of the program needs at once (the largest of the plan's
// device blocks, staging blocks and streams, and its staging threads; 0: none
// or the library's default).
struct PoolSize {
    std::int64_t device_bytes = 0;
    std::int64_t pinned_bytes = 0;
    int streams = 0;
    int host_threads = 0;
    int devices = 0;  // the most GPUs a call uses (Config::devices); > 1: every one's context is started too
    // A Region over `devices` GPUs exchanges halos: NCCL's communicators are
    // made by the start-up thread too (on an H200 host ~0.6 s in a fresh
    // process, more than many a program's work before its first call).
    bool halo_exchange = false;
};

namespace detail {

// The most staging threads worth running: one fewer than the cores (the
// calling thread is one of them, and CUDA's own threads and the program
// need a core: with every core of a 16-core host staging, a run stalled
// whenever a worker lost its core). recipe-profile tries no more.
inline int staging_thread_limit() {
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
}

// The threads a run stages with: its Config's host_threads, else up to 8
// within staging_thread_limit().
inline int staging_thread_count(int host_threads) {
    if (host_threads > 0) return host_threads;
    return std::min(8, staging_thread_limit());
}

// What the start-up thread allocated for the pool, until the first run takes it.
struct Reserved {
    DeviceBlock device;
    PinnedBlock pinned;
    Streams streams;
    Events in_ready, done, join;
    std::unique_ptr<CopyThreads> threads;
    double device_ms = 0, pinned_ms = 0;  // how long each block took (RECIPE_REPORT=1's start-up line)

    void fill(const PoolSize& size) {
        const auto where = [] { return std::string("recipe::EarlyStart"); };
        using Clock = std::chrono::steady_clock;
        const auto since = [](Clock::time_point t) {
            return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
        };
        auto t = Clock::now();
        if (size.device_bytes > 0) device.allocate(static_cast<std::size_t>(size.device_bytes), where);
        device_ms = since(t);
        t = Clock::now();
        if (size.pinned_bytes > 0) {
            threads = std::make_unique<CopyThreads>(staging_thread_count(size.host_threads));
            pinned.allocate(static_cast<std::size_t>(size.pinned_bytes), where,
                            [this](char* block, std::size_t bytes) { touch_pages(block, bytes, *threads); });
            // Asleep until the first run: spinning, they would take a core
            // each from the program's work before it (detail/host_copy.cuh).
            threads->park();
        }
        pinned_ms = since(t);
        if (size.streams > 0) {
            streams.create(size.streams, where);
            for (Events* e : {&in_ready, &done, &join}) e->create(static_cast<std::size_t>(size.streams), false, where);
        }
    }

    // Into the pool, which no run has used yet.
    void give_to(Pool& pool) {
        std::lock_guard<std::mutex> lock(pool.mutex);
        pool.trade(device, pinned, streams, in_ready, done, join);
        if (threads) pool.threads = std::move(threads);
    }
};

class Startup {
public:
    static Startup& get() {
        static Startup startup;
        return startup;
    }

    // Begins the start-up on a thread of its own (once per process), then
    // allocates what `size` asks for.
    void begin_async(const PoolSize& size = {}) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (started_) return;
        started_ = true;
        began_ = Clock::now();
        thread_ = std::thread([this, size] {
            // Every GPU a call uses: its context started and its pool's blocks
            // allocated at once, each GPU on a thread of its own (GPU 0 on
            // this one); a failure on a further GPU is left for the call that
            // uses it.
            const int gpus = std::max(1, size.devices);
            reserved_.resize(static_cast<std::size_t>(gpus));
            context_ms_.assign(static_cast<std::size_t>(gpus), -1);
            std::vector<std::thread> others;
            for (int d = 1; d < gpus; ++d)
                others.emplace_back([this, d, size] {
                    if (cudaSetDevice(d) == cudaSuccess && cudaFree(nullptr) == cudaSuccess) {
                        context_ms_[static_cast<std::size_t>(d)] = ms_since_begin();
                        reserve(d, size);
                    }
                });
            result_ = cudaFree(nullptr);
            if (result_ == cudaSuccess) {
                context_ms_[0] = ms_since_begin();
                reserve(0, size);
            }
            for (std::thread& t : others) t.join();
            if (result_ != cudaSuccess) return;
            if (size.devices > 1 && size.halo_exchange) try {
                    const double t0 = ms_since_begin();
                    Nccl::get().comms(size.devices);
                    nccl_ms_ = ms_since_begin() - t0;
                } catch (const std::exception&) {
                    // No NCCL, or it failed: the region that needs it says so.
                }
            done_ms_ = ms_since_begin();
        });
    }

    // Waits for the start-up, doing it here when nothing began it. Returns
    // the milliseconds waited (0 once it is done) and sets *error to the
    // start-up's result.
    double wait(cudaError_t* error) {
        // A call over several GPUs waits on a thread per GPU: those that find
        // another joining the start-up wait for it as long, and say so.
        const auto t0 = std::chrono::steady_clock::now();
        std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
        const bool contended = !lock.owns_lock();
        if (contended) lock.lock();
        // A call after release_async(): the release finishes first, then CUDA
        // starts again (the call pays both, as a first call would).
        if (releasing_.joinable()) releasing_.join();
        if (!started_) {
            started_ = true;
            result_ = cudaFree(nullptr);
        } else if (thread_.joinable()) {
            const double asked = ms_since_begin();
            thread_.join();
            // (A failed start-up has no timeline: the run says why it failed.)
            if (result_ == cudaSuccess && report_requested() == ReportLevel::Full) print_timeline(asked);
            for (std::size_t d = 0; d < reserved_.size(); ++d)
                if (reserved_[d]) reserved_[d]->give_to(Pool::get(static_cast<int>(d)));
            reserved_.clear();
        } else {
            *error = result_;
            return contended ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() : 0;
        }
        *error = result_;
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }

    // Frees GPU 0's pool and resets the GPU on a thread of its own; false
    // (nothing done) when no library call has waited for the start-up yet
    // (none ran: the exit waits for the start-up thread as before, and the
    // caller is not made to), a release is under way, the start-up failed,
    // or the process used several GPUs (their contexts, and NCCL's
    // communicators, are kept to the exit). The exit waits for the thread
    // (atexit, registered after the CUDA runtime's own handler, so run
    // before it).
    bool release_async() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!started_ || thread_.joinable() || releasing_.joinable() || result_ != cudaSuccess) return false;
        for (int d = 1; d < Pool::kMaxDevices; ++d)
            if (Pool::find(d)) return false;
        started_ = false;  // a later call starts CUDA again
        released_ms_ = -1;
        releasing_ = std::thread([this] {
            const auto t0 = Clock::now();
            if (cudaSetDevice(0) != cudaSuccess) return;
            if (Pool* pool = Pool::find(0)) pool->clear();
            cudaDeviceReset();
            released_ms_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        });
        static const bool at_exit = std::atexit([] { Startup::get().join_release(); }) == 0;
        (void)at_exit;
        return true;
    }

    // Waits for a release under way; returns how long the release took (ms;
    // -1: none was made, or it failed to select the GPU).
    double join_release() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (releasing_.joinable()) releasing_.join();
        return released_ms_;
    }

    ~Startup() {
        if (thread_.joinable()) thread_.join();
        if (releasing_.joinable()) releasing_.join();
    }

private:
    Startup() = default;
    using Clock = std::chrono::steady_clock;

    double ms_since_begin() const {
        return std::chrono::duration<double, std::milli>(Clock::now() - began_).count();
    }

    // RECIPE_REPORT=1: what the start-up thread did and when, from its
    // beginning (the EarlyStart's constructor, before main): each GPU's
    // context up, its blocks' allocation, NCCL's communicators, and when the
    // program's first call began to wait for it.
    void print_timeline(double asked_ms) const {
        std::fprintf(stderr, "recipe: start-up: first call waited from %.1f ms to %.1f ms after it began\n", asked_ms,
                     done_ms_);
        for (std::size_t d = 0; d < context_ms_.size(); ++d) {
            const Reserved* r = d < reserved_.size() ? reserved_[d].get() : nullptr;
            std::fprintf(stderr, "recipe:   GPU %zu: context at %.1f ms; device block %.1f ms, staging block %.1f ms\n", d,
                         context_ms_[d], r ? r->device_ms : 0.0, r ? r->pinned_ms : 0.0);
        }
        if (nccl_ms_ > 0) std::fprintf(stderr, "recipe:   NCCL communicators %.1f ms\n", nccl_ms_);
    }

    // GPU d's blocks (its context current on this thread).
    void reserve(int d, const PoolSize& size) {
        try {
            auto r = std::make_unique<Reserved>();
            r->fill(size);
            reserved_[static_cast<std::size_t>(d)] = std::move(r);
        } catch (const std::exception&) {
            // Not the program's error (no memory, no thread): its runs
            // allocate what they need themselves and report a failure
            // where it happens. Nothing may escape this thread.
        }
    }

    std::mutex mutex_;
    bool started_ = false;
    std::thread thread_;
    cudaError_t result_ = cudaSuccess;
    Clock::time_point began_;
    std::vector<double> context_ms_;  // per GPU, from began_; -1: not started
    double nccl_ms_ = 0, done_ms_ = 0;
    std::vector<std::unique_ptr<Reserved>> reserved_;  // per GPU; freed here when no run ever took it
    std::thread releasing_;     // release_async's thread, until joined
    double released_ms_ = -1;   // how long it took
};

}  // namespace detail

// Call after the program's last library call: frees the library's pool and
// resets the GPU (cudaDeviceReset) on a thread of its own while the program's
// remaining work runs, so that its exit pays only what is left of CUDA's
// teardown (on an H200 host: the reset ~80 ms on the thread, the exit ~50 ms
// after it, against ~120 ms of exit without; bench/device/exit_cost.sh).
// Returns false, doing nothing, when no library call has run yet, a release
// is under way or the process used several GPUs. A library call made after it is
// still correct: it waits for the release and starts CUDA again.
inline bool release_async() { return detail::Startup::get().release_async(); }

// Declare one at file scope: `static recipe::EarlyStart recipe_early_start;`,
// or with the plan's largest needs, `recipe_early_start(recipe::PoolSize{...})`.
struct EarlyStart {
    EarlyStart() { detail::Startup::get().begin_async(); }
    explicit EarlyStart(const PoolSize& size) { detail::Startup::get().begin_async(size); }
};

}  // namespace recipe
