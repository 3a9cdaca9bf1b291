// first_call_test.cu — device test: a program's first library call counts
// all of CUDA's start-up it waits for. The start-up happens once per process,
// so each form runs in a process of its own, named by the argument:
//   first_call_test region   a recipe::Region is the first call (its
//                            cudaGetDevice used to wait for the start-up
//                            before the engine's clock began);
//   first_call_test whole    a recipe::run with recipe::whole inputs (their
//                            copies' cudaMalloc used to).
//   first_call_test run      a plain recipe::run, for comparison.
// An EarlyStart begins CUDA before main, as an emitted program's does; the
// call comes at once, so it waits for most of the start-up. Its measured
// total must be its wall time (within 1 ms or 2%), its start-up phase most
// of that time, and its output right.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "test_support.cuh"

namespace {

static recipe::EarlyStart early_start(recipe::PoolSize{64LL << 20, 16LL << 20, 2, 0});

__global__ void scaled(recipe::Tile t, recipe::InView<float> in, recipe::OutView<float> out, const float* by) {
    const auto x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    out(x, y) = in(x, y) * by[x];
}

__global__ void plain(recipe::Tile t, recipe::InView<float> in, recipe::OutView<float> out) {
    const auto x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    out(x, y) = in(x, y) * 2.0f;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    const std::string form = argc > 1 ? argv[1] : "";
    if (form != "region" && form != "whole" && form != "run") {
        std::fprintf(stderr, "usage: first_call_test region|whole|run\n");
        return 2;
    }
    constexpr std::int64_t X = 1024, Y = 512;
    std::vector<float> in(static_cast<std::size_t>(X * Y)), out(in.size(), -1.0f), by(static_cast<std::size_t>(X));
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 97);
    for (std::size_t x = 0; x < by.size(); ++x) by[x] = static_cast<float>(1 + x % 3);
    recipe::Config cfg;
    cfg.extents = {X, Y, 1};
    cfg.tile = {X, Y / 4, 1};
    cfg.streams = 2;
    cfg.name = "first_call_test " + form;

    const auto t0 = std::chrono::steady_clock::now();
    recipe::Measured m;
    if (form == "region") {
        recipe::Region region(cfg, recipe::resident(in.data(), true, false), recipe::resident(out.data(), false, true));
        recipe::Config nest = cfg;
        nest.space = {{0, 0, 0}, {X, Y, 1}};
        recipe::run(nest, plain, recipe::inputs(recipe::input(in.data())), recipe::outputs(recipe::output(out.data())));
        m = region.finish();
    } else if (form == "whole") {
        cfg.scheme = recipe::Scheme::Scalable;
        m = recipe::run(cfg, scaled, recipe::inputs(recipe::input(in.data())), recipe::outputs(recipe::output(out.data())),
                        recipe::whole(by.data(), by.size()));
    } else {
        cfg.scheme = recipe::Scheme::Scalable;
        m = recipe::run(cfg, plain, recipe::inputs(recipe::input(in.data())), recipe::outputs(recipe::output(out.data())));
    }
    const double wall = ms_since(t0);

    std::int64_t wrong = 0;
    for (std::int64_t y = 0; y < Y; ++y)
        for (std::int64_t x = 0; x < X; ++x) {
            const std::size_t i = static_cast<std::size_t>(x + X * y);
            wrong += out[i] != in[i] * (form == "whole" ? by[static_cast<std::size_t>(x)] : 2.0f);
        }
    TEST_CHECK(wrong == 0, "%s: %lld elements wrong", form.c_str(), static_cast<long long>(wrong));
    std::printf("%s: wall %.3f ms, measured total %.3f ms, start-up %.3f ms\n", form.c_str(), wall, m.total, m.startup);
    const double slack = std::max(1.0, 0.02 * wall);
    TEST_CHECK(m.total <= wall + 0.01 && m.total >= wall - slack,
               "%s: the call took %.3f ms of wall time but measured a total of %.3f ms", form.c_str(), wall, m.total);
    // What the call did besides waiting is a few ms; CUDA's start-up is
    // 200-1000 ms on the GPUs this runs on.
    TEST_CHECK(m.startup >= 0.5 * wall, "%s: %.3f ms of start-up counted in a first call of %.3f ms", form.c_str(), m.startup,
               wall);
    return test::finish(("first_call_test " + form).c_str());
}
