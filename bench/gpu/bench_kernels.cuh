// bench_kernels.cuh — the kernels of the two GPU benchmark experiments that
// are not the thesis's (its three are in tools/profiler/sample_kernels.cuh):
// a 3x3 stencil on doubles and a zip of three float inputs into one output,
// written as recipe emits a nest (a Tile, one view per array, then the
// nest's own arguments).
//
// Both compute exactly what their C loops in experiments.cuh compute: the
// stencil's weights are powers of two, so its products are exact and a fused
// multiply-add rounds as the separate add does; the zip's product goes
// through __fmul_rn, which the compiler never fuses into an FMA.
//
// `repeat` runs the body that many times, as in sample_kernels.cuh.
#pragma once

#include <recipe/recipe.cuh>

namespace bench {

// The 3x3 binomial blur (1 2 1 / 2 4 2 / 1 2 1) / 16 on the interior points
// of a 2-D array of doubles, summed in the C loop's order.
__global__ void stencil9(recipe::Tile tile, recipe::InView<double> in, recipe::OutView<double> out, int repeat) {
    const auto x = tile.x(), y = tile.y();
    if (!tile.contains(x, y)) return;
    for (int r = 0; r < repeat; ++r) {
        const double corners = in(x - 1, y - 1) + in(x + 1, y - 1) + in(x - 1, y + 1) + in(x + 1, y + 1);
        const double sides = in(x, y - 1) + in(x - 1, y) + in(x + 1, y) + in(x, y + 1);
        out(x, y) = 0.0625 * corners + 0.125 * sides + 0.25 * in(x, y);
    }
}

// o[i] = a[i] + b[i] * c[i] over the whole array.
__global__ void zip3(recipe::Tile tile, recipe::InView<float> a, recipe::InView<float> b, recipe::InView<float> c,
                     recipe::OutView<float> o, int repeat) {
    const auto i = tile.x();
    if (!tile.contains(i)) return;
    for (int r = 0; r < repeat; ++r) o[i] = a[i] + __fmul_rn(b[i], c[i]);
}

}  // namespace bench
