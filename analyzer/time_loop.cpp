#include "analyzer/time_loop.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "analyzer/affine.h"
#include "analyzer/loop_header.h"
#include "analyzer/swap.h"

namespace recipe::analyzer {

namespace {

std::set<std::string> bases_of(const LoopNest& n, bool outputs, bool inputs) {
    std::set<std::string> out;
    auto add = [&](const std::vector<ArrayProperties>& v) {
        for (const auto& a : v) out.insert(a.name);
    };
    if (outputs) add(n.output_arrays);
    if (inputs) add(n.input_arrays);
    return out;
}

std::string base_name(const std::string& key) { return key.substr(0, key.find('[')); }

// `iz = 1 - iz`, `iz ^= 1`, `iz = !iz`, `iz = (iz + 1) % 2`, `iz = iz ? 0 : 1`.
std::string toggled_variable(TSNode e, const std::string& src) {
    e = strip_parens(e);
    if (!IS(e, "assignment_expression")) return {};
    TSNode l = strip_parens(field(e, "left"));
    if (!IS(l, "identifier")) return {};
    std::string v(text(l, src));
    std::string op(text(field(e, "operator"), src));
    std::string r = squeeze(text(strip_parens(field(e, "right")), src));
    r.erase(std::remove(r.begin(), r.end(), ' '), r.end());
    if (op == "^=" && r == "1") return v;
    if (op != "=") return {};
    if (r == "1-" + v || r == "!" + v || r == "(" + v + "+1)%2" || r == v + "?0:1" || r == v + "^1" || r == "1^" + v)
        return v;
    return {};
}

// A nest that only copies one array into another at the same element.
bool is_copy(const LoopNest& n) {
    if (n.input_arrays.size() != 1 || n.output_arrays.size() != 1) return false;
    const auto& in = n.input_arrays[0];
    if (in.stencil.size() != 1) return false;
    for (int o : in.stencil[0])
        if (o != 0) return false;
    return n.ops.adds == 0 && n.ops.muls == 0 && n.ops.divs == 0 && n.ops.other == 0;
}

class Builder {
public:
    Builder(AnalysisContext& ctx, const TimeLoopCandidate& t) : ctx_(ctx), t_(t), src_(ctx.source()) {
        fn_ = ctx.defs().function_at(ts_node_start_byte(t.node));
    }

    TimeLoop build(const std::vector<LoopNest*>& nests) {
        TimeLoop tl;
        tl.span = span_of(t_.node);
        if (IS(t_.node, "for_statement")) {
            tl.form = TimeLoop::Form::For;
            for_count(tl);
        } else {
            tl.form = IS(t_.node, "while_statement") ? TimeLoop::Form::While : TimeLoop::Form::DoWhile;
            while_count(tl);
        }
        exchange(tl, nests);
        return tl;
    }

private:
    AnalysisContext& ctx_;
    const TimeLoopCandidate& t_;
    const std::string& src_;
    const FunctionInfo* fn_ = nullptr;

    std::optional<std::int64_t> value(const Poly& p) {
        std::uint32_t at = ts_node_start_byte(t_.node);
        return p.evaluate([&](const std::string& s) { return ctx_.value_of(fn_, s, at); });
    }

    void for_count(TimeLoop& tl) {
        AffineEvaluator ev(ctx_.defs(), ctx_.constants());
        LoopHeader h = read_loop_header(t_.node, src_, ev, ctx_.constants());
        tl.var = h.var.empty() ? loop_variable(t_.node, src_) : h.var;
        if (!h.canonical || !h.constant_stride) {
            tl.condition = squeeze(text(field(t_.node, "condition"), src_));
            return;
        }
        Poly span = h.upper.constant - h.lower.constant;
        if (h.stride == 1) {
            tl.iterations = Extent{value(span), span.to_string()};
        } else {
            auto v = value(span);
            tl.iterations.expr = "(" + span.to_string() + ")/" + std::to_string(h.stride);
            if (v) tl.iterations.value = *v <= 0 ? 0 : *v / h.stride + (*v % h.stride != 0);
        }
    }

    // `while (iter < N) { ...; iter++; }` with iter set before the loop.
    void while_count(TimeLoop& tl) {
        TSNode cond = strip_parens(field(t_.node, "condition"));
        tl.condition = squeeze(text(cond, src_));
        if (!IS(cond, "binary_expression")) return;
        std::string op(text(field(cond, "operator"), src_));
        TSNode l = strip_parens(field(cond, "left")), r = field(cond, "right");
        int pre = 0;  // ++it < N counts from the incremented value
        if (IS(l, "update_expression") && text(field(l, "operator"), src_) == "++") {
            pre = text(ts_node_child(l, 0), src_) == "++" ? 1 : 0;
            l = strip_parens(field(l, "argument"));
        }
        if (!IS(l, "identifier") || (op != "<" && op != "<=" && op != "!=")) return;
        std::string v(text(l, src_));
        bool stepped = pre != 0 || IS(strip_parens(field(cond, "left")), "update_expression");
        walk(field(t_.node, "body"), [&](TSNode n) {
            // Once stepped, nothing below can undo it; and nothing below a
            // text without the name can step it.
            if (stepped || !text_contains_name(n, src_, v)) return false;
            if (IS(n, "update_expression") && text(field(n, "operator"), src_) == "++" &&
                text(strip_parens(field(n, "argument")), src_) == v)
                stepped = true;
            if (IS(n, "assignment_expression") && text(strip_parens(field(n, "left")), src_) == v) {
                std::string rhs = squeeze(text(field(n, "right"), src_));
                if (text(field(n, "operator"), src_) == "+=" && rhs == "1") stepped = true;
                else return false;
            }
            return true;
        });
        if (!stepped) return;
        tl.var = v;
        // The start value: the last plain assignment before the loop, else
        // the declaration's initialiser.
        std::uint32_t start = ts_node_start_byte(t_.node);
        TSNode init{};
        for (const Assignment& a : ctx_.assignments(fn_))
            if (a.name == v && ts_node_start_byte(a.node) < start && !is_null(a.value)) init = a.value;
        if (is_null(init)) {
            const VarDecl* d = ctx_.scope(fn_).find(v, start);
            if (d && !is_null(d->value)) init = d->value;
        }
        if (is_null(init)) return;
        AffineEvaluator ev(ctx_.defs(), ctx_.constants());
        Affine lo = ev.evaluate(init, src_), hi = ev.evaluate(r, src_);
        if (!lo.ok() || !hi.ok() || lo.has_vars() || hi.has_vars()) return;
        Poly count = hi.constant - lo.constant - Poly::constant(pre);
        if (op == "<=") count = count + Poly::constant(1);
        if (IS(t_.node, "do_statement") && pre == 0 && IS(strip_parens(field(cond, "left")), "update_expression"))
            count = count + Poly::constant(1);  // do { } while (it++ < N) runs once more
        tl.iterations = Extent{value(count), count.to_string()};
    }

    void exchange(TimeLoop& tl, const std::vector<LoopNest*>& nests) {
        std::set<std::string> used;
        for (const LoopNest* n : nests)
            for (const auto& a : bases_of(*n, true, true)) used.insert(base_name(a));
        TSNode body = field(t_.node, "body");
        // The function's swaps (found once per function) that lie inside the
        // body: the same ones, in the same order, as a walk over the body.
        std::vector<Swap> inside;
        if (!fn_) {
            inside = swaps_under(body, src_);
        } else if (!is_null(body)) {
            std::uint32_t b = ts_node_start_byte(body), e = ts_node_end_byte(body);
            for (const Swap& s : ctx_.swaps(fn_))
                if (ts_node_start_byte(s.first) >= b && ts_node_end_byte(s.last) <= e) inside.push_back(s);
        }
        for (const Swap& s : inside) {
            if (used.count(s.a) && used.count(s.b)) {
                tl.exchange = TimeLoop::Exchange::PointerSwap;
                tl.arrays = {s.a, s.b};
                return;
            }
        }
        // An index that picks the buffer: toggled in the body, or the time
        // loop's own variable (u[t%2]).
        std::string toggle;
        walk(body, [&](TSNode n) {
            if (!toggle.empty()) return false;
            if (IS(n, "for_statement")) return false;
            std::string v = toggled_variable(n, src_);
            if (!v.empty()) toggle = v;
            return true;
        });
        if (toggle.empty() && !tl.var.empty()) toggle = tl.var;
        if (!toggle.empty()) {
            std::vector<std::string> selected;
            for (const LoopNest* n : nests) {
                for (const auto* list : {&n->output_arrays, &n->input_arrays})
                    for (const auto& a : *list) {
                        auto open = a.name.find('[');
                        if (open == std::string::npos) continue;
                        std::string sel = a.name.substr(open);
                        // Whole-word match of the toggle variable in the selector.
                        bool hit = false;
                        for (std::size_t p = sel.find(toggle); p != std::string::npos; p = sel.find(toggle, p + 1)) {
                            bool before = p == 0 || !(std::isalnum(static_cast<unsigned char>(sel[p - 1])) || sel[p - 1] == '_');
                            std::size_t e = p + toggle.size();
                            bool after = e >= sel.size() || !(std::isalnum(static_cast<unsigned char>(sel[e])) || sel[e] == '_');
                            if (before && after) hit = true;
                        }
                        if (hit && std::find(selected.begin(), selected.end(), a.name) == selected.end()) selected.push_back(a.name);
                    }
            }
            if (!selected.empty()) {
                tl.exchange = TimeLoop::Exchange::IndexToggle;
                tl.toggle = toggle;
                tl.arrays = selected;
                return;
            }
        }
        if (nests.size() >= 2) {
            const LoopNest& a = *nests[0];
            const LoopNest& b = *nests[1];
            auto a_out = bases_of(a, true, false), a_in = bases_of(a, false, true);
            auto b_out = bases_of(b, true, false), b_in = bases_of(b, false, true);
            std::string forward, back;
            for (const auto& x : a_out)
                if (b_in.count(x)) forward = x;
            for (const auto& x : b_out)
                if (a_in.count(x)) back = x;
            if (!forward.empty() && !back.empty()) {
                tl.exchange = is_copy(b) ? TimeLoop::Exchange::CopyBack : TimeLoop::Exchange::MirroredNests;
                tl.arrays = {back, forward};
            }
        }
    }
};

}  // namespace

void attach_time_loop(AnalysisContext& ctx, const TimeLoopCandidate& t, const std::vector<LoopNest*>& inside) {
    if (inside.empty()) return;
    TimeLoop tl = Builder(ctx, t).build(inside);
    for (LoopNest* n : inside) n->time_loop = tl;
}

}  // namespace recipe::analyzer
