// view_cost_probe.cu — what the library's views and tiles cost a kernel:
// PolyBench's jacobi-2d step (5 points, doubles) and heat-3d step (7 points,
// doubles), written as the generator emits them (recipe::Tile and the
// library's views, recipe/view.cuh), through the views the library had
// before (every index in 64 bits, from the buffer's origin), and
// hand-written (int indices, __restrict__ pointers), at the block shapes the
// advisor picks from. Resident arrays, launches back to back as a region's
// steps run, events around 200 launches, median of 5. A tool for
// understanding the kernels' share of a region, not a test.
//   nvcc -O2 -std=c++17 -arch=sm_90 --fmad=false -I library/include bench/kernel/view_cost_probe.cu -o /tmp/vc && /tmp/vc
// Prints: kernel, variant, block, points, us per launch, ns per 1000 points.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "recipe/tile.cuh"
#include "recipe/view.cuh"

#include "check.cuh"

namespace {

// The library's views before: (x - ox) + ex * ((y - oy) + ey * (z - oz)), all in 64 bits.
template <class T>
struct OldView {
    T* data;
    std::int64_t origin[3];
    std::int64_t ex, ey;
    __device__ T& operator()(std::int64_t x, std::int64_t y = 0, std::int64_t z = 0) const {
        return data[(x - origin[0]) + ex * ((y - origin[1]) + ey * (z - origin[2]))];
    }
};

// The bodies as the generator writes them, over any view type.
template <class In, class Out>
__global__ void j2(recipe::Tile tile, In B, Out A) {
    const int j = static_cast<int>(tile.x());
    const int i = static_cast<int>(tile.y());
    if (!tile.contains(j, i)) return;
    A(j, i) = 0.2 * (B(j, i) + B(j - 1, i) + B(1 + j, i) + B(j, 1 + i) + B(j, i - 1));
}

template <class In, class Out>
__global__ void h3(recipe::Tile tile, In A, Out B) {
    const int k = static_cast<int>(tile.x());
    const int j = static_cast<int>(tile.y());
    const int i = static_cast<int>(tile.z());
    if (!tile.contains(k, j, i)) return;
    B(k, j, i) = 0.125 * (A(k, j, i + 1) - 2.0 * A(k, j, i) + A(k, j, i - 1)) +
                 0.125 * (A(k, j + 1, i) - 2.0 * A(k, j, i) + A(k, j - 1, i)) +
                 0.125 * (A(k + 1, j, i) - 2.0 * A(k, j, i) + A(k - 1, j, i)) + A(k, j, i);
}

__global__ void j2_raw(const double* __restrict__ b, double* __restrict__ a, int n) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i >= n - 1 || j >= n - 1) return;
    a[i * n + j] = 0.2 * (b[i * n + j] + b[i * n + j - 1] + b[i * n + j + 1] + b[(i + 1) * n + j] + b[(i - 1) * n + j]);
}

__global__ void h3_raw(const double* __restrict__ a, double* __restrict__ b, int n) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    const int i = blockIdx.z * blockDim.z + threadIdx.z + 1;
    if (i >= n - 1 || j >= n - 1 || k >= n - 1) return;
    const int p = (i * n + j) * n + k, s = n * n;
    b[p] = 0.125 * (a[p + s] - 2.0 * a[p] + a[p - s]) + 0.125 * (a[p + n] - 2.0 * a[p] + a[p - n]) +
           0.125 * (a[p + 1] - 2.0 * a[p] + a[p - 1]) + a[p];
}

double us_per_launch(const std::function<void(int)>& launch) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int w = 0; w < 20; ++w) launch(w);
    std::vector<double> t;
    for (int r = 0; r < 5; ++r) {
        CK(cudaEventRecord(a));
        for (int s = 0; s < 200; ++s) launch(s);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(1000.0 * ms / 200);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

void report(const char* kernel, const char* variant, dim3 block, double points, double us) {
    std::printf("%-9s %-5s block %3ux%ux%u points %9.0f us %8.2f ns_per_1000 %.3f\n", kernel, variant, block.x, block.y,
                block.z, points, us, 1e6 * us / points);
}

// An n^dims grid of doubles, twice, and the three ways of one step over its interior.
template <class Body, class OldBody, class Raw>
void grid(const char* name, int dims, int n, std::initializer_list<dim3> blocks, Body body, OldBody old_body, Raw raw) {
    const std::int64_t ez = dims == 3 ? n : 1, count = std::int64_t(n) * n * ez;
    double *a, *b;
    CK(cudaMalloc(&a, count * sizeof(double)));
    CK(cudaMalloc(&b, count * sizeof(double)));
    CK(cudaMemset(a, 0, count * sizeof(double)));
    CK(cudaMemset(b, 0, count * sizeof(double)));
    recipe::Tile tile{};
    for (int d = 0; d < 3; ++d) {
        tile.core.begin[d] = d < dims ? 1 : 0;
        tile.core.end[d] = d < dims ? n - 1 : 1;
    }
    tile.count = 1;
    const double points = double(n - 2) * (n - 2) * (dims == 3 ? n - 2 : 1);
    const std::int64_t origin[3] = {0, 0, 0};
    for (dim3 block : blocks) {
        const dim3 g((n - 2 + block.x - 1) / block.x, (n - 2 + block.y - 1) / block.y,
                     dims == 3 ? (n - 2 + block.z - 1) / block.z : 1);
        report(name, "old", block, points, us_per_launch([&](int s) {
                   old_body<<<g, block>>>(tile, OldView<const double>{s % 2 ? a : b, {0, 0, 0}, n, n},
                                          OldView<double>{s % 2 ? b : a, {0, 0, 0}, n, n});
               }));
        report(name, "view", block, points, us_per_launch([&](int s) {
                   body<<<g, block>>>(tile, recipe::make_in_view<double>(s % 2 ? a : b, origin, n, n, ez),
                                      recipe::make_out_view<double>(s % 2 ? b : a, origin, n, n, ez));
               }));
        report(name, "raw", block, points, us_per_launch([&](int s) { raw<<<g, block>>>(s % 2 ? a : b, s % 2 ? b : a, n); }));
    }
    CK(cudaFree(a));
    CK(cudaFree(b));
}

}  // namespace

int main() {
    CK(cudaFree(nullptr));
    using In = recipe::InView<double>;
    using Out = recipe::OutView<double>;
    for (int n : {1300, 2800})  // PolyBench LARGE and EXTRALARGE
        grid("jacobi2d", 2, n, {dim3(32, 8, 1), dim3(32, 4, 1)}, j2<In, Out>, j2<OldView<const double>, OldView<double>>,
             j2_raw);
    for (int n : {120, 200})
        grid("heat3d", 3, n, {dim3(32, 4, 2), dim3(16, 8, 4)}, h3<In, Out>, h3<OldView<const double>, OldView<double>>,
             h3_raw);
    return 0;
}
