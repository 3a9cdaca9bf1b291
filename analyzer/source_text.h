// source_text.h — reading a C file and refusing what is not C text: a missing
// file, a directory, an empty file, binary content (NUL bytes) or bytes that
// are not UTF-8. Errors are one line, `file:line:col: error: ...` where a
// position exists (`file: error: ...` where it does not).
#pragma once

#include <string>
#include <string_view>

namespace recipe::analyzer {

// Reads `path` into `text`. False with `error` set when it cannot be read or
// is not analysable text (see validate_source).
bool read_source_file(const std::string& path, std::string* text, std::string* error);

// Checks text already in memory: empty, NUL bytes (binary) and invalid UTF-8
// are refused with the position of the first offending byte.
bool validate_source(std::string_view file_name, std::string_view text, std::string* error);

// 1-based line and byte column of `offset` in `text`.
void line_col_of(std::string_view text, std::size_t offset, int* line, int* col);

}  // namespace recipe::analyzer
