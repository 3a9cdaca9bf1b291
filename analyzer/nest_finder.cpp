#include "analyzer/nest_finder.h"

#include <algorithm>
#include <set>

#include "analyzer/declarations.h"

namespace recipe::analyzer {

namespace {

constexpr int kMaxChain = 64;
constexpr int kMaxTimeNesting = 8;

bool is_loop(TSNode n) { return IS(n, "for_statement") || IS(n, "while_statement") || IS(n, "do_statement"); }

bool contains_for(TSNode body, const std::string& src) {
    bool found = false;
    walk(body, [&](TSNode n) {
        if (found) return false;
        if (IS(n, "for_statement")) found = true;
        return !found && text_contains(n, src, "for");  // a for statement's text starts with `for`
    });
    return found;
}

// `t % 2`, `t & 1`, `(t + 1) % 2`, `t ? 0 : 1`: picks one of a few buffers.
bool picks_buffer(TSNode index, const std::string& src) {
    bool picks = false;
    walk(index, [&](TSNode k) {
        if (IS(k, "conditional_expression")) picks = true;
        if (IS(k, "binary_expression")) {
            std::string_view op = text(field(k, "operator"), src);
            if (op == "%" || op == "&" || op == "^") picks = true;
        }
        return !picks;
    });
    return picks;
}

// True when `var` is used inside the loops of `body` other than to pick a
// buffer (u[t%2][i] picks with t): then it is a dimension, not time. Uses
// outside the inner loops (`if (t % 100 == 0) print(...)`) do not count.
bool used_by_inner_loops(TSNode body, const std::string& var, const std::string& src) {
    bool used = false;
    // Subtrees whose text does not mention `var` cannot use it.
    walk(body, [&](TSNode loop) {
        if (used || !text_contains_name(loop, src, var)) return false;
        if (!IS(loop, "for_statement") && !IS(loop, "while_statement") && !IS(loop, "do_statement")) return true;
        walk(loop, [&](TSNode n) {
            if (used || !text_contains_name(n, src, var)) return false;
            if (IS(n, "subscript_expression")) {
                // A leading subscript that picks a buffer: skip it.
                TSNode arg = strip_parens(field(n, "argument"));
                if (!IS(arg, "subscript_expression") && picks_buffer(field(n, "index"), src)) return false;
                // A value read per step (fdtd-2d's `_fict_[t]`): the counter
                // alone indexes a one-dimensional array that is not assigned.
                const TSNode index = strip_parens(field(n, "index"));
                const TSNode parent = ts_node_parent(n);
                const bool assigned = (IS(parent, "assignment_expression") && ts_node_eq(field(parent, "left"), n)) ||
                                      IS(parent, "update_expression");
                if (IS(index, "identifier") && text(index, src) == var && IS(arg, "identifier") && !assigned &&
                    !IS(parent, "subscript_expression"))
                    return false;
            }
            if (IS(n, "identifier") && text(n, src) == var) used = true;
            return !used;
        });
        return false;
    });
    return used;
}

class Finder {
public:
    explicit Finder(const FileDefinitions& defs) : defs_(defs), src_(defs.source()) {}

    NestSearch result() { return std::move(search_); }

    // Searches loop `n`, inside time loop `time_loop` (-1: none), `depth`
    // time loops deep.
    void loop(TSNode n, int time_loop, int depth) {
        if (depth < kMaxTimeNesting && is_time_loop(n)) {
            TimeLoopCandidate t;
            t.node = n;
            t.outer = time_loop;
            int index = static_cast<int>(search_.time_loops.size());
            search_.time_loops.push_back(t);
            walk(field(n, "body"), [&](TSNode k) {
                if (!is_loop(k)) return true;
                loop(k, index, depth + 1);
                return false;
            });
            return;
        }
        NestCandidate c;
        c.function = defs_.function_at(ts_node_start_byte(n));
        c.time_loop = time_loop;
        c.chain.push_back(n);
        TSNode body = field(n, "body");
        while (IS(n, "for_statement") && static_cast<int>(c.chain.size()) < kMaxChain) {
            TSNode next{};
            std::vector<TSNode> decls;
            std::vector<TSNode> stmts = statements_of(body);
            bool only_decls_then_loop = !stmts.empty();
            for (std::size_t i = 0; i < stmts.size(); ++i) {
                if (i + 1 == stmts.size() && IS(stmts[i], "for_statement")) next = stmts[i];
                else if (IS(stmts[i], "declaration")) decls.push_back(stmts[i]);
                else only_decls_then_loop = false;
            }
            if (!only_decls_then_loop || is_null(next)) break;
            c.preludes.insert(c.preludes.end(), decls.begin(), decls.end());
            c.chain.push_back(next);
            n = next;
            body = field(n, "body");
        }
        c.body = body;
        if (time_loop >= 0) search_.time_loops[static_cast<std::size_t>(time_loop)].nests.push_back(static_cast<int>(search_.nests.size()));
        search_.nests.push_back(std::move(c));
    }

private:
    const FileDefinitions& defs_;
    const std::string& src_;
    NestSearch search_;

    bool is_time_loop(TSNode n) {
        TSNode body = field(n, "body");
        if (!contains_for(body, src_)) return false;
        if (!IS(n, "for_statement")) return true;
        std::string var = loop_variable(n, src_);
        if (var.empty()) return false;
        return !used_by_inner_loops(body, var, src_);
    }
};

}  // namespace

std::vector<TSNode> statements_of(TSNode body) {
    if (!IS(body, "compound_statement")) return {body};
    std::vector<TSNode> out;
    for (TSNode k : named_children(body))
        if (!IS(k, "comment")) out.push_back(k);
    return out;
}

std::string loop_variable(TSNode for_stmt, const std::string& src) {
    TSNode init = field(for_stmt, "initializer");
    if (IS(init, "declaration")) {
        // `int i = 0`: one init_declarator naming a plain variable.
        TSNode d = field(init, "declarator");
        if (!IS(d, "init_declarator") || ts_node_named_child_count(init) > 2) return {};
        TSNode name = field(d, "declarator");
        return IS(name, "identifier") ? std::string(text(name, src)) : std::string();
    }
    init = strip_parens(init);
    if (IS(init, "assignment_expression") && IS(field(init, "left"), "identifier")) return std::string(text(field(init, "left"), src));
    return {};
}

NestSearch find_nests(const FileDefinitions& defs) {
    Finder finder(defs);
    for (TSNode loop : defs.outermost_loops()) finder.loop(loop, -1, 0);
    return finder.result();
}

}  // namespace recipe::analyzer
