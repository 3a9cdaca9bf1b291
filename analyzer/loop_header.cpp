#include "analyzer/loop_header.h"

#include "analyzer/declarations.h"

namespace recipe::analyzer {

namespace {

std::string flip(const std::string& op) {
    if (op == "<") return ">";
    if (op == "<=") return ">=";
    if (op == ">") return "<";
    if (op == ">=") return "<=";
    return op;
}

bool fail(LoopHeader& h, std::string why, TSNode where) {
    h.canonical = false;
    h.problem = std::move(why);
    h.problem_node = where;
    return false;
}

bool read_init(LoopHeader& h, TSNode init, const std::string& src, TSNode* lower) {
    if (IS(init, "declaration")) {
        auto decls = declarations_in(init, src);
        if (decls.size() != 1 || is_null(decls[0].value)) return fail(h, "loop header declares more than one variable", init);
        h.var = decls[0].name;
        *lower = decls[0].value;
        return true;
    }
    TSNode a = strip_parens(init);
    if (IS(a, "assignment_expression") && text(field(a, "operator"), src) == "=" && IS(field(a, "left"), "identifier")) {
        h.var = std::string(text(field(a, "left"), src));
        *lower = field(a, "right");
        return true;
    }
    return fail(h, "loop header does not start its variable at a value", is_null(init) ? h.node : init);
}

bool read_update(LoopHeader& h, TSNode up, const std::string& src, const ConstantEvaluator& constants,
                 AffineEvaluator& eval, std::int64_t* step) {
    up = strip_parens(up);
    if (IS(up, "update_expression") && text(strip_parens(field(up, "argument")), src) == h.var) {
        *step = text(field(up, "operator"), src) == "++" ? 1 : -1;
        return true;
    }
    if (IS(up, "assignment_expression") && text(strip_parens(field(up, "left")), src) == h.var) {
        std::string op(text(field(up, "operator"), src));
        TSNode amount{};
        int sign = 1;
        if (op == "+=" || op == "-=") {
            amount = field(up, "right");
            sign = op == "+=" ? 1 : -1;
        } else if (op == "=") {
            TSNode r = strip_parens(field(up, "right"));
            std::string_view rop = text(field(r, "operator"), src);
            if (IS(r, "binary_expression") && (rop == "+" || rop == "-") && text(strip_parens(field(r, "left")), src) == h.var) {
                amount = field(r, "right");
                sign = rop == "+" ? 1 : -1;
            } else if (IS(r, "binary_expression") && rop == "+" && text(strip_parens(field(r, "right")), src) == h.var) {
                amount = field(r, "left");
            }
        }
        if (is_null(amount)) return fail(h, "loop variable '" + h.var + "' is not stepped by a constant amount", up);
        Affine a = eval.evaluate(amount, src);
        std::optional<std::int64_t> v = a.ok() && !a.has_vars() ? a.constant.as_constant() : std::nullopt;
        if (!v) v = constants.evaluate(Expr{amount, &src}, ts_node_start_byte(amount));
        if (!v) {
            h.constant_stride = false;
            *step = sign;
            return true;
        }
        if (*v == 0) return fail(h, "loop variable '" + h.var + "' is stepped by 0", up);
        if (*v > (std::int64_t{1} << 40) || *v < -(std::int64_t{1} << 40))
            return fail(h, "loop variable '" + h.var + "' is stepped by an out-of-range amount", up);
        *step = sign * *v;
        return true;
    }
    return fail(h, "loop header does not step its variable with ++, --, += or -=", is_null(up) ? h.node : up);
}

}  // namespace

LoopHeader read_loop_header(TSNode for_stmt, const std::string& src, AffineEvaluator& eval,
                            const ConstantEvaluator& constants) {
    LoopHeader h;
    h.node = for_stmt;
    h.body = field(for_stmt, "body");
    // The header runs from `for` to the `)` before the body.
    TSNode close{};
    {
        Cursor cursor(for_stmt);
        TSTreeCursor* c = cursor.get();
        std::uint32_t body_start = is_null(h.body) ? 0 : ts_node_start_byte(h.body);
        if (ts_tree_cursor_goto_first_child(c)) {
            do {
                TSNode k = ts_tree_cursor_current_node(c);
                if (!is_null(h.body) && ts_node_start_byte(k) >= body_start) break;
                if (IS(k, ")")) close = k;
            } while (ts_tree_cursor_goto_next_sibling(c));
        }
    }
    h.header_span = span_of(for_stmt);
    if (!is_null(close)) {
        SourceSpan end = span_of(close);
        h.header_span.end = end.end;
        h.header_span.end_byte = end.end_byte;
    }

    TSNode lower_node{};
    if (!read_init(h, field(for_stmt, "initializer"), src, &lower_node)) return h;

    TSNode cond = strip_parens(field(for_stmt, "condition"));
    if (!IS(cond, "binary_expression")) {
        fail(h, "loop condition is not a comparison of '" + h.var + "' with a bound", is_null(cond) ? for_stmt : cond);
        return h;
    }
    std::string op(text(field(cond, "operator"), src));
    TSNode bound{};
    if (text(strip_parens(field(cond, "left")), src) == h.var) {
        bound = field(cond, "right");
    } else if (text(strip_parens(field(cond, "right")), src) == h.var) {
        bound = field(cond, "left");
        op = flip(op);
    } else {
        fail(h, "loop condition does not compare '" + h.var + "' with a bound", cond);
        return h;
    }

    std::int64_t step = 0;
    if (!read_update(h, field(for_stmt, "update"), src, constants, eval, &step)) return h;

    Affine init = eval.evaluate(lower_node, src);
    Affine limit = eval.evaluate(bound, src);
    for (const Affine* a : {&init, &limit}) {
        if (!a->ok()) {
            fail(h, "loop bound: " + a->problem, cond);
            return h;
        }
        if (a->has_vars()) {
            fail(h, "bound of '" + h.var + "' depends on loop variable '" + a->vars.begin()->first +
                        "' (the iteration space is not a rectangle)",
                 cond);
            return h;
        }
    }
    const Affine one = Affine::constant_of(Poly::constant(1));
    if (step > 0 && (op == "<" || op == "!=")) {
        h.lower = init;
        h.upper = limit;
    } else if (step > 0 && op == "<=") {
        h.lower = init;
        h.upper = limit + one;
    } else if (step < 0 && op == ">") {
        h.lower = limit + one;
        h.upper = init + one;
        h.descending = true;
    } else if (step < 0 && op == ">=") {
        h.lower = limit;
        h.upper = init + one;
        h.descending = true;
    } else {
        fail(h, "loop condition '" + squeeze(text(cond, src)) + "' does not bound the direction '" + h.var + "' moves in", cond);
        return h;
    }
    h.stride = step < 0 ? -step : step;
    h.lower_text = h.lower.constant.to_string();
    h.upper_text = h.upper.constant.to_string();
    h.canonical = true;
    return h;
}

}  // namespace recipe::analyzer
