// translation_unit.h — a C file as its build sees it: read, run through the
// user's preprocessor, analysed, and every position of the analysis mapped
// back into the user's own files (lines, columns and the header a nest is
// written in). Byte offsets stay offsets of the preprocessed text, whose
// parse the unit keeps for the generator; SourceMap turns them into the
// main file's.
#pragma once

#include <memory>
#include <string>

#include "analyzer/analyzer.h"
#include "analyzer/preprocessor.h"
#include "analyzer/program.h"
#include "analyzer/source_map.h"
#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

struct TranslationUnit {
    std::string path;                  // as given
    std::unique_ptr<SourceMap> map;    // the original and the preprocessed text
    // The one parse of the preprocessed text: the analysis read it, and the
    // generator reads it too (its nodes are where the Program's bytes point).
    std::unique_ptr<const SyntaxTree> tree;
    Program program;
    const std::string& original() const { return map->original(); }
    std::string_view preprocessed() const { return map->preprocessed(); }
};

// `text` is the content of `path` (read by the caller). False with a
// one-line `file:line:col: error: ...` when the text is not C source or the
// preprocessor fails.
bool analyze_translation_unit(const std::string& path, std::string text, const BuildFlags& build,
                              const AnalyzeOptions& options, TranslationUnit* unit, std::string* error);

// Rewrites the lines and columns of `program` (analysed from a
// preprocessed text) into the user's files, and names the header of every
// nest and diagnostic that is not in the main file.
void map_positions(const SourceMap& map, Program* program);

}  // namespace recipe::analyzer
