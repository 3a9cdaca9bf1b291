// as_written.h — what the generator copies from the user's text into the
// .cu, read off the analyzer's parse once the positions are mapped, so that
// it keeps the user's spelling: each access's coordinates
// (ArrayAccess::coordinates) and each loop's bounds and counter type
// (LoopProperties::lower_written, upper_written, counter_type).
#pragma once

#include "analyzer/program.h"
#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

class SourceMap;

// Reads them for the accepted nests (the others never reach the generator).
// `tree` is the parse the program was analysed from; `map` leads back to
// the user's file (null for a text that went through no preprocessor).
void read_as_written(const SyntaxTree& tree, const SourceMap* map, Program* program);

}  // namespace recipe::analyzer
