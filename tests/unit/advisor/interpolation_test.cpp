#include "advisor/interpolation.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace recipe::advisor;

TEST_CASE("linear interpolation between decades and beyond the table", "[advisor]") {
    const std::vector<double> xs = {10, 100, 1000}, ys = {20, 110, 1010};  // 10 + x
    CHECK(interpolate(xs, ys, 55, Interpolation::Linear) == Approx(65));
    CHECK(interpolate(xs, ys, 500, Interpolation::Linear) == Approx(510));
    // Beyond the last point: the last segment's slope (constant bandwidth).
    CHECK(interpolate(xs, ys, 5000, Interpolation::Linear) == Approx(5010));
    // Below the first point: the first value.
    CHECK(interpolate(xs, ys, 1, Interpolation::Linear) == Approx(20));
}

TEST_CASE("log-log interpolation follows a power law exactly", "[advisor]") {
    auto f = [](double x) { return 10 * std::pow(x, 1.5); };
    const std::vector<double> xs = {10, 100, 1000}, ys = {f(10), f(100), f(1000)};
    CHECK(interpolate(xs, ys, 40, Interpolation::LogLog) == Approx(10 * std::pow(40.0, 1.5)));
    CHECK(interpolate(xs, ys, 40, Interpolation::Linear) > 10 * std::pow(40.0, 1.5) * 1.1);  // linear overshoots
}

TEST_CASE("leave-one-out keeps linear for affine copy times and log-log for power laws", "[advisor]") {
    Measurements affine;
    for (double b = 10; b <= 1e7; b *= 10) {
        affine.bytes.push_back(b);
        affine.ns.push_back(3000 + b / 6);
    }
    choose_interpolation(&affine);
    CHECK(affine.interpolation == Interpolation::Linear);
    CHECK(affine.loo_error_linear == Approx(0).margin(1e-12));
    CHECK(affine.loo_error_loglog > 0.01);

    Measurements power;
    for (double b = 10; b <= 1e7; b *= 10) {
        power.bytes.push_back(b);
        power.ns.push_back(5 * std::pow(b, 0.7));
    }
    choose_interpolation(&power);
    CHECK(power.interpolation == Interpolation::LogLog);
    CHECK(power.loo_error_loglog == Approx(0).margin(1e-9));
    // Measurements::ms reads the chosen curve, in ms.
    CHECK(power.ms(3e4) == Approx(5 * std::pow(3e4, 0.7) * 1e-6));
    CHECK(power.ms(0) == 0);
}

TEST_CASE("leave-one-out error by hand", "[advisor]") {
    // Middle point 150 predicted from its neighbours as 110 (linear): |110-150|/150.
    CHECK(leave_one_out_error({10, 100, 1000}, {20, 150, 1010}, Interpolation::Linear) == Approx(40.0 / 150));
    CHECK(leave_one_out_error({10, 100}, {1, 2}, Interpolation::Linear) == 0);
}

TEST_CASE("kernel tables scale with the elements", "[advisor]") {
    KernelTable t;
    t.elements = {1000, 1e6};
    t.ns = {2000, 1.1e6};
    CHECK(t.ms(500) == Approx(1000 * 1e-6));  // proportional below the first point
    // extrapolated along the last segment
    CHECK(t.ms(2e6) == Approx((1.1e6 + (1.1e6 - 2000) / 999000 * 1e6) * 1e-6));
    KernelTable one;
    one.elements = {1e6};
    one.ns = {4e5};
    CHECK(one.ms(2e6) == Approx(0.8));
}
