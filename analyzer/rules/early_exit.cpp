// early-exit — `break`, `return` or `goto` in the body end the loop on a
// data-dependent iteration: the iterations are not independent.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_early_exit(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (TSNode n : f.body.early_exits) {
        std::string what = IS(n, "break_statement") ? "break" : IS(n, "return_statement") ? "return" : "goto";
        out.push_back(reason("early-exit", n, "'" + what + "' leaves the loop early; every iteration must run to its end"));
    }
}

}  // namespace recipe::analyzer
