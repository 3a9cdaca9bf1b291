// non-canonical-loop — a loop whose iteration space cannot be read from its
// header: not `for (i = lo; i < hi; i += c)`, bounds that depend on another
// loop's variable (a triangle, not a rectangle), a `while` loop, or a loop
// variable the body changes.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_non_canonical_loop(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (const auto& h : f.headers) {
        if (h.canonical) continue;
        TSNode where = is_null(h.problem_node) ? h.node : h.problem_node;
        out.push_back(reason("non-canonical-loop", where, h.problem));
    }
    for (const auto& w : f.body.loop_var_writes)
        out.push_back(reason("non-canonical-loop", w.node, "loop variable '" + w.name + "' is changed inside the loop body"));
}

}  // namespace recipe::analyzer
