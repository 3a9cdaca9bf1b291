// whole.cuh — an input the kernel reads whole rather than tile by tile: a
// smaller array read inside a larger nest (a mean per column in a 2-D nest,
// a coefficient row). It is copied to the GPU once, before the tiles, and
// the kernel receives a plain device pointer it indexes as the C code does.
//
//   recipe::run(cfg, kernel, recipe::inputs(...), recipe::outputs(...), recipe::whole(mean, m), n);
//   __global__ void kernel(recipe::Tile, ..., const double* mean, int n)
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <deque>
#include <string>
#include <type_traits>
#include <utility>

#include "recipe/detail/resources.cuh"
#include "recipe/error.cuh"

namespace recipe {

template <class T>
struct Whole {
    const T* host;
    std::size_t count;  // elements
};

template <class T>
Whole<T> whole(const T* host, std::size_t count) {
    return Whole<T>{host, count};
}

namespace detail {

template <class A>
struct is_whole : std::false_type {};
template <class T>
struct is_whole<Whole<T>> : std::true_type {};

// The device copies of one call's whole inputs, freed when the call ends.
class WholeCopies {
public:
    template <class T>
    const T* copy(const Whole<T>& w) {
        const std::size_t bytes = w.count * sizeof(T);
        auto where = [] { return std::string("a whole input"); };
        DeviceBlock& block = blocks_.emplace_back();
        block.allocate(bytes > 0 ? bytes : 1, where);
        check(cudaMemcpy(block.base(), w.host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy", where);
        return reinterpret_cast<const T*>(block.base());
    }

private:
    std::deque<DeviceBlock> blocks_;  // DeviceBlock neither copies nor moves
};

// A kernel argument as the kernel receives it: whole inputs become device
// pointers, everything else passes as it is.
template <class A>
A&& kernel_arg(A&& a, WholeCopies&) {
    return std::forward<A>(a);
}
template <class T>
const T* kernel_arg(const Whole<T>& w, WholeCopies& copies) {
    return copies.copy(w);
}
template <class T>
const T* kernel_arg(Whole<T>& w, WholeCopies& copies) {
    return copies.copy(w);
}
template <class T>
const T* kernel_arg(Whole<T>&& w, WholeCopies& copies) {
    return copies.copy(w);
}

}  // namespace detail
}  // namespace recipe
