// syntax — a nest that contains a syntax error is not analysed further:
// what tree-sitter recovered may not be what the compiler sees.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_syntax(const NestFacts& f, std::vector<Diagnostic>& out) {
    TSNode outer = f.candidate->chain.front();
    if (!ts_node_has_error(outer)) return;
    TSNode first = outer;
    walk_all_nodes(outer, [&](TSNode n) {
        if (!ts_node_has_error(n) && !ts_node_is_missing(n)) return false;
        if (ts_node_is_missing(n) || IS(n, "ERROR")) {
            first = n;
            return false;
        }
        return ts_node_eq(first, outer);
    });
    SourcePos at = pos_of(first);
    out.push_back(reason("syntax", outer,
                         "loop nest contains a syntax error (line " + std::to_string(at.line) + ", column " +
                             std::to_string(at.column) + "); fix it to have the nest analysed"));
}

}  // namespace recipe::analyzer
