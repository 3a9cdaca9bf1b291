#include "recipes/unused_counters.h"

#include <set>
#include <string>

#include "recipes/byte_spans.h"
#include "recipes/c_declarations.h"
#include "recipes/c_tree.h"
#include "recipes/nest_source_facts.h"

namespace recipe::recipes {

namespace {

using Spans = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Whether `name` is used in `function` inside the spans, and outside them
// (and outside its own declarator).
void uses(const CTree& tree, TSNode function, const std::string& name, const ByteSpans& replaced, std::uint32_t own,
          bool* in, bool* out) {
    walk(field(function, "body"), [&](TSNode n) {
        if (!is(n, "identifier") || tree.text(n) != name) return;
        const std::uint32_t at = ts_node_start_byte(n);
        if (at == own) return;
        if (replaced.contains(at)) *in = true;
        else *out = true;
    });
}

}  // namespace

std::vector<Edit> unused_declaration_edits(const CTree& tree, const analyzer::SourceMap& map, const Spans& spans) {
    std::vector<Edit> edits;
    std::set<std::uint32_t> functions;
    const ByteSpans replaced(spans);
    for (const auto& span : spans) {
        const TSNode fn = enclosing_function(tree, span.first);
        if (ts_node_is_null(fn) || !functions.insert(ts_node_start_byte(fn)).second) continue;
        walk(field(fn, "body"), [&](TSNode decl) {
            if (!is(decl, "declaration") || replaced.contains(ts_node_start_byte(decl))) return;
            for (TSNode c : named_children(decl))
                if (is(c, "storage_class_specifier")) return;  // static: it outlives the call
            // The plain declarators (no initialiser) the replaced loops alone used.
            std::vector<TSNode> declarators, gone;
            for (TSNode d : named_children(decl)) {
                if (!(is(d, "identifier") || is(d, "init_declarator") || is(d, "pointer_declarator") ||
                      is(d, "array_declarator")))
                    continue;
                declarators.push_back(d);
                // A plain name or pointer (a swap's temporary, `float *tmp;`);
                // with an initialiser, or an array: kept.
                TSNode id = d;
                while (is(id, "pointer_declarator")) id = field(id, "declarator");
                if (!is(id, "identifier")) continue;
                bool in = false, out = false;
                uses(tree, fn, std::string(tree.text(id)), replaced, ts_node_start_byte(id), &in, &out);
                if (in && !out) gone.push_back(d);
            }
            if (gone.empty()) return;
            const std::string_view original = map.original();
            if (gone.size() == declarators.size()) {
                // Nothing left: the whole declaration, with its line when it has one of its own.
                const auto b = map.to_original(ts_node_start_byte(decl), false);
                const auto e = map.to_original(ts_node_end_byte(decl), true);
                if (!b || !e || *e < *b) return;
                std::uint32_t from = *b, to = *e;
                if (facts::only_blanks_before(original, *b) && to < original.size() && original[to] == '\n') {
                    from = facts::line_start(original, *b);
                    ++to;
                }
                edits.push_back({from, to, ""});
                return;
            }
            // Some left: each run of removed names goes with the commas up to
            // the next name kept (or, at the end, from the last name kept).
            auto removed = [&](std::size_t k) {
                for (TSNode g : gone)
                    if (ts_node_eq(g, declarators[k])) return true;
                return false;
            };
            for (std::size_t k = 0; k < declarators.size();) {
                if (!removed(k)) {
                    ++k;
                    continue;
                }
                std::size_t last = k;
                while (last + 1 < declarators.size() && removed(last + 1)) ++last;
                const bool tail = last + 1 == declarators.size();
                const std::uint32_t b = tail ? ts_node_end_byte(declarators[k - 1]) : ts_node_start_byte(declarators[k]);
                const std::uint32_t e = tail ? ts_node_end_byte(declarators[last]) : ts_node_start_byte(declarators[last + 1]);
                const auto ob = map.to_original(b, tail);
                const auto oe = map.to_original(e, tail);
                if (ob && oe && *ob <= *oe) edits.push_back({*ob, *oe, ""});
                k = last + 1;
            }
        });
    }
    return edits;
}

}  // namespace recipe::recipes
