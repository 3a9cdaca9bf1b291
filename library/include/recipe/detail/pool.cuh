// detail/pool.cuh — the resources of a run that do not depend on the user's
// arrays (device tile buffers, page-locked staging buffers, streams, the
// pipeline's events and the staging threads), kept for the next run of the process instead of freed:
// a time loop that calls the library every step, or a function called many
// times, pays their allocation once. Blocks grow to the largest run's needs.
// Runs take the pool under a lock (one run at a time in a process); a run
// that fails leaves its resources to be freed and the pool empty. The pool
// is freed at exit, before the CUDA runtime is (it is created after the
// runtime's first call), or earlier by recipe::release_async (start.cuh).
// Each GPU has a pool of its own.
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

    // Frees what the pool holds, this GPU current on the calling thread; the
    // pool is then empty, as before its first run.
    void clear() {
        std::lock_guard<std::mutex> lock(mutex);
        DeviceBlock d;
        PinnedBlock p;
        Streams s;
        Events in, dn, jn;
        trade(d, p, s, in, dn, jn);  // the pool's, freed as these go out of scope
        threads.reset();
    }

    // Before the members: they are this GPU's. An empty pool (never filled,
    // or released by recipe::release_async) touches no CUDA: after a reset,
    // cudaSetDevice would make the GPU's context again, in the exit (on an
    // H200 host the exit then took 220 ms, not 50).
    ~Pool() {
        if (device.bytes() || pinned.bytes() || streams.size() || in_ready.size() || done.size() || join.size())
            cudaSetDevice(gpu);
    }

    // The pool of the calling thread's current GPU (each GPU has its own:
    // a call over several GPUs runs one engine per GPU at once).
    static Pool& get() {
        int d = 0;
        cudaGetDevice(&d);
        return get(d);
    }
    static Pool& get(int device) {
        if (device < 0 || device >= kMaxDevices)
            throw Error("recipe: device " + std::to_string(device) + " is beyond the library's " +
                        std::to_string(kMaxDevices) + " GPUs");
        Pools& all = pools();
        std::lock_guard<std::mutex> lock(all.mutex);
        if (!all.pool[device]) {
            all.pool[device] = std::make_unique<Pool>();
            all.pool[device]->gpu = device;
        }
        return *all.pool[device];
    }
    // GPU `device`'s pool if a run or the start-up made one, else null.
    static Pool* find(int device) {
        Pools& all = pools();
        std::lock_guard<std::mutex> lock(all.mutex);
        return device >= 0 && device < kMaxDevices ? all.pool[device].get() : nullptr;
    }
    static constexpr int kMaxDevices = 64;

private:
    struct Pools {
        std::mutex mutex;
        std::unique_ptr<Pool> pool[kMaxDevices];
    };
    static Pools& pools() {
        static Pools all;
        return all;
    }
};

}  // namespace recipe::detail
