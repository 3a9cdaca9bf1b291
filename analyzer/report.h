// report.h — the text `recipe analyze` prints for people: a summary per
// nest, and diagnostics like a compiler's (`file:line:col: warning: message
// [rule-id]`, the source line, a caret under the column).
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/program.h"

namespace recipe::analyzer {

// The first line of a diagnostic, as every command prints it:
// `file:line:col: severity: message [rule]`.
std::string diagnostic_line(const std::string& file, const SourcePos& pos, const std::string& severity,
                            const std::string& message, const std::string& rule);
// A text's lines, found once (a file's diagnostics each show their line).
class SourceLines {
public:
    explicit SourceLines(std::string_view text);
    // 1-based, without its line ending; empty when out of range.
    std::string_view line(int n) const;

private:
    std::string_view text_;
    std::vector<std::size_t> starts_;
};

// One diagnostic with its source line and caret (no line when `lines` does
// not have it).
std::string format_diagnostic(const std::string& file, const SourceLines& lines, const Diagnostic& d);

// Extent as people read it: "W = 8000", "N-1 (symbolic)", "100".
std::string format_extent(const Extent& e);

// The whole report: file-level diagnostics, then every nest.
std::string format_report(const Program& program, std::string_view source);
void write_report(std::ostream& out, const Program& program, std::string_view source);

}  // namespace recipe::analyzer
