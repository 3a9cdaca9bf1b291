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

namespace recipe {

namespace detail {
// Linear index of a global point in a buffer that holds the box starting at
// `origin`, laid out with x-extent `ex` and y-extent `ey`.
__host__ __device__ inline std::int64_t buffer_index(const std::int64_t (&origin)[3], std::int64_t ex,
                                                     std::int64_t ey, std::int64_t x, std::int64_t y,
                                                     std::int64_t z) {
    return (x - origin[0]) + ex * ((y - origin[1]) + ey * (z - origin[2]));
}
}  // namespace detail

template <class T>
struct InView {
    const T* data;
    std::int64_t origin[3];  // global point stored at data[0]
    std::int64_t ex, ey;     // the buffer's x and y extents

    __device__ const T& operator()(std::int64_t x, std::int64_t y = 0, std::int64_t z = 0) const {
        return data[detail::buffer_index(origin, ex, ey, x, y, z)];
    }
    // One-dimensional shorthand: in[i] is in(i).
    __device__ const T& operator[](std::int64_t x) const { return data[x - origin[0]]; }
};

// Outputs may also be read (recipe::inout arrays, or re-reading a value the
// same thread wrote).
template <class T>
struct OutView {
    T* data;
    std::int64_t origin[3];
    std::int64_t ex, ey;

    __device__ T& operator()(std::int64_t x, std::int64_t y = 0, std::int64_t z = 0) const {
        return data[detail::buffer_index(origin, ex, ey, x, y, z)];
    }
    __device__ T& operator[](std::int64_t x) const { return data[x - origin[0]]; }
};

}  // namespace recipe
