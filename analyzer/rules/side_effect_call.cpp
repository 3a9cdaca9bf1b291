// side-effect-call — a call that may write memory or do I/O (printf, rand,
// a function of unknown effect) cannot run in parallel on a GPU. Pure math
// functions, macros and pure helpers of the same file are fine.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_side_effect_call(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (const auto& c : f.body.calls) {
        std::string where = f.ctx->defs().function(c.name) ? "it writes memory or calls such a function"
                                                           : "it is not a pure math function or defined in this file";
        out.push_back(reason("side-effect-call", c.node, "call to '" + c.name + "' may have side effects (" + where + ")"));
    }
}

}  // namespace recipe::analyzer
