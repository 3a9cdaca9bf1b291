// run.cuh — recipe::run: one pass of a stenciled map/zip loop nest on the
// GPU, pipelined by the scheme in the Config (thesis §6.2).
//
// Copies each tile's inputs in, runs the kernel on the tile and copies its
// outputs back, tiles spread over cfg.streams streams so copies in, kernels
// and copies out of different tiles overlap. Returns when the outputs are in
// host memory. Which bytes each tile copies: tile_geometry.h and the table
// in library/README.md.
//
// With Config::devices > 1 the space is cut into one slab per GPU, each
// pipelined on its own GPU at once (detail/run_devices.cuh).
//
// Inside a recipe::Region that holds every array of the call (a function
// called from the region's loop), the call is one launch on the region's
// device copies instead: nothing is copied, and it returns a Measured of
// -1s (the region measures; its finish() returns the figures).
#pragma once

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/pipeline.cuh"
#include "recipe/detail/region_impl.cuh"
#include "recipe/detail/run_devices.cuh"
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
    const std::string name = cfg.name.empty() ? std::string("recipe::run") : cfg.name;
    if (detail::RegionImpl* region = detail::active_region()) {
        switch (region->holds(ins, outs)) {
            case detail::Holds::All:
                if constexpr ((detail::is_whole<std::decay_t<Args>>::value || ...))
                    throw Error("recipe: " + name + ": inside " + region->region_name() +
                                ", a call with recipe::whole arguments cannot run on the resident arrays");
                else
                    region->launch(cfg, kernel, ins, outs, std::forward<Args>(args)...);
                return Measured{};
            case detail::Holds::Some:
                throw Error("recipe: " + name + ": " + region->region_name() +
                            " holds some of its arrays but not all; give the region every array the call uses, or none");
            case detail::Holds::None:
                break;
        }
    }
    // Several GPUs: a slab of the space each (detail/run_devices.cuh).
    if (cfg.devices > 1) return detail::run_on_devices(cfg, kernel, ins, outs, std::forward<Args>(args)...);
    // CUDA's start-up first, counted by the run: the whole inputs' copies
    // below would wait for it inside cudaMalloc, where no phase counts it (on
    // an H200 host PolyBench's gemver reported a first call of 5 ms with 2 ms
    // of start-up, having waited ~290 ms before it). A call with nothing to
    // compute starts nothing.
    detail::CallStart start{detail::Clock::now(), 0};
    if (!detail::space_is_empty(cfg)) start.startup_ms = detail::wait_for_startup([&] { return name; });
    // Whole inputs (recipe::whole) are copied before the tiles and freed
    // after them; the kernel gets their device pointers.
    detail::WholeCopies copies;
    return detail::run_pass(cfg, &start, kernel, ins, outs, detail::kernel_arg(std::forward<Args>(args), copies)...);
}

}  // namespace recipe
