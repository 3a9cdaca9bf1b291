#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "advisor/plan.h"
#include "advisor/thesis_library.h"
#include "tests/unit/advisor/thesis_appendix_a.h"
#include "tests/unit/advisor/unit_platform.h"

using namespace recipe;
using namespace recipe::advisor;

TEST_CASE("the search ranks deterministically and explains the best", "[advisor]") {
    const Problem p = test::unit_problem({400, 400, 400}, 3, Halo{{1, 1, 1}, {1, 1, 1}});
    const Platform pf = test::unit_platform(2);
    SearchOptions o;
    o.keep = 10;
    Plan a, b;
    std::string error;
    REQUIRE(advise(p, pf, o, &a, &error));
    REQUIRE(advise(p, pf, o, &b, &error));
    REQUIRE(a.ranked.size() == 10);
    for (std::size_t i = 0; i < a.ranked.size(); ++i) {
        CHECK(a.ranked[i].total_ms == b.ranked[i].total_ms);
        CHECK(a.ranked[i].config.tile == b.ranked[i].config.tile);
        CHECK(a.ranked[i].config.scheme == b.ranked[i].config.scheme);
        if (i) CHECK(a.ranked[i - 1].total_ms <= a.ranked[i].total_ms);
    }
    CHECK(a.candidates_evaluated > 1000);
    CHECK(a.speedup == Approx(a.naive.total_ms / a.ranked[0].total_ms));
    CHECK(a.speedup > 1);
    // The best tile is in the range within 5%, and all of that range is.
    bool has_best = false;
    for (const auto& t : a.tiles_within_tolerance) has_best = has_best || t == a.ranked[0].config.tile;
    CHECK(has_best);
    for (const auto& t : a.tiles_within_tolerance) {
        Config c = a.ranked[0].config;
        c.tile = t;
        c.block = {0, 0, 0};
        Prediction pr;
        REQUIRE(predict(p, pf, c, o.model, &pr, &error));
        CHECK(pr.total_ms <= a.ranked[0].total_ms * 1.05 + 1e-9);
    }
    // Curves for the chart, one per scheme searched (mapped aside).
    CHECK(a.curves.size() >= 4);
    for (const auto& c : a.curves) CHECK_FALSE(c.points.empty());
    // JSON for <stem>.plan.json.
    const nlohmann::json j = to_json(a);
    CHECK(j["best"]["scheme"] == to_string(a.ranked[0].config.scheme));
    CHECK(j["ranked"].size() == 10);
    CHECK(j["naive"]["total_ms"].get<double>() == Approx(a.naive.total_ms));
}

TEST_CASE("break-even: below some size pipelining stops paying", "[advisor]") {
    // Fixed costs (10 us per copy, 0.1 ms allocation) make small problems lose.
    const Problem p = test::unit_problem({4000000, 1, 1}, 1);
    SearchOptions o;
    o.keep = 3;
    o.schemes = {Scheme::Basic, Scheme::Scalable, Scheme::Buffered};  // mapped allocates nothing: it would always win
    Plan plan;
    std::string error;
    REQUIRE(advise(p, test::unit_platform(2), o, &plan, &error));
    REQUIRE(plan.break_even_scale);
    CHECK(*plan.break_even_scale < 1);
    REQUIRE(plan.break_even_extents);
    // Just above the break-even size the best pipelined plan wins; well below it, naive.
    const Index3 e = *plan.break_even_extents;
    const Problem small = test::unit_problem({std::max<std::int64_t>(1, e[0] / 4), 1, 1}, 1);
    Plan at_small;
    o.find_break_even = false;
    REQUIRE(advise(small, test::unit_platform(2), o, &at_small, &error));
    CHECK(at_small.speedup <= 1.0 + 1e-12);  // a single tile is naive at best
    const Problem large = test::unit_problem({e[0] * 4, 1, 1}, 1);
    Plan at_large;
    REQUIRE(advise(large, test::unit_platform(2), o, &at_large, &error));
    CHECK(at_large.speedup > 1);
}

TEST_CASE("the search finds the thesis's best tile for Jacobi on the Tesla", "[advisor]") {
    advisor::Platform tesla;
    std::string error;
    REQUIRE(find_platform("tesla-c2050", &tesla, &error));
    SearchOptions o;
    o.schemes = {Scheme::Scalable};
    o.copy_methods = {CopyMethod::Merged};
    o.stream_counts = {3};
    o.model.library = &advisor::thesis_library();
    o.keep = 1;
    Plan plan;
    REQUIRE(advise(thesis::problem(thesis::jacobi()), tesla, o, &plan, &error));
    // thesis §7.2.2: 400x400x25 predicted best (75 ms); planes of 20-40 are as good in our finer search.
    const Index3 t = plan.ranked[0].config.tile;
    CHECK(t[0] == 400);
    CHECK(t[1] == 400);
    CHECK(t[2] >= 16);
    CHECK(t[2] <= 50);
    CHECK(plan.ranked[0].total_ms == Approx(75).epsilon(0.05));
}

TEST_CASE("arrays larger than the device memory: only schemes that keep a few tiles there are planned", "[advisor]") {
    // 64 Mi floats in and out (512 MiB) against a 128 MiB budget.
    const Problem p = test::unit_problem({64LL << 20, 1, 1}, 1, Halo{{2, 0, 0}, {2, 0, 0}});
    const Platform pf = test::unit_platform(2);
    SearchOptions o;
    o.keep = 20;
    o.model.gpu_memory_bytes = 128LL << 20;
    Plan plan;
    std::string error;
    REQUIRE(advise(p, pf, o, &plan, &error));
    CHECK_FALSE(plan.naive_fits);
    CHECK(plan.naive_why.find("--gpu-memory allows") != std::string::npos);
    CHECK(plan.speedup == 0);
    REQUIRE_FALSE(plan.ranked.empty());
    for (const auto& r : plan.ranked) {
        CHECK(r.device_bytes <= o.model.gpu_memory_bytes);
        CHECK(r.config.scheme != Scheme::Naive);
        CHECK(r.config.scheme != Scheme::Basic);  // full-size device arrays
        CHECK(r.total_ms > 0);
    }
    const nlohmann::json j = to_json(plan);
    CHECK(j["naive"].is_null());
    CHECK(j["naive_fits"] == false);
    // The same problem with the whole device (1 GB) has its naive port back;
    // a budget above the device's memory is the device's.
    o.model.gpu_memory_bytes = 0;
    Plan roomy;
    REQUIRE(advise(p, pf, o, &roomy, &error));
    CHECK(roomy.naive_fits);
    CHECK(roomy.speedup > 0);
    o.model.gpu_memory_bytes = 1LL << 40;
    CHECK(device_budget(pf, o.model) == pf.device_memory_bytes);
}

TEST_CASE("a budget no scheme fits in is an error that says why", "[advisor]") {
    const Problem p = test::unit_problem({1LL << 24, 1, 1}, 1);
    SearchOptions o;
    o.model.gpu_memory_bytes = 1;
    o.schemes = {Scheme::Basic, Scheme::Scalable, Scheme::Buffered, Scheme::Streams};  // mapped needs no device memory
    Plan plan;
    std::string error;
    CHECK_FALSE(advise(p, test::unit_platform(2), o, &plan, &error));
    CHECK(error.find("no scheme fits this nest in the device memory") != std::string::npos);
}

TEST_CASE("break-even scales a nest's own measured kernel time as it scales --kernel-ms", "[advisor]") {
    // The kernel takes 8 ms for the whole problem: either way of giving it
    // must find the same break-even size.
    SearchOptions by_option;
    by_option.keep = 3;
    by_option.schemes = {Scheme::Basic, Scheme::Scalable, Scheme::Buffered};
    by_option.model.kernel_ms = 8.0;
    Problem p = test::unit_problem({4000000, 1, 1}, 1);
    Plan a;
    std::string error;
    REQUIRE(advise(p, test::unit_platform(2), by_option, &a, &error));
    SearchOptions plain = by_option;
    plain.model.kernel_ms.reset();
    p.kernel_ms = 8.0;
    Plan b;
    REQUIRE(advise(p, test::unit_platform(2), plain, &b, &error));
    REQUIRE(a.break_even_scale);
    REQUIRE(b.break_even_scale);
    CHECK(*b.break_even_scale == Approx(*a.break_even_scale));
    CHECK(b.ranked.front().total_ms == Approx(a.ranked.front().total_ms));
}
