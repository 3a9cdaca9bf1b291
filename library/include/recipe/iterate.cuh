// iterate.cuh — recipe::iterate: an iterative stencil loop (a time loop that
// runs a nest `steps` times, swapping the array read and the array written
// after every step) with both arrays kept on the device between steps.
//
// The first step is pipelined with the copies in and the last with the
// copies out (basic scheme over cfg.streams); the steps between are one
// launch each. Returns the host array that holds the last step, as the C
// program's pointer would after its swaps.
#pragma once

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/iterate_impl.cuh"
#include "recipe/error.cuh"
#include "recipe/tile.cuh"
#include "recipe/view.cuh"

namespace recipe {

// kernel: __global__ void k(Tile, InView<T> cur, InView<I>... more, OutView<T> next, KernelArgs...)
template <class... KernelParams, class T, class... I, class... Args>
T* iterate(const Config& cfg, std::int64_t steps, void (*kernel)(KernelParams...), PingPong<T> arrays,
           Inputs<I...> more, Args&&... args) {
    return detail::run_iterations(cfg, steps, kernel, arrays, more, std::forward<Args>(args)...);
}

// Without further inputs: kernel(Tile, InView<T> cur, OutView<T> next, KernelArgs...).
template <class... KernelParams, class T, class... Args>
T* iterate(const Config& cfg, std::int64_t steps, void (*kernel)(KernelParams...), PingPong<T> arrays,
           Args&&... args) {
    return detail::run_iterations(cfg, steps, kernel, arrays, Inputs<>{}, std::forward<Args>(args)...);
}

}  // namespace recipe
