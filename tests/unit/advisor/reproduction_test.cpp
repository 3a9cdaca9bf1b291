// The thesis's model reproduced (issue: within 10% of its predictions at
// every listed tile size for basic and scalable, and the same best tile),
// with the profiles reconstructed from the thesis. Single-tile rows are
// checked against the thesis's measurement instead: there its printed
// formula (n - 2 = -1) drops the kernel (docs/model-reproduction.md).
#include <catch2/catch.hpp>
#include <cmath>

#include "advisor/thesis_library.h"
#include "tests/unit/advisor/thesis_appendix_a.h"

using namespace recipe;

namespace {

advisor::Platform load(const char* name) {
    advisor::Platform p;
    std::string error;
    if (!advisor::find_platform(name, &p, &error)) throw std::runtime_error(error);
    return p;
}

}  // namespace

TEST_CASE("thesis Tables A.3, A.8 and A.13 reproduced within 10%", "[advisor]") {
    const advisor::Platform gpus[2] = {load("tesla-c2050"), load("gtx-460")};
    advisor::ModelOptions opt;
    opt.library = &advisor::thesis_library();
    int compared = 0;
    for (const thesis::Program* prog : thesis::programs()) {
        const advisor::Problem q = thesis::problem(*prog);
        for (int g = 0; g < 2; ++g)
            for (int col = 0; col < 4; ++col) {
                double best_ours = 1e300, best_thesis = 1e300;
                std::int64_t best_at = 0;
                for (const auto& row : prog->rows) {
                    const auto c = static_cast<std::size_t>(col);
                    const double want = g == 0 ? row.tesla_pred[c] : row.gtx_pred[c];
                    const double measured = g == 0 ? row.tesla_meas[c] : row.gtx_meas[c];
                    advisor::Prediction p;
                    std::string error;
                    INFO(prog->name << (g == 0 ? " tesla " : " gtx ") << "size " << row.size << " column " << col);
                    REQUIRE(advisor::predict(q, gpus[g], thesis::config(*prog, row.size, col), opt, &p, &error));
                    if (thesis::single_tile(*prog, row.size)) {
                        CHECK(std::fabs(p.total_ms - measured) / measured < 0.10);
                    } else {
                        CHECK(std::fabs(p.total_ms - want) / want < 0.10);
                        ++compared;
                    }
                    if (p.total_ms < best_ours) {
                        best_ours = p.total_ms;
                        best_at = row.size;
                    }
                    best_thesis = std::min(best_thesis, want);
                }
                // Our best tile is one of the thesis's best (it prints ms, so ties).
                bool among_best = false;
                for (const auto& row : prog->rows)
                    if (row.size == best_at)
                        among_best = (g == 0 ? row.tesla_pred : row.gtx_pred)[static_cast<std::size_t>(col)] == best_thesis;
                INFO(prog->name << (g == 0 ? " tesla" : " gtx") << " column " << col << ": our best " << best_at);
                CHECK(among_best);
            }
    }
    CHECK(compared == 248);
}

TEST_CASE("the thesis's kernel times come from its kernel-repeat tables", "[advisor]") {
    const advisor::Platform tesla = load("tesla-c2050");
    // Table A.20: naive 110 ms at 1 repeat, 2915 ms at 200: 14.1 ms a pass.
    CHECK(tesla.kernels.at("jacobi").ms(64e6) == Approx((2915.0 - 110) / 199));
    // Naive moving average on the Tesla: our model against its measured 121 ms (Table A.1).
    advisor::Config c;
    c.scheme = advisor::Scheme::Naive;
    advisor::Prediction p;
    std::string error;
    REQUIRE(advisor::predict(thesis::problem(thesis::moving_average()), tesla, c, {}, &p, &error));
    CHECK(p.total_ms == Approx(121).epsilon(0.05));
}
