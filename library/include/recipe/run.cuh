// run.cuh — recipe::run: one pass of a stenciled map/zip loop nest on the
// GPU, pipelined by the scheme in the Config (thesis §6.2).
//
// Copies each tile's inputs in, runs the kernel on the tile and copies its
// outputs back, tiles spread over cfg.streams streams so copies in, kernels
// and copies out of different tiles overlap. Returns when the outputs are in
// host memory. Which bytes each tile copies: tile_geometry.h and the table
// in library/README.md.
#pragma once

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/pipeline.cuh"
#include "recipe/error.cuh"
#include "recipe/tile.cuh"
#include "recipe/view.cuh"
#include "recipe/whole.cuh"

namespace recipe {

// kernel: __global__ void k(Tile, InView<I>..., OutView<O>..., KernelArgs...)
// (a recipe::whole argument arrives as a `const T*` device pointer)
template <class... KernelParams, class... I, class... O, class... Args>
Measured run(const Config& cfg, void (*kernel)(KernelParams...), Inputs<I...> ins, Outputs<O...> outs,
             Args&&... args) {
    // Whole inputs (recipe::whole) are copied before the tiles and freed
    // after them; the kernel gets their device pointers.
    detail::WholeCopies copies;
    return detail::run_pass(cfg, kernel, ins, outs, detail::kernel_arg(std::forward<Args>(args), copies)...);
}

}  // namespace recipe
