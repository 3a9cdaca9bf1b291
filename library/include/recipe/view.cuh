// view.cuh — array access from inside a kernel, in global coordinates.
//
// in(x, y, z) reads the element the C program calls in[x + X*(y + Y*z)],
// whatever buffer the scheme keeps it in: the full-size device array (naive,
// basic; origin 0) or a tile buffer that starts at the tile's padded box
// (scalable, buffered). So one kernel serves every scheme. Reading outside
// the tile's padded box (the halo given to recipe::input) is undefined.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "recipe/error.cuh"

namespace recipe {

namespace detail {
// The index arithmetic every access pays, kept cheap: a stencil's kernel
// reads its arrays several times a point, and each read computes its own
// index. The row is found in 32 bits (a buffer has fewer than 2^31 rows) and
// widened once, times the row's length, onto x (64 bits: a 1-D buffer may
// hold more than 2^31 elements); x's origin is folded into the data pointer.
// On an H200, heat-3d's 7-point step over 120^3 doubles in 32x4x2 blocks
// ran 14.0 us a launch with every index in 64 bits from the origin, 10.0
// with these views and 8.4 hand-written with int indices
// (bench/kernel/view_cost_probe.cu).
__host__ __device__ inline std::int64_t view_index(std::int64_t x, std::int64_t y, std::int64_t z, int oy, int oz,
                                                   int ex, int ey) {
    const int row = (static_cast<int>(y) - oy) + ey * (static_cast<int>(z) - oz);
    return x + static_cast<std::int64_t>(row) * ex;
}

// What view_index needs of a buffer that holds the box starting at `origin`,
// laid out with extents ex x ey x ez: throws recipe::Error where its 32-bit
// parts cannot hold them (2^31 rows, or rows of 2^31 elements: terabytes).
inline void check_view_layout(const std::int64_t (&origin)[3], std::int64_t ex, std::int64_t ey, std::int64_t ez) {
    constexpr std::int64_t kMax = 0x7fffffff;
    if (ey * ez > kMax || (ey * ez > 1 && ex > kMax) || origin[1] > kMax || origin[2] > kMax ||
        origin[1] + ey > kMax || origin[2] + ez > kMax)
        throw Error("recipe: an array's device buffer of " + std::to_string(ex) + " x " + std::to_string(ey) + " x " +
                    std::to_string(ez) + " elements is beyond the views' index range (2^31 rows, or rows of 2^31 "
                    "elements)");
}
}  // namespace detail

template <class T>
struct InView {
    const T* data;  // where global x = 0 of the buffer's first row would be (x's origin folded in)
    int oy, oz;     // the global row and plane the buffer starts at
    int ex, ey;     // the buffer's x and y extents (ex: any value in a buffer of one row)

    __device__ const T& operator()(std::int64_t x, std::int64_t y = 0, std::int64_t z = 0) const {
        return data[detail::view_index(x, y, z, oy, oz, ex, ey)];
    }
    // One-dimensional shorthand: in[i] is in(i).
    __device__ const T& operator[](std::int64_t x) const { return data[x]; }
};

// Outputs may also be read (recipe::inout arrays, or re-reading a value the
// same thread wrote).
template <class T>
struct OutView {
    T* data;
    int oy, oz;
    int ex, ey;

    __device__ T& operator()(std::int64_t x, std::int64_t y = 0, std::int64_t z = 0) const {
        return data[detail::view_index(x, y, z, oy, oz, ex, ey)];
    }
    __device__ T& operator[](std::int64_t x) const { return data[x]; }
};

// The view of a device buffer `data` that holds the box starting at global
// point `origin`, laid out with extents ex x ey x ez (x fastest). The views'
// pointer may lie before the buffer (x's origin folded in); only points of
// the box are ever read through it.
template <class T>
InView<T> make_in_view(const T* data, const std::int64_t (&origin)[3], std::int64_t ex, std::int64_t ey,
                       std::int64_t ez) {
    detail::check_view_layout(origin, ex, ey, ez);
    return InView<T>{data - origin[0], static_cast<int>(origin[1]), static_cast<int>(origin[2]),
                     static_cast<int>(ey * ez > 1 ? ex : 1), static_cast<int>(ey)};
}
template <class T>
OutView<T> make_out_view(T* data, const std::int64_t (&origin)[3], std::int64_t ex, std::int64_t ey, std::int64_t ez) {
    detail::check_view_layout(origin, ex, ey, ez);
    return OutView<T>{data - origin[0], static_cast<int>(origin[1]), static_cast<int>(origin[2]),
                      static_cast<int>(ey * ez > 1 ? ex : 1), static_cast<int>(ey)};
}

}  // namespace recipe
