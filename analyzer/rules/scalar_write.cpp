// scalar-write — a variable declared outside the nest overwritten in the
// body: its value after the loop depends on which iteration ran last.
// Unless it is a temporary in all but its declaration (C89 code declares
// every variable at the top of the function: Rodinia's `delta`): every
// iteration assigns it before reading it, and nothing after the nest reads
// it. Then each GPU thread keeps its own copy, as a loop-local would be.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

namespace {

// Whether `stmt` (a statement of the body, in order) assigns `name` plainly
// (`name = ...;`) at its top.
bool plain_assignment_of(TSNode stmt, const std::string& name, const std::string& src) {
    if (!IS(stmt, "expression_statement") || ts_node_named_child_count(stmt) == 0) return false;
    const TSNode e = ts_node_named_child(stmt, 0);
    return IS(e, "assignment_expression") && text(field(e, "operator"), src) == "=" &&
           IS(strip_parens(field(e, "left")), "identifier") && text(strip_parens(field(e, "left")), src) == name &&
           !text_contains_name(field(e, "right"), src, name);
}

// Every iteration assigns `name` before any other use: the first statement
// of the innermost body that mentions it is a plain assignment to it.
bool assigned_first(TSNode body, const std::string& name, const std::string& src) {
    std::vector<TSNode> stmts;
    if (IS(body, "compound_statement")) stmts = named_children(body);
    else stmts.push_back(body);
    for (TSNode s : stmts) {
        if (!text_contains_name(s, src, name)) continue;
        return plain_assignment_of(s, name, src);
    }
    return false;
}

// A use of `name` in `function` after byte `from`: its line, or 0.
int read_after(TSNode function_body, std::uint32_t from, const std::string& name, const std::string& src) {
    int line = 0;
    walk(function_body, [&](TSNode n) {
        if (line || ts_node_end_byte(n) <= from || !text_contains_name(n, src, name)) return false;
        if (IS(n, "identifier") && ts_node_start_byte(n) >= from && text(n, src) == name) {
            line = pos_of(n).line;
            return false;
        }
        return true;
    });
    return line;
}

}  // namespace

void check_scalar_write(const NestFacts& f, std::vector<Diagnostic>& out) {
    const std::string& src = f.ctx->source();
    for (const auto& w : f.body.scalar_writes) {
        if (w.accumulates) continue;
        if (f.candidate && !ts_node_is_null(f.candidate->body) && f.candidate->function &&
            assigned_first(f.candidate->body, w.name, src)) {
            const TSNode outer = f.candidate->chain.empty() ? f.candidate->body : f.candidate->chain.front();
            const int later = read_after(f.candidate->function->body, ts_node_end_byte(outer), w.name, src);
            if (!later) continue;  // a temporary: private to each iteration
            out.push_back(reason("scalar-write", w.node,
                                 "writes '" + w.name + "', declared outside the loop nest, and reads its last value after "
                                 "the loop (line " + std::to_string(later) + "): which iteration ran last decides it"));
            continue;
        }
        out.push_back(reason("scalar-write", w.node,
                             "writes '" + w.name + "', declared outside the loop nest: iterations would race for it "
                                                   "(declare it inside the loop body if it is a temporary)"));
    }
}

}  // namespace recipe::analyzer
