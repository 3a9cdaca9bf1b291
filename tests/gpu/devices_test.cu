// devices_test.cu — device tests of calls over several GPUs
// (Config::devices; detail/run_devices.cuh and the Region's parts in
// detail/region_impl.cuh), for float, double and int:
// - recipe::run of a 2-D 5-point stencil on the interior over 1 to 4 GPUs,
//   every scheme, pinned, registered and staged host arrays;
// - a Region time loop (`B = f(A); A = f(B)`, PolyBench's Jacobi) in 1-D
//   (halo 2), 2-D and 3-D (halo 1) over 1 to 4 GPUs, 0 to 5 steps, halo
//   rows exchanged with NCCL;
// - misuse (more GPUs than the process sees, a read deeper than the halo
//   rows, a part of an array) throws recipe::Error.
// Every output is compared exactly with the sequential loops. Runs with the
// GPUs the machine has: with one GPU only the one-GPU cases run and the
// test says so.
#include <cstdio>
#include <string>
#include <vector>

#include "jacobi_cases.cuh"
#include "test_support.cuh"

using namespace jacobi_cases;

int gpu_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) return 0;
    return n;
}

// ---- recipe::run over several GPUs
template <class T>
void run_case(recipe::Scheme scheme, recipe::HostMemory host, int devices) {
    const std::int64_t W = test::quick() ? 131 : 517, H = test::quick() ? 97 : 389;
    const std::string what = std::string(sizeof(T) == 8 ? "double" : std::is_integral<T>::value ? "int" : "float") +
                             " run " + recipe::to_string(scheme) + " " + recipe::to_string(host) + " on " +
                             std::to_string(devices) + " GPUs";
    test::HostArray<T> a(W * H, host), b(W * H, host);
    for (std::int64_t i = 0; i < W * H; ++i) {
        a[i] = value<T>(i);
        b[i] = static_cast<T>(-1);
    }
    std::vector<T> ref(static_cast<std::size_t>(W * H), static_cast<T>(-1));
    for (std::int64_t y = 1; y < H - 1; ++y)
        for (std::int64_t x = 1; x < W - 1; ++x)
            ref[static_cast<std::size_t>(x + W * y)] =
                five<T>(a[x + W * y], a[x - 1 + W * y], a[x + 1 + W * y], a[x + W * (y - 1)], a[x + W * (y + 1)]);
    recipe::Config c;
    c.scheme = scheme;
    c.extents = {W, H, 1};
    c.space = {{1, 1, 0}, {W - 1, H - 1, 1}};
    c.tile = {W, 23, 1};
    c.streams = 3;
    c.block = dim3(64, 4, 1);
    c.host = host;
    c.devices = devices;
    c.name = what;
    try {
        const recipe::Measured m =
            recipe::run(c, jacobi2d<T>, recipe::inputs(recipe::input(a.data(), recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                        recipe::outputs(recipe::output(b.data())));
        TEST_CHECK(m.total >= 0, "%s: total %f", what.c_str(), m.total);
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s: threw %s", what.c_str(), e.what());
        return;
    }
    std::int64_t wrong = 0, first = -1;
    for (std::int64_t i = 0; i < W * H; ++i)
        if (b[i] != ref[static_cast<std::size_t>(i)]) {
            if (first < 0) first = i;
            ++wrong;
        }
    TEST_CHECK(wrong == 0, "%s: %lld elements differ, first at %lld", what.c_str(), static_cast<long long>(wrong),
               static_cast<long long>(first));
}

// ---- a Region time loop over several GPUs: B = f(A); A = f(B), `steps` times
template <class T>
void region_case(int dims, recipe::HostMemory host, int devices, int steps) {
    const recipe::Index3 ext = extents(dims);
    const int reach = jacobi_cases::reach(dims);
    const std::int64_t n = ext[0] * ext[1] * ext[2];
    const std::string what = std::string(sizeof(T) == 8 ? "double" : std::is_integral<T>::value ? "int" : "float") +
                             " region " + std::to_string(dims) + "-D " + recipe::to_string(host) + " on " +
                             std::to_string(devices) + " GPUs, " + std::to_string(steps) + " steps";
    test::HostArray<T> A(n, host), B(n, host);
    std::vector<T> ra(static_cast<std::size_t>(n)), rb(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        A[i] = ra[static_cast<std::size_t>(i)] = value<T>(i);
        B[i] = rb[static_cast<std::size_t>(i)] = value<T>(i + 5);
    }
    const recipe::Box space = interior(dims, ext);
    for (int t = 0; t < steps; ++t) {
        sweep(dims, ext, space, ra, rb);
        sweep(dims, ext, space, rb, ra);
    }
    recipe::Config rc;
    rc.extents = ext;
    rc.tile = dims == 1 ? recipe::Index3{4099, 1, 1} : dims == 2 ? recipe::Index3{ext[0], 16, 1} : recipe::Index3{ext[0], ext[1], 4};
    rc.streams = 2;
    rc.host = host;
    rc.devices = devices;
    rc.halo_rows = reach;
    rc.name = what;
    try {
        recipe::Region region(rc, recipe::resident(A.data()), recipe::resident(B.data()));
        recipe::Config nest;
        nest.extents = ext;
        nest.space = space;
        nest.block = dims == 1 ? dim3(256, 1, 1) : dims == 2 ? dim3(64, 4, 1) : dim3(32, 4, 2);
        for (int t = 0; t < steps; ++t) region_step(region, dims, nest, A.data(), B.data());
        region.finish();
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

template <class F>
bool throws(const F& f) {
    try {
        f();
    } catch (const recipe::Error&) {
        return true;
    }
    return false;
}

void misuse(int gpus) {
    const std::int64_t W = 64, H = 64;
    test::HostArray<float> a(W * H, recipe::HostMemory::Pinned), b(W * H, recipe::HostMemory::Pinned);
    for (std::int64_t i = 0; i < W * H; ++i) a[i] = b[i] = 1;
    recipe::Config c;
    c.extents = {W, H, 1};
    c.tile = {W, 8, 1};
    c.devices = gpus + 1;
    TEST_CHECK(throws([&] {
                   recipe::run(c, jacobi2d<float>, recipe::inputs(recipe::input(a.data())),
                               recipe::outputs(recipe::output(b.data())));
               }),
               "a run asking for more GPUs than the process sees must throw");
    TEST_CHECK(throws([&] { recipe::Region r(c, recipe::resident(a.data()), recipe::resident(b.data())); }),
               "a region asking for more GPUs than the process sees must throw");
    if (gpus < 2) return;
    recipe::Config rc = c;
    rc.devices = 2;
    rc.halo_rows = 1;
    recipe::Config nest;
    nest.extents = {W, H, 1};
    nest.space = {{2, 2, 0}, {W - 2, H - 2, 1}};
    TEST_CHECK(throws([&] {
                   recipe::Region r(rc, recipe::resident(a.data()), recipe::resident(b.data()));
                   r.run(nest, jacobi2d<float>, recipe::inputs(recipe::input(a.data(), recipe::Halo{{2, 2, 0}, {2, 2, 0}})),
                         recipe::outputs(recipe::output(b.data())));
               }),
               "a read deeper than the region's halo rows must throw");
    TEST_CHECK(throws([&] {
                   recipe::Region r(rc, recipe::resident(a.data()), recipe::resident(b.data()));
                   recipe::Config row;
                   row.extents = {W, H, 1};
                   row.space = {{0, 0, 0}, {W, 1, 1}};
                   r.run(row, jacobi2d<float>, recipe::inputs(recipe::input(a.data() + W)),
                         recipe::outputs(recipe::output(b.data())));
               }),
               "a part of an array in a region over several GPUs must throw");
}

int main() {
    const int gpus = gpu_count();
    std::printf("devices_test: %d GPUs\n", gpus);
    const int most = std::min(gpus, 4);
    for (int d = 1; d <= most; ++d) {
        for (const recipe::SchemeTraits& s : recipe::kSchemes)
            for (recipe::HostMemory host : {recipe::HostMemory::Pinned, recipe::HostMemory::Register, recipe::HostMemory::Staged}) {
                if (host == recipe::HostMemory::Staged && s.scheme != recipe::Scheme::Scalable &&
                    s.scheme != recipe::Scheme::Basic && s.scheme != recipe::Scheme::Buffered)
                    continue;  // staging: the schemes whose pageable modes list it
                run_case<float>(s.scheme, host, d);
            }
        run_case<double>(recipe::Scheme::Scalable, recipe::HostMemory::Staged, d);
        run_case<int>(recipe::Scheme::Basic, recipe::HostMemory::Pinned, d);
        for (int dims = 1; dims <= 3; ++dims)
            for (recipe::HostMemory host : {recipe::HostMemory::Pinned, recipe::HostMemory::Staged})
                for (int steps : {0, 1, 5}) region_case<float>(dims, host, d, steps);
        region_case<double>(2, recipe::HostMemory::Staged, d, 3);
        region_case<int>(3, recipe::HostMemory::Pinned, d, 2);
    }
    misuse(gpus);
    if (gpus < 2) std::printf("devices_test: one GPU: only the one-GPU cases ran\n");
    return test::finish("devices_test");
}
