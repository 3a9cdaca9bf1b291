// too-complex — bodies nested deeper than the analyser follows, or window
// loops that read thousands of offsets: refused rather than guessed at.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_too_complex(const NestFacts& f, std::vector<Diagnostic>& out) {
    if (!is_null(f.body.too_complex))
        out.push_back(reason("too-complex", f.body.too_complex, "loop body is nested too deeply to analyse"));
    for (const auto& s : f.shapes)
        if (s.problem == AccessShape::Problem::TooManyOffsets) {
            out.push_back(reason("too-complex", s.where.begin, s.why));
            break;
        }
}

}  // namespace recipe::analyzer
