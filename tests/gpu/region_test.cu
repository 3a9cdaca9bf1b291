// region_test.cu — device tests of recipe/region.cuh, for float, double and
// int: time loops whose steps run several nests on arrays resident on the
// device (PolyBench's mirrored Jacobi `B = f(A); A = f(B)` on the interior,
// an fdtd-like step of three nests over three arrays with inout updates,
// nests on single rows named by pointers inside the held arrays,
// host pointers swapped between steps), an array the region writes whole
// before reading it (not copied in; untouched when no step runs), one whose
// interior the first nest writes (only its frame copied in), 0 to 5 steps, every host memory mode,
// chunks of several sizes over 1 to 3 streams, the launches run as written or
// cut into pieces pipelined with the copies (Config::pipelined_launches; each
// input declares the halo it reads). Every array is compared
// exactly with the sequential loops; misuse must throw recipe::Error.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "jacobi_cases.cuh"
#include "test_support.cuh"

// B(x,y) = (A(x,y) + A(x-1,y) + A(x+1,y) + A(x,y-1) + A(x,y+1)) / 5 on the
// interior: jacobi_cases' 2-D kernel and its five-point mean.
using jacobi_cases::five;
using jacobi_cases::jacobi2d;

// fdtd-like: ey(x,y) -= hz(x,y) - hz(x,y-1) (y >= 1); ex(x,y) -= hz(x,y) - hz(x-1,y) (x >= 1);
// hz(x,y) -= ex(x+1,y) - ex(x,y) + ey(x,y+1) - ey(x,y) (interior below the last row and column).
template <class T>
__global__ void update_ey(recipe::Tile t, recipe::InView<T> hz, recipe::OutView<T> ey, T row0) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    ey(x, y) = y == 0 ? row0 : ey(x, y) - (hz(x, y) - hz(x, y - 1));
}
template <class T>
__global__ void update_ex(recipe::Tile t, recipe::InView<T> hz, recipe::OutView<T> ex) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    ex(x, y) = ex(x, y) - (hz(x, y) - hz(x - 1, y));
}
template <class T>
__global__ void update_hz(recipe::Tile t, recipe::InView<T> ex, recipe::InView<T> ey, recipe::OutView<T> hz) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    hz(x, y) = hz(x, y) - (ex(x + 1, y) - ex(x, y) + ey(x, y + 1) - ey(x, y));
}
// One row as a 1-D array: driven with a value, or copied from another row.
template <class T>
__global__ void drive_row(recipe::Tile t, recipe::OutView<T> row, T v) {
    const std::int64_t x = t.x();
    if (!t.contains(x)) return;
    row(x) = v;
}
template <class T>
__global__ void copy_row(recipe::Tile t, recipe::InView<T> from, recipe::OutView<T> to) {
    const std::int64_t x = t.x();
    if (!t.contains(x)) return;
    to(x) = from(x);
}
template <class T>
__global__ void fill_kernel(recipe::Tile t, recipe::OutView<T> a) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    a(x, y) = static_cast<T>((x * 3 + y * 5) % 11);
}

struct Setup {
    recipe::HostMemory host;
    recipe::Index3 chunk;
    int streams;
    std::int64_t pipelined = 0;  // Config::pipelined_launches
};

template <class T>
std::string what(const char* name, const Setup& s, std::int64_t steps, const recipe::Index3& ext) {
    recipe::Config c;
    c.scheme = recipe::Scheme::Basic;
    c.extents = ext;
    c.host = s.host;
    c.streams = s.streams;
    c.tile = s.chunk;
    return std::string(test::type_name<T>()) + " " + name + " steps " + std::to_string(steps) + " " + test::describe(c) +
           (s.pipelined > 0 ? " pipelined " + std::to_string(s.pipelined) : std::string());
}

template <class T>
recipe::Config region_config(const recipe::Index3& ext, const Setup& s, const char* name) {
    recipe::Config c;
    c.extents = ext;
    c.host = s.host;
    c.streams = s.streams;
    c.tile = s.chunk;
    c.pipelined_launches = s.pipelined;
    c.name = name;
    return c;
}

recipe::Config nest_config(const recipe::Index3& ext, recipe::Box space, const char* name) {
    recipe::Config c;
    c.extents = ext;
    c.space = space;
    c.block = dim3(8, 4);
    c.name = name;
    return c;
}

// PolyBench's jacobi-2d: B = f(A), A = f(B) on the interior, every step.
template <class T>
void mirrored(const Setup& s, std::int64_t steps, bool swap_pointers) {
    const recipe::Index3 ext{23, 17, 1};
    const std::int64_t X = ext[0], Y = ext[1], n = X * Y;
    test::HostArray<T> a(n, s.host), b(n, s.host);
    test::fill(a.data(), n, 21);
    test::fill(b.data(), n, 22);
    std::vector<T> ra(a.data(), a.data() + n), rb(b.data(), b.data() + n);
    auto sweep = [&](const T* in, T* out) {
        for (std::int64_t y = 1; y < Y - 1; ++y)
            for (std::int64_t x = 1; x < X - 1; ++x)
                out[x + X * y] = five<T>(in[x + X * y], in[x - 1 + X * y], in[x + 1 + X * y], in[x + X * (y - 1)],
                                         in[x + X * (y + 1)]);
    };
    // With swap_pointers, one nest per step and the pointers swapped (jacobi3d's form).
    T *rc = ra.data(), *rn = rb.data();
    for (std::int64_t t = 0; t < steps; ++t) {
        if (swap_pointers) {
            sweep(rc, rn);
            std::swap(rc, rn);
        } else {
            sweep(ra.data(), rb.data());
            sweep(rb.data(), ra.data());
        }
    }
    const std::string w = what<T>(swap_pointers ? "swapped" : "mirrored", s, steps, ext);
    try {
        const recipe::Box interior{{1, 1, 0}, {X - 1, Y - 1, 1}};
        const recipe::Config c1 = nest_config(ext, interior, "first"), c2 = nest_config(ext, interior, "second");
        recipe::Region region(region_config<T>(ext, s, "region_test mirrored"), recipe::resident(a.data()),
                              recipe::resident(b.data()));
        T *cur = a.data(), *next = b.data();
        for (std::int64_t t = 0; t < steps; ++t) {
            if (swap_pointers) {
                region.run(c1, jacobi2d<T>, recipe::inputs(recipe::input(static_cast<const T*>(cur), recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                           recipe::outputs(recipe::output(next)));
                std::swap(cur, next);
            } else {
                region.run(c1, jacobi2d<T>, recipe::inputs(recipe::input(static_cast<const T*>(a.data()), recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                           recipe::outputs(recipe::output(b.data())));
                region.run(c2, jacobi2d<T>, recipe::inputs(recipe::input(static_cast<const T*>(b.data()), recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                           recipe::outputs(recipe::output(a.data())));
            }
        }
        const recipe::Measured m = region.finish();
        TEST_CHECK(m.total >= 0, "%s: no total measured", w.c_str());
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s threw: %s", w.c_str(), e.what());
        return;
    }
    TEST_CHECK(test::same(a.data(), ra.data(), ext, w + " A"), "%s: A differs", w.c_str());
    TEST_CHECK(test::same(b.data(), rb.data(), ext, w + " B"), "%s: B differs", w.c_str());
}

// The Parboil form: a function that calls recipe::run, called from a time
// loop that swaps the pointers; inside a region the calls launch on its
// resident arrays (copying nothing), outside it they run as before.
template <class T>
void sweep_call(T* in, T* out, const recipe::Index3& ext) {
    const recipe::Box interior{{1, 1, 0}, {ext[0] - 1, ext[1] - 1, 1}};
    recipe::Config c = nest_config(ext, interior, "called sweep");
    c.scheme = recipe::Scheme::Basic;
    c.tile = {ext[0], 3, 1};
    c.host = recipe::HostMemory::Pageable;  // any mode: the arrays given are valid for each
    recipe::run(c, jacobi2d<T>, recipe::inputs(recipe::input(static_cast<const T*>(in), recipe::Halo{{1, 1, 0}, {1, 1, 0}})), recipe::outputs(recipe::inout(out)));
}

template <class T>
void called(const Setup& s, std::int64_t steps) {
    const recipe::Index3 ext{23, 17, 1};
    const std::int64_t X = ext[0], Y = ext[1], n = X * Y;
    test::HostArray<T> a(n, s.host), b(n, s.host);
    test::fill(a.data(), n, 31);
    test::fill(b.data(), n, 32);
    std::vector<T> ra(a.data(), a.data() + n), rb(b.data(), b.data() + n);
    T *rc = ra.data(), *rn = rb.data();
    for (std::int64_t t = 0; t < steps; ++t) {
        for (std::int64_t y = 1; y < Y - 1; ++y)
            for (std::int64_t x = 1; x < X - 1; ++x)
                rn[x + X * y] = five<T>(rc[x + X * y], rc[x - 1 + X * y], rc[x + 1 + X * y], rc[x + X * (y - 1)],
                                        rc[x + X * (y + 1)]);
        std::swap(rc, rn);
    }
    const std::string w = what<T>("called", s, steps, ext);
    T *cur = a.data(), *next = b.data();
    try {
        recipe::Region region(region_config<T>(ext, s, "region_test called"), recipe::resident(a.data()),
                              recipe::resident(b.data()));
        for (std::int64_t t = 0; t < steps; ++t) {
            sweep_call(cur, next, ext);
            std::swap(cur, next);
        }
        const recipe::Measured m = region.finish();
        TEST_CHECK(m.h2d_bytes == 2 * n * static_cast<std::int64_t>(sizeof(T)),
                   "%s: %lld bytes copied in, not both arrays once", w.c_str(), static_cast<long long>(m.h2d_bytes));
        TEST_CHECK(m.d2h_bytes == (steps == 0 ? 0 : steps == 1 ? 1 : 2) * n * static_cast<std::int64_t>(sizeof(T)),
                   "%s: %lld bytes copied out", w.c_str(), static_cast<long long>(m.d2h_bytes));
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s threw: %s", w.c_str(), e.what());
        return;
    }
    TEST_CHECK(test::same(a.data(), ra.data(), ext, w + " A"), "%s: A differs", w.c_str());
    TEST_CHECK(test::same(b.data(), rb.data(), ext, w + " B"), "%s: B differs", w.c_str());
    // After finish() the same call copies again, on the host arrays.
    if (steps == 1) {
        test::poison(b.data(), n);
        std::vector<T> after(b.data(), b.data() + n);
        try {
            sweep_call(a.data(), b.data(), ext);
        } catch (const recipe::Error& e) {
            TEST_CHECK(false, "%s: a call after the region threw: %s", w.c_str(), e.what());
        }
        for (std::int64_t y = 1; y < Y - 1; ++y)
            for (std::int64_t x = 1; x < X - 1; ++x)
                after[x + X * y] = five<T>(ra[x + X * y], ra[x - 1 + X * y], ra[x + 1 + X * y], ra[x + X * (y - 1)],
                                           ra[x + X * (y + 1)]);
        TEST_CHECK(test::same(b.data(), after.data(), ext, w + " after"), "%s: the call after the region differs", w.c_str());
    }
}

// Three nests over three arrays per step, two of them inout; then a fourth
// array the region fills before it reads it (resident without copy in).
template <class T>
void fdtd_like(const Setup& s, std::int64_t steps) {
    const recipe::Index3 ext{19, 14, 1};
    const std::int64_t X = ext[0], Y = ext[1], n = X * Y;
    test::HostArray<T> ex(n, s.host), ey(n, s.host), hz(n, s.host), f(n, s.host);
    test::fill(ex.data(), n, 31);
    test::fill(ey.data(), n, 32);
    test::fill(hz.data(), n, 33);
    test::poison(f.data(), n);
    std::vector<T> rex(ex.data(), ex.data() + n), rey(ey.data(), ey.data() + n), rhz(hz.data(), hz.data() + n), rf(n);
    for (std::int64_t t = 0; t < steps; ++t) {
        const T row0 = static_cast<T>(t);
        for (std::int64_t y = 0; y < Y; ++y)
            for (std::int64_t x = 0; x < X; ++x)
                rey[x + X * y] = y == 0 ? row0 : rey[x + X * y] - (rhz[x + X * y] - rhz[x + X * (y - 1)]);
        for (std::int64_t y = 0; y < Y; ++y)
            for (std::int64_t x = 1; x < X; ++x) rex[x + X * y] = rex[x + X * y] - (rhz[x + X * y] - rhz[x - 1 + X * y]);
        for (std::int64_t y = 0; y < Y - 1; ++y)
            for (std::int64_t x = 0; x < X - 1; ++x)
                rhz[x + X * y] = rhz[x + X * y] - (rex[x + 1 + X * y] - rex[x + X * y] + rey[x + X * (y + 1)] - rey[x + X * y]);
    }
    for (std::int64_t y = 0; y < Y; ++y)
        for (std::int64_t x = 0; x < X; ++x) rf[x + X * y] = static_cast<T>((x * 3 + y * 5) % 11);
    const std::string w = what<T>("fdtd-like", s, steps, ext);
    try {
        recipe::Region region(region_config<T>(ext, s, "region_test fdtd-like"), recipe::resident(ex.data()),
                              recipe::resident(ey.data()), recipe::resident(hz.data()),
                              recipe::resident(f.data(), false, true));
        region.run(nest_config(ext, {{0, 0, 0}, {X, Y, 1}}, "fill"), fill_kernel<T>, recipe::inputs(),
                   recipe::outputs(recipe::output(f.data())));
        for (std::int64_t t = 0; t < steps; ++t) {
            region.run(nest_config(ext, {{0, 0, 0}, {X, Y, 1}}, "ey"), update_ey<T>,
                       recipe::inputs(recipe::input(static_cast<const T*>(hz.data()), recipe::Halo{{0, 1, 0}, {0, 0, 0}})),
                       recipe::outputs(recipe::inout(ey.data())), static_cast<T>(t));
            region.run(nest_config(ext, {{1, 0, 0}, {X, Y, 1}}, "ex"), update_ex<T>,
                       recipe::inputs(recipe::input(static_cast<const T*>(hz.data()), recipe::Halo{{1, 0, 0}, {0, 0, 0}})),
                       recipe::outputs(recipe::inout(ex.data())));
            region.run(nest_config(ext, {{0, 0, 0}, {X - 1, Y - 1, 1}}, "hz"), update_hz<T>,
                       recipe::inputs(recipe::input(static_cast<const T*>(ex.data()), recipe::Halo{{0, 0, 0}, {1, 0, 0}}),
                                      recipe::input(static_cast<const T*>(ey.data()), recipe::Halo{{0, 0, 0}, {0, 1, 0}})),
                       recipe::outputs(recipe::inout(hz.data())));
        }
        region.finish();
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s threw: %s", w.c_str(), e.what());
        return;
    }
    TEST_CHECK(test::same(ex.data(), rex.data(), ext, w + " ex"), "%s: ex differs", w.c_str());
    TEST_CHECK(test::same(ey.data(), rey.data(), ext, w + " ey"), "%s: ey differs", w.c_str());
    TEST_CHECK(test::same(hz.data(), rhz.data(), ext, w + " hz"), "%s: hz differs", w.c_str());
    TEST_CHECK(test::same(f.data(), rf.data(), ext, w + " f"), "%s: f differs", w.c_str());
}

// Misuse is an error, not a wrong result.
// Nests on single rows of the held arrays, named by pointers inside them
// (PolyBench's fdtd-2d `ey[0][j] = _fict_[t]`, an open boundary copying the
// row before the last into the last), between updates of the whole arrays.
template <class T>
void rows(const Setup& s, std::int64_t steps) {
    const recipe::Index3 ext{29, 13, 1};
    const std::int64_t X = ext[0], Y = ext[1], n = X * Y;
    test::HostArray<T> e(n, s.host), h(n, s.host);
    test::fill(e.data(), n, 41);
    test::fill(h.data(), n, 42);
    std::vector<T> re(e.data(), e.data() + n), rh(h.data(), h.data() + n);
    for (std::int64_t t = 0; t < steps; ++t) {
        for (std::int64_t x = 0; x < X; ++x) re[x] = static_cast<T>(t % 7 + 1);
        for (std::int64_t x = 0; x < X; ++x) re[x + X * (Y - 1)] = re[x + X * (Y - 2)];
        for (std::int64_t y = 0; y < Y; ++y)
            for (std::int64_t x = 1; x < X; ++x) re[x + X * y] = re[x + X * y] - (rh[x + X * y] - rh[x - 1 + X * y]);
    }
    const std::string w = what<T>("rows", s, steps, ext);
    try {
        recipe::Region region(region_config<T>(ext, s, "region_test rows"), recipe::resident(e.data()),
                              recipe::resident(h.data()));
        for (std::int64_t t = 0; t < steps; ++t) {
            region.run(nest_config(ext, {{0, 0, 0}, {X, 1, 1}}, "drive"), drive_row<T>, recipe::inputs(),
                       recipe::outputs(recipe::output(e.data())), static_cast<T>(t % 7 + 1));
            region.run(nest_config(ext, {{0, 0, 0}, {X, 1, 1}}, "open"), copy_row<T>,
                       recipe::inputs(recipe::input(static_cast<const T*>(e.data() + X * (Y - 2)))),
                       recipe::outputs(recipe::output(e.data() + X * (Y - 1))));
            region.run(nest_config(ext, {{1, 0, 0}, {X, Y, 1}}, "update"), update_ex<T>,
                       recipe::inputs(recipe::input(static_cast<const T*>(h.data()), recipe::Halo{{1, 0, 0}, {0, 0, 0}})),
                       recipe::outputs(recipe::inout(e.data())));
        }
        region.finish();
    } catch (const recipe::Error& err) {
        TEST_CHECK(false, "%s threw: %s", w.c_str(), err.what());
        return;
    }
    TEST_CHECK(test::same(e.data(), re.data(), ext, w + " e"), "%s: e differs", w.c_str());
    TEST_CHECK(test::same(h.data(), rh.data(), ext, w + " h"), "%s: h differs", w.c_str());
}

void misuse() {
    const recipe::Index3 ext{8, 8, 1};
    test::HostArray<float> a(64, recipe::HostMemory::Pageable), b(64, recipe::HostMemory::Pageable),
        other(64, recipe::HostMemory::Pageable);
    test::fill(a.data(), 64, 1);
    const Setup s{recipe::HostMemory::Staged, {8, 3, 1}, 2};
    auto throws = [&](auto&& f) {
        try {
            f();
        } catch (const recipe::Error&) {
            return true;
        }
        return false;
    };
    TEST_CHECK(throws([&] {
                   recipe::Region r(region_config<float>(ext, s, "misuse"), recipe::resident(a.data()),
                                    recipe::resident(b.data()));
                   r.run(nest_config(ext, {{1, 1, 0}, {7, 7, 1}}, "stranger"), jacobi2d<float>,
                         recipe::inputs(recipe::input(static_cast<const float*>(other.data()))),
                         recipe::outputs(recipe::output(b.data())));
               }),
               "an array the region does not hold was accepted");
    TEST_CHECK(throws([&] {
                   recipe::Region r(region_config<float>(ext, s, "misuse"), recipe::resident(a.data()),
                                    recipe::resident(b.data()));
                   r.run(nest_config({8, 9, 1}, {{1, 1, 0}, {7, 7, 1}}, "other extents"), jacobi2d<float>,
                         recipe::inputs(recipe::input(static_cast<const float*>(a.data()))),
                         recipe::outputs(recipe::output(b.data())));
               }),
               "a nest with other extents was accepted");
    TEST_CHECK(throws([&] {
                   recipe::Region r(region_config<float>(ext, s, "misuse"), recipe::resident(a.data()),
                                    recipe::resident(b.data()));
                   r.finish();
                   r.finish();
               }),
               "finish() twice was accepted");
    TEST_CHECK(throws([&] {
                   recipe::Region r(region_config<float>(ext, s, "misuse"), recipe::resident(a.data()));
                   sweep_call(a.data(), b.data(), ext);  // b is not resident: a mix the library refuses
               }),
               "a recipe::run on arrays a region holds only in part was accepted");
    // A loop that runs no step: an array the region did not copy in keeps
    // its host values (nothing wrote it on the device).
    {
        test::poison(b.data(), 64);
        std::vector<float> before(b.data(), b.data() + 64);
        try {
            recipe::Region r(region_config<float>(ext, s, "no steps"), recipe::resident(a.data()),
                             recipe::resident(b.data(), false, true));
            r.finish();
        } catch (const recipe::Error& e) {
            TEST_CHECK(false, "no steps threw: %s", e.what());
        }
        TEST_CHECK(test::same(b.data(), before.data(), ext, "no steps b"), "a region with no run changed an array it never wrote");
    }
    // After the failures the library still works.
    mirrored<float>(s, 2, false);
}

// PolyBench's jacobi-1d/2d and heat-3d steps with B's interior promised
// written first (recipe::resident(B, interior)): B's host interior holds
// values the loops never read, and only its frame may reach the device. A
// chunk inside the interior is not copied at all (counted in 1-D, where
// such chunks exist); every array must come out as the sequential loops
// leave it.
// With `broken`, each step runs the other way round (A = f(B) first), so the
// first launch naming B reads it: the library must copy the promised box in
// before that launch, and the result must still be exact.
template <class T>
void written_first(const Setup& s, int dims, std::int64_t steps, bool broken = false) {
    const recipe::Index3 ext = jacobi_cases::extents(dims);
    const std::int64_t n = ext[0] * ext[1] * ext[2];
    const recipe::Box inner = jacobi_cases::interior(dims, ext);
    test::HostArray<T> a(n, s.host), b(n, s.host);
    for (std::int64_t i = 0; i < n; ++i) {
        a.data()[i] = jacobi_cases::value<T>(i);
        b.data()[i] = jacobi_cases::value<T>(i + 5);
    }
    std::vector<T> ra(a.data(), a.data() + n), rb(b.data(), b.data() + n);
    for (std::int64_t t = 0; t < steps; ++t) {
        if (broken) {
            jacobi_cases::sweep(dims, ext, inner, rb, ra);
            jacobi_cases::sweep(dims, ext, inner, ra, rb);
        } else {
            jacobi_cases::sweep(dims, ext, inner, ra, rb);
            jacobi_cases::sweep(dims, ext, inner, rb, ra);
        }
    }
    recipe::Index3 chunk = ext;
    chunk[dims - 1] = std::max<std::int64_t>(1, ext[dims - 1] / 7);  // 7 or 8 chunks of whole rows (planes)
    const Setup framed{s.host, chunk, s.streams, s.pipelined};
    const std::string w =
        what<T>(((broken ? "written first, broken, " : "written first ") + std::to_string(dims) + "-D").c_str(), framed, steps, ext);
    try {
        recipe::Config nest = nest_config(ext, inner, "written_first");
        nest.block = dims == 1 ? dim3(64) : dims == 2 ? dim3(16, 8) : dim3(8, 4, 4);
        recipe::Region region(region_config<T>(ext, framed, "region_test written_first"), recipe::resident(a.data()),
                              recipe::resident(b.data(), inner));
        for (std::int64_t t = 0; t < steps; ++t)
            if (broken) jacobi_cases::region_step(region, dims, nest, b.data(), a.data());
            else jacobi_cases::region_step(region, dims, nest, a.data(), b.data());
        const recipe::Measured m = region.finish();
        if (dims == 1 && !broken) {  // a whole; of b its points outside the interior (pageable: its chunks that hold one)
            std::int64_t want = n;
            if (s.host != recipe::HostMemory::Pageable) {
                want += n - inner.count();
            } else {
                for (std::int64_t begin = 0; begin < n; begin += chunk[0]) {
                    const std::int64_t end = std::min(n, begin + chunk[0]);
                    if (begin < inner.begin[0] || end > inner.end[0]) want += end - begin;
                }
            }
            want *= static_cast<std::int64_t>(sizeof(T));
            TEST_CHECK(m.h2d_bytes == want, "%s: %lld bytes copied in, want %lld", w.c_str(),
                       static_cast<long long>(m.h2d_bytes), static_cast<long long>(want));
        }
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s threw: %s", w.c_str(), e.what());
        return;
    }
    TEST_CHECK(test::same(a.data(), ra.data(), ext, w + " A"), "%s: A differs", w.c_str());
    TEST_CHECK(test::same(b.data(), rb.data(), ext, w + " B"), "%s: B differs", w.c_str());
}

template <class T>
void run_all() {
    const bool quick = test::quick();
    for (auto host : test::kHosts)
        for (int dims = 1; dims <= 3; ++dims)
            for (std::int64_t steps : {1, 3})
                for (std::int64_t pipelined : {0, 1, 1000}) {
                    written_first<T>(Setup{host, {0, 0, 0}, 2, pipelined}, dims, steps);
                    written_first<T>(Setup{host, {0, 0, 0}, 2, pipelined}, dims, steps, true);
                }
    for (auto host : test::kHosts)
        for (const recipe::Index3 chunk : {recipe::Index3{0, 0, 0}, recipe::Index3{23, 4, 1}, recipe::Index3{23, 1, 1}})
            for (int streams : {1, 3})
                for (std::int64_t pipelined : {0, 2, 1000}) {
                    if (quick && (streams == 1 || pipelined == 2)) continue;
                    const Setup s{host, chunk, streams, pipelined};
                    for (std::int64_t steps : {0, 1, 2, 5}) {
                        mirrored<T>(s, steps, false);
                        mirrored<T>(s, steps, true);
                        called<T>(s, steps);
                        fdtd_like<T>(Setup{host, recipe::Index3{19, chunk[1], 1}, streams, pipelined}, steps);
                        rows<T>(Setup{host, recipe::Index3{29, chunk[1], 1}, streams, pipelined}, steps);
                    }
                }
}

int main() {
    run_all<float>();
    run_all<int>();
    if (!test::quick()) run_all<double>();
    misuse();
    return test::finish("region_test");
}
