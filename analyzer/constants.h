// constants.h — integer values of sizes: literals, #defines (and -D
// overrides), enumerators, const variables, sizeof of scalar types, and the
// arithmetic C allows in constant expressions. Values that cannot be known
// at analysis time stay unknown (nullopt); nothing is guessed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "analyzer/definitions.h"

namespace recipe::analyzer {

class ConstantEvaluator {
public:
    explicit ConstantEvaluator(const FileDefinitions& defs) : defs_(defs) {}

    // A name's value as seen at byte `at` of the file.
    std::optional<std::int64_t> value_of(const std::string& name, std::uint32_t at) const;

    // An expression's value. `at` scopes const variables; `params` gives
    // values to names first (a function-like macro's parameters, or a
    // function's parameters known from its call sites).
    using Lookup = std::function<std::optional<std::int64_t>(const std::string&)>;
    std::optional<std::int64_t> evaluate(Expr e, std::uint32_t at, const Lookup& params = nullptr) const;

    const FileDefinitions& definitions() const { return defs_; }

private:
    const FileDefinitions& defs_;
    mutable std::unordered_map<std::string, std::optional<std::int64_t>> cache_;  // macros and enumerators
    mutable int depth_ = 0;

    std::optional<std::int64_t> eval(TSNode n, const std::string& src, std::uint32_t at, const Lookup& params) const;
};

// Parses a C integer literal ("100", "0x10", "64u", "1'000" is not C): nullopt
// for floating literals and junk.
std::optional<std::int64_t> parse_integer_literal(std::string_view s);

}  // namespace recipe::analyzer
