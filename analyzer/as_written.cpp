#include "analyzer/as_written.h"

#include <algorithm>

#include "analyzer/access_coordinates.h"
#include "analyzer/written_text.h"

namespace recipe::analyzer {

namespace {

// `E + 1`, parenthesising E where + would bind into it.
std::string plus_one(const WrittenText& t, TSNode e) {
    const std::string text = t.spelled(e);
    if (is(e, "identifier") || is(e, "number_literal") || is(e, "call_expression") || is(e, "parenthesized_expression") ||
        is(e, "subscript_expression"))
        return text + " + 1";
    if (is(e, "binary_expression")) {
        const std::string_view op = t.text(field(e, "operator"));
        if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") return text + " + 1";
    }
    return "(" + text + ") + 1";
}

// The innermost function definition under `top` around byte `at`, or a null
// node. Found going down: tree-sitter finds a node's parent by going down
// from the root, past every definition of the file before it.
TSNode function_around(TSNode top, std::uint32_t at) {
    TSNode function{};
    for (TSNode n = top; !ts_node_is_null(n) && ts_node_start_byte(n) <= at; n = ts_node_first_child_for_byte(n, at))
        if (is(n, "function_definition")) function = n;
    return function;
}

// The top-level node holding `s` (`tops` in source order), else `root`.
TSNode holding(const std::vector<TSNode>& tops, TSNode root, const SourceSpan& s) {
    auto it = std::upper_bound(tops.begin(), tops.end(), s.begin_byte,
                               [](std::uint32_t b, TSNode n) { return b < ts_node_start_byte(n); });
    if (it == tops.begin()) return root;
    --it;
    return ts_node_end_byte(*it) >= s.end_byte ? *it : root;
}

// The lower bound, the exclusive upper bound and the counter's type of the
// for statement `loop`, as written; the analysis's own reading where the
// header does not say.
void read_bounds(const WrittenText& t, TSNode loop, TSNode function, const std::vector<TSNode>& file_declarations,
                 LoopProperties* lp) {
    const TSNode init = field(loop, "initializer");
    if (is(init, "declaration")) {
        for (TSNode c : named_children(init))
            if (is(c, "init_declarator") && t.text(declared_name(field(c, "declarator"))) == lp->var) {
                lp->lower_written = t.spelled(field(c, "value"));
                lp->counter_type = abstract_type(t, init, field(c, "declarator"));
            }
    } else if (is(init, "assignment_expression") && t.text(field(init, "left")) == lp->var) {
        lp->lower_written = t.spelled(field(init, "right"));
    }
    const TSNode cond = field(loop, "condition");
    if (is(cond, "binary_expression")) {
        const std::string_view op = t.text(field(cond, "operator"));
        const TSNode l = field(cond, "left"), r = field(cond, "right");
        if (t.text(l) == lp->var) {
            if (op == "<" || op == "!=") lp->upper_written = t.spelled(r);
            if (op == "<=") lp->upper_written = plus_one(t, r);
        } else if (t.text(r) == lp->var) {
            if (op == ">") lp->upper_written = t.spelled(l);
            if (op == ">=") lp->upper_written = plus_one(t, l);
        }
    }
    if (lp->lower_written.empty())
        lp->lower_written = !lp->lower.expr.empty() ? lp->lower.expr : std::to_string(lp->lower.value.value_or(0));
    if (lp->upper_written.empty() && (lp->upper.value || !lp->upper.expr.empty()))
        lp->upper_written = lp->upper.value ? std::to_string(*lp->upper.value) : lp->upper.expr;
    if (lp->counter_type.empty()) {
        WrittenDeclaration d;
        const bool found = find_declaration(t, function, file_declarations, lp->var, ts_node_start_byte(loop), &d);
        lp->counter_type = found ? d.type : "long";
    }
}

}  // namespace

void read_as_written(const SyntaxTree& tree, const SourceMap* map, Program* program) {
    if (program->nests.empty()) return;
    const WrittenText text(tree, map);
    // A nest's nodes are looked up from the top-level node that holds it:
    // from the root, each lookup would pass every definition before it.
    std::vector<TSNode> tops, file_declarations;
    for_each_named_child(tree.root(), [&](TSNode top) {
        tops.push_back(top);
        if (is(top, "declaration")) file_declarations.push_back(top);
    });
    for (auto& n : program->nests) {
        // Only accepted nests reach the generator. The others are most of a
        // large file's nests, and spelling a bound as the user wrote it
        // aligns its line with the user's: that would cost time for nothing.
        if (!n.accepted) continue;
        const TSNode top = holding(tops, tree.root(), n.span);
        split_accesses(top, tree.source(), &n);
        for (auto& lp : n.iteration_space) {
            const TSNode loop = node_spanning(top, lp.span);
            if (!is(loop, "for_statement")) continue;
            read_bounds(text, loop, function_around(top, ts_node_start_byte(loop)), file_declarations, &lp);
        }
    }
}

}  // namespace recipe::analyzer
