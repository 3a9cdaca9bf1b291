// poly.h — integer polynomials over named symbols (sizes such as W, NX*NY,
// N-1). Index expressions keep sizes symbolic so that a flat index
// `(y-1)*W + x+1` can be split into per-dimension offsets (-1 in y, +1 in x)
// whatever W's value; values come later from the constant table.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace recipe::analyzer {

// A product of symbols, sorted; empty = the constant 1.
using Monomial = std::vector<std::string>;

class Poly {
public:
    Poly() = default;
    static Poly constant(std::int64_t c);
    static Poly symbol(const std::string& name);

    bool is_zero() const { return constant_ == 0 && symbolic_.empty(); }
    bool is_constant() const { return symbolic_.empty(); }  // no symbols (zero included)
    std::int64_t constant_term() const { return constant_; }  // coefficient of the empty monomial
    std::optional<std::int64_t> as_constant() const;
    int degree() const;
    // How many terms have a non-zero coefficient.
    std::size_t term_count() const { return symbolic_.size() + (constant_ != 0 ? 1 : 0); }
    // Calls f(monomial, coefficient) for every term, in monomial order (so
    // the constant, whose monomial is empty, first).
    template <typename F>
    void for_each_term(F&& f) const {
        static const Monomial one;
        if (constant_ != 0) f(one, constant_);
        for (const auto& [m, c] : symbolic_) f(m, c);
    }
    // The terms with at least one symbol, in monomial order.
    const std::vector<std::pair<Monomial, std::int64_t>>& symbolic_terms() const { return symbolic_; }
    std::int64_t coefficient(const Monomial& m) const;
    std::vector<std::string> symbols() const;

    Poly operator+(const Poly& o) const;
    Poly operator-(const Poly& o) const;
    Poly operator*(const Poly& o) const;
    Poly operator-() const;
    bool operator==(const Poly& o) const { return constant_ == o.constant_ && symbolic_ == o.symbolic_; }
    bool operator!=(const Poly& o) const { return !(*this == o); }
    // Lexicographic over the terms in monomial order, as for a map from
    // monomial to coefficient.
    bool operator<(const Poly& o) const;

    // Exact division; nullopt when `d` does not divide this polynomial.
    std::optional<Poly> divide(const Poly& d) const;

    // Value with every symbol looked up; nullopt if one is unknown or the
    // arithmetic overflows.
    std::optional<std::int64_t> evaluate(const std::function<std::optional<std::int64_t>(const std::string&)>& lookup) const;

    // Readable C, highest degree first: "W*H", "N-1", "-W+1", "(N/2)+3".
    std::string to_string() const;

private:
    // Held apart from the other terms: most polynomials are constants (loop
    // bounds, offsets, coefficients), and these then need no allocation.
    std::int64_t constant_ = 0;
    std::vector<std::pair<Monomial, std::int64_t>> symbolic_;  // sorted by monomial, none empty, no zero coefficients
    void add_term(const Monomial& m, std::int64_t c);
};

}  // namespace recipe::analyzer
