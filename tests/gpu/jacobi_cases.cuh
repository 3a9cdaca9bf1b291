// jacobi_cases.cuh — the Jacobi time loops (`B = f(A); A = f(B)` on the
// interior, PolyBench's jacobi form) that devices_test and ghost_test run
// through recipe::Region (region_test takes its 2-D kernel): the kernels in 1-D (reach 2), 2-D and 3-D (reach
// 1), their extents and spaces, and one sequential sweep to compare with.
#pragma once

#include <cstdint>
#include <vector>

#include "test_support.cuh"

namespace jacobi_cases {

template <class T>
__host__ __device__ inline T five(T c, T w, T e, T s, T n) {
    return (c + w + e + s + n) / static_cast<T>(5);
}

// 1-D, reach 2: b(x) = (a(x-2) + a(x-1) + a(x) + a(x+1) + a(x+2)) / 5.
template <class T>
__global__ void jacobi1d(recipe::Tile t, recipe::InView<T> a, recipe::OutView<T> b) {
    const std::int64_t x = t.x();
    if (!t.contains(x)) return;
    b(x) = five<T>(a(x), a(x - 2), a(x - 1), a(x + 1), a(x + 2));
}

template <class T>
__global__ void jacobi2d(recipe::Tile t, recipe::InView<T> a, recipe::OutView<T> b) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    b(x, y) = five<T>(a(x, y), a(x - 1, y), a(x + 1, y), a(x, y - 1), a(x, y + 1));
}

// 3-D, 7 points, reach 1.
template <class T>
__global__ void heat3d(recipe::Tile t, recipe::InView<T> a, recipe::OutView<T> b) {
    const std::int64_t x = t.x(), y = t.y(), z = t.z();
    if (!t.contains(x, y, z)) return;
    b(x, y, z) = (a(x, y, z) + a(x - 1, y, z) + a(x + 1, y, z) + a(x, y - 1, z) + a(x, y + 1, z) + a(x, y, z - 1) +
                  a(x, y, z + 1)) /
                 static_cast<T>(7);
}

template <class T>
T value(std::int64_t i) {
    return static_cast<T>((i * 7 + 3) % 23);
}

inline int reach(int dims) { return dims == 1 ? 2 : 1; }

inline recipe::Index3 extents(int dims) {
    const bool q = test::quick();
    return dims == 1   ? recipe::Index3{q ? 1000 : 100003, 1, 1}
           : dims == 2 ? recipe::Index3{q ? 67 : 301, q ? 53 : 257, 1}
                       : recipe::Index3{q ? 19 : 61, q ? 17 : 45, q ? 13 : 37};
}

// The interior: `reach` from each end along x, 1 along y and z.
inline recipe::Box interior(int dims, const recipe::Index3& ext) {
    const std::int64_t r = reach(dims);
    return recipe::Box{{r, dims > 1 ? 1 : 0, dims > 2 ? 1 : 0},
                       {ext[0] - r, dims > 1 ? ext[1] - 1 : 1, dims > 2 ? ext[2] - 1 : 1}};
}

// The halo every input is read with.
inline recipe::Halo halo(int dims) {
    recipe::Halo h;
    for (int d = 0; d < dims; ++d) h.lo[d] = h.hi[d] = d == 0 ? reach(dims) : 1;
    return h;
}

// One sequential sweep from `from` into `to` over `space`.
template <class T>
void sweep(int dims, const recipe::Index3& ext, const recipe::Box& space, const std::vector<T>& from, std::vector<T>& to) {
    auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
        return static_cast<std::size_t>(x + ext[0] * (y + ext[1] * z));
    };
    for (std::int64_t z = space.begin[2]; z < space.end[2]; ++z)
        for (std::int64_t y = space.begin[1]; y < space.end[1]; ++y)
            for (std::int64_t x = space.begin[0]; x < space.end[0]; ++x) {
                if (dims == 1)
                    to[at(x, 0, 0)] = five<T>(from[at(x, 0, 0)], from[at(x - 2, 0, 0)], from[at(x - 1, 0, 0)],
                                              from[at(x + 1, 0, 0)], from[at(x + 2, 0, 0)]);
                else if (dims == 2)
                    to[at(x, y, 0)] = five<T>(from[at(x, y, 0)], from[at(x - 1, y, 0)], from[at(x + 1, y, 0)],
                                              from[at(x, y - 1, 0)], from[at(x, y + 1, 0)]);
                else
                    to[at(x, y, z)] = (from[at(x, y, z)] + from[at(x - 1, y, z)] + from[at(x + 1, y, z)] +
                                       from[at(x, y - 1, z)] + from[at(x, y + 1, z)] + from[at(x, y, z - 1)] +
                                       from[at(x, y, z + 1)]) /
                                      static_cast<T>(7);
            }
}

// One step of the time loop in a region: B = f(A), then A = f(B).
template <class T>
void region_step(recipe::Region& region, int dims, const recipe::Config& nest, T* A, T* B) {
    const recipe::Halo h = halo(dims);
    auto kernel = dims == 1 ? jacobi1d<T> : dims == 2 ? jacobi2d<T> : heat3d<T>;
    region.run(nest, kernel, recipe::inputs(recipe::input(static_cast<const T*>(A), h)), recipe::outputs(recipe::output(B)));
    region.run(nest, kernel, recipe::inputs(recipe::input(static_cast<const T*>(B), h)), recipe::outputs(recipe::output(A)));
}

}  // namespace jacobi_cases
