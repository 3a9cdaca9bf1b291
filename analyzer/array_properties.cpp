#include "analyzer/array_properties.h"

#include <algorithm>

#include "analyzer/aliasing.h"
#include "analyzer/c_types.h"
#include "analyzer/old_values.h"

namespace recipe::analyzer {

namespace {

// thesis §5.1 lists the emboss stencil row by row: sort by the outermost
// dimension first, x last.
bool stencil_order(const std::vector<int>& a, const std::vector<int>& b) {
    return std::lexicographical_compare(a.rbegin(), a.rend(), b.rbegin(), b.rend());
}

std::vector<int> narrow(const std::vector<std::int64_t>& v) {
    std::vector<int> out;
    for (auto x : v) out.push_back(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : static_cast<int>(x));
    return out;
}

Extent extent_of(const Poly& p, const ValueLookup& values) { return Extent{p.evaluate(values), p.to_string()}; }

std::string linear_index(const AccessShape& s) {
    std::string out;
    for (std::size_t d = s.dim_var.size(); d-- > 0;) {
        const std::string& v = s.dim_var[d];
        if (v.empty()) continue;
        if (!out.empty()) out += " + ";
        const Poly& st = s.stride[d];
        if (st == Poly::constant(1)) {
            out += v;
        } else {
            std::string t = st.to_string();
            bool simple = st.term_count() == 1;
            out += v + "*" + (simple ? t : "(" + t + ")");
        }
    }
    return out.empty() ? "0" : out;
}

}  // namespace

ArrayGroups group_arrays(const BodyFacts& body) {
    ArrayGroups g;
    for (std::size_t i = 0; i < body.accesses.size(); ++i) {
        const AccessFact& a = body.accesses[i];
        std::string key = a.key();
        if (!g.accesses.count(key)) g.order.push_back(key);
        g.accesses[key].push_back(i);
        if (a.write) g.written[key] = true;
    }
    return g;
}

std::map<std::string, MaxOffset> max_offsets(const NestFacts& facts) {
    std::map<std::string, MaxOffset> out;
    for (const auto& v : facts.nest_vars) out[v] = MaxOffset{};
    for (std::size_t i = 0; i < facts.shapes.size(); ++i) {
        const AccessShape& s = facts.shapes[i];
        if (!s.ok() || s.clamped || facts.body.accesses[i].guarded) continue;
        for (std::size_t d = 0; d < s.dim_var.size(); ++d) {
            if (s.dim_var[d].empty()) continue;
            std::int64_t best = INT64_MIN;
            for (const auto& off : s.all_offsets())
                if (d < off.size()) best = std::max(best, off[d]);
            MaxOffset& m = out[s.dim_var[d]];
            if (best > m.value) {
                m.value = best;
                m.symbolic = d < s.max_offset.size() ? s.max_offset[d] : Poly::constant(best);
            }
        }
    }
    return out;
}

void fill_arrays(const NestFacts& facts, const ArrayGroups& groups, const std::vector<std::string>& iteration_vars,
                 const std::map<std::string, Poly>& upper, const ValueLookup& values, LoopNest& nest) {
    AnalysisContext& ctx = *facts.ctx;
    const FunctionInfo* fn = facts.candidate->function;
    std::uint32_t at = ts_node_start_byte(facts.candidate->chain.front());
    const Scope& scope = ctx.scope(fn);
    auto maxoff = max_offsets(facts);
    AffineEvaluator sizes(ctx.defs(), ctx.constants());

    for (const std::string& key : groups.order) {
        const std::vector<std::size_t>& idx = groups.accesses.at(key);
        bool output = groups.written.count(key) != 0;
        const AccessFact& first = facts.body.accesses[idx.front()];
        // The access that defines the array's shape: the first well-formed
        // one, a write for outputs.
        const AccessShape* shape = nullptr;
        for (std::size_t i : idx)
            if (facts.shapes[i].ok() && (!output || facts.body.accesses[i].write)) { shape = &facts.shapes[i]; break; }
        if (!shape)
            for (std::size_t i : idx)
                if (facts.shapes[i].ok()) { shape = &facts.shapes[i]; break; }

        ArrayProperties a;
        a.name = key;
        const VarDecl* decl = is_null(first.node) ? nullptr : scope.find(first.base, at);
        std::size_t sel = static_cast<std::size_t>(first.selector_levels);
        std::size_t subs = static_cast<std::size_t>(first.subscripts);
        if (decl) {
            std::string t = strip_qualifiers(decl->type);
            for (std::size_t l = sel + subs; l < decl->levels.size(); ++l) t += "*";
            a.element_type = t;
            a.bytes_per_element = bytes_of_type(t, &ctx.defs()).value_or(0);
        }
        if (subs <= 1) {
            a.layout = ArrayLayout::Flat;
        } else {
            a.layout = ArrayLayout::MultiDim;
            if (decl)
                for (std::size_t l = sel + 1; l < sel + subs && l < decl->levels.size(); ++l)
                    if (decl->levels[l].kind == DeclLevel::Kind::Pointer) a.layout = ArrayLayout::PointerToPointer;
        }
        if (shape) {
            std::size_t n = shape->dim_var.size();
            for (std::size_t d = 0; d < n; ++d) {
                Extent e;
                bool known = false;
                if (a.layout != ArrayLayout::Flat && decl) {
                    std::size_t level = sel + (subs - 1 - d);
                    if (level < decl->levels.size() && decl->levels[level].kind == DeclLevel::Kind::Array &&
                        !is_null(decl->levels[level].size)) {
                        TSNode size = decl->levels[level].size;
                        Affine v = sizes.evaluate(size, ctx.source());
                        e.expr = squeeze(text(size, ctx.source()));
                        e.from_begin = ts_node_start_byte(size);
                        e.from_end = ts_node_end_byte(size);
                        if (v.ok() && !v.has_vars()) {
                            e.expr = v.constant.to_string();
                            e.value = v.constant.evaluate([&](const std::string& s) -> std::optional<std::int64_t> {
                                auto it = sizes.opaque_values().find(s);
                                if (it != sizes.opaque_values().end()) return it->second;
                                return values(s);
                            });
                        }
                        known = true;
                    }
                }
                if (!known && a.layout == ArrayLayout::Flat && d + 1 < n) {
                    if (auto q = shape->stride[d + 1].divide(shape->stride[d])) {
                        e = extent_of(*q, values);
                        known = true;
                    }
                }
                if (!known) {
                    const std::string& v = shape->dim_var[d];
                    auto up = upper.find(v);
                    if (!v.empty() && up != upper.end()) {
                        e = extent_of(up->second + maxoff[v].symbolic, values);
                    } else {
                        e.expr = "?";  // a dimension no loop variable walks
                    }
                }
                a.size.push_back(e);
            }
            a.mapping.assign(n, std::vector<int>(iteration_vars.size(), 0));
            for (std::size_t d = 0; d < n; ++d)
                for (std::size_t l = 0; l < iteration_vars.size(); ++l)
                    if (shape->dim_var[d] == iteration_vars[l]) a.mapping[d][l] = 1;
            if (a.layout == ArrayLayout::Flat) a.linear_index = linear_index(*shape);
        }

        std::vector<std::vector<int>> stencil;
        bool own_read = false;
        for (std::size_t i : idx) {
            const AccessFact& f = facts.body.accesses[i];
            const AccessShape& s = facts.shapes[i];
            ArrayAccess acc;
            acc.span = span_of(f.node);
            acc.text = f.text;
            acc.write = f.write;
            acc.read = f.read;
            acc.guarded = f.guarded;
            acc.clamped = s.clamped;
            if (s.ok()) {
                acc.offset = narrow(s.offset);
                for (const auto& o : s.window_offsets) acc.window_offsets.push_back(narrow(o));
                if (f.read)
                    for (const auto& o : s.all_offsets()) {
                        auto v = narrow(o);
                        if (std::find(stencil.begin(), stencil.end(), v) == stencil.end()) stencil.push_back(v);
                        if (output && std::all_of(v.begin(), v.end(), [](int x) { return x == 0; })) own_read = true;
                    }
            }
            a.accesses.push_back(std::move(acc));
        }
        std::sort(stencil.begin(), stencil.end(), stencil_order);
        if (!output) a.stencil = std::move(stencil);
        a.reads_own_element = output && own_read;
        if (output) {
            std::vector<const AccessFact*> own;
            for (std::size_t i : idx) own.push_back(&facts.body.accesses[i]);
            const OldValues old = old_values(facts.candidate->body, own, a.accesses);
            a.needs_old_values = old.needed;
            a.partial_write = old.partial_write;
        }
        if (!is_null(first.node) && decl) a.pinned_host = is_pinned_allocation(ctx, fn, first.base, at);
        // Copied in, yet maybe never written: the file's other nests are
        // looked at once all are known (analyzer.cpp).
        if (output && a.needs_old_values && !is_null(first.node) && decl) a.zero_pages = is_zeroed_memory(ctx, fn, first.base, at);
        (output ? nest.output_arrays : nest.input_arrays).push_back(std::move(a));
    }
}

}  // namespace recipe::analyzer
