// sample_kernels.cuh — the kernels of the thesis's example programs (§3.3:
// moving average, emboss, Jacobi stencil), written as recipe emits them from
// samples/moving_average.c, samples/emboss.c and samples/jacobi3d.c. The
// profiler times them for the platform profile's "kernels" tables (thesis
// §6.3) and the GPU benchmark runs them through the library.
//
// `repeat` runs the body that many times (thesis §7.1.2's kernel-size
// sweep). The output is stored every time, so the compiler must reload the
// inputs (they may alias the output) and the work really grows with it.
#pragma once

#include <recipe/recipe.cuh>

namespace samples {

// moving_average.c: out[i] = mean of in[i-R .. i+R], i from R to N-R.
__global__ void moving_average(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out, int radius,
                               int repeat) {
    const auto i = tile.x();
    if (!tile.contains(i)) return;
    for (int r = 0; r < repeat; ++r) {
        float s = 0.0f;
        for (int d = -radius; d <= radius; ++d) s += in(i + d);
        out(i) = s / (2 * radius + 1);
    }
}

// emboss.c: clamped neighbours, whole image.
__global__ void emboss(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out, int W, int H,
                       int repeat) {
    const auto x = tile.x(), y = tile.y();
    if (!tile.contains(x, y)) return;
    const auto xm = x > 0 ? x - 1 : 0, xp = x < W - 1 ? x + 1 : W - 1;
    const auto ym = y > 0 ? y - 1 : 0, yp = y < H - 1 ? y + 1 : H - 1;
    for (int r = 0; r < repeat; ++r) {
        const float lit = in(xp, y) + in(x, yp) + in(xp, yp);
        const float shade = in(xm, y) + in(x, ym) + in(xm, ym);
        out(x, y) = 0.5f + (lit - shade) / 6.0f;
    }
}

// jacobi3d.c: interior points, mean of the point and its six neighbours.
__global__ void jacobi_sweep(recipe::Tile tile, recipe::InView<float> in, recipe::OutView<float> out, int repeat) {
    const auto x = tile.x(), y = tile.y(), z = tile.z();
    if (!tile.contains(x, y, z)) return;
    for (int r = 0; r < repeat; ++r)
        out(x, y, z) = (in(x, y, z) + in(x - 1, y, z) + in(x + 1, y, z) + in(x, y - 1, z) + in(x, y + 1, z) +
                        in(x, y, z - 1) + in(x, y, z + 1)) /
                       7.0f;
}

}  // namespace samples
