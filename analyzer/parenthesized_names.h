// parenthesized_names.h — macro expansion writes `((x) + NX * ((y) + NY * (z)))`,
// and a C parser that does not know which names are types reads `(x) + NX`
// as a cast of `+NX` to the type `x`. Before the preprocessed text is
// parsed, the parentheses around a lone name that is not a type are
// replaced by blanks (same meaning, same byte offsets), where they do not
// belong to a call, a keyword (`if (x)`) or a declarator.
#pragma once

#include <set>
#include <string>

namespace recipe::analyzer {

// Names declared with `typedef` in `text`, plus the C and POSIX library's
// usual type names (their headers are not in the text the analyzer reads).
std::set<std::string> type_names(const std::string& text);

// Blanks the parentheses of `(name)` where name is not in `types`; returns
// how many pairs it blanked.
int blank_name_parentheses(std::string* text, const std::set<std::string>& types);

}  // namespace recipe::analyzer
