// error_test.cu — device tests of recipe/error.cuh: what a failing run
// throws. Usage errors (a space outside the arrays, a null array, a tile
// whose grid CUDA cannot launch) and CUDA failures (a launch the device
// refuses, a kernel that faults) each throw recipe::Error naming the call,
// the nest and the tile; after a non-sticky failure the next run works.
// Not run under memcheck: the faults here are on purpose.
#include <cstdio>
#include <string>

#include "test_support.cuh"

__global__ void copy_kernel(recipe::Tile t, recipe::InView<float> in, recipe::OutView<float> out) {
    const auto x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    out(x, y) = in(x, y) + 1.0f;
}

__global__ void faulting_kernel(recipe::Tile t, recipe::InView<float> in, recipe::OutView<float> out) {
    const auto x = t.x();
    if (!t.contains(x)) return;
    out(x + (std::int64_t(1) << 40)) = in(x);  // far outside any allocation
}

template <class F>
std::string thrown(F&& f, cudaError_t* code = nullptr) {
    try {
        f();
    } catch (const recipe::Error& e) {
        if (code) *code = e.code();
        return e.what();
    }
    return "";
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

int main() {
    const std::int64_t W = 64, H = 70000;
    test::HostArray<float> in(W * H, recipe::HostMemory::Pinned), out(W * H, recipe::HostMemory::Pinned);
    test::fill(in.data(), W * H, 5);
    recipe::Config cfg;
    cfg.name = "error_test (copy.c:3)";
    cfg.extents = {W, 16, 1};
    cfg.tile = {W, 4, 1};
    cfg.block = dim3(64, 1, 1);
    auto go = [&](void (*k)(recipe::Tile, recipe::InView<float>, recipe::OutView<float>), const float* i, float* o) {
        recipe::run(cfg, k, recipe::inputs(recipe::input(i)), recipe::outputs(recipe::output(o)));
    };

    std::string m = thrown([&] { go(copy_kernel, in.data(), out.data()); });
    TEST_CHECK(m.empty(), "a good run threw: %s", m.c_str());

    cfg.space = {{0, 0, 0}, {W + 1, 16, 1}};
    cudaError_t code = cudaErrorUnknown;
    m = thrown([&] { go(copy_kernel, in.data(), out.data()); }, &code);
    TEST_CHECK(has(m, "error_test (copy.c:3)") && has(m, "iteration space") && code == cudaSuccess, "got: %s", m.c_str());
    cfg.space = {{0, 0, 0}, {-1, -1, -1}};

    m = thrown([&] { go(copy_kernel, nullptr, out.data()); });
    TEST_CHECK(has(m, "input 0 is a null pointer"), "got: %s", m.c_str());

    cfg.extents = {W, H, 1};
    cfg.tile = {W, H, 1};
    cfg.block = dim3(64, 1, 1);
    m = thrown([&] { go(copy_kernel, in.data(), out.data()); });
    TEST_CHECK(has(m, "more than CUDA allows") && has(m, "tile 0 of 1"), "got: %s", m.c_str());

    cfg.extents = {W, 16, 1};
    cfg.tile = {W, 4, 1};
    cfg.block = dim3(2048, 1, 1);  // more threads than a block may have
    code = cudaSuccess;
    m = thrown([&] { go(copy_kernel, in.data(), out.data()); }, &code);
    TEST_CHECK(has(m, "kernel launch failed in error_test (copy.c:3), tile 0 of 4 (core [0,64)x[0,4)x[0,1))") &&
                   has(m, cudaGetErrorName(code)) && code != cudaSuccess,
               "got: %s", m.c_str());

    // A run that needs more device memory than its Config allows (a plan
    // made with --gpu-memory) throws before allocating; within it, it runs.
    cfg.block = dim3(64, 1, 1);
    cfg.scheme = recipe::Scheme::Basic;  // full-size device arrays: 2 x 64 x 16 floats
    cfg.device_memory = 1024;
    m = thrown([&] { go(copy_kernel, in.data(), out.data()); });
    TEST_CHECK(has(m, "error_test (copy.c:3): needs") && has(m, "allows 1024 (device_memory)"), "got: %s", m.c_str());
    cfg.device_memory = 1 << 20;
    m = thrown([&] { go(copy_kernel, in.data(), out.data()); });
    TEST_CHECK(m.empty(), "a run within its device_memory threw: %s", m.c_str());
    cfg.device_memory = 0;
    cfg.scheme = recipe::Scheme::Scalable;

    // The failure above is not sticky and released everything: a good run works.
    for (auto host : test::kHosts) {
        cfg.host = host;
        test::poison(out.data(), W * 16);
        m = thrown([&] { go(copy_kernel, in.data(), out.data()); });
        bool ok = m.empty();
        for (std::int64_t i = 0; i < W * 16 && ok; ++i) ok = out[i] == in[i] + 1.0f;
        TEST_CHECK(ok, "run after a failure (%s): %s", recipe::to_string(host), m.c_str());
    }

    // Views find rows in 32 bits: a buffer of 2^31 rows or more is refused
    // when its view is built (nothing is read), a longer single row is not,
    // and an element's offset is the C layout's within the buffer's box.
    {
        const std::int64_t zero[3] = {0, 0, 0};
        m = thrown([&] { recipe::make_in_view<float>(in.data(), zero, 4, std::int64_t(1) << 16, std::int64_t(1) << 15); });
        TEST_CHECK(has(m, "beyond the views' index range"), "got: %s", m.c_str());
        m = thrown([&] { recipe::make_out_view<float>(out.data(), zero, std::int64_t(1) << 32, 1, 1); });
        TEST_CHECK(m.empty(), "one row of 2^32 elements was refused: %s", m.c_str());
        const std::int64_t from[3] = {5, 7, 3};
        const recipe::InView<float> v = recipe::make_in_view<float>(in.data(), from, 10, 20, 4);
        // (6, 9, 4) in the 10 x 20 x 4 box from (5, 7, 3): 1 + 10 * (2 + 20 * 1) = 221
        TEST_CHECK(v.data + recipe::detail::view_index(6, 9, 4, v.oy, v.oz, v.ex, v.ey) == in.data() + 221,
                   "view offset %lld", static_cast<long long>(recipe::detail::view_index(6, 9, 4, v.oy, v.oz, v.ex, v.ey)));
    }

    // A kernel that faults: reported by the next checked call, naming it and a tile.
    cfg.host = recipe::HostMemory::Pinned;
    cfg.extents = {W, 1, 1};
    cfg.tile = {16, 1, 1};
    m = thrown([&] { go(faulting_kernel, in.data(), out.data()); }, &code);
    TEST_CHECK(has(m, "recipe: cuda") && has(m, "failed in error_test (copy.c:3)") &&
                   (has(m, "cudaErrorIllegalAddress") || has(m, "cudaErrorLaunchFailure")),
               "got: %s", m.c_str());
    std::printf("fault reported as: %s\n", m.c_str());
    return test::finish("error_test");
}
