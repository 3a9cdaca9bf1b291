// syntax_errors.h — the positions of tree-sitter's ERROR and MISSING nodes
// as `syntax` diagnostics, so that a file with errors still has its valid
// nests analysed and the user learns where the rest went wrong.
#pragma once

#include <vector>

#include "analyzer/program.h"
#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

// At most `limit` diagnostics; one more note says how many were left out.
std::vector<Diagnostic> syntax_errors(const SyntaxTree& tree, std::size_t limit = 50);

}  // namespace recipe::analyzer
