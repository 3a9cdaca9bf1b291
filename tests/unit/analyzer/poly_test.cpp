// Integer polynomials over size symbols: the arithmetic the index analysis
// relies on, and the order terms are listed and printed in.
#include <catch2/catch.hpp>

#include <climits>
#include <map>
#include <optional>
#include <string>

#include "analyzer/poly.h"

using namespace recipe::analyzer;

namespace {

Poly c(std::int64_t v) { return Poly::constant(v); }
Poly s(const std::string& name) { return Poly::symbol(name); }

std::optional<std::int64_t> value(const Poly& p, const std::map<std::string, std::int64_t>& env) {
    return p.evaluate([&](const std::string& name) -> std::optional<std::int64_t> {
        auto it = env.find(name);
        if (it == env.end()) return std::nullopt;
        return it->second;
    });
}

}  // namespace

TEST_CASE("polynomials add, negate and multiply, dropping terms that cancel", "[analyzer]") {
    Poly row = (s("y") - c(1)) * s("W");  // (y-1)*W = W*y - W
    CHECK(row.to_string() == "W*y-W");
    CHECK(row.degree() == 2);
    CHECK(row.term_count() == 2);
    CHECK((row + s("W")).to_string() == "W*y");
    CHECK((row - row).is_zero());
    CHECK((row - row).to_string() == "0");
    CHECK((c(3) + c(-3)).is_zero());
    CHECK(c(5).is_constant());
    CHECK(c(5).as_constant() == 5);
    CHECK_FALSE(s("N").as_constant());
    CHECK((s("N") - c(1)).to_string() == "N-1");
    CHECK((c(1) - s("W")).to_string() == "-W+1");
    CHECK((s("H") * s("W") + c(2)).to_string() == "H*W+2");
    CHECK((c(2) * s("N") * s("N")).to_string() == "2*N*N");
    CHECK(Poly::symbol("N/2").to_string() == "(N/2)");
    CHECK((-(s("a") + c(4))).to_string() == "-a-4");
}

TEST_CASE("polynomial terms are listed constant first, then by monomial", "[analyzer]") {
    Poly p = s("b") * s("a") + s("c") + c(7) + s("a");
    std::vector<std::string> seen;
    p.for_each_term([&](const Monomial& m, std::int64_t k) {
        std::string t = std::to_string(k);
        for (const auto& x : m) t += "*" + x;
        seen.push_back(t);
    });
    CHECK(seen == std::vector<std::string>{"7", "1*a", "1*a*b", "1*c"});
    CHECK(p.coefficient({"a", "b"}) == 1);
    CHECK(p.coefficient({}) == 7);
    CHECK(p.coefficient({"z"}) == 0);
    CHECK(p.symbols() == std::vector<std::string>{"a", "b", "c"});
    // Ordered as a map from monomial to coefficient would be.
    CHECK(c(1) < s("a"));
    CHECK(s("a") < s("a") + s("b"));
    CHECK(s("a") + c(1) < s("a"));
    CHECK_FALSE(s("a") < s("a"));
}

TEST_CASE("polynomials divide exactly or not at all", "[analyzer]") {
    Poly nxny = s("NX") * s("NY");
    auto q = (c(3) * nxny).divide(s("NX"));
    REQUIRE(q);
    CHECK(q->to_string() == "3*NY");
    CHECK_FALSE(nxny.divide(s("NZ")));
    CHECK_FALSE((c(3) * s("W")).divide(c(2) * s("W")));
    auto k = (c(6) * s("W") - c(12)).divide(s("W") - c(2));
    REQUIRE(k);
    CHECK(k->to_string() == "6");
    CHECK_FALSE(c(1).divide(Poly{}));
}

TEST_CASE("polynomials evaluate with every symbol known and without overflow", "[analyzer]") {
    Poly p = s("W") * s("H") - s("W") + c(1);
    CHECK(value(p, {{"W", 10}, {"H", 4}}) == 31);
    CHECK_FALSE(value(p, {{"W", 10}}));
    CHECK_FALSE(value(s("N") * s("N"), {{"N", INT64_MAX / 2}}));
    CHECK(value(c(-5), {}) == -5);
    CHECK(value(Poly{}, {}) == 0);
}
