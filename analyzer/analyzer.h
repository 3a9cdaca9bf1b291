// analyzer.h — entry points of the analyzer: C source in, Program out.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/program.h"

namespace recipe::analyzer {

class SyntaxTree;

struct AnalyzeOptions {
    // --assume NAME=VALUE: values to plan for, of sizes the file holds in
    // variables or struct fields (`n`, `g->nx`); they also override a
    // macro of that name. -D is the preprocessor's (BuildFlags).
    std::vector<std::pair<std::string, std::string>> assumptions;
    // Treat pointer parameters as never overlapping (--assume-no-alias),
    // as if they were declared `restrict`.
    bool assume_no_alias = false;
};

// Analyses C source held in memory. Never throws on bad input: syntax errors
// become Program::diagnostics and the valid nests are still analysed. A
// text the parser cannot hold (SyntaxTree::whole()) gives no nests and one
// diagnostic, of rule kUnparsable.
Program analyze_source(std::string_view file_name, std::string_view source, const AnalyzeOptions& options);
// The same, over a text already parsed: the caller keeps the tree, so that
// what reads the file after the analysis reads this parse, not one of its
// own. What the generator copies as written is not read yet: the caller
// runs read_as_written (as_written.h) once the positions are mapped.
Program analyze_tree(std::string_view file_name, const SyntaxTree& tree, const AnalyzeOptions& options);

inline constexpr const char* kUnparsable = "parser-limit";

// False, with `error` set to a one-line `file:line:col: error: ...`, when
// `program` has the diagnostic of rule kUnparsable: the file is then refused
// as a whole. `path` names the file where the diagnostic names none.
bool parsed_whole(const Program& program, const std::string& path, std::string* error);

// Reads and analyses a file. A file that cannot be analysed at all (missing,
// a directory, unreadable, binary, not UTF-8, or more than the parser can
// hold) returns false with `error` set to a one-line `file:line:col: error:
// ...` message.
bool analyze_file(const std::string& path, const AnalyzeOptions& options, Program* program, std::string* error);

}  // namespace recipe::analyzer
