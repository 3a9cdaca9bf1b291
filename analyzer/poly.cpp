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
    p.add_term({}, c);
    return p;
}

Poly Poly::symbol(const std::string& name) {
    Poly p;
    p.add_term({name}, 1);
    return p;
}

void Poly::add_term(const Monomial& m, std::int64_t c) {
    if (c == 0) return;
    auto it = terms_.find(m);
    if (it == terms_.end()) {
        terms_.emplace(m, c);
        return;
    }
    it->second = wrap_add(it->second, c);
    if (it->second == 0) terms_.erase(it);
}

bool Poly::is_constant() const { return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty()); }

std::int64_t Poly::constant_term() const {
    auto it = terms_.find(Monomial{});
    return it == terms_.end() ? 0 : it->second;
}

std::optional<std::int64_t> Poly::as_constant() const {
    if (!is_constant()) return std::nullopt;
    return constant_term();
}

int Poly::degree() const {
    int d = 0;
    for (const auto& [m, c] : terms_) d = std::max(d, static_cast<int>(m.size()));
    return d;
}

std::vector<std::string> Poly::symbols() const {
    std::vector<std::string> out;
    for (const auto& [m, c] : terms_)
        for (const auto& s : m)
            if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    return out;
}

Poly Poly::operator+(const Poly& o) const {
    Poly r = *this;
    for (const auto& [m, c] : o.terms_) r.add_term(m, c);
    return r;
}

Poly Poly::operator-() const {
    Poly r;
    for (const auto& [m, c] : terms_) r.add_term(m, wrap_mul(c, -1));
    return r;
}

Poly Poly::operator-(const Poly& o) const { return *this + (-o); }

Poly Poly::operator*(const Poly& o) const {
    Poly r;
    for (const auto& [ma, ca] : terms_)
        for (const auto& [mb, cb] : o.terms_) r.add_term(multiply(ma, mb), wrap_mul(ca, cb));
    return r;
}

std::optional<Poly> Poly::divide(const Poly& d) const {
    if (d.is_zero()) return std::nullopt;
    // Leading term of the divisor.
    auto lead_d = d.terms_.begin();
    for (auto it = d.terms_.begin(); it != d.terms_.end(); ++it)
        if (leads(it->first, lead_d->first)) lead_d = it;
    Poly rem = *this, quot;
    for (int guard = 0; guard < 64 && !rem.is_zero(); ++guard) {
        auto lead_r = rem.terms_.begin();
        for (auto it = rem.terms_.begin(); it != rem.terms_.end(); ++it)
            if (leads(it->first, lead_r->first)) lead_r = it;
        auto m = recipe::analyzer::divide(lead_r->first, lead_d->first);
        if (!m || lead_d->second == -1 || lead_r->second % lead_d->second != 0) {
            if (!m || lead_d->second != -1) return std::nullopt;
        }
        Poly t;
        t.add_term(*m, lead_d->second == -1 ? wrap_mul(lead_r->second, -1) : lead_r->second / lead_d->second);
        quot = quot + t;
        rem = rem - t * d;
    }
    if (!rem.is_zero()) return std::nullopt;
    return quot;
}

std::optional<std::int64_t> Poly::evaluate(
    const std::function<std::optional<std::int64_t>(const std::string&)>& lookup) const {
    std::int64_t sum = 0;
    for (const auto& [m, c] : terms_) {
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
    if (terms_.empty()) return "0";
    std::vector<std::pair<Monomial, std::int64_t>> order(terms_.begin(), terms_.end());
    // Symbols first in the order they sort, constant last: "N-1", "W*H+2".
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        if (a.first.empty() != b.first.empty()) return b.first.empty();
        if (a.first.size() != b.first.size()) return a.first.size() > b.first.size();
        return a.first < b.first;
    });
    std::string out;
    for (const auto& [m, c] : order) {
        std::uint64_t mag = c < 0 ? 0 - static_cast<std::uint64_t>(c) : static_cast<std::uint64_t>(c);
        if (c < 0) out += "-";
        else if (!out.empty()) out += "+";
        std::string body;
        for (const auto& s : m) body += (body.empty() ? "" : "*") + symbol_text(s);
        if (body.empty()) out += std::to_string(mag);
        else if (mag == 1) out += body;
        else out += std::to_string(mag) + "*" + body;
    }
    return out;
}

}  // namespace recipe::analyzer
