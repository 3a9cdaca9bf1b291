#include "analyzer/nest_builder.h"

#include <algorithm>
#include <set>

#include "analyzer/access_shape.h"
#include "analyzer/array_properties.h"
#include "analyzer/body_facts.h"
#include "analyzer/c_types.h"
#include "analyzer/loop_header.h"
#include "analyzer/rules/doacross.h"
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

namespace {

constexpr std::int64_t kMaxWindowTrip = 4096;

class Builder {
public:
    Builder(AnalysisContext& ctx, const NestCandidate& c, int id) : ctx_(ctx), c_(c), src_(ctx.source()) {
        nest_.id = id;
        facts_.ctx = &ctx;
        facts_.candidate = &c;
        at_ = ts_node_start_byte(c.chain.front());
    }

    LoopNest run() {
        const FunctionInfo* fn = c_.function;
        if (fn) {
            nest_.function = fn->name;
            nest_.function_span = span_of(fn->node);
        }
        nest_.span = span_of(c_.chain.front());
        nest_.body_span = span_of(is_null(c_.body) ? c_.chain.back() : c_.body);

        read_headers();
        collect();
        take_invariant_reads();
        for (const auto& a : facts_.body.accesses) facts_.shapes.push_back(shape_of(a, facts_.nest_vars, facts_.body.windows, values_));
        order_dimensions();
        fill_iteration_space();
        ArrayGroups groups = group_arrays(facts_.body);
        std::map<std::string, Poly> upper;
        for (const auto& h : facts_.headers)
            if (h.canonical) upper[h.var] = h.upper.constant;
        fill_arrays(facts_, groups, order_, upper, values_, nest_);
        nest_.kind = kind();
        for (const auto& w : facts_.body.windows) nest_.window_loops.push_back({w.var, w.lower, w.upper, w.stride, span_of(w.node)});
        fill_boundaries();
        fill_scalars(groups);
        nest_.ops = facts_.body.ops;
        nest_.dependences = find_dependences(facts_, order_);

        facts_.nest = &nest_;
        std::vector<Diagnostic> warnings;
        // A nest with a syntax error is reported as such alone: what the
        // parser recovered says little about the code meant.
        check_syntax(facts_, warnings);
        if (warnings.empty())
            for (const Rule& r : all_rules()) r.check(facts_, warnings);
        // An array reached through `(*B)` has no declaration of its own name:
        // "may overlap" would be a guess about the name `*B`, not a reason.
        if (std::any_of(warnings.begin(), warnings.end(), [](const Diagnostic& d) { return d.rule_id == "dereferenced-array"; }))
            warnings.erase(std::remove_if(warnings.begin(), warnings.end(),
                                          [](const Diagnostic& d) { return d.rule_id == "possible-aliasing"; }),
                           warnings.end());
        // An inner loop (a reduction, or a further dimension written
        // imperfectly) makes its counter index some arrays and holds writes
        // the nest's own facts do not see: "strides" along that counter and
        // "writes no array" would be blamed on it, not true reasons.
        if (std::any_of(warnings.begin(), warnings.end(),
                        [](const Diagnostic& d) { return d.rule_id == "reduction" || d.rule_id == "not-perfectly-nested"; }))
            warnings.erase(std::remove_if(warnings.begin(), warnings.end(),
                                          [](const Diagnostic& d) { return d.rule_id == "strided-access" || d.rule_id == "no-output"; }),
                           warnings.end());
        nest_.accepted = warnings.empty();
        nest_.reasons = std::move(warnings);
        add_notes();
        return std::move(nest_);
    }

private:
    AnalysisContext& ctx_;
    const NestCandidate& c_;
    const std::string& src_;
    LoopNest nest_;
    NestFacts facts_;
    std::uint32_t at_ = 0;
    std::map<std::string, std::optional<std::int64_t>> header_opaque_;
    std::vector<std::string> order_;  // iteration space, x first

    ValueLookup values_ = [this](const std::string& name) -> std::optional<std::int64_t> {
        if (auto it = facts_.body.opaque_values.find(name); it != facts_.body.opaque_values.end()) return it->second;
        if (auto it = header_opaque_.find(name); it != header_opaque_.end()) return it->second;
        return ctx_.value_of(c_.function, name, at_);
    };

    void read_headers() {
        AffineEvaluator ev(ctx_.defs(), ctx_.constants());
        for (TSNode loop : c_.chain) {
            LoopHeader h;
            if (IS(loop, "for_statement")) {
                h = read_loop_header(loop, src_, ev, ctx_.constants());
            } else {
                h.node = loop;
                h.body = field(loop, "body");
                h.header_span = span_of(loop);
                h.problem = std::string(IS(loop, "while_statement") ? "while" : "do-while") +
                            " loop has no counted iteration space; write it as `for (i = lo; i < hi; i++)`";
                h.problem_node = loop;
            }
            if (!h.var.empty()) ev.loop_vars.insert(h.var);
            facts_.headers.push_back(h);
        }
        header_opaque_ = ev.opaque_values();
    }

    CollectorInput input(std::size_t keep) {
        CollectorInput in;
        in.defs = &ctx_.defs();
        in.constants = &ctx_.constants();
        in.scope = &ctx_.scope(c_.function);
        for (std::size_t i = 0; i < keep; ++i)
            if (!facts_.headers[i].var.empty()) in.loop_vars.push_back(facts_.headers[i].var);
        for (std::size_t i = keep; i < c_.chain.size(); ++i) in.window_chain.push_back(c_.chain[i]);
        in.preludes = c_.preludes;
        in.body = c_.body;
        return in;
    }

    std::optional<std::int64_t> numeric(const Affine& a) {
        if (!a.ok() || a.has_vars()) return std::nullopt;
        return a.constant.evaluate(values_);
    }

    // Innermost loops that no output index follows and that run a small,
    // fixed number of times are windows of the stencil, not dimensions.
    void collect() {
        std::size_t n = facts_.headers.size();
        facts_.body = collect_body_facts(input(n));
        std::set<std::string> written;
        for (const auto& a : facts_.body.accesses)
            if (a.write)
                for (const auto& ix : a.index)
                    for (const auto& [v, coef] : ix.vars) written.insert(v);
        // A window variable slides an index that follows another loop:
        // in[i + d], in[(y+dy)*W + x+dx].
        auto slides = [&](const std::string& v) {
            for (const auto& a : facts_.body.accesses)
                for (const auto& ix : a.index)
                    if (ix.vars.count(v))
                        for (const auto& entry : ix.vars) {
                            // A named reference, not a structured binding: clang 14
                            // does not let lambdas capture structured bindings.
                            const std::string& other = entry.first;
                            if (other != v && facts_.headers.size() && std::any_of(facts_.headers.begin(), facts_.headers.end(),
                                                                                    [&](const LoopHeader& h) { return h.var == other; }))
                                return true;
                        }
            return false;
        };
        std::size_t keep = n;
        while (keep > 1) {
            const LoopHeader& h = facts_.headers[keep - 1];
            if (!h.canonical || !h.constant_stride || written.count(h.var) || !slides(h.var)) break;
            auto lo = numeric(h.lower), hi = numeric(h.upper);
            constexpr std::int64_t kLimit = std::int64_t{1} << 40;
            if (!lo || !hi || *lo < -kLimit || *hi > kLimit || *hi < *lo || *hi - *lo > kMaxWindowTrip) break;
            --keep;
        }
        if (keep < n) {
            facts_.body = collect_body_facts(input(keep));
            facts_.headers.resize(keep);
        }
        for (const auto& h : facts_.headers)
            if (!h.var.empty()) facts_.nest_vars.insert(h.var);
    }

    // Whether `n` runs on some iterations only: under an if, a ?:, a switch,
    // either side of && or || (kept simple), or a loop of the body. The host may not read such an
    // element where the C program does not.
    bool conditional(TSNode n) const {
        const TSNode stop = c_.chain.back();
        for (TSNode p = ts_node_parent(n); !is_null(p) && !ts_node_eq(p, stop); p = ts_node_parent(p)) {
            if (IS(p, "if_statement") || IS(p, "conditional_expression") || IS(p, "switch_statement") ||
                IS(p, "for_statement") || IS(p, "while_statement") || IS(p, "do_statement"))
                return true;
            if (IS(p, "binary_expression")) {
                const std::string_view op = text(field(p, "operator"), src_);
                if (op == "&&" || op == "||") return true;
            }
        }
        return false;
    }

    // Reads of one element in every iteration (no loop variable in the
    // index) of an array the nest does not write become InvariantReads:
    // values the kernel is given, not arrays it tiles.
    void take_invariant_reads() {
        std::set<std::string> written;
        for (const auto& a : facts_.body.accesses)
            if (a.write) written.insert(a.base);
        const Scope& scope = ctx_.scope(c_.function);
        std::vector<AccessFact> kept;
        for (auto& a : facts_.body.accesses) {
            bool invariant = a.read && !a.write && !a.in_macro && !a.pointer_arithmetic && !a.guarded && a.windows.empty() &&
                             !written.count(a.base) && !a.index.empty() && !is_null(a.node);
            for (const Affine& x : a.index) invariant = invariant && x.ok() && !x.has_vars() && x.clamps.empty();
            const VarDecl* d = invariant ? scope.find(a.base, at_) : nullptr;
            if (!d || d->levels.size() != static_cast<std::size_t>(a.selector_levels + a.subscripts) || conditional(a.node)) {
                kept.push_back(std::move(a));
                continue;
            }
            InvariantRead r;
            r.text = a.text;
            r.array = a.base;
            r.element_type = strip_qualifiers(d->type);
            r.span = span_of(a.node);
            nest_.invariant_reads.push_back(std::move(r));
        }
        facts_.body.accesses = std::move(kept);
    }

    bool inside_invariant_read(TSNode n) const {
        const std::uint32_t b = ts_node_start_byte(n);
        return std::any_of(nest_.invariant_reads.begin(), nest_.invariant_reads.end(),
                           [&](const InvariantRead& r) { return b >= r.span.begin_byte && b < r.span.end_byte; });
    }

    // x first: the loop variables in the order the first output's
    // dimensions follow them; loops no output follows come last.
    void order_dimensions() {
        const AccessShape* ref = nullptr;
        for (std::size_t i = 0; i < facts_.shapes.size(); ++i) {
            const AccessShape& s = facts_.shapes[i];
            if (!facts_.body.accesses[i].write || !s.ok()) continue;
            auto follows = [](const AccessShape& x) {
                return std::count_if(x.dim_var.begin(), x.dim_var.end(), [](const std::string& v) { return !v.empty(); });
            };
            if (!ref || follows(s) > follows(*ref)) ref = &s;
        }
        if (ref)
            for (const auto& v : ref->dim_var)
                if (!v.empty() && std::find(order_.begin(), order_.end(), v) == order_.end()) order_.push_back(v);
        for (auto it = facts_.headers.rbegin(); it != facts_.headers.rend(); ++it)
            if (!it->var.empty() && std::find(order_.begin(), order_.end(), it->var) == order_.end()) order_.push_back(it->var);
    }

    void fill_iteration_space() {
        nest_.dimensionality = static_cast<int>(facts_.headers.size());
        for (const auto& v : order_) {
            for (std::size_t d = 0; d < facts_.headers.size(); ++d) {
                const LoopHeader& h = facts_.headers[d];
                if (h.var != v) continue;
                LoopProperties lp;
                lp.var = v;
                lp.depth = static_cast<int>(d);
                lp.span = span_of(h.node);
                lp.stride = h.stride;
                if (h.canonical) {
                    lp.lower = Extent{numeric(h.lower), h.lower_text};
                    lp.upper = Extent{numeric(h.upper), h.upper_text};
                }
                nest_.iteration_space.push_back(lp);
                break;
            }
        }
        if (!order_.empty() && !facts_.headers.empty())
            nest_.innermost_is_contiguous = facts_.headers.back().var == order_.front();
    }

    NestKind kind() const {
        bool many_in = nest_.input_arrays.size() > 1, many_out = nest_.output_arrays.size() > 1;
        if (many_in && many_out) return NestKind::ZipUnzip;
        if (many_in) return NestKind::Zip;
        if (many_out) return NestKind::Unzip;
        return NestKind::Map;
    }

    void fill_boundaries() {
        auto maxoff = max_offsets(facts_);
        std::map<std::string, std::int64_t> minoff;
        for (std::size_t i = 0; i < facts_.shapes.size(); ++i) {
            const AccessShape& s = facts_.shapes[i];
            if (!s.ok() || s.clamped || facts_.body.accesses[i].guarded) continue;
            for (const auto& off : s.all_offsets())
                for (std::size_t d = 0; d < off.size() && d < s.dim_var.size(); ++d)
                    if (!s.dim_var[d].empty()) minoff[s.dim_var[d]] = std::min(minoff[s.dim_var[d]], off[d]);
        }
        for (const auto& h : facts_.headers) {
            if (!h.canonical) continue;
            if (h.lower.constant.is_zero() && maxoff[h.var].value == 0 && minoff[h.var] == 0) continue;
            Boundary b;
            b.kind = Boundary::Kind::ShrunkBounds;
            b.text = h.var + " from " + h.lower_text + " to " + (h.upper.constant - Poly::constant(1)).to_string();
            b.span = h.header_span;
            nest_.boundaries.push_back(b);
        }
        for (const auto& g : facts_.body.guards) {
            Boundary b;
            b.kind = Boundary::Kind::Guard;
            b.text = g.text;
            b.span = span_of(g.node);
            nest_.boundaries.push_back(b);
        }
        std::set<std::uint32_t> seen;
        for (const auto& c : facts_.body.clamps) {
            if (!seen.insert(c.span.begin_byte).second) continue;
            Boundary b;
            b.kind = Boundary::Kind::Clamp;
            b.text = c.text;
            b.span = c.span;
            nest_.boundaries.push_back(b);
        }
    }

    // Variables the kernel needs as parameters: read in the body or the
    // loop bounds, declared outside the nest, not arrays and not macros.
    void fill_scalars(const ArrayGroups& groups) {
        std::set<std::string> arrays;
        for (const auto& key : groups.order)
            for (std::size_t i : groups.accesses.at(key)) arrays.insert(facts_.body.accesses[i].base);
        std::vector<std::pair<std::string, TSNode>> names;
        for (const auto& h : facts_.headers) {
            for (const char* part : {"initializer", "condition", "update"}) {
                walk(field(h.node, part), [&](TSNode n) {
                    if (IS(n, "identifier")) names.emplace_back(std::string(text(n, src_)), n);
                    return true;
                });
            }
        }
        for (const auto& read : facts_.body.names_read)
            if (!inside_invariant_read(read.second)) names.push_back(read);  // an invariant read's names stay on the host
        std::set<std::string> done;
        const Scope& scope = ctx_.scope(c_.function);
        std::set<std::string> chain_vars;
        for (TSNode loop : c_.chain) chain_vars.insert(loop_variable(loop, src_));
        for (const auto& [name, node] : names) {
            if (done.count(name) || facts_.nest_vars.count(name) || arrays.count(name) || facts_.body.locals.count(name)) continue;
            done.insert(name);
            bool window = false;
            for (const auto& w : facts_.body.windows)
                if (w.var == name) window = true;
            if (chain_vars.count(name)) window = true;
            if (window || ctx_.defs().macro(name) || ctx_.defs().enumerator(name) || ctx_.defs().function(name)) continue;
            const VarDecl* d = scope.find(name, at_);
            if (!d) continue;
            nest_.scalars_read.push_back({name, d->levels.empty() ? d->type : d->full_type()});
        }
    }

    void add_notes() {
        auto note = [&](SourcePos p, const char* id, std::string msg) {
            Diagnostic d;
            d.severity = Severity::Note;
            d.pos = p;
            d.rule_id = id;
            d.message = std::move(msg);
            nest_.reasons.push_back(std::move(d));
        };
        if (!nest_.innermost_is_contiguous && !nest_.iteration_space.empty() && !facts_.headers.empty()) {
            const LoopHeader& inner = facts_.headers.back();
            note(span_of(inner.node).begin, "loop-order",
                 "innermost loop '" + inner.var + "' is not the contiguous dimension; '" + nest_.iteration_space[0].var +
                     "' walks consecutive elements, so a kernel should map threads along '" + nest_.iteration_space[0].var + "'");
        }
        if (nest_.accepted && nest_.input_arrays.empty())
            note(nest_.span.begin, "no-input", "nest reads no input array: it only generates values");
        for (const auto& a : nest_.output_arrays)
            if (a.reads_own_element && nest_.accepted)
                note(a.accesses.front().span.begin, "reads-own-element",
                     "'" + a.name + "' is also read at its own element: it must be copied in as well as out");
        for (const auto& arr : nest_.input_arrays)
            if (arr.bytes_per_element == 0 && nest_.accepted)
                note(arr.accesses.front().span.begin, "unknown-type",
                     "element type of '" + arr.name + "' is not known from this file; its size in bytes is reported as 0");
    }
};

}  // namespace

LoopNest analyze_nest(AnalysisContext& ctx, const NestCandidate& candidate, int id) {
    return Builder(ctx, candidate, id).run();
}

}  // namespace recipe::analyzer
