// macro_values.h — the integer values of the object-like macros the
// preprocessor reported (`#define N 1024`, `#define M (N + 2)`), and the
// user's spelling of a number the analysis computed from expanded text:
// `1026` is `N+2` when the code around it names N. Spelling only makes the
// recipe and the .cu read as the user's code does; the .cu guards every
// macro a converted nest names with its value (recipes/cu_builder).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace recipe::analyzer {

// Values of the macros whose replacement is an integer constant expression
// (literals, + - * / % << >> and parentheses, other such macros).
std::map<std::string, std::int64_t> macro_values(const std::map<std::string, std::string>& macros);

// The value of an integer constant expression written with literals only.
std::optional<std::int64_t> integer_value(const std::string& text);

// `value` spelled with one of `names` (in order of preference) as NAME or
// NAME+k / NAME-k for |k| <= 4 (a halo); "" when none fits.
std::string spell_with_macro(std::int64_t value, const std::vector<std::string>& names,
                             const std::map<std::string, std::int64_t>& values);

}  // namespace recipe::analyzer
