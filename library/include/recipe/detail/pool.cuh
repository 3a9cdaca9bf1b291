// detail/pool.cuh — the resources of a run that do not depend on the user's
// arrays (device tile buffers, page-locked staging buffers, streams, the
// pipeline's events and the staging threads), kept for the next run of the process instead of freed:
// a time loop that calls the library every step, or a function called many
// times, pays their allocation once. Blocks grow to the largest run's needs.
// Runs take the pool under a lock (one run at a time in a process); a run
// that fails leaves its resources to be freed and the pool empty. The pool
// is freed at exit, before the CUDA runtime is (it is created after the
// runtime's first call). Each GPU has a pool of its own.
#pragma once

#include <mutex>
#include <set>
#include <string>

#include <memory>

#include "recipe/detail/host_copy.cuh"
#include "recipe/detail/resources.cuh"
#include "recipe/error.cuh"

namespace recipe::detail {

struct Pool {
    std::mutex mutex;
    DeviceBlock device;
    PinnedBlock pinned;
    Streams streams;
    Events in_ready, done, join;
    std::unique_ptr<CopyThreads> threads;  // staging threads, parked between runs
    long runs = 0;  // runs begun in this process
    std::set<std::string> names;  // Config::name of every named run begun (each nest's first call)

    // Trades the pooled blocks, streams and events for a run's (or the
    // start-up thread's, recipe/start.cuh); the caller holds `mutex`.
    void trade(DeviceBlock& d, PinnedBlock& p, Streams& s, Events& in, Events& dn, Events& jn) noexcept {
        device.swap(d);
        pinned.swap(p);
        streams.swap(s);
        in_ready.swap(in);
        done.swap(dn);
        join.swap(jn);
    }

    int gpu = 0;  // the GPU whose resources these are

    ~Pool() { cudaSetDevice(gpu); }  // before the members: they are this GPU's

    // The pool of the calling thread's current GPU (each GPU has its own:
    // a call over several GPUs runs one engine per GPU at once).
    static Pool& get() {
        int d = 0;
        cudaGetDevice(&d);
        return get(d);
    }
    static Pool& get(int device) {
        static std::mutex mutex;
        static std::unique_ptr<Pool> pools[kMaxDevices];
        if (device < 0 || device >= kMaxDevices)
            throw Error("recipe: device " + std::to_string(device) + " is beyond the library's " +
                        std::to_string(kMaxDevices) + " GPUs");
        std::lock_guard<std::mutex> lock(mutex);
        if (!pools[device]) {
            pools[device] = std::make_unique<Pool>();
            pools[device]->gpu = device;
        }
        return *pools[device];
    }
    static constexpr int kMaxDevices = 64;
};

}  // namespace recipe::detail
