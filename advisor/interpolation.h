// interpolation.h — reading a measured table between its points.
//
// The thesis (§6.3) interpolates linearly between measurements at powers of
// ten. Copy times are close to affine (latency + bytes / bandwidth), which
// linear interpolation reproduces exactly; allocation and registration times
// are not, and log-log interpolation can follow them better. Both are
// scored by leave-one-out on the table's own points and the better kept.
#pragma once

#include <vector>

#include "advisor/platform.h"

namespace recipe::advisor {

// Value at x of the piecewise curve through (xs, ys). Linear extrapolation
// beyond the last point (constant marginal cost); the first value below the
// first point. xs ascending, at least one point.
double interpolate(const std::vector<double>& xs, const std::vector<double>& ys, double x, Interpolation method);

// Mean relative error when each interior point is predicted from its two
// neighbours alone. 0 when the table has fewer than three points.
double leave_one_out_error(const std::vector<double>& xs, const std::vector<double>& ys, Interpolation method);

// Sets m->interpolation (and the two errors) to the method with the smaller
// leave-one-out error; ties keep linear, the thesis's choice.
void choose_interpolation(Measurements* m);

}  // namespace recipe::advisor
