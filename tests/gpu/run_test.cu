// run_test.cu — device tests of recipe/run.cuh, for float, double and int.
//
// One nest with two inputs (a stenciled T array and an int array read with
// its own halo), a T output, a double output and an inout T array, run for
// every scheme (the thesis's four and seed 003's streams, mapped, hybrid) x
// copy method x host memory mode x {1, 3} streams over shapes
// that stress the tile geometry: one element, an array smaller than a tile,
// sizes the tile does not divide, a halo wider than the tile, 1/2/3
// dimensions, an iteration space smaller than the arrays. Outputs are
// poisoned first; every element is compared exactly with a CPU reference
// (the values are small integers, so every sum is exact in float too), and
// elements outside the iteration space must keep their poison.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "test_support.cuh"

struct Reach {
    int lo[3];
    int hi[3];
};

__host__ __device__ inline int weight(int dx, int dy, int dz) {
    return (1 + (dx < 0 ? -dx : dx) + 2 * (dy < 0 ? -dy : dy) + 3 * (dz < 0 ? -dz : dz)) % 3 + 1;
}

__host__ __device__ inline std::int64_t clampc(std::int64_t v, std::int64_t n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

template <class T>
__global__ void stencil_kernel(recipe::Tile t, recipe::InView<T> a, recipe::InView<int> b, recipe::OutView<T> sum,
                               recipe::OutView<double> diff, recipe::OutView<T> acc, Reach r, std::int64_t X,
                               std::int64_t Y, std::int64_t Z) {
    const std::int64_t x = t.x(), y = t.y(), z = t.z();
    if (!t.contains(x, y, z)) return;
    T s = 0;
    for (int dz = -r.lo[2]; dz <= r.hi[2]; ++dz)
        for (int dy = -r.lo[1]; dy <= r.hi[1]; ++dy)
            for (int dx = -r.lo[0]; dx <= r.hi[0]; ++dx)
                s += static_cast<T>(weight(dx, dy, dz)) * a(clampc(x + dx, X), clampc(y + dy, Y), clampc(z + dz, Z));
    sum(x, y, z) = s + static_cast<T>(b(x, y, z));
    diff(x, y, z) = static_cast<double>(a(x, y, z)) - static_cast<double>(b(clampc(x + r.hi[0], X), y, z));
    acc(x, y, z) = acc(x, y, z) * static_cast<T>(2) + a(x, y, z);
}

struct Case {
    const char* name;
    recipe::Index3 extents;
    recipe::Box space;  // end < 0: whole extent
    recipe::Index3 tile;
    Reach reach;
    dim3 block;
};

template <class T>
void reference(const Case& c, const recipe::Box& sp, const T* a, const int* b, T* sum, double* diff, T* acc) {
    const auto X = c.extents[0], Y = c.extents[1], Z = c.extents[2];
    const Reach& r = c.reach;
    for (std::int64_t z = sp.begin[2]; z < sp.end[2]; ++z)
        for (std::int64_t y = sp.begin[1]; y < sp.end[1]; ++y)
            for (std::int64_t x = sp.begin[0]; x < sp.end[0]; ++x) {
                const std::int64_t i = x + X * (y + Y * z);
                T s = 0;
                for (int dz = -r.lo[2]; dz <= r.hi[2]; ++dz)
                    for (int dy = -r.lo[1]; dy <= r.hi[1]; ++dy)
                        for (int dx = -r.lo[0]; dx <= r.hi[0]; ++dx)
                            s += static_cast<T>(weight(dx, dy, dz)) *
                                 a[clampc(x + dx, X) + X * (clampc(y + dy, Y) + Y * clampc(z + dz, Z))];
                sum[i] = s + static_cast<T>(b[i]);
                diff[i] = static_cast<double>(a[i]) - static_cast<double>(b[clampc(x + r.hi[0], X) + X * (y + Y * z)]);
                acc[i] = acc[i] * static_cast<T>(2) + a[i];
            }
}

template <class T>
void run_case(const Case& c, recipe::Scheme scheme, recipe::CopyMethod copy, recipe::HostMemory host, int streams,
              bool measure) {
    recipe::Config cfg;
    cfg.scheme = scheme;
    cfg.extents = c.extents;
    cfg.space = c.space;
    cfg.tile = c.tile;
    cfg.copy = copy;
    cfg.host = host;
    cfg.streams = streams;
    cfg.block = c.block;
    cfg.measure = measure;
    cfg.name = std::string("run_test ") + c.name;
    const recipe::Box sp = cfg.iteration_space();
    const std::int64_t n = c.extents[0] * c.extents[1] * c.extents[2];
    test::HostArray<T> a(n, host), sum(n, host), acc(n, host);
    test::HostArray<int> b(n, host);
    test::HostArray<double> diff(n, host);
    std::vector<T> want_sum(n), want_acc(n);
    std::vector<double> want_diff(n);
    test::fill(a.data(), n, 1);
    test::fill(b.data(), n, 2);
    test::fill(acc.data(), n, 3);
    test::poison(sum.data(), n);
    test::poison(diff.data(), n);
    test::poison(want_sum.data(), n);
    test::poison(want_diff.data(), n);
    for (std::int64_t i = 0; i < n; ++i) want_acc[i] = acc[i];
    reference<T>(c, sp, a.data(), b.data(), want_sum.data(), want_diff.data(), want_acc.data());

    const Reach& r = c.reach;
    const recipe::Halo ha{{r.lo[0], r.lo[1], r.lo[2]}, {r.hi[0], r.hi[1], r.hi[2]}};
    const recipe::Halo hb{{0, 0, 0}, {r.hi[0], 0, 0}};
    const std::string what = std::string(test::type_name<T>()) + " " + c.name + " " + test::describe(cfg);
    recipe::Measured m;
    try {
        m = recipe::run(cfg, stencil_kernel<T>, recipe::inputs(recipe::input(a.data(), ha), recipe::input(b.data(), hb)),
                        recipe::outputs(recipe::output(sum.data()), recipe::output(diff.data()),
                                        recipe::inout(acc.data())),
                        r, c.extents[0], c.extents[1], c.extents[2]);
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s threw: %s", what.c_str(), e.what());
        return;
    }
    TEST_CHECK(test::same(sum.data(), want_sum.data(), c.extents, what + " sum"), "%s: sum", what.c_str());
    TEST_CHECK(test::same(diff.data(), want_diff.data(), c.extents, what + " diff"), "%s: diff", what.c_str());
    TEST_CHECK(test::same(acc.data(), want_acc.data(), c.extents, what + " acc"), "%s: acc", what.c_str());

    // What moved: every output and the inout array's space comes back once.
    const std::int64_t space_n = sp.count();
    const bool mapped_out = scheme == recipe::Scheme::Mapped || scheme == recipe::Scheme::Hybrid;
    TEST_CHECK(m.d2h_bytes == (mapped_out ? 0 : space_n * static_cast<std::int64_t>(2 * sizeof(T) + sizeof(double))),
               "%s: d2h bytes %lld", what.c_str(), static_cast<long long>(m.d2h_bytes));
    if (scheme == recipe::Scheme::Mapped) TEST_CHECK(m.h2d_bytes == 0, "%s: mapped copied", what.c_str());
    // Naive, and basic over slabs, send shared halo once: exactly the padded space.
    recipe::TileGrid g(c.extents, [&] {
        recipe::Index3 t = c.tile;
        for (int d = 0; d < 3; ++d)
            if (scheme == recipe::Scheme::Naive || t[d] <= 0 || t[d] > sp.extent(d)) t[d] = sp.extent(d);
        return t;
    }(), sp);
    const bool full = scheme == recipe::Scheme::Basic || scheme == recipe::Scheme::Streams;
    if (scheme == recipe::Scheme::Naive || (full && g.slab_dimension() >= 0)) {
        recipe::TileGrid whole(c.extents, sp.extents(), sp);
        const std::int64_t want = whole.padded(0, ha).count() * static_cast<std::int64_t>(sizeof(T)) +
                                  whole.padded(0, hb).count() * static_cast<std::int64_t>(sizeof(int)) +
                                  space_n * static_cast<std::int64_t>(sizeof(T));
        TEST_CHECK(m.h2d_bytes == want, "%s: h2d bytes %lld, want %lld", what.c_str(),
                   static_cast<long long>(m.h2d_bytes), static_cast<long long>(want));
    }
    if (scheme == recipe::Scheme::Buffered)
        TEST_CHECK(m.h2d_copies == m.tiles * 3 && m.d2h_copies == m.tiles * 3,
                   "%s: buffered must move each tile's array in one copy (%lld in, %lld out, %lld tiles)", what.c_str(),
                   static_cast<long long>(m.h2d_copies), static_cast<long long>(m.d2h_copies),
                   static_cast<long long>(m.tiles));
    TEST_CHECK(m.total >= 0, "%s: total not measured", what.c_str());
    if (measure)
        TEST_CHECK(m.h2d >= 0 && m.kernel > 0 && m.d2h >= 0 && m.alloc >= 0, "%s: phases not measured", what.c_str());
    else
        TEST_CHECK(m.h2d < 0 && m.kernel < 0, "%s: phases measured without being asked", what.c_str());
}

const Case kCases[] = {
    {"1d-one-element", {1, 1, 1}, {{0, 0, 0}, {-1, -1, -1}}, {1, 1, 1}, {{2, 0, 0}, {2, 0, 0}}, dim3(32)},
    {"1d-smaller-than-tile", {7, 1, 1}, {{0, 0, 0}, {-1, -1, -1}}, {16, 1, 1}, {{2, 0, 0}, {3, 0, 0}}, dim3(32)},
    {"1d-not-divisible", {1000, 1, 1}, {{4, 0, 0}, {996, 1, 1}}, {64, 1, 1}, {{4, 0, 0}, {4, 0, 0}}, dim3(32)},
    {"1d-halo-wider-than-tile", {50, 1, 1}, {{0, 0, 0}, {-1, -1, -1}}, {4, 1, 1}, {{9, 0, 0}, {6, 0, 0}}, dim3(3)},
    {"2d-blocks", {37, 23, 1}, {{1, 2, 0}, {36, 22, 1}}, {8, 5, 1}, {{2, 1, 0}, {1, 2, 0}}, dim3(8, 4)},
    {"2d-full-rows", {37, 23, 1}, {{0, 0, 0}, {-1, -1, -1}}, {37, 4, 1}, {{1, 1, 0}, {1, 1, 0}}, dim3(32, 2)},
    {"2d-halo-wider-than-tile", {20, 30, 1}, {{0, 1, 0}, {20, 29, 1}}, {20, 3, 1}, {{0, 7, 0}, {1, 5, 0}}, dim3(16, 4)},
    {"3d-slabs", {13, 11, 9}, {{1, 1, 1}, {12, 10, 8}}, {13, 11, 2}, {{1, 1, 1}, {1, 1, 1}}, dim3(16, 4, 2)},
    {"3d-boxes", {13, 11, 9}, {{1, 0, 1}, {12, 11, 8}}, {5, 4, 3}, {{1, 2, 1}, {2, 1, 1}}, dim3(4, 4, 2)},
    {"3d-row-slabs", {6, 5, 4}, {{0, 0, 0}, {-1, -1, -1}}, {6, 2, 4}, {{1, 1, 1}, {1, 1, 1}}, dim3(8, 2, 2)},
};

template <class T>
void run_all() {
    const bool quick = test::quick();
    for (const Case& c : kCases)
        for (auto scheme : test::kSchemes)
            for (auto copy : test::kCopies)
                for (auto host : test::kHosts)
                    for (int streams : {1, 3}) {
                        if (quick && streams == 1) continue;
                        run_case<T>(c, scheme, copy, host, streams, streams == 3 && copy == recipe::CopyMethod::Strided);
                    }
}

// A staged run whose inout array the program never touched (calloc'd: its
// pages still unmapped, read as zero pages unless the run makes them
// writable first, detail/host_copy.cuh prefault_writable), on an interior
// space, called twice in the process (the second finds the range already
// done): every element exact, the edges outside the space still zero.
void run_untouched_inout() {
    const Case c{"2d-untouched-inout", {1024, 1030, 1}, {{1, 1, 0}, {1023, 1029, 1}}, {1024, 100, 1}, {{1, 1, 0}, {1, 1, 0}},
                 dim3(32, 4)};
    const std::int64_t n = c.extents[0] * c.extents[1];
    std::vector<float> a(n), want_sum(n), want_acc(n, 0.0f);
    std::vector<int> b(n);
    std::vector<double> want_diff(n);
    test::fill(a.data(), n, 1);
    test::fill(b.data(), n, 2);
    recipe::Config cfg;
    cfg.scheme = recipe::Scheme::Scalable;
    cfg.extents = c.extents;
    cfg.space = c.space;
    cfg.tile = c.tile;
    cfg.host = recipe::HostMemory::Staged;
    cfg.streams = 3;
    cfg.block = c.block;
    cfg.name = "run_test untouched inout";
    reference<float>(c, cfg.iteration_space(), a.data(), b.data(), want_sum.data(), want_diff.data(), want_acc.data());
    const Reach& r = c.reach;
    const recipe::Halo ha{{r.lo[0], r.lo[1], r.lo[2]}, {r.hi[0], r.hi[1], r.hi[2]}};
    const recipe::Halo hb{{0, 0, 0}, {r.hi[0], 0, 0}};
    for (int call = 1; call <= 2; ++call) {
        float* acc = static_cast<float*>(std::calloc(static_cast<std::size_t>(n), sizeof(float)));
        float* sum = static_cast<float*>(std::calloc(static_cast<std::size_t>(n), sizeof(float)));
        double* diff = static_cast<double*>(std::calloc(static_cast<std::size_t>(n), sizeof(double)));
        if (!acc || !sum || !diff) {
            TEST_CHECK(false, "untouched inout: out of host memory");
            return;
        }
        try {
            recipe::run(cfg, stencil_kernel<float>, recipe::inputs(recipe::input(a.data(), ha), recipe::input(b.data(), hb)),
                        recipe::outputs(recipe::output(sum), recipe::output(diff), recipe::inout(acc)), r, c.extents[0],
                        c.extents[1], c.extents[2]);
            const std::string what = "untouched inout, call " + std::to_string(call);
            TEST_CHECK(test::same(acc, want_acc.data(), c.extents, what + " acc"), "%s: acc", what.c_str());
            TEST_CHECK(test::same(sum, want_sum.data(), c.extents, what + " sum"), "%s: sum", what.c_str());
        } catch (const recipe::Error& e) {
            TEST_CHECK(false, "untouched inout, call %d threw: %s", call, e.what());
        }
        // The second call gets fresh arrays (not yet made writable) or, when
        // the allocator hands back the same range, one taken as done.
        std::free(acc);
        std::free(sum);
        std::free(diff);
    }
}

int main() {
    run_untouched_inout();
    run_all<float>();
    if (!test::quick()) {
        run_all<double>();
        run_all<int>();
    } else {
        run_all<int>();
    }
    return test::finish("run_test");
}
