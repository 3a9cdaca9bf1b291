// report_test.cu — device test of RECIPE_REPORT (recipe/run.cuh,
// recipe/config.cuh): with RECIPE_REPORT=1 a run prints its measured phases
// beside cfg.predicted on stderr; with RECIPE_REPORT=time one line with its
// total; without it, it prints nothing and measures no phases. And the pool
// (detail/pool.cuh): a second staged run in the process allocates nothing,
// its measured alloc phase under 2% of its total.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "test_support.cuh"

__global__ void scale_kernel(recipe::Tile t, recipe::InView<double> in, recipe::OutView<double> out, double f) {
    const auto x = t.x();
    if (!t.contains(x)) return;
    out(x) = in(x) * f;
}

int main() {
    const std::int64_t n = 1 << 20;
    test::HostArray<double> in(n, recipe::HostMemory::Pinned), out(n, recipe::HostMemory::Pinned);
    test::fill(in.data(), n, 9);
    recipe::Config cfg;
    cfg.name = "scale (scale.c:7)";
    cfg.extents = {n, 1, 1};
    cfg.tile = {n / 8, 1, 1};
    cfg.predicted = recipe::Predicted{0.25, 1.5, 0.125, 1.5, 3.875};
    recipe::Measured m{};
    auto go = [&] {
        m = recipe::run(cfg, scale_kernel, recipe::inputs(recipe::input(in.data())),
                        recipe::outputs(recipe::output(out.data())), 2.0);
    };

    unsetenv("RECIPE_REPORT");
    std::string text = test::captured_stderr(go);
    TEST_CHECK(text.empty(), "printed without RECIPE_REPORT: %s", text.c_str());
    TEST_CHECK(m.h2d < 0 && m.kernel < 0 && m.d2h < 0 && m.total > 0, "measured phases without RECIPE_REPORT");

    setenv("RECIPE_REPORT", "1", 1);
    text = test::captured_stderr(go);
    std::fputs(text.c_str(), stdout);
    auto has = [&](const char* s) { return text.find(s) != std::string::npos; };
    TEST_CHECK(has("recipe: scale (scale.c:7): scalable, tile 131072x1x1, 8 tiles, 3 streams, strided, pinned"),
               "header line missing");
    TEST_CHECK(has("measured ms") && has("predicted ms"), "column titles missing");
    TEST_CHECK(has("3.875") && has("0.125") && has("0.250"), "predicted values missing");
    TEST_CHECK(has("copies: 8 in (8388608 bytes), 8 out (8388608 bytes)"), "copy counts missing");
    TEST_CHECK(m.h2d > 0 && m.kernel > 0 && m.d2h > 0 && m.alloc > 0, "phases not measured with RECIPE_REPORT");
    bool ok = true;
    for (std::int64_t i = 0; i < n && ok; ++i) ok = out[i] == in[i] * 2.0;
    TEST_CHECK(ok, "wrong output with RECIPE_REPORT");

    // RECIPE_REPORT=time: `recipe: time NAME MEASURED STARTUP PREDICTED`, the
    // name's blanks made underscores; no events, so no phases measured.
    setenv("RECIPE_REPORT", "time", 1);
    text = test::captured_stderr(go);
    std::fputs(text.c_str(), stdout);
    char name[64] = "";
    double measured = -1, startup = -1, predicted = -1;
    TEST_CHECK(std::sscanf(text.c_str(), "recipe: time %63s %lf %lf %lf", name, &measured, &startup, &predicted) == 4,
               "no time line: %s", text.c_str());
    TEST_CHECK(std::string(name) == "scale_(scale.c:7)", "name %s", name);
    TEST_CHECK(measured > 0 && startup >= 0 && startup < measured && predicted == 3.875, "values %f %f %f", measured,
               startup, predicted);
    TEST_CHECK(m.h2d < 0, "phases measured with RECIPE_REPORT=time");
    unsetenv("RECIPE_REPORT");

    // A second staged run of the same shape reuses the pool: no allocation.
    {
        const std::int64_t big = std::int64_t(1) << (test::quick() ? 20 : 24);
        test::HostArray<double> a(big, recipe::HostMemory::Pageable), b(big, recipe::HostMemory::Pageable);
        test::fill(a.data(), big, 5);
        recipe::Config staged = cfg;
        staged.extents = {big, 1, 1};
        staged.tile = {big / 8, 1, 1};
        staged.host = recipe::HostMemory::Staged;
        staged.measure = true;
        auto run_staged = [&] {
            return recipe::run(staged, scale_kernel, recipe::inputs(recipe::input(a.data())),
                               recipe::outputs(recipe::output(b.data())), 2.0);
        };
        const recipe::Measured first = run_staged();
        const recipe::Measured second = run_staged();
        std::printf("staged run of %lld doubles: first alloc %.3f of %.3f ms, second alloc %.3f of %.3f ms\n",
                    static_cast<long long>(big), first.alloc, first.total, second.alloc, second.total);
        // Timing, so not under compute-sanitizer (quick mode), which slows
        // the host's side and the device's unevenly.
        if (!test::quick())
            TEST_CHECK(second.alloc < 0.02 * second.total, "second run's alloc %.3f ms of %.3f ms", second.alloc,
                       second.total);
        TEST_CHECK(second.startup == 0, "second run waited %.3f ms for CUDA's start-up", second.startup);
        bool same = true;
        for (std::int64_t i = 0; i < big && same; ++i) same = b[i] == a[i] * 2.0;
        TEST_CHECK(same, "wrong output of the staged runs");
    }
    return test::finish("report_test");
}
