// detail/pool.cuh — the resources of a run that do not depend on the user's
// arrays (device tile buffers, page-locked staging buffers, streams, the
// pipeline's events and the staging threads), kept for the next run of the process instead of freed:
// a time loop that calls the library every step, or a function called many
// times, pays their allocation once. Blocks grow to the largest run's needs.
// Runs take the pool under a lock (one run at a time in a process); a run
// that fails leaves its resources to be freed and the pool empty. The pool
// is freed at exit, before the CUDA runtime is (it is created after the
// runtime's first call).
#pragma once

#include <mutex>
#include <set>
#include <string>

#include <memory>

#include "recipe/detail/host_copy.cuh"
#include "recipe/detail/resources.cuh"

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

    static Pool& get() {
        static Pool pool;
        return pool;
    }
};

}  // namespace recipe::detail
