// not-perfectly-nested — all work must happen in the innermost loop
// (thesis §5.1). A loop inside the body whose trip count is not a small
// compile-time constant is a further dimension or a reduction, not a window.
// When that loop accumulates into something its own counter does not index
// (`tmp[i] += A[i][j] * x[j]` over j, gemm's `C[i][j] += ...` over k), the
// true reason is the reduction, and the diagnostic says so.
#include <functional>

#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

namespace {

// The counter a for loop steps (`j` of `for (j = 0; ...; j++)`), or "".
std::string loop_counter(TSNode loop, const std::string& src) {
    if (!IS(loop, "for_statement")) return "";
    const TSNode init = field(loop, "initializer");
    if (IS(init, "assignment_expression")) {
        const TSNode left = strip_parens(field(init, "left"));
        if (IS(left, "identifier")) return std::string(text(left, src));
    }
    if (IS(init, "declaration")) {
        std::string name;
        for_each_named_child(init, [&](TSNode c) {
            if (!name.empty() || !IS(c, "init_declarator")) return;
            const TSNode d = field(c, "declarator");
            if (IS(d, "identifier")) name = std::string(text(d, src));
        });
        return name;
    }
    return "";
}

// An assignment in `body` that accumulates into a target the counter does
// not index: `x op= ...`, `x = x op ...` or `x++`, with x not naming the
// counter. Returns the target's text, or "".
std::string accumulated_target(TSNode body, const std::string& counter, const std::string& src) {
    std::string found;
    std::function<bool(TSNode)> visit = [&](TSNode n) -> bool {
        if (!found.empty()) return false;
        if (IS(n, "for_statement")) {  // a nested loop's header steps its own counter
            walk(field(n, "body"), visit);
            return false;
        }
        TSNode target{};
        bool accumulates = false;
        if (IS(n, "assignment_expression")) {
            target = strip_parens(field(n, "left"));
            const std::string_view op = text(field(n, "operator"), src);
            accumulates = op != "=" || text_contains(field(n, "right"), src, text(target, src));
        } else if (IS(n, "update_expression")) {
            target = strip_parens(field(n, "argument"));
            accumulates = true;
        }
        if (ts_node_is_null(target) || !accumulates) return true;
        if (!IS(target, "subscript_expression") && !IS(target, "identifier")) return true;
        if (text_contains_name(target, src, counter)) return true;
        found = shorten(text(target, src));
        return false;
    };
    walk(body, visit);
    return found;
}

}  // namespace

void check_not_perfectly_nested(const NestFacts& f, std::vector<Diagnostic>& out) {
    const std::string& src = f.ctx->source();
    // Reductions first: the first reason is the one a nest's verdict gives.
    std::vector<Diagnostic> imperfect;
    for (TSNode loop : f.body.inner_loops) {
        const std::string counter = loop_counter(loop, src);
        const std::string target = counter.empty() ? "" : accumulated_target(field(loop, "body"), counter, src);
        if (!target.empty()) {
            out.push_back(reason("reduction", loop,
                                 "reduction over '" + counter + "' into '" + target + "': every iteration of loop '" +
                                     counter + "' updates the same element, so its iterations depend on each other "
                                     "(a stenciled map computes each point on its own)"));
            continue;
        }
        std::string what = IS(loop, "for_statement") ? "loop" : IS(loop, "while_statement") ? "while loop" : "do-while loop";
        imperfect.push_back(reason("not-perfectly-nested", loop,
                             what + " inside the nest body is not a fixed-size window (its trip count is not a "
                                    "compile-time constant); only perfectly nested loops, with all statements in the "
                                    "innermost one, can be tiled"));
    }
    out.insert(out.end(), imperfect.begin(), imperfect.end());
}

}  // namespace recipe::analyzer
