// source_map.h — from the preprocessed text back to what the user wrote.
// A line keeps its number through the preprocessor (LineMap); within a line
// macros may have expanded (`SCALAR_VAL(0.2)` -> `0.2`), so columns are found
// by aligning the line's tokens in both texts (a longest common
// subsequence): a token the preprocessor left alone maps exactly to where it
// was written, a token of an expansion maps to the macro's name. Byte
// offsets are mapped for rewriting the main file only where exact.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/preprocessor.h"

namespace recipe::analyzer {

class SourceMap {
public:
    // `original` is the main file's text as the user wrote it.
    SourceMap(std::string preprocessed, LineMap lines, std::string original, std::map<std::string, std::string> macros = {});

    // The object-like macros of the user's files and flags (Preprocessed::macros).
    const std::map<std::string, std::string>& macros() const { return macros_; }

    // A text that went through no preprocessor: every line is its own.
    static SourceMap identity(std::string text, const std::string& name);

    const LineMap& lines() const { return lines_; }
    const std::string& original() const { return original_; }
    std::string_view preprocessed() const { return preprocessed_; }

    // Where a 1-based line and column of the preprocessed text was written:
    // file index (LineMap::files; -1 when from no user file), line, column.
    struct Place {
        int file = -1;
        int line = 0;
        int column = 0;
    };
    Place place(int line, int column) const;

    // The main file's byte offset for a preprocessed one: `offset` must be
    // the start (end == false) or the end (end == true) of a token the
    // preprocessor did not produce by expansion (then where that token was
    // written), or of a whole expansion (then the macro's invocation), or lie
    // in a line's leading blanks. nullopt otherwise (another file, inside an
    // expansion).
    std::optional<std::uint32_t> to_original(std::uint32_t offset, bool end) const;

    // The main file's text for a preprocessed span whose ends map; nullopt
    // when either end does not.
    std::optional<std::string> original_text(std::uint32_t begin, std::uint32_t end) const;

private:
    struct Token {
        std::uint32_t begin = 0, end = 0;  // byte offsets in their text
    };
    // For one preprocessed line: its tokens and, per token, the index of the
    // original token it matches (-1 when it came from an expansion).
    struct Alignment {
        std::vector<Token> pp;
        std::vector<Token> original;
        std::vector<int> match;
    };
    Alignment align(int pp_line) const;
    int pp_line_of(std::uint32_t offset) const;

    std::string preprocessed_;
    LineMap lines_;
    std::string original_;
    std::map<std::string, std::string> macros_;
    std::vector<std::uint32_t> pp_line_starts_;
    // GCC splits a line where a system header's macro expands in it
    // (`fprintf(` / `# 42 "x.c" 3 4` / `stderr` / `# 42 "x.c"` / `, "...")`):
    // the preprocessed lines of one original line, [first, last] by line.
    std::vector<int> group_first_, group_last_;
    std::vector<std::uint32_t> original_line_starts_;
    // The original's tokens outside comments and directives, in order; those
    // of line L are [original_token_at_[L - 1], original_token_at_[L]).
    std::vector<Token> original_tokens_;
    std::vector<std::uint32_t> original_token_at_;
};

// Splits C text into tokens for alignment: identifiers, numbers, string and
// character literals, and single punctuation characters; skips blanks.
std::vector<std::pair<std::uint32_t, std::uint32_t>> c_tokens(std::string_view text);

}  // namespace recipe::analyzer
