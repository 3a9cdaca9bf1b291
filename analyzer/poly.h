// poly.h — integer polynomials over named symbols (sizes such as W, NX*NY,
// N-1). Index expressions keep sizes symbolic so that a flat index
// `(y-1)*W + x+1` can be split into per-dimension offsets (-1 in y, +1 in x)
// whatever W's value; values come later from the constant table.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
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

    bool is_zero() const { return terms_.empty(); }
    bool is_constant() const;             // no symbols (zero included)
    std::int64_t constant_term() const;   // coefficient of the empty monomial
    std::optional<std::int64_t> as_constant() const;
    int degree() const;
    const std::map<Monomial, std::int64_t>& terms() const { return terms_; }
    std::vector<std::string> symbols() const;

    Poly operator+(const Poly& o) const;
    Poly operator-(const Poly& o) const;
    Poly operator*(const Poly& o) const;
    Poly operator-() const;
    bool operator==(const Poly& o) const { return terms_ == o.terms_; }
    bool operator!=(const Poly& o) const { return terms_ != o.terms_; }
    bool operator<(const Poly& o) const { return terms_ < o.terms_; }

    // Exact division; nullopt when `d` does not divide this polynomial.
    std::optional<Poly> divide(const Poly& d) const;

    // Value with every symbol looked up; nullopt if one is unknown or the
    // arithmetic overflows.
    std::optional<std::int64_t> evaluate(const std::function<std::optional<std::int64_t>(const std::string&)>& lookup) const;

    // Readable C, highest degree first: "W*H", "N-1", "-W+1", "(N/2)+3".
    std::string to_string() const;

private:
    std::map<Monomial, std::int64_t> terms_;  // no zero coefficients
    void add_term(const Monomial& m, std::int64_t c);
};

}  // namespace recipe::analyzer
