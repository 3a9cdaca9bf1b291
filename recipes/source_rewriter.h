// source_rewriter.h — applies replacements at byte spans of a source text.
// The spans come from the analyzer (tree-sitter byte offsets), so the text
// outside them, the user's comments and formatting, stays exactly as it was.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace recipe::recipes {

struct Edit {
    std::uint32_t begin = 0;  // byte offset, inclusive
    std::uint32_t end = 0;    // byte offset, exclusive; == begin inserts
    std::string replacement;
};

// Applies `edits` to `source`. Insertions at the same offset keep their order
// and come before a replacement starting there. Overlapping or out-of-range
// edits are a bug in the caller: std::logic_error.
std::string apply_edits(std::string_view source, std::vector<Edit> edits);

// The leading blanks (spaces and tabs) of the line that holds byte `offset`.
std::string line_indent(std::string_view source, std::uint32_t offset);

// Removes the indentation common to all non-blank lines after the first of
// `text` from those lines, then indents them by `indent`. The first line is
// left as it is (it starts mid-line in the source) unless `first_line_too`.
std::string reindent(std::string_view text, std::string_view indent, bool first_line_too = false);

// True when `word` occurs in `text` as a whole C identifier outside comments
// and string or character literals.
bool contains_identifier(std::string_view text, std::string_view word);
// Every identifier of the text that contains_identifier would find.
std::set<std::string, std::less<>> identifiers(std::string_view text);

}  // namespace recipe::recipes
