// iterate_test.cu — device tests of recipe/iterate.cuh, for float, double
// and int: a time loop that swaps two arrays after every step, with and
// without a further read-only input, 1/2/3 dimensions, iteration spaces
// smaller than the arrays (the written array's boundary must be the host's)
// and whole-array spaces with clamped neighbours, 0 to 6 steps, every scheme
// x host memory mode. The array written first has its iteration space
// poisoned; the array holding the last step is compared exactly with the
// sequential loop (sums, then one correctly rounded division: no FMA to
// differ between CPU and GPU).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "test_support.cuh"

__host__ __device__ inline std::int64_t clampc(std::int64_t v, std::int64_t n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

#pragma nv_exec_check_disable
template <class T, class Get>
__host__ __device__ inline T relax(Get get, std::int64_t x, std::int64_t y, std::int64_t z, int dims, std::int64_t X,
                                   std::int64_t Y, std::int64_t Z) {
    T s = get(clampc(x - 1, X), y, z) + get(clampc(x + 1, X), y, z);
    if (dims > 1) s = s + get(x, clampc(y - 1, Y), z) + get(x, clampc(y + 1, Y), z);
    if (dims > 2) s = s + get(x, y, clampc(z - 1, Z)) + get(x, y, clampc(z + 1, Z));
    return s;
}

template <class T>
struct ViewGet {
    recipe::InView<T> v;
    __device__ T operator()(std::int64_t i, std::int64_t j, std::int64_t k) const { return v(i, j, k); }
};

template <class T>
struct HostGet {
    const T* p;
    std::int64_t X, Y;
    T operator()(std::int64_t i, std::int64_t j, std::int64_t k) const { return p[i + X * (j + Y * k)]; }
};

template <class T>
__global__ void step_kernel(recipe::Tile t, recipe::InView<T> cur, recipe::OutView<T> next, int dims, std::int64_t X,
                            std::int64_t Y, std::int64_t Z) {
    const std::int64_t x = t.x(), y = t.y(), z = t.z();
    if (!t.contains(x, y, z)) return;
    next(x, y, z) = (relax<T>(ViewGet<T>{cur}, x, y, z, dims, X, Y, Z) + cur(x, y, z)) / static_cast<T>(2 * dims + 1);
}

template <class T>
__global__ void step_power_kernel(recipe::Tile t, recipe::InView<T> cur, recipe::InView<T> power,
                                  recipe::OutView<T> next, int dims, std::int64_t X, std::int64_t Y, std::int64_t Z) {
    const std::int64_t x = t.x(), y = t.y(), z = t.z();
    if (!t.contains(x, y, z)) return;
    next(x, y, z) = (relax<T>(ViewGet<T>{cur}, x, y, z, dims, X, Y, Z) + power(x, y, z)) / static_cast<T>(2 * dims);
}

struct Case {
    const char* name;
    int dims;
    recipe::Index3 extents;
    recipe::Box space;
    recipe::Index3 tile;
    dim3 block;
    bool power;
};

template <class T>
void run_case(const Case& c, recipe::Scheme scheme, recipe::HostMemory host, recipe::CopyMethod copy, int streams,
              std::int64_t steps) {
    recipe::Config cfg;
    cfg.scheme = scheme;
    cfg.extents = c.extents;
    cfg.space = c.space;
    cfg.tile = c.tile;
    cfg.copy = copy;
    cfg.host = host;
    cfg.streams = streams;
    cfg.block = c.block;
    cfg.name = std::string("iterate_test ") + c.name;
    const recipe::Box sp = cfg.iteration_space();
    const auto X = c.extents[0], Y = c.extents[1], Z = c.extents[2];
    const std::int64_t n = X * Y * Z;
    test::HostArray<T> a(n, host), b(n, host), p(n, host);
    test::fill(a.data(), n, 11);
    test::fill(b.data(), n, 12);
    test::fill(p.data(), n, 13);
    auto in_space = [&](std::int64_t i) {
        const std::int64_t x = i % X, y = i / X % Y, z = i / (X * Y);
        return x >= sp.begin[0] && x < sp.end[0] && y >= sp.begin[1] && y < sp.end[1] && z >= sp.begin[2] &&
               z < sp.end[2];
    };
    for (std::int64_t i = 0; i < n; ++i)
        if (in_space(i)) test::poison(&b[i], 1);  // written before it is read

    // The sequential loop, pointers swapped as a C program does.
    std::vector<T> ra(a.data(), a.data() + n), rb(b.data(), b.data() + n);
    T* cur = ra.data();
    T* next = rb.data();
    for (std::int64_t s = 0; s < steps; ++s) {
        for (std::int64_t z = sp.begin[2]; z < sp.end[2]; ++z)
            for (std::int64_t y = sp.begin[1]; y < sp.end[1]; ++y)
                for (std::int64_t x = sp.begin[0]; x < sp.end[0]; ++x) {
                    const HostGet<T> get{cur, X, Y};
                    const std::int64_t i = x + X * (y + Y * z);
                    next[i] = c.power ? (relax<T>(get, x, y, z, c.dims, X, Y, Z) + p[i]) / static_cast<T>(2 * c.dims)
                                      : (relax<T>(get, x, y, z, c.dims, X, Y, Z) + cur[i]) / static_cast<T>(2 * c.dims + 1);
                }
        std::swap(cur, next);
    }
    T* const want_host = cur == ra.data() ? a.data() : b.data();

    const recipe::Halo h{{1, c.dims > 1 ? 1 : 0, c.dims > 2 ? 1 : 0}, {1, c.dims > 1 ? 1 : 0, c.dims > 2 ? 1 : 0}};
    const std::string what = std::string(test::type_name<T>()) + " " + c.name + " steps " + std::to_string(steps) +
                             " " + test::describe(cfg);
    T* got = nullptr;
    try {
        if (c.power)
            got = recipe::iterate(cfg, steps, step_power_kernel<T>, recipe::ping_pong(a.data(), b.data(), h),
                                  recipe::inputs(recipe::input(static_cast<const T*>(p.data()), h)), c.dims, X, Y, Z);
        else
            got = recipe::iterate(cfg, steps, step_kernel<T>, recipe::ping_pong(a.data(), b.data(), h), c.dims, X, Y, Z);
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s threw: %s", what.c_str(), e.what());
        return;
    }
    TEST_CHECK(got == want_host, "%s: returned the wrong array", what.c_str());
    TEST_CHECK(test::same(got, cur, c.extents, what), "%s: last step differs", what.c_str());
}

const Case kCases[] = {
    {"1d-interior", 1, {100, 1, 1}, {{1, 0, 0}, {99, 1, 1}}, {7, 1, 1}, dim3(32), false},
    {"2d-interior-slabs", 2, {17, 13, 1}, {{1, 1, 0}, {16, 12, 1}}, {15, 3, 1}, dim3(16, 4), false},
    {"2d-clamped-power", 2, {16, 9, 1}, {{0, 0, 0}, {-1, -1, -1}}, {5, 4, 1}, dim3(8, 4), true},
    {"3d-interior", 3, {9, 8, 7}, {{1, 1, 1}, {8, 7, 6}}, {7, 6, 2}, dim3(8, 4, 2), false},
    {"3d-clamped-power-boxes", 3, {9, 8, 7}, {{0, 0, 0}, {-1, -1, -1}}, {4, 3, 3}, dim3(4, 4, 4), true},
};

template <class T>
void run_all() {
    const bool quick = test::quick();
    for (const Case& c : kCases)
        for (auto scheme : test::kSchemes)
            for (auto host : test::kHosts)
                for (auto copy : {recipe::CopyMethod::RowByRow, recipe::CopyMethod::Strided})
                    for (int streams : {1, 3})
                        for (std::int64_t steps : {0, 1, 2, 3, 6}) {
                            if (quick && (streams == 1 || copy == recipe::CopyMethod::RowByRow)) continue;
                            run_case<T>(c, scheme, host, copy, streams, steps);
                        }
}

int main() {
    run_all<float>();
    run_all<int>();
    if (!test::quick()) run_all<double>();
    return test::finish("iterate_test");
}
