// body_collector.cpp — the walk behind collect_body_facts (see body_facts.h).
// Statements and expressions are visited in source order so that index
// temporaries hold the value they have at each access. Recursion is bounded:
// beyond kMaxDepth the body is reported as too complex instead.
#include <algorithm>
#include <climits>
#include <iterator>

#include "analyzer/body_facts.h"
#include "analyzer/c_types.h"
#include "analyzer/conversions.h"
#include "analyzer/op_counter.h"
#include "analyzer/purity.h"

namespace recipe::analyzer {

namespace {

constexpr int kMaxDepth = 150;
constexpr std::int64_t kMaxWindowTrip = 4096;

// Where a macro parameter's argument came from.
struct Context;
struct MacroArg {
    TSNode node{};
    const Context* outer = nullptr;
};

struct Context {
    const std::string* src = nullptr;
    const std::map<std::string, MacroArg>* args = nullptr;  // inside a macro body
    const AffineBindings* affine_args = nullptr;
    TSNode site{};  // the macro call in the file
};

// A pointer declared in the body that points into an array:
// `const float *row = in + y*W;` makes `row[x]` an access to in[y*W + x].
struct PointerTemp {
    std::string base;
    Affine offset;
};

class Collector {
public:
    explicit Collector(const CollectorInput& in)
        : in_(in), src_(in.defs->source()), eval_(*in.defs, *in.constants) {
        names_.defs = in_.defs;
        for (const auto& v : in.loop_vars) {
            nest_vars_.insert(v);
            eval_.loop_vars.insert(v);
        }
        file_ctx_.src = &src_;
    }

    BodyFacts run() {
        for (TSNode loop : in_.window_chain) {
            if (!enter_window(loop)) {
                facts_.inner_loops.push_back(loop);
                facts_.opaque_values = eval_.opaque_values();
                return std::move(facts_);
            }
        }
        for (TSNode p : in_.preludes) stmt(p);
        stmt(in_.body);
        facts_.opaque_values = eval_.opaque_values();
        return std::move(facts_);
    }

private:
    const CollectorInput& in_;
    const std::string& src_;
    AffineEvaluator eval_;
    BodyFacts facts_;
    Context file_ctx_;
    std::set<std::string> nest_vars_;
    std::vector<std::string> windows_;
    std::map<std::string, PointerTemp> pointer_temps_;
    std::set<std::string> integer_locals_;
    int depth_ = 0;
    int guard_depth_ = 0;
    TSNode clamp_if_{};  // the `if` of a clamp being visited
    bool in_index_ = false;
    std::int64_t times_ = 1;
    // Declared types and what varies per iteration, for the conversions.
    NameTypes names_{
        [this](const std::string& name, bool element) -> std::optional<std::string> {
            // Declared anywhere before the body's end: its locals too.
            const VarDecl* d = in_.scope ? in_.scope->find(name, ts_node_end_byte(in_.body)) : nullptr;
            if (!d || d->is_pointer_or_array() != element) return std::nullopt;
            return d->type;
        },
        [this](const std::string& name) {
            return eval_.loop_vars.count(name) > 0 || facts_.locals.count(name) > 0 || nest_vars_.count(name) > 0;
        },
        nullptr};

    struct Deeper {
        int& d;
        explicit Deeper(int& x) : d(x) { ++d; }
        ~Deeper() { --d; }
    };

    bool too_deep(TSNode n) {
        if (depth_ < kMaxDepth) return false;
        if (is_null(facts_.too_complex)) facts_.too_complex = n;
        return true;
    }

    TSNode shown(TSNode n, const Context& c) const { return is_null(c.site) ? n : c.site; }

    std::optional<std::int64_t> numeric(const Affine& a) {
        if (!a.ok() || a.has_vars()) return std::nullopt;
        std::uint32_t at = ts_node_start_byte(in_.body);
        return a.constant.evaluate([&](const std::string& s) -> std::optional<std::int64_t> {
            auto it = eval_.opaque_values().find(s);
            if (it != eval_.opaque_values().end()) return it->second;
            return in_.constants->value_of(s, at);
        });
    }

    // True when the loop body writes an element whose index names `var`:
    // then the loop produces values per step, it is no window.
    bool writes_with(TSNode body, const std::string& var) {
        bool found = false;
        walk(body, [&](TSNode n) {
            if (found) return false;
            TSNode target{};
            if (IS(n, "assignment_expression")) target = strip_parens(field(n, "left"));
            if (IS(n, "update_expression")) target = strip_parens(field(n, "argument"));
            if (IS(target, "subscript_expression") || IS(target, "pointer_expression")) {
                walk(target, [&](TSNode k) {
                    if (IS(k, "identifier") && text(k, src_) == var) found = true;
                    return !found;
                });
            }
            return !found;
        });
        return found;
    }

    // Pushes a fixed-size window loop; false when `loop` is not one.
    bool enter_window(TSNode loop) {
        LoopHeader h = read_loop_header(loop, src_, eval_, *in_.constants);
        if (!h.canonical || !h.constant_stride) return false;
        if (writes_with(field(loop, "body"), h.var)) return false;
        auto lo = numeric(h.lower), hi = numeric(h.upper);
        constexpr std::int64_t kLimit = std::int64_t{1} << 40;
        if (!lo || !hi || *lo < -kLimit || *hi > kLimit || *hi < *lo || *hi - *lo > kMaxWindowTrip) return false;
        std::int64_t trip = (*hi - *lo + h.stride - 1) / h.stride;
        facts_.windows.push_back({h.var, *lo, *hi, h.stride, h.lower.constant, h.upper.constant, loop});
        windows_.push_back(h.var);
        eval_.loop_vars.insert(h.var);
        times_ = times_ > INT_MAX / (trip > 0 ? trip : 1) ? INT_MAX : times_ * (trip > 0 ? trip : 1);
        return true;
    }

    void leave_window(std::int64_t saved_times) {
        eval_.loop_vars.erase(windows_.back());
        windows_.pop_back();
        times_ = saved_times;
    }

    bool mentions_loop_index(TSNode cond, const Context& c) {
        bool found = false;
        walk(cond, [&](TSNode n) {
            if (found) return false;
            if (IS(n, "identifier")) {
                std::string name(text(n, *c.src));
                if (c.args && c.args->count(name)) {
                    const MacroArg& a = c.args->at(name);
                    if (mentions_loop_index(a.node, *a.outer)) found = true;
                } else if (eval_.loop_vars.count(name) || facts_.index_temporaries.count(name)) {
                    found = true;
                }
            } else if (IS(n, "call_expression") && !c.args) {
                std::string callee(text(field(n, "function"), *c.src));
                const Macro* m = in_.defs->macro(callee);
                if (m && m->function_like) {
                    // MIN(x, W-1) as a guard: look at the arguments.
                    return true;
                }
            }
            return true;
        });
        return found;
    }

    // An if without else whose only statement sets an integer temporary.
    bool clamps_a_temporary(TSNode if_stmt, const Context& c) {
        if (!is_null(field(if_stmt, "alternative"))) return false;
        std::vector<TSNode> stmts;
        TSNode body = field(if_stmt, "consequence");
        if (IS(body, "compound_statement")) {
            for (TSNode k : named_children(body))
                if (!IS(k, "comment")) stmts.push_back(k);
        } else {
            stmts.push_back(body);
        }
        if (stmts.size() != 1 || !IS(stmts[0], "expression_statement")) return false;
        TSNode e = strip_parens(ts_node_named_child(stmts[0], 0));
        if (!IS(e, "assignment_expression") || text(field(e, "operator"), *c.src) != "=") return false;
        TSNode l = strip_parens(field(e, "left"));
        return IS(l, "identifier") && integer_locals_.count(std::string(text(l, *c.src))) &&
               facts_.index_temporaries.count(std::string(text(l, *c.src)));
    }

    // ---- statements ----

    void stmt(TSNode n) { stmt_in(n, file_ctx_); }

    void stmt_in(TSNode n, const Context& c) {
        if (is_null(n) || too_deep(n)) return;
        Deeper deeper(depth_);
        const TSSymbol kind = symbol(n);
        if (kind == SYM("compound_statement")) {
            for_each_named_child(n, [&](TSNode k) { stmt_in(k, c); });
        } else if (kind == SYM("declaration")) {
            declaration(n, c);
        } else if (kind == SYM("expression_statement")) {
            for_each_named_child(n, [&](TSNode k) { expr(k, c); });
        } else if (kind == SYM("if_statement")) {
            TSNode cond = field(n, "condition");
            expr(cond, c);
            bool guard = mentions_loop_index(cond, c);
            bool clamp = guard && clamps_a_temporary(n, c);
            if (guard) {
                // `if (xm < 0) xm = 0;` is a clamp of an index, reported as such.
                if (!clamp) facts_.guards.push_back({"if " + squeeze(text(cond, *c.src)), cond});
                ++guard_depth_;
            }
            TSNode saved_if = clamp_if_;
            if (clamp) clamp_if_ = shown(n, c);
            stmt_in(field(n, "consequence"), c);
            clamp_if_ = saved_if;
            TSNode alt = field(n, "alternative");
            if (!is_null(alt)) {
                for_each_named_child(alt, [&](TSNode k) { stmt_in(k, c); });
            }
            if (guard) --guard_depth_;
        } else if (kind == SYM("for_statement")) {
            std::int64_t saved = times_;
            if (enter_window(n)) {
                stmt_in(field(n, "body"), c);
                leave_window(saved);
            } else {
                facts_.inner_loops.push_back(n);
            }
        } else if (kind == SYM("while_statement") || kind == SYM("do_statement")) {
            facts_.inner_loops.push_back(n);
        } else if (kind == SYM("return_statement") || kind == SYM("break_statement") || kind == SYM("goto_statement")) {
            facts_.early_exits.push_back(n);
            for_each_named_child(n, [&](TSNode k) { expr(k, c); });
        } else if (kind == SYM("continue_statement") || kind == SYM("comment") || kind == SYM(";")) {
            // `continue` skips the rest of an iteration: a guard, not an exit.
        } else if (kind == SYM("switch_statement")) {
            TSNode cond = field(n, "condition");
            expr(cond, c);
            ++guard_depth_;
            stmt_in(field(n, "body"), c);
            --guard_depth_;
        } else if (kind == SYM("case_statement") || kind == SYM("labeled_statement")) {
            for_each_named_child(n, [&](TSNode k) {
                if (IS(k, "statement_identifier") || ts_node_eq(k, field(n, "value"))) return;
                stmt_in(k, c);
            });
        } else if (ts_node_is_named(n)) {
            // Expressions standing as statements in broken code, and the
            // like: still look for accesses inside.
            expr(n, c);
        }
    }

    void declaration(TSNode n, const Context& c) {
        for (const VarDecl& v : declarations_in(n, *c.src)) {
            facts_.locals.insert(v.name);
            bool integer = v.levels.empty() && is_integer_type(v.type, in_.defs);
            if (integer) integer_locals_.insert(v.name);
            if (is_null(v.value)) {
                if (integer) eval_.temporaries[v.name] = Affine::constant_of(Poly::symbol(v.name));
                continue;
            }
            if (!v.levels.empty()) {
                pointer_temp(v.name, v.value, c);
                bool saved = in_index_;
                in_index_ = true;  // address arithmetic, not work
                expr(v.value, c);
                in_index_ = saved;
                continue;
            }
            // `double x = i;` with a 64-bit i converts it (analyzer/conversions.h).
            if (!in_index_ && !c.args) count_conversions(cast_conversions(v.type, v.value, *c.src, names_), times_, facts_.ops);
            Affine a = eval_.evaluate(v.value, *c.src, c.affine_args, c.site);
            bool index_temp = integer && a.ok() && a.has_vars();
            bool saved = in_index_;
            in_index_ = in_index_ || index_temp;
            expr(v.value, c);
            in_index_ = saved;
            if (integer) {
                eval_.temporaries[v.name] = a;
                if (index_temp) {
                    facts_.index_temporaries.insert(v.name);
                    facts_.clamps.insert(facts_.clamps.end(), a.clamps.begin(), a.clamps.end());
                }
            } else {
                note_value_temp(v.name, a, v.value, c);
            }
        }
    }

    // A non-integer local used as an index is a bug in the user's code or
    // data-dependent; remember which, for the message.
    void note_value_temp(const std::string& name, const Affine& value, TSNode where, const Context& c) {
        if (value.status == Affine::Status::DataDependent)
            eval_.opaque_scalars[name] = Affine::fail(Affine::Status::DataDependent,
                                                      "index uses '" + name + "', a value read from memory", span_of(shown(where, c)));
        else
            eval_.opaque_scalars[name] =
                Affine::fail(Affine::Status::NonAffine, "index uses '" + name + "', which is not an integer", span_of(shown(where, c)));
    }

    void pointer_temp(const std::string& name, TSNode value, const Context& c) {
        TSNode v = strip_parens_and_casts(value);
        std::string base;
        Affine offset;
        if (IS(v, "pointer_expression") && text(field(v, "operator"), *c.src) == "&") {
            TSNode target = strip_parens(field(v, "argument"));
            if (IS(target, "subscript_expression") && IS(strip_parens(field(target, "argument")), "identifier")) {
                base = std::string(text(strip_parens(field(target, "argument")), *c.src));
                offset = eval_.evaluate(field(target, "index"), *c.src, c.affine_args, c.site);
            }
        } else if (IS(v, "binary_expression") && text(field(v, "operator"), *c.src) == "+") {
            TSNode l = strip_parens_and_casts(field(v, "left")), r = strip_parens_and_casts(field(v, "right"));
            if (IS(l, "identifier") && is_array_name(std::string(text(l, *c.src)))) {
                base = std::string(text(l, *c.src));
                offset = eval_.evaluate(r, *c.src, c.affine_args, c.site);
            } else if (IS(r, "identifier") && is_array_name(std::string(text(r, *c.src)))) {
                base = std::string(text(r, *c.src));
                offset = eval_.evaluate(l, *c.src, c.affine_args, c.site);
            }
        } else if (IS(v, "identifier") && is_array_name(std::string(text(v, *c.src)))) {
            base = std::string(text(v, *c.src));
            offset = Affine::constant_of(Poly::constant(0));
        }
        if (base.empty()) return;
        if (auto it = pointer_temps_.find(base); it != pointer_temps_.end()) {
            offset = it->second.offset + offset;
            base = it->second.base;
        }
        pointer_temps_[name] = {base, offset};
    }

    bool is_array_name(const std::string& name) const {
        if (pointer_temps_.count(name)) return true;
        const VarDecl* d = in_.scope ? in_.scope->find(name, ts_node_start_byte(in_.body)) : nullptr;
        return d && d->is_pointer_or_array();
    }

    // ---- expressions ----

    void expr(TSNode n, const Context& c) {
        if (is_null(n) || too_deep(n)) return;
        Deeper deeper(depth_);
        const TSSymbol kind = symbol(n);
        if (kind == SYM("assignment_expression")) {
            assignment(n, c);
        } else if (kind == SYM("update_expression")) {
            TSNode target = strip_parens(field(n, "argument"));
            if (is_access(target, c)) {
                access(target, c, true, true);
            } else {
                scalar_write(target, n, c, true);
                if (!in_index_) count_operator("+", times_, facts_.ops);
            }
        } else if (kind == SYM("subscript_expression") ||
                   (kind == SYM("pointer_expression") && text(field(n, "operator"), *c.src) == "*")) {  // is_access(n)
            access(n, c, true, false);
        } else if (kind == SYM("pointer_expression") && text(field(n, "operator"), *c.src) == "&") {
            // &a[i] takes an address: no element is read.
            TSNode k = strip_parens(field(n, "argument"));
            bool saved = in_index_;
            in_index_ = true;
            for (int guard = 0; guard < 64 && IS(k, "subscript_expression"); ++guard) {
                expr(field(k, "index"), c);
                k = strip_parens(field(k, "argument"));
            }
            if (!IS(k, "identifier")) expr(k, c);
            else identifier(k, c);
            in_index_ = saved;
        } else if (kind == SYM("call_expression")) {
            call(n, c);
        } else if (kind == SYM("identifier")) {
            identifier(n, c);
        } else if (kind == SYM("binary_expression")) {
            // `2 * RADIUS + 1` is folded by the compiler: no work per iteration.
            // (Only short expressions are tried: long ones are rarely constant,
            // and trying every level of a long chain would cost its square.)
            if (!c.args && ts_node_end_byte(n) - ts_node_start_byte(n) < 48 &&
                in_.constants->evaluate(Expr{n, c.src}, ts_node_start_byte(n)))
                return;
            if (!in_index_) count_operator(text(field(n, "operator"), *c.src), times_, facts_.ops);
            conversions(n, c);
            expr(field(n, "left"), c);
            expr(field(n, "right"), c);
        } else if (kind == SYM("conditional_expression")) {
            if (!in_index_) count_choice(times_, facts_.ops);
            for_each_named_child(n, [&](TSNode k) { expr(k, c); });
        } else if (kind == SYM("sizeof_expression") || kind == SYM("string_literal") || kind == SYM("comment")) {
            // no reads
        } else if (kind == SYM("cast_expression")) {
            conversions(n, c);
            expr(field(n, "value"), c);
        } else if (kind == SYM("field_expression")) {
            expr(field(n, "argument"), c);
        } else {
            for_each_named_child(n, [&](TSNode k) { expr(k, c); });
        }
    }

    // 64-bit integers converted to floating at `n` (analyzer/conversions.h).
    // Not inside macro bodies: their parameters' names are not the file's.
    void conversions(TSNode n, const Context& c) {
        if (in_index_ || c.args) return;
        count_conversions(conversions_at(n, *c.src, names_), times_, facts_.ops);
    }

    bool is_access(TSNode n, const Context& c) const {
        if (IS(n, "subscript_expression")) return true;
        return IS(n, "pointer_expression") && text(field(n, "operator"), *c.src) == "*";
    }

    void identifier(TSNode n, const Context& c) {
        std::string name(text(n, *c.src));
        if (c.args) {
            auto it = c.args->find(name);
            if (it != c.args->end()) {
                expr(it->second.node, *it->second.outer);
                return;
            }
        }
        if (eval_.loop_vars.count(name) || facts_.locals.count(name)) return;
        for (const auto& [seen, node] : facts_.names_read)
            if (seen == name) return;
        facts_.names_read.emplace_back(name, shown(n, c));
    }

    void assignment(TSNode n, const Context& c) {
        TSNode left = strip_parens(field(n, "left"));
        std::string op(text(field(n, "operator"), *c.src));
        TSNode right = field(n, "right");
        if (!in_index_ && op != "=") count_operator(op, times_, facts_.ops);
        conversions(n, c);
        if (is_access(left, c)) {
            expr(right, c);
            access(left, c, op != "=", true);
            return;
        }
        expr(right, c);
        bool self = false;
        if (IS(left, "identifier")) {
            std::string name(text(left, *c.src));
            walk(right, [&](TSNode k) {
                if (IS(k, "identifier") && text(k, *c.src) == name) self = true;
                return !self;
            });
            if (facts_.locals.count(name) && integer_locals_.count(name)) {
                update_temporary(name, op, right, n, c);
                return;
            }
            if (facts_.locals.count(name)) {
                Affine a = eval_.evaluate(right, *c.src, c.affine_args, c.site);
                note_value_temp(name, a, right, c);
                return;
            }
        }
        scalar_write(left, n, c, op != "=" || self);
    }

    // `c = i*W + j;` or a clamp of a temporary: `if (xm < 0) xm = 0;`.
    void update_temporary(const std::string& name, const std::string& op, TSNode right, TSNode n, const Context& c) {
        Affine value = eval_.evaluate(right, *c.src, c.affine_args, c.site);
        Affine old = eval_.temporaries.count(name) ? eval_.temporaries[name] : Affine::constant_of(Poly::symbol(name));
        if (op == "+=") value = old + value;
        else if (op == "-=") value = old + (-value);
        else if (op != "=") value = Affine::fail(Affine::Status::NonAffine, "'" + name + "' is updated with '" + op + "'", span_of(shown(n, c)));
        if (guard_depth_ > 0 && old.ok() && old.has_vars() && value.ok() && (!value.has_vars() || value.vars == old.vars)) {
            // Reassigned under a condition to a boundary value: a clamp.
            Affine clamped = old;
            TSNode s = is_null(clamp_if_) ? shown(n, c) : clamp_if_;
            clamped.clamps.push_back({squeeze(text(s, src_)), span_of(s)});
            facts_.clamps.push_back(clamped.clamps.back());
            eval_.temporaries[name] = clamped;
            return;
        }
        if (guard_depth_ > 0 && !(old.ok() && !old.has_vars() && old.constant == Poly::symbol(name)))
            value = Affine::fail(Affine::Status::NonAffine, "'" + name + "' takes different values on different paths",
                                 span_of(shown(n, c)));
        eval_.temporaries[name] = value;
        if (value.ok() && value.has_vars()) {
            facts_.index_temporaries.insert(name);
            facts_.clamps.insert(facts_.clamps.end(), value.clamps.begin(), value.clamps.end());
        }
    }

    void scalar_write(TSNode target, TSNode n, const Context& c, bool accumulates) {
        std::string name = squeeze(text(target, *c.src));
        if (IS(target, "identifier") && c.args) {
            auto it = c.args->find(name);
            if (it != c.args->end()) name = squeeze(text(it->second.node, *it->second.outer->src));
        }
        ScalarWriteFact w{name, shown(n, c), accumulates};
        if (nest_vars_.count(name) || std::find(windows_.begin(), windows_.end(), name) != windows_.end()) {
            facts_.loop_var_writes.push_back(w);
            return;
        }
        if (facts_.locals.count(name)) return;
        if (pointer_temps_.count(name)) return;
        // A floating variable updated from itself that outlives the
        // iteration: its updates form one chain across the nest
        // (OpCounts::serial_adds).
        if (accumulates && !in_index_ && names_.declared) {
            const std::optional<std::string> type = names_.declared(name, false);
            if (type && kind_of_type(*type, in_.defs) == ValueKind::Floating) facts_.ops.serial_adds += static_cast<int>(times_);
        }
        facts_.scalar_writes.push_back(w);
    }

    void call(TSNode n, const Context& c) {
        TSNode fn = field(n, "function");
        std::string callee(text(fn, *c.src));
        std::vector<TSNode> args = named_children(field(n, "arguments"));
        const Macro* m = in_.defs->macro(callee);
        if (m && m->function_like && !in_.defs->overridden(callee) && args.size() == m->params.size()) {
            Expr body = in_.defs->macro_expression(callee);
            if (body.source) {
                std::map<std::string, MacroArg> bound;
                AffineBindings affine;
                for (std::size_t i = 0; i < args.size(); ++i) {
                    bound[m->params[i]] = MacroArg{args[i], &c};
                    affine[m->params[i]] = eval_.evaluate(args[i], *c.src, c.affine_args, c.site);
                }
                Context inner{body.source, &bound, &affine, shown(n, c)};
                if (is_min_max_name(callee) && !in_index_) count_call(times_, facts_.ops);
                bool saved = in_index_;
                if (is_min_max_name(callee)) in_index_ = true;  // the ?: inside MIN is the one operation counted
                expr(body.node, inner);
                in_index_ = saved;
                return;
            }
        }
        // `(base)(x)` with base a typedef is a cast the parser could not tell
        // from a call (it does not know which names are types).
        const TSNode inner = strip_parens(fn);
        const bool cast = IS(fn, "parenthesized_expression") && IS(inner, "identifier") && args.size() == 1 &&
                          in_.defs->typedef_of(std::string(text(inner, *c.src)));
        if (cast) {
            if (!in_index_ && !c.args)
                count_conversions(cast_conversions(std::string(text(inner, *c.src)), args[0], *c.src, names_), times_, facts_.ops);
            for (TSNode a : args) expr(a, c);
            return;
        }
        if (!is_pure_math_function(callee) && !is_min_max_name(callee) && !is_pure_function(*in_.defs, callee))
            facts_.calls.push_back({callee, shown(n, c)});
        else if (!in_index_) {
            count_call(times_, facts_.ops);
            if (is_pure_math_function(callee) && !is_inlined_math_function(callee)) count_math_call(times_, facts_.ops);
        }
        if (!IS(fn, "identifier")) expr(fn, c);
        for (TSNode a : args) expr(a, c);
    }

    // Reads the additive terms of `p + a - b` with their signs.
    void additive_terms(TSNode n, int sign, const Context& c, std::vector<std::pair<TSNode, int>>& out, int guard = 0) {
        n = strip_parens_and_casts(n);
        if (guard < 64 && IS(n, "binary_expression")) {
            std::string_view op = text(field(n, "operator"), *c.src);
            if (op == "+" || op == "-") {
                additive_terms(field(n, "left"), sign, c, out, guard + 1);
                additive_terms(field(n, "right"), op == "+" ? sign : -sign, c, out, guard + 1);
                return;
            }
        }
        out.emplace_back(n, sign);
    }

    // The name of an array base as the user wrote it at the call site.
    std::string base_name(TSNode base, const Context& c) {
        if (IS(base, "identifier") && c.args) {
            auto it = c.args->find(std::string(text(base, *c.src)));
            if (it != c.args->end()) return squeeze(text(strip_parens(it->second.node), *it->second.outer->src));
        }
        return squeeze(text(base, *c.src));
    }

    void access(TSNode n, const Context& c, bool read, bool write) {
        AccessFact a;
        TSNode site = shown(n, c);
        a.node = site;
        a.text = squeeze(text(site, src_));
        a.read = read;
        a.write = write;
        a.guarded = guard_depth_ > 0;
        a.windows = windows_;
        a.multiplicity = times_;
        a.in_macro = !is_null(c.site) || c.args != nullptr;
        std::vector<TSNode> subs;
        std::vector<Affine> index;
        TSNode base{};
        bool saved = in_index_;
        in_index_ = true;
        if (IS(n, "subscript_expression")) {
            TSNode k = n;
            for (int guard = 0; guard < 64 && IS(k, "subscript_expression"); ++guard) {
                subs.insert(subs.begin(), field(k, "index"));
                k = strip_parens(field(k, "argument"));
            }
            base = k;
            for (TSNode s : subs) {
                expr(s, c);
                index.push_back(eval_.evaluate(s, *c.src, c.affine_args, c.site));
            }
            if (!IS(base, "identifier") && !IS(base, "field_expression")) expr(base, c);
        } else {
            a.pointer_arithmetic = true;
            std::vector<std::pair<TSNode, int>> terms;
            additive_terms(field(n, "argument"), 1, c, terms);
            std::size_t pick = terms.size();
            for (std::size_t i = 0; i < terms.size() && pick == terms.size(); ++i)
                if (terms[i].second > 0 && IS(terms[i].first, "identifier") && is_array_name(base_name(terms[i].first, c))) pick = i;
            for (std::size_t i = 0; i < terms.size() && pick == terms.size(); ++i)
                if (terms[i].second > 0 && (IS(terms[i].first, "identifier") || IS(terms[i].first, "field_expression"))) pick = i;
            Affine sum = Affine::constant_of(Poly::constant(0));
            for (std::size_t i = 0; i < terms.size(); ++i) {
                if (i == pick) continue;
                expr(terms[i].first, c);
                Affine t = eval_.evaluate(terms[i].first, *c.src, c.affine_args, c.site);
                sum = sum + (terms[i].second > 0 ? t : -t);
            }
            if (pick == terms.size()) {
                sum = Affine::fail(Affine::Status::NonAffine, "cannot tell which array '" + a.text + "' dereferences",
                                   span_of(site));
            } else {
                base = terms[pick].first;
            }
            index.push_back(sum);
            subs.push_back(n);
        }
        in_index_ = saved;
        a.base = is_null(base) ? a.text : base_name(base, c);
        if (auto it = pointer_temps_.find(a.base); it != pointer_temps_.end() && index.size() == 1) {
            index[0] = it->second.offset + index[0];
            a.base = it->second.base;
        }
        // Leading subscripts that follow no loop variable pick one of several
        // arrays (u[iz][y][x], u[t%2][x]): they name the array, not a dimension.
        std::size_t lead = 0;
        while (index.size() - lead > 1 && index[lead].ok() && !index[lead].has_vars()) {
            a.selector += "[" + squeeze(text(subs[lead], *c.src)) + "]";
            ++lead;
        }
        if (!is_null(c.site) && lead > 0) a.selector = "[" + a.text + "]";  // inside a macro: name it by the call
        a.selector_levels = static_cast<int>(lead);
        a.index.assign(std::make_move_iterator(index.begin() + static_cast<std::ptrdiff_t>(lead)),
                       std::make_move_iterator(index.end()));
        a.subscripts = static_cast<int>(a.index.size());
        for (const Affine& x : a.index) facts_.clamps.insert(facts_.clamps.end(), x.clamps.begin(), x.clamps.end());
        if (read) count_reads(times_, facts_.ops);
        if (write) count_writes(times_, facts_.ops);
        facts_.accesses.push_back(std::move(a));
    }
};

}  // namespace

BodyFacts collect_body_facts(const CollectorInput& in) { return Collector(in).run(); }

}  // namespace recipe::analyzer
