// not-perfectly-nested — all work must happen in the innermost loop
// (thesis §5.1). A loop inside the body whose trip count is not a small
// compile-time constant is a further dimension or a reduction, not a window.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_not_perfectly_nested(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (TSNode loop : f.body.inner_loops) {
        std::string what = IS(loop, "for_statement") ? "loop" : IS(loop, "while_statement") ? "while loop" : "do-while loop";
        out.push_back(reason("not-perfectly-nested", loop,
                             what + " inside the nest body is not a fixed-size window (its trip count is not a "
                                    "compile-time constant); only perfectly nested loops, with all statements in the "
                                    "innermost one, can be tiled"));
    }
}

}  // namespace recipe::analyzer
