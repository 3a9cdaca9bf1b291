// detail/pool.cuh — the resources of a run that do not depend on the user's
// arrays (device tile buffers, page-locked staging buffers, streams and the
// pipeline's events), kept for the next run of the process instead of freed:
// a time loop that calls the library every step, or a function called many
// times, pays their allocation once. Blocks grow to the largest run's needs.
// Runs take the pool under a lock (one run at a time in a process); a run
// that fails leaves its resources to be freed and the pool empty. The pool
// is freed at exit, before the CUDA runtime is (it is created after the
// runtime's first call).
#pragma once

#include <mutex>

#include "recipe/detail/resources.cuh"

namespace recipe::detail {

struct Pool {
    std::mutex mutex;
    DeviceBlock device;
    PinnedBlock pinned;
    Streams streams;
    Events in_ready, done, join;

    static Pool& get() {
        static Pool pool;
        return pool;
    }
};

}  // namespace recipe::detail
