#include "analyzer/access_shape.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace recipe::analyzer {

namespace {

constexpr std::size_t kMaxOffsets = 4096;
// Offsets and window bounds beyond this are refused rather than computed
// (no stencil is that wide, and it keeps the arithmetic from overflowing).
constexpr std::int64_t kMaxMagnitude = std::int64_t{1} << 40;

bool huge(std::int64_t v) { return v > kMaxMagnitude || v < -kMaxMagnitude; }

AccessShape failed(AccessShape::Problem p, std::string why, SourceSpan where) {
    AccessShape s;
    s.problem = p;
    s.why = std::move(why);
    s.where = where;
    return s;
}

const Monomial* leading(const Poly& p) {
    const Monomial* best = nullptr;
    for (const auto& [m, c] : p.symbolic_terms()) {
        if (!best || m.size() > best->size() || (m.size() == best->size() && m < *best)) best = &m;
    }
    return best;
}

std::int64_t coefficient(const Poly& p, const Monomial& m) { return p.coefficient(m); }

// Orders strides from the contiguous dimension outward: lower degree first,
// then the smaller known value, then by spelling (stable across runs).
bool stride_less(const Poly& a, const Poly& b, const ValueLookup& values) {
    if (a.degree() != b.degree()) return a.degree() < b.degree();
    auto va = a.evaluate(values), vb = b.evaluate(values);
    if (va && vb && *va != *vb) return *va < *vb;
    return a.to_string() < b.to_string();
}

struct WindowUse {
    std::string var;
    std::size_t dim;
    std::int64_t factor;
};

}  // namespace

AccessShape shape_of(const AccessFact& access, const std::set<std::string>& nest_vars,
                     const std::vector<WindowFact>& windows, const ValueLookup& values) {
    for (const Affine& x : access.index) {
        if (x.status == Affine::Status::DataDependent) return failed(AccessShape::Problem::DataDependent, x.problem, x.problem_span);
        if (x.status == Affine::Status::NonAffine) return failed(AccessShape::Problem::NonAffine, x.problem, x.problem_span);
    }
    std::map<std::string, const WindowFact*> window_of;
    for (const WindowFact& w : windows) window_of[w.var] = &w;
    SourceSpan where = span_of(access.node);
    AccessShape s;
    std::vector<WindowUse> uses;
    for (const Affine& x : access.index)
        if (!x.clamps.empty()) s.clamped = true;

    if (access.index.size() == 1) {
        const Affine& ix = access.index[0];
        std::vector<std::pair<std::string, Poly>> dims;  // var, stride
        std::vector<std::pair<std::string, Poly>> window_terms;
        for (const auto& [v, coef] : ix.vars) {
            if (nest_vars.count(v)) dims.emplace_back(v, coef);
            else window_terms.emplace_back(v, coef);
        }
        for (const auto& [v, coef] : dims) {
            auto c = coef.as_constant();
            if (c && *c <= 0)
                return failed(AccessShape::Problem::Strided,
                              "'" + shorten(access.text) + "' runs backwards or stands still along '" + v + "'", where);
        }
        std::sort(dims.begin(), dims.end(), [&](const auto& a, const auto& b) { return stride_less(a.second, b.second, values); });
        if (!dims.empty() && dims[0].second != Poly::constant(1))
            return failed(AccessShape::Problem::Strided,
                          "'" + shorten(access.text) + "' steps by " + dims[0].second.to_string() + " elements along '" + dims[0].first +
                              "': no loop variable walks the array's consecutive elements",
                          where);
        for (std::size_t i = 1; i < dims.size(); ++i)
            if (dims[i].second == dims[i - 1].second)
                return failed(AccessShape::Problem::NonAffine,
                              "'" + shorten(access.text) + "' gives '" + dims[i - 1].first + "' and '" + dims[i].first + "' the same stride", where);
        if (dims.empty()) dims.emplace_back("", Poly::constant(1));
        for (const auto& [v, st] : dims) {
            s.dim_var.push_back(v);
            s.stride.push_back(st);
        }
        for (const auto& [w, coef] : window_terms) {
            bool placed = false;
            for (std::size_t d = 0; d < s.stride.size() && !placed; ++d) {
                auto q = coef.divide(s.stride[d]);
                if (q && q->is_constant()) {
                    uses.push_back({w, d, q->constant_term()});
                    placed = true;
                }
            }
            if (!placed)
                return failed(AccessShape::Problem::NonAffine,
                              "window variable '" + w + "' in '" + shorten(access.text) + "' does not step along one dimension", where);
        }
        // Split the constant by the strides, outermost dimension first.
        Poly c = ix.constant;
        s.offset.assign(s.stride.size(), 0);
        for (std::size_t d = s.stride.size(); d-- > 1;) {
            const Poly& st = s.stride[d];
            if (!st.is_constant()) {
                const Monomial* m = leading(st);
                std::int64_t cm = coefficient(c, *m), sm = coefficient(st, *m);
                if (sm == 0 || huge(cm) || huge(sm) || cm % sm != 0)
                    return failed(AccessShape::Problem::NonAffine,
                                  "offset " + c.to_string() + " in '" + shorten(access.text) + "' is not a whole number of rows", where);
                s.offset[d] = cm / sm;
                c = c - st * Poly::constant(s.offset[d]);
            } else {
                auto cv = c.evaluate(values);
                std::int64_t sv = st.constant_term();
                if (!cv || sv <= 0 || huge(*cv) || huge(sv))
                    return failed(AccessShape::Problem::NonAffine,
                                  "offset " + c.to_string() + " in '" + shorten(access.text) + "' is not a compile-time constant", where);
                std::int64_t o = static_cast<std::int64_t>(std::llround(static_cast<double>(*cv) / static_cast<double>(sv)));
                s.offset[d] = o;
                c = Poly::constant(*cv) - Poly::constant(o) * st;
            }
        }
        auto c0 = c.evaluate(values);
        if (!c0 || huge(*c0))
            return failed(AccessShape::Problem::NonAffine,
                          "offset " + c.to_string() + " in '" + shorten(access.text) + "' is not a compile-time constant", where);
        s.offset[0] = *c0;
    } else {
        std::size_t n = access.index.size();
        s.dim_var.assign(n, "");
        s.offset.assign(n, 0);
        for (std::size_t a = 0; a < n; ++a) {
            const Affine& ix = access.index[n - 1 - a];
            for (const auto& [v, coef] : ix.vars) {
                auto k = coef.as_constant();
                if (nest_vars.count(v)) {
                    if (!s.dim_var[a].empty())
                        return failed(AccessShape::Problem::NonAffine,
                                      "'" + shorten(access.text) + "' follows both '" + s.dim_var[a] + "' and '" + v + "' in one subscript", where);
                    if (!k || *k != 1)
                        return failed(AccessShape::Problem::Strided,
                                      "'" + shorten(access.text) + "' steps by " + coef.to_string() + " along '" + v + "'", where);
                    s.dim_var[a] = v;
                } else {
                    if (!k)
                        return failed(AccessShape::Problem::NonAffine,
                                      "window variable '" + v + "' in '" + shorten(access.text) + "' has a symbolic factor", where);
                    uses.push_back({v, a, *k});
                }
            }
            auto c = ix.constant.evaluate(values);
            if (!c || huge(*c))
                return failed(AccessShape::Problem::NonAffine,
                              "offset " + ix.constant.to_string() + " in '" + shorten(access.text) + "' is not a compile-time constant", where);
            s.offset[a] = *c;
            s.stride.push_back(Poly::constant(1));
        }
    }

    for (auto o : s.offset) s.max_offset.push_back(Poly::constant(o));
    for (const auto& u : uses) {
        const WindowFact* w = window_of.count(u.var) ? window_of[u.var] : nullptr;
        if (!w) continue;
        if (huge(u.factor) || huge(w->lower) || huge(w->upper)) continue;  // refused below
        if (u.factor > 0 && w->stride == 1) s.max_offset[u.dim] = s.max_offset[u.dim] + Poly::constant(u.factor) * (w->upper_bound - Poly::constant(1));
        else if (u.factor < 0) s.max_offset[u.dim] = s.max_offset[u.dim] + Poly::constant(u.factor) * w->lower_bound;
        else s.max_offset[u.dim] = s.max_offset[u.dim] + Poly::constant(u.factor * (w->upper - 1));
    }

    if (!uses.empty()) {
        std::vector<std::vector<std::int64_t>> combos{s.offset};
        std::map<std::string, std::vector<WindowUse>> by_var;
        for (const auto& u : uses) by_var[u.var].push_back(u);
        for (const auto& [var, list] : by_var) {
            const WindowFact* w = window_of.count(var) ? window_of[var] : nullptr;
            if (!w) continue;
            for (const auto& u : list)
                if (huge(u.factor) || huge(w->lower) || huge(w->upper))
                    return failed(AccessShape::Problem::NonAffine, "window of '" + shorten(access.text) + "' is out of range", where);
            std::vector<std::vector<std::int64_t>> next;
            for (std::int64_t v = w->lower; v < w->upper; v += w->stride) {
                for (const auto& base : combos) {
                    auto o = base;
                    for (const auto& u : list) o[u.dim] += u.factor * v;
                    next.push_back(std::move(o));
                    if (next.size() > kMaxOffsets)
                        return failed(AccessShape::Problem::TooManyOffsets,
                                      "window loops make '" + access.text + "' read more than " + std::to_string(kMaxOffsets) +
                                          " offsets",
                                      where);
                }
            }
            combos = std::move(next);
        }
        s.window_offsets = std::move(combos);
    }
    return s;
}

}  // namespace recipe::analyzer
