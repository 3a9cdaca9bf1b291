// nest_source_facts.h — what the generator reads off the source around a
// loop nest with tree-sitter: the names a body declares or assigns, the
// file's macros, whether a write is conditional, C++ forms of size
// expressions. Used by nest_conversion. (Loop bounds and counter types as
// written are the analyzer's: LoopProperties.)
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "analyzer/program.h"
#include "recipes/c_tree.h"

namespace recipe::recipes::facts {

// The node spanning exactly `s`, or a null node.
TSNode node_for(const CTree& t, const analyzer::SourceSpan& s);
// The start of the line holding `at`.
std::uint32_t line_start(std::string_view src, std::uint32_t at);
bool only_blanks_before(std::string_view src, std::uint32_t at);
std::string without_const(std::string type);
bool is_pointer_or_array(const std::string& type);
// The first statement of loop body `block` that does more than what
// `allowed` accepts (the nests, the calls the caller accounts for), declare
// or swap the pointers in `movable` (a pointer declared in the body joins
// them, and so does a pointer temporary the function declares before the
// loop, assigned one of them), or count with `counter`; a null node when
// there is none. `swapped` is set when the body swaps. `loop_stays`: the
// loop stays in the .cu and its swaps run as written; otherwise one call
// replaces it, and a temporary of the function must not be mentioned after
// the loop (the call leaves it as it was).
TSNode loop_body_extra(const CTree& t, TSNode block, const std::string& counter, std::set<std::string> movable,
                       const std::function<bool(TSNode)>& allowed, bool* swapped = nullptr, bool loop_stays = false);
// An extent as host code: its expression, else its value; "" when unknown.
std::string extent_text(const analyzer::Extent& e);
bool same_extent(const analyzer::Extent& a, const analyzer::Extent& b);
// An identifier spelling an expression: each run of other characters one
// `_`, none at the end (`in->u`: `in_u`, `ey[0]`: `ey_0`, `_fict_[t]`: `_fict_t`).
std::string identifier_for(const std::string& expression);
// `want`, or `want_2`, ... : not in `taken` nor an identifier of the file.
std::string unique_name(const std::string& want, const CTree& t, std::set<std::string>* taken);
// Names the body declares itself (block-scoped variables, inner loop counters).
std::set<std::string> declared_in(const CTree& t, TSNode body);
// Names the body assigns or increments.
std::set<std::string> assigned_in(const CTree& t, TSNode body);
// `expr` as an initialiser of std::int64_t in a braced list: literals,
// macros and variables of signed integer types stay as written; anything
// else (size_t, unsigned, unknown names) is cast, or the list would narrow.
std::string int64_code(const CTree& t, const std::string& expr, const std::set<std::string>& macros, std::uint32_t at);

}  // namespace recipe::recipes::facts
