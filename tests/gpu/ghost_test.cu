// ghost_test.cu — device tests of a recipe::Region with ghost zones
// (Config::ghost_launches; seed 002): time loops over arrays of which only
// one tile and its ghost zone are on the device at a time, for float, double
// and int:
// - PolyBench's mirrored Jacobi (`B = f(A); A = f(B)`) on the interior in
//   1-D (reach 2), 2-D and 3-D (reach 1);
// - a copy-back step (`u = f(t); t = u`, heat2d's form: the first nest's
//   output written whole before it is read, so not copied in);
// - 0 to 7 steps, 1 to 3 steps per pass (a last, shorter pass included),
//   tiles of several heights (one tile, tiles that do not divide the rows,
//   tiles as thin as the ghost zone), pinned and staged host arrays, under a
//   device-memory budget that the whole arrays exceed;
// - misuse (tiles thinner than the ghost zone, several GPUs, a part of an
//   array) throws recipe::Error.
// Every array is compared exactly with the sequential loops.
#include <cstdio>
#include <string>
#include <vector>

#include "jacobi_cases.cuh"
#include "test_support.cuh"

using namespace jacobi_cases;

// heat2d's first nest: the edges copied, the interior smoothed.
template <class T>
__global__ void edge_or_five(recipe::Tile t, recipe::InView<T> a, recipe::OutView<T> b, std::int64_t X, std::int64_t Y) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    b(x, y) = (x == 0 || y == 0 || x == X - 1 || y == Y - 1)
                  ? a(x, y)
                  : five<T>(a(x, y), a(x - 1, y), a(x + 1, y), a(x, y - 1), a(x, y + 1));
}

template <class T>
__global__ void copy_back(recipe::Tile t, recipe::InView<T> from, recipe::OutView<T> to) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    to(x, y) = from(x, y);
}

const char* type_name(float) { return "float"; }
const char* type_name(double) { return "double"; }
const char* type_name(int) { return "int"; }

struct Case {
    int dims;
    recipe::HostMemory host;
    int steps;
    int per_pass;            // steps per pass (k)
    std::int64_t tile_rows;  // along the slowest dimension; 0: one tile
};

// The mirrored Jacobi time loop, `steps` steps, replayed `per_pass` steps at a time.
template <class T>
void mirrored(const Case& c) {
    const int dims = c.dims;
    const recipe::Index3 ext = extents(dims);
    const int reach = jacobi_cases::reach(dims);
    const std::int64_t n = ext[0] * ext[1] * ext[2];
    const int split = dims - 1;
    const std::int64_t rows = ext[split];
    const std::int64_t tile = c.tile_rows > 0 ? std::min(c.tile_rows, rows) : rows;
    const std::string what = std::string(type_name(T{})) + " ghost " + std::to_string(dims) + "-D " +
                             recipe::to_string(c.host) + ", " + std::to_string(c.steps) + " steps, " +
                             std::to_string(c.per_pass) + " per pass, tiles of " + std::to_string(tile) + " rows";
    test::HostArray<T> A(n, c.host), B(n, c.host);
    std::vector<T> ra(static_cast<std::size_t>(n)), rb(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        A[i] = ra[static_cast<std::size_t>(i)] = value<T>(i);
        B[i] = rb[static_cast<std::size_t>(i)] = value<T>(i + 5);
    }
    const recipe::Box space = interior(dims, ext);
    for (int t = 0; t < c.steps; ++t) {
        sweep(dims, ext, space, ra, rb);
        sweep(dims, ext, space, rb, ra);
    }
    recipe::Config rc;
    rc.extents = ext;
    rc.tile = {ext[0], dims > 1 ? ext[1] : 1, 1};
    rc.tile[split] = dims == 1 ? 331 : 5;  // the copies' chunks
    rc.ghost_tile_rows = tile;
    rc.streams = 2;
    rc.host = c.host;
    rc.ghost_launches = 2 * c.per_pass;
    // Room for one tile and its ghost zone of both arrays, not for the arrays.
    const std::int64_t row_bytes = n / rows * static_cast<std::int64_t>(sizeof(T));
    const std::int64_t ghost = 2 * c.per_pass * reach;
    rc.device_memory = tile < rows ? 2 * (tile + 2 * ghost) * row_bytes + (4 << 20) : 0;
    rc.name = what;
    try {
        recipe::Region region(rc, recipe::resident(A.data()), recipe::resident(B.data()));
        recipe::Config nest;
        nest.extents = ext;
        nest.space = space;
        nest.block = dims == 1 ? dim3(256, 1, 1) : dims == 2 ? dim3(64, 4, 1) : dim3(32, 4, 2);
        for (int t = 0; t < c.steps; ++t) region_step(region, dims, nest, A.data(), B.data());
        const recipe::Measured m = region.finish();
        TEST_CHECK(m.total >= 0, "%s: no total measured", what.c_str());
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s: threw %s", what.c_str(), e.what());
        return;
    }
    std::int64_t wrong = 0, first = -1;
    for (std::int64_t i = 0; i < n; ++i)
        if (A[i] != ra[static_cast<std::size_t>(i)] || B[i] != rb[static_cast<std::size_t>(i)]) {
            if (first < 0) first = i;
            ++wrong;
        }
    TEST_CHECK(wrong == 0, "%s: %lld elements differ, first at %lld", what.c_str(), static_cast<long long>(wrong),
               static_cast<long long>(first));
}

// heat2d's form: u = f(t) on the interior, then t = u everywhere; u is
// written whole before it is read (not copied in).
template <class T>
void copy_back_loop(recipe::HostMemory host, int steps, int per_pass, std::int64_t tile_rows) {
    const std::int64_t X = test::quick() ? 45 : 203, Y = test::quick() ? 37 : 181, n = X * Y;
    const recipe::Index3 ext{X, Y, 1};
    const std::string what = std::string(type_name(T{})) + " ghost copy-back " + recipe::to_string(host) + ", " +
                             std::to_string(steps) + " steps, " + std::to_string(per_pass) + " per pass, tiles of " +
                             std::to_string(tile_rows) + " rows";
    test::HostArray<T> t(n, host), u(n, host);
    std::vector<T> rt(static_cast<std::size_t>(n)), ru(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        t[i] = rt[static_cast<std::size_t>(i)] = value<T>(i);
        u[i] = ru[static_cast<std::size_t>(i)] = value<T>(i + 9);
    }
    auto idx = [&](std::int64_t x, std::int64_t y) { return static_cast<std::size_t>(x + X * y); };
    for (int s = 0; s < steps; ++s) {
        for (std::int64_t y = 0; y < Y; ++y)
            for (std::int64_t x = 0; x < X; ++x)
                ru[idx(x, y)] = (x == 0 || y == 0 || x == X - 1 || y == Y - 1)
                                    ? rt[idx(x, y)]
                                    : five<T>(rt[idx(x, y)], rt[idx(x - 1, y)], rt[idx(x + 1, y)], rt[idx(x, y - 1)],
                                              rt[idx(x, y + 1)]);
        for (std::size_t i = 0; i < rt.size(); ++i) rt[i] = ru[i];
    }
    recipe::Config rc;
    rc.extents = ext;
    rc.tile = {X, 4, 1};
    rc.streams = 2;
    rc.host = host;
    rc.ghost_launches = 2 * per_pass;
    rc.ghost_tile_rows = tile_rows;
    rc.name = what;
    try {
        recipe::Region region(rc, recipe::resident(t.data()), recipe::resident(u.data(), false));
        recipe::Config stencil, back;
        stencil.extents = back.extents = ext;
        stencil.block = back.block = dim3(32, 8, 1);
        stencil.name = "stencil";
        back.name = "copy back";
        const recipe::Halo h{{1, 1, 0}, {1, 1, 0}};
        for (int s = 0; s < steps; ++s) {
            region.run(stencil, edge_or_five<T>, recipe::inputs(recipe::input(t.data(), h)),
                       recipe::outputs(recipe::output(u.data())), X, Y);
            region.run(back, copy_back<T>, recipe::inputs(recipe::input(u.data())), recipe::outputs(recipe::output(t.data())));
        }
        region.finish();
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s: threw %s", what.c_str(), e.what());
        return;
    }
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < n; ++i)
        if (t[i] != rt[static_cast<std::size_t>(i)] || (steps > 0 && u[i] != ru[static_cast<std::size_t>(i)])) ++wrong;
    TEST_CHECK(wrong == 0, "%s: %lld elements differ", what.c_str(), static_cast<long long>(wrong));
}

template <class F>
bool throws(const F& f) {
    try {
        f();
    } catch (const recipe::Error&) {
        return true;
    }
    return false;
}

void misuse() {
    const std::int64_t X = 40, Y = 30, n = X * Y;
    std::vector<float> a(static_cast<std::size_t>(n), 1.0f), b(static_cast<std::size_t>(n), 2.0f);
    const recipe::Halo h{{1, 1, 0}, {1, 1, 0}};
    recipe::Config rc;
    rc.extents = {X, Y, 1};
    rc.host = recipe::HostMemory::Staged;
    recipe::Config nest;
    nest.extents = rc.extents;
    nest.space = recipe::Box{{1, 1, 0}, {X - 1, Y - 1, 1}};
    // Three steps per pass read 6 rows below a tile of 4.
    TEST_CHECK(throws([&] {
                   recipe::Config c = rc;
                   c.ghost_tile_rows = 4;
                   c.ghost_launches = 6;
                   recipe::Region region(c, recipe::resident(a.data()), recipe::resident(b.data()));
                   for (int s = 0; s < 3; ++s) {
                       region.run(nest, jacobi2d<float>, recipe::inputs(recipe::input(a.data(), h)), recipe::outputs(recipe::output(b.data())));
                       region.run(nest, jacobi2d<float>, recipe::inputs(recipe::input(b.data(), h)), recipe::outputs(recipe::output(a.data())));
                   }
                   region.finish();
               }),
               "tiles thinner than the ghost zone did not throw");
    TEST_CHECK(throws([&] {
                   recipe::Config c = rc;
                   c.ghost_tile_rows = 10;
                   c.ghost_launches = 2;
                   c.devices = 2;
                   recipe::Region region(c, recipe::resident(a.data()), recipe::resident(b.data()));
                   region.finish();
               }),
               "ghost zones over several GPUs did not throw");
    TEST_CHECK(throws([&] {
                   recipe::Config c = rc;
                   c.ghost_tile_rows = 10;
                   c.ghost_launches = 2;
                   recipe::Region region(c, recipe::resident(a.data()), recipe::resident(b.data()));
                   recipe::Config row;
                   row.extents = {X, 1, 1};
                   region.run(row, jacobi1d<float>, recipe::inputs(recipe::input(a.data() + X)), recipe::outputs(recipe::output(b.data() + X)));
                   region.finish();
               }),
               "a part of an array with ghost zones did not throw");
}

int main() {
    for (int dims = 1; dims <= 3; ++dims) {
        const std::vector<std::int64_t> tiles = dims == 1   ? std::vector<std::int64_t>{0, 997, 7919}
                                                : dims == 2 ? std::vector<std::int64_t>{0, 12, 50}
                                                            : std::vector<std::int64_t>{0, 6, 11};
        for (recipe::HostMemory host : {recipe::HostMemory::Pinned, recipe::HostMemory::Staged})
            for (std::int64_t tile : tiles)
                for (int per_pass : {1, 2, 3})
                    for (int steps : {0, 1, 5, 7}) {
                        // A tile must be at least as tall as the ghost zone below it.
                        const std::int64_t ghost = 2 * per_pass * (dims == 1 ? 2 : 1);
                        if (tile > 0 && tile < ghost) continue;
                        mirrored<float>(Case{dims, host, steps, per_pass, tile});
                    }
    }
    mirrored<double>(Case{2, recipe::HostMemory::Staged, 5, 2, 12});
    mirrored<int>(Case{3, recipe::HostMemory::Pinned, 4, 3, 6});
    for (recipe::HostMemory host : {recipe::HostMemory::Pinned, recipe::HostMemory::Staged})
        for (int steps : {0, 1, 6})
            for (int per_pass : {1, 4}) copy_back_loop<float>(host, steps, per_pass, 9);
    copy_back_loop<double>(recipe::HostMemory::Staged, 5, 2, 16);
    misuse();
    return test::finish("ghost_test");
}
