// region.cuh — recipe::Region: several loop nests, or every step of a time
// loop, run on arrays that stay on the device between them. The arrays
// cross PCIe once each way for the whole region, not once per nest and step.
//
//   recipe::Region region(cfg, recipe::resident(&A[0][0]), recipe::resident(&B[0][0]));
//   for (t = 0; t < T; t++) {
//       region.run(nest1, kernel1, recipe::inputs(recipe::input(&A[0][0])), recipe::outputs(recipe::output(&B[0][0])), n);
//       region.run(nest2, kernel2, recipe::inputs(recipe::input(&B[0][0])), recipe::outputs(recipe::output(&A[0][0])), n);
//   }
//   region.finish();  // the arrays the region writes are back in host memory
//
// The region's Config gives the arrays' extents (every array has them), the
// host memory mode, and the chunks (cfg.tile) and streams the copies in and
// out are pipelined over (staged through pinned buffers when the arrays are
// pageable). Each run() is one launch over its Config's space with its
// block, in order on one stream; its arrays are named by their host
// pointers, so a program that swaps pointers between steps still names the
// right device copy; a pointer inside a held array (`ey[0]`, its first row)
// names that part of it. Nothing is copied between runs: host code must not read
// or write the arrays between the constructor and finish().
#pragma once

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/region_impl.cuh"
#include "recipe/error.cuh"
#include "recipe/tile.cuh"
#include "recipe/view.cuh"

namespace recipe {

// One array of a region: copied in when the region starts (unless the region
// writes all of it before reading it), copied out by finish() (when the region
// writes it and some run() did). `written_first`: a box of it (array
// coordinates) that the region's first launch naming the array writes whole
// before any launch reads it, such as the interior a stencil writes: on one
// GPU those points are not copied in (docs/model.md, "Regions"), unless that
// first launch turns out not to write all of them, when they are copied in
// before it.
template <class T>
struct Resident {
    T* host;
    bool copy_in;
    bool copy_out;
    Box written_first{{0, 0, 0}, {0, 0, 0}};
};

template <class T>
Resident<T> resident(T* host, bool copy_in = true, bool copy_out = true) {
    return Resident<T>{host, copy_in, copy_out};
}

// The array is copied in but for `written_first`, which the region writes before reading it.
template <class T>
Resident<T> resident(T* host, const Box& written_first, bool copy_out = true) {
    return Resident<T>{host, true, copy_out, written_first};
}

class Region {
public:
    // Allocates the arrays on the device and starts copying them in.
    template <class... T>
    Region(const Config& cfg, Resident<T>... arrays) : impl_(cfg) {
        (impl_.add(reinterpret_cast<char*>(arrays.host), static_cast<std::int64_t>(sizeof(T)), arrays.copy_in,
                   arrays.copy_out, arrays.written_first),
         ...);
        impl_.start();
    }

    Region(const Region&) = delete;
    Region& operator=(const Region&) = delete;

    // One nest on the resident arrays: kernel(Tile, InView<I>..., OutView<O>..., KernelArgs...),
    // the same kernel recipe::run takes.
    template <class... KernelParams, class... I, class... O, class... Args>
    void run(const Config& nest, void (*kernel)(KernelParams...), Inputs<I...> ins, Outputs<O...> outs,
             Args&&... args) {
        impl_.launch(nest, kernel, ins, outs, std::forward<Args>(args)...);
    }

    // Copies the arrays the region writes back to host memory; returns what
    // the whole region measured.
    Measured finish() { return impl_.finish(); }

private:
    detail::RegionImpl impl_;
};

}  // namespace recipe
