// arrays.cuh — naming the host arrays a loop nest reads and writes.
//
//   recipe::inputs(recipe::input(in, recipe::Halo{{1,1,0},{1,1,0}}), recipe::input(coef))
//   recipe::outputs(recipe::output(out), recipe::inout(acc))
//
// Every array has Config::extents elements, laid out x fastest. The halo is
// how far the kernel reads beyond its own point on each side, per dimension
// (the stencil's reach); it is clipped at the array's edges. An inout array
// is an output whose own element the kernel also reads: each tile copies its
// core in before the kernel and out after it.
#pragma once

#include <tuple>

#include "recipe/tile_geometry.h"

namespace recipe {

template <class T>
struct Input {
    const T* host;
    Halo halo;
};

template <class T>
struct Output {
    T* host;
    bool copy_in;  // inout: the tile's core is copied in before the kernel
};

template <class T>
Input<T> input(const T* host, Halo halo = {}) {
    return Input<T>{host, halo};
}

template <class T>
Output<T> output(T* host) {
    return Output<T>{host, false};
}

template <class T>
Output<T> inout(T* host) {
    return Output<T>{host, true};
}

template <class... T>
struct Inputs {
    std::tuple<Input<T>...> arrays;
};

template <class... T>
struct Outputs {
    std::tuple<Output<T>...> arrays;
};

template <class... T>
Inputs<T...> inputs(Input<T>... arrays) {
    return Inputs<T...>{std::tuple<Input<T>...>(arrays...)};
}

template <class... T>
Outputs<T...> outputs(Output<T>... arrays) {
    return Outputs<T...>{std::tuple<Output<T>...>(arrays...)};
}

// The two arrays of an iterative stencil loop that swaps them after every
// step: step 1 reads `a` and writes `b`, step 2 reads `b` and writes `a`, ...
// (recipe::iterate).
template <class T>
struct PingPong {
    T* a;
    T* b;
    Halo halo;  // the stencil's reach into the array being read
};

template <class T>
PingPong<T> ping_pong(T* a, T* b, Halo halo = {}) {
    return PingPong<T>{a, b, halo};
}

}  // namespace recipe
