#include "advisor/interpolation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace recipe::advisor {

const char* to_string(Interpolation i) {
    switch (i) {
        case Interpolation::Linear: return "linear";
        case Interpolation::LogLog: return "log-log";
    }
    return "?";
}

namespace {

double segment(double x0, double y0, double x1, double y1, double x, Interpolation method) {
    if (method == Interpolation::LogLog && x0 > 0 && x1 > 0 && y0 > 0 && y1 > 0 && x > 0) {
        const double t = (std::log(x) - std::log(x0)) / (std::log(x1) - std::log(x0));
        return std::exp(std::log(y0) + t * (std::log(y1) - std::log(y0)));
    }
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

}  // namespace

double interpolate(const std::vector<double>& xs, const std::vector<double>& ys, double x, Interpolation method) {
    if (xs.empty() || xs.size() != ys.size()) throw std::logic_error("interpolate: empty or mismatched table");
    if (xs.size() == 1 || x <= xs.front()) return ys.front();
    const std::size_t n = xs.size();
    if (x >= xs.back()) {
        // Beyond the table the marginal cost per unit stays that of the last
        // segment: big copies run at the measured bandwidth.
        return ys[n - 1] + (ys[n - 1] - ys[n - 2]) / (xs[n - 1] - xs[n - 2]) * (x - xs[n - 1]);
    }
    const auto it = std::upper_bound(xs.begin(), xs.end(), x);
    const std::size_t i = static_cast<std::size_t>(it - xs.begin());
    return segment(xs[i - 1], ys[i - 1], xs[i], ys[i], x, method);
}

double leave_one_out_error(const std::vector<double>& xs, const std::vector<double>& ys, Interpolation method) {
    if (xs.size() < 3) return 0;
    double sum = 0;
    int count = 0;
    for (std::size_t i = 1; i + 1 < xs.size(); ++i) {
        const double predicted = segment(xs[i - 1], ys[i - 1], xs[i + 1], ys[i + 1], xs[i], method);
        const double actual = ys[i];
        if (actual == 0) continue;
        sum += std::fabs(predicted - actual) / std::fabs(actual);
        ++count;
    }
    return count ? sum / count : 0;
}

void choose_interpolation(Measurements* m) {
    m->loo_error_linear = leave_one_out_error(m->bytes, m->ns, Interpolation::Linear);
    m->loo_error_loglog = leave_one_out_error(m->bytes, m->ns, Interpolation::LogLog);
    m->interpolation = m->loo_error_loglog < m->loo_error_linear ? Interpolation::LogLog : Interpolation::Linear;
}

double Measurements::ms(double n_bytes) const {
    if (n_bytes <= 0 || ns.empty()) return 0;
    return interpolate(bytes, ns, n_bytes, interpolation) * 1e-6;
}

const Measurements* StreamTables::at(int count) const {
    for (std::size_t i = 0; i < streams.size(); ++i)
        if (streams[i] == count) return &tables[i];
    return nullptr;
}

double KernelTable::ms(double n_elements) const {
    if (n_elements <= 0 || ns.empty()) return 0;
    // Kernels scale with the work: below the first point (or everywhere,
    // with one point), proportionally.
    if (n_elements < elements.front() || elements.size() == 1)
        return ns.front() * (n_elements / elements.front()) * 1e-6;
    return interpolate(elements, ns, n_elements, interpolation) * 1e-6;
}

}  // namespace recipe::advisor
