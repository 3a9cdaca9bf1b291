#include "analyzer/poly.h"

#include <algorithm>

namespace recipe::analyzer {

namespace {

bool checked_mul(std::int64_t a, std::int64_t b, std::int64_t* r) { return !__builtin_mul_overflow(a, b, r); }
bool checked_add(std::int64_t a, std::int64_t b, std::int64_t* r) { return !__builtin_add_overflow(a, b, r); }

// Coefficients wrap rather than overflow (signed overflow is undefined);
// absurd constants then give absurd but harmless offsets.
std::int64_t wrap_add(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
std::int64_t wrap_mul(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

Monomial multiply(const Monomial& a, const Monomial& b) {
    Monomial m(a);
    m.insert(m.end(), b.begin(), b.end());
    std::sort(m.begin(), m.end());
    return m;
}

// Monomial b divides a (as multisets): return a / b.
std::optional<Monomial> divide(const Monomial& a, const Monomial& b) {
    Monomial rest;
    std::size_t j = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (j < b.size() && a[i] == b[j]) {
            ++j;
        } else {
            rest.push_back(a[i]);
        }
    }
    if (j != b.size()) return std::nullopt;
    return rest;
}

// Leading term order: higher degree first, then lexicographic.
bool leads(const Monomial& a, const Monomial& b) {
    if (a.size() != b.size()) return a.size() > b.size();
    return a < b;
}

std::string symbol_text(const std::string& s) {
    bool plain = std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    return plain ? s : "(" + s + ")";
}

}  // namespace

Poly Poly::constant(std::int64_t c) {
    Poly p;
    p.constant_ = c;
    return p;
}

Poly Poly::symbol(const std::string& name) {
    Poly p;
    p.symbolic_.emplace_back(Monomial{name}, 1);
    return p;
}

void Poly::add_term(const Monomial& m, std::int64_t c) {
    if (c == 0) return;
    if (m.empty()) {
        constant_ = wrap_add(constant_, c);
        return;
    }
    auto it = std::lower_bound(symbolic_.begin(), symbolic_.end(), m, [](const auto& t, const Monomial& k) { return t.first < k; });
    if (it == symbolic_.end() || it->first != m) {
        symbolic_.insert(it, {m, c});
        return;
    }
    it->second = wrap_add(it->second, c);
    if (it->second == 0) symbolic_.erase(it);
}

std::optional<std::int64_t> Poly::as_constant() const {
    if (!is_constant()) return std::nullopt;
    return constant_;
}

int Poly::degree() const {
    int d = 0;
    for (const auto& [m, c] : symbolic_) d = std::max(d, static_cast<int>(m.size()));
    return d;
}

std::int64_t Poly::coefficient(const Monomial& m) const {
    if (m.empty()) return constant_;
    auto it = std::lower_bound(symbolic_.begin(), symbolic_.end(), m, [](const auto& t, const Monomial& k) { return t.first < k; });
    return it != symbolic_.end() && it->first == m ? it->second : 0;
}

std::vector<std::string> Poly::symbols() const {
    std::vector<std::string> out;
    for (const auto& [m, c] : symbolic_)
        for (const auto& s : m)
            if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    return out;
}

Poly Poly::operator+(const Poly& o) const {
    // Both term lists are sorted: merge them, adding equal monomials.
    Poly r;
    r.constant_ = wrap_add(constant_, o.constant_);
    r.symbolic_.reserve(symbolic_.size() + o.symbolic_.size());
    auto a = symbolic_.begin(), b = o.symbolic_.begin();
    while (a != symbolic_.end() || b != o.symbolic_.end()) {
        if (b == o.symbolic_.end() || (a != symbolic_.end() && a->first < b->first)) {
            r.symbolic_.push_back(*a++);
        } else if (a == symbolic_.end() || b->first < a->first) {
            r.symbolic_.push_back(*b++);
        } else {
            std::int64_t c = wrap_add(a->second, b->second);
            if (c != 0) r.symbolic_.emplace_back(a->first, c);
            ++a;
            ++b;
        }
    }
    return r;
}

Poly Poly::operator-() const {
    Poly r = *this;
    r.constant_ = wrap_mul(constant_, -1);
    for (auto& [m, c] : r.symbolic_) c = wrap_mul(c, -1);
    return r;
}

Poly Poly::operator-(const Poly& o) const { return *this + (-o); }

Poly Poly::operator*(const Poly& o) const {
    Poly r;
    for_each_term([&](const Monomial& ma, std::int64_t ca) {
        o.for_each_term([&](const Monomial& mb, std::int64_t cb) { r.add_term(multiply(ma, mb), wrap_mul(ca, cb)); });
    });
    return r;
}

bool Poly::operator<(const Poly& o) const {
    // The terms as a map would list them: the constant (empty monomial) first.
    std::vector<std::pair<Monomial, std::int64_t>> a, b;
    for_each_term([&](const Monomial& m, std::int64_t c) { a.emplace_back(m, c); });
    o.for_each_term([&](const Monomial& m, std::int64_t c) { b.emplace_back(m, c); });
    return a < b;
}

std::optional<Poly> Poly::divide(const Poly& d) const {
    if (d.is_zero()) return std::nullopt;
    // The leading term of a polynomial: highest degree, then first in order.
    auto lead = [](const Poly& p) {
        std::pair<Monomial, std::int64_t> best;
        bool any = false;
        p.for_each_term([&](const Monomial& m, std::int64_t c) {
            if (!any || leads(m, best.first)) best = {m, c};
            any = true;
        });
        return best;
    };
    auto lead_d = lead(d);
    Poly rem = *this, quot;
    for (int guard = 0; guard < 64 && !rem.is_zero(); ++guard) {
        auto lead_r = lead(rem);
        auto m = recipe::analyzer::divide(lead_r.first, lead_d.first);
        if (!m || lead_d.second == -1 || lead_r.second % lead_d.second != 0) {
            if (!m || lead_d.second != -1) return std::nullopt;
        }
        Poly t;
        t.add_term(*m, lead_d.second == -1 ? wrap_mul(lead_r.second, -1) : lead_r.second / lead_d.second);
        quot = quot + t;
        rem = rem - t * d;
    }
    if (!rem.is_zero()) return std::nullopt;
    return quot;
}

std::optional<std::int64_t> Poly::evaluate(
    const std::function<std::optional<std::int64_t>(const std::string&)>& lookup) const {
    std::int64_t sum = constant_;
    for (const auto& [m, c] : symbolic_) {
        std::int64_t v = c;
        for (const auto& s : m) {
            auto x = lookup(s);
            if (!x || !checked_mul(v, *x, &v)) return std::nullopt;
        }
        if (!checked_add(sum, v, &sum)) return std::nullopt;
    }
    return sum;
}

std::string Poly::to_string() const {
    if (is_zero()) return "0";
    // Symbols first, in the order they sort (higher degree first), the
    // constant last: "N-1", "W*H+2".
    std::vector<const std::pair<Monomial, std::int64_t>*> order;
    for (const auto& t : symbolic_) order.push_back(&t);
    std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
        if (a->first.size() != b->first.size()) return a->first.size() > b->first.size();
        return a->first < b->first;
    });
    std::string out;
    auto term = [&out](const Monomial& m, std::int64_t c) {
        std::uint64_t mag = c < 0 ? 0 - static_cast<std::uint64_t>(c) : static_cast<std::uint64_t>(c);
        if (c < 0) out += "-";
        else if (!out.empty()) out += "+";
        std::string body;
        for (const auto& s : m) body += (body.empty() ? "" : "*") + symbol_text(s);
        if (body.empty()) out += std::to_string(mag);
        else if (mag == 1) out += body;
        else out += std::to_string(mag) + "*" + body;
    };
    for (const auto* t : order) term(t->first, t->second);
    if (constant_ != 0) term(Monomial{}, constant_);
    return out;
}

}  // namespace recipe::analyzer
