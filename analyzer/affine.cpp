#include "analyzer/affine.h"

#include <algorithm>

#include "analyzer/c_types.h"

namespace recipe::analyzer {

namespace {

constexpr int kMaxDepth = 200;  // nested parentheses / macro expansions

// Worse status wins; the first problem found is kept.
void merge_status(Affine& into, const Affine& from) {
    if (from.status == Affine::Status::Ok) return;
    if (into.status == Affine::Status::Ok ||
        (into.status == Affine::Status::NonAffine && from.status == Affine::Status::DataDependent)) {
        into.status = from.status;
        into.problem = from.problem;
        into.problem_span = from.problem_span;
    }
}

void add_clamps(Affine& into, const Affine& from) {
    into.clamps.insert(into.clamps.end(), from.clamps.begin(), from.clamps.end());
}

// Magnitude of a constant part, to tell the neighbour from the centre in
// `x > 0 ? x - 1 : x`.
double weight(const Poly& p) {
    double w = 0;
    p.for_each_term([&w](const Monomial& m, std::int64_t c) {
        w += (c < 0 ? -static_cast<double>(c) : static_cast<double>(c)) * static_cast<double>(m.size() * 1000 + 1);
    });
    return w;
}

}  // namespace

bool is_min_max_name(const std::string& name) {
    static const std::set<std::string> names = {"min", "max", "MIN", "MAX", "imin", "imax", "Min", "Max",
                                                 "fmin", "fmax", "fminf", "fmaxf", "umin", "umax"};
    return names.count(name) != 0;
}

Affine Affine::constant_of(Poly p) {
    Affine a;
    a.constant = std::move(p);
    return a;
}

Affine Affine::variable(const std::string& name) {
    Affine a;
    a.vars[name] = Poly::constant(1);
    return a;
}

Affine Affine::fail(Status s, std::string why, SourceSpan where) {
    Affine a;
    a.status = s;
    a.problem = std::move(why);
    a.problem_span = where;
    return a;
}

Affine operator+(Affine a, const Affine& b) {
    merge_status(a, b);
    add_clamps(a, b);
    for (const auto& [v, c] : b.vars) {
        auto it = a.vars.find(v);
        if (it == a.vars.end()) {
            if (!c.is_zero()) a.vars.emplace(v, c);
            continue;
        }
        Poly sum = it->second + c;
        if (sum.is_zero()) a.vars.erase(it);
        else it->second = std::move(sum);
    }
    a.constant = a.constant + b.constant;
    return a;
}

Affine operator-(Affine a) { return scale(std::move(a), Poly::constant(-1)); }

Affine scale(Affine a, const Poly& by) {
    for (auto it = a.vars.begin(); it != a.vars.end();) {
        Poly p = it->second * by;
        if (p.is_zero()) {
            it = a.vars.erase(it);
        } else {
            it->second = std::move(p);
            ++it;
        }
    }
    a.constant = a.constant * by;
    return a;
}

AffineEvaluator::AffineEvaluator(const FileDefinitions& defs, const ConstantEvaluator& constants)
    : defs_(defs), constants_(constants) {}

Affine AffineEvaluator::evaluate(TSNode n, const std::string& src, const AffineBindings* bindings, TSNode site) {
    depth_ = 0;
    return eval(n, src, bindings, site);
}

SourceSpan AffineEvaluator::where(TSNode n, TSNode site) const { return span_of(is_null(site) ? n : site); }

Affine AffineEvaluator::opaque(TSNode n, const std::string& src, TSNode site) {
    // A value without loop variables that is not a polynomial (N/2, t%2,
    // p->n): one symbol named by its text. Inside a macro body the text is
    // not the user's, so only a compile-time value is acceptable there.
    if (!is_null(site)) {
        if (auto v = constants_.evaluate(Expr{n, &src}, ts_node_start_byte(site))) return Affine::constant_of(Poly::constant(*v));
        return Affine::fail(Affine::Status::NonAffine, "'" + shorten(text(site, defs_.source())) + "' is not an affine index",
                            where(n, site));
    }
    std::string name = squeeze(text(n, src));
    if (!opaque_values_.count(name)) opaque_values_[name] = constants_.evaluate(Expr{n, &src}, ts_node_start_byte(n));
    return Affine::constant_of(Poly::symbol(name));
}

Affine AffineEvaluator::clamp(const Affine& a, const Affine& b, TSNode n, const std::string& src, TSNode site) {
    if (!a.ok()) return a;
    if (!b.ok()) return b;
    Affine r;
    if (!a.has_vars() && !b.has_vars()) return opaque(n, src, site);
    if (!a.has_vars()) r = b;
    else if (!b.has_vars()) r = a;
    else if (a.vars == b.vars) r = weight(a.constant) >= weight(b.constant) ? a : b;
    else
        return Affine::fail(Affine::Status::NonAffine,
                            "'" + shorten(text(is_null(site) ? n : site, is_null(site) ? src : defs_.source())) +
                                "' chooses between different loop variables",
                            where(n, site));
    TSNode shown = is_null(site) ? n : site;
    r.clamps.push_back({squeeze(text(shown, is_null(site) ? src : defs_.source())), span_of(shown)});
    return r;
}

Affine AffineEvaluator::expand_call(TSNode n, const std::string& src, const AffineBindings* b, TSNode site) {
    std::string callee(text(field(n, "function"), src));
    std::vector<TSNode> args = named_children(field(n, "arguments"));
    TSNode call_site = is_null(site) ? n : site;
    const Macro* m = defs_.macro(callee);
    if (m && m->function_like && !defs_.overridden(callee)) {
        if (args.size() != m->params.size())
            return Affine::fail(Affine::Status::NonAffine, "macro '" + callee + "' called with the wrong number of arguments",
                                where(n, site));
        Expr body = defs_.macro_expression(callee);
        if (!body.source)
            return Affine::fail(Affine::Status::NonAffine, "macro '" + callee + "' is not an expression", where(n, site));
        AffineBindings bound;
        for (std::size_t i = 0; i < args.size(); ++i) bound[m->params[i]] = eval(args[i], src, b, site);
        return eval(body.node, *body.source, &bound, call_site);
    }
    if (const FunctionInfo* f = defs_.function(callee); f && !is_null(f->single_return)) {
        if (args.size() != f->param_names.size())
            return Affine::fail(Affine::Status::NonAffine, "'" + callee + "' called with the wrong number of arguments",
                                where(n, site));
        AffineBindings bound;
        for (std::size_t i = 0; i < args.size(); ++i) bound[f->param_names[i]] = eval(args[i], src, b, site);
        return eval(f->single_return, defs_.source(), &bound, call_site);
    }
    if (is_min_max_name(callee) && args.size() == 2)
        return clamp(eval(args[0], src, b, site), eval(args[1], src, b, site), n, src, site);
    // Any other call: fine if it involves no loop variable (a size such as
    // get_width(img)), not affine otherwise.
    Affine all;
    for (TSNode a : args) all = all + eval(a, src, b, site);
    if (!all.ok()) return all;
    if (all.has_vars())
        return Affine::fail(Affine::Status::NonAffine, "index calls '" + callee + "' on a loop variable", where(n, site));
    return opaque(n, src, site);
}

// A name: a binding, a loop variable, an index temporary, a scalar the
// analysis cannot see through, or a size.
Affine AffineEvaluator::eval_identifier(TSNode n, const std::string& src, const AffineBindings* b, TSNode site) {
    std::string name(text(n, src));
    if (b) {
        auto it = b->find(name);
        if (it != b->end()) return it->second;
    }
    if (loop_vars.count(name)) return Affine::variable(name);
    if (auto it = temporaries.find(name); it != temporaries.end()) return it->second;
    if (auto it = opaque_scalars.find(name); it != opaque_scalars.end()) {
        Affine r = it->second;
        r.problem_span = where(n, site);
        return r;
    }
    if (!is_null(site)) {
        // A size named inside a macro body (NX in IDX): the same global
        // name as in the file.
        return Affine::constant_of(Poly::symbol(name));
    }
    return Affine::constant_of(Poly::symbol(name));
}

// `l op r`: sums and differences of affine terms, products by constants,
// shifts by constants; constant arithmetic folds.
Affine AffineEvaluator::eval_binary(TSNode n, const std::string& src, const AffineBindings* b, TSNode site) {
    std::string_view op = text(field(n, "operator"), src);
    Affine l = eval(field(n, "left"), src, b, site);
    Affine r = eval(field(n, "right"), src, b, site);
    if (op == "+") return std::move(l) + r;
    if (op == "-") return std::move(l) + (-std::move(r));
    if (!l.ok()) return l;
    if (!r.ok()) return r;
    // Only failures name the expression.
    auto shown = [&] { return shorten(text(is_null(site) ? n : site, is_null(site) ? src : defs_.source())); };
    if (op == "*") {
        if (l.has_vars() && r.has_vars())
            return Affine::fail(Affine::Status::NonAffine, "'" + shown() + "' multiplies loop variables", where(n, site));
        Affine res = l.has_vars() ? scale(l, r.constant) : scale(r, l.constant);
        add_clamps(res, l.has_vars() ? r : l);
        return res;
    }
    if (op == "<<" && !r.has_vars()) {
        if (auto k = r.constant.as_constant(); k && *k >= 0 && *k < 62) {
            Affine res = scale(l, Poly::constant(std::int64_t{1} << *k));
            return res;
        }
    }
    if (!l.has_vars() && !r.has_vars()) {
        auto lc = l.constant.as_constant(), rc = r.constant.as_constant();
        if (lc && rc && *rc != 0 && !(*lc == INT64_MIN && *rc == -1)) {
            if (op == "/") return Affine::constant_of(Poly::constant(*lc / *rc));
            if (op == "%") return Affine::constant_of(Poly::constant(*lc % *rc));
        }
        return opaque(n, src, site);
    }
    return Affine::fail(Affine::Status::NonAffine, "'" + shown() + "' is not affine in the loop variables", where(n, site));
}

Affine AffineEvaluator::eval(TSNode n, const std::string& src, const AffineBindings* b, TSNode site) {
    if (is_null(n)) return Affine::fail(Affine::Status::NonAffine, "missing expression", SourceSpan{});
    if (++depth_ > kMaxDepth) {
        --depth_;
        return Affine::fail(Affine::Status::NonAffine, "index expression nested too deeply", where(n, site));
    }
    struct Leave {
        int& d;
        ~Leave() { --d; }
    } leave{depth_};
    const TSSymbol kind = symbol(n);

    if (kind == SYM("parenthesized_expression")) {
        if (ts_node_named_child_count(n) != 1) return opaque(n, src, site);
        return eval(ts_node_named_child(n, 0), src, b, site);
    }
    if (kind == SYM("cast_expression")) return eval(field(n, "value"), src, b, site);
    if (kind == SYM("number_literal")) {
        if (auto v = parse_integer_literal(text(n, src))) return Affine::constant_of(Poly::constant(*v));
        return Affine::fail(Affine::Status::NonAffine, "floating-point index '" + std::string(text(n, src)) + "'", where(n, site));
    }
    if (kind == SYM("char_literal")) return opaque(n, src, site);
    if (kind == SYM("identifier")) return eval_identifier(n, src, b, site);
    if (kind == SYM("sizeof_expression")) {
        TSNode t = field(n, "type");
        if (!is_null(t)) {
            if (auto bytes = bytes_of_type(squeeze(text(t, src)), &defs_)) return Affine::constant_of(Poly::constant(*bytes));
        }
        return opaque(n, src, site);
    }
    if (kind == SYM("unary_expression")) {
        std::string_view op = text(field(n, "operator"), src);
        Affine a = eval(field(n, "argument"), src, b, site);
        if (op == "-") return -a;
        if (op == "+") return a;
        if (!a.ok()) return a;
        if (a.has_vars())
            return Affine::fail(Affine::Status::NonAffine, "'" + shorten(text(n, src)) + "' is not affine", where(n, site));
        return opaque(n, src, site);
    }
    if (kind == SYM("binary_expression")) return eval_binary(n, src, b, site);
    if (kind == SYM("conditional_expression")) {
        Affine cond = eval(field(n, "condition"), src, b, site);
        if (cond.status == Affine::Status::DataDependent) return cond;
        return clamp(eval(field(n, "consequence"), src, b, site), eval(field(n, "alternative"), src, b, site), n, src, site);
    }
    if (kind == SYM("call_expression")) return expand_call(n, src, b, site);
    if (kind == SYM("subscript_expression") || (kind == SYM("pointer_expression") && text(field(n, "operator"), src) == "*")) {
        std::string shown = shorten(text(is_null(site) ? n : site, is_null(site) ? src : defs_.source()));
        return Affine::fail(Affine::Status::DataDependent, "index reads '" + shown + "' from memory", where(n, site));
    }
    if (kind == SYM("field_expression")) return opaque(n, src, site);
    if (kind == SYM("comma_expression") || kind == SYM("assignment_expression") || kind == SYM("update_expression")) {
        return Affine::fail(Affine::Status::NonAffine, "index '" + squeeze(text(n, src)) + "' has side effects", where(n, site));
    }
    return Affine::fail(Affine::Status::NonAffine, "'" + shorten(text(n, src)) + "' is not an affine index", where(n, site));
}

}  // namespace recipe::analyzer
