#include "analyzer/old_values.h"

#include <algorithm>
#include <set>

#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

namespace {

bool own_point(const ArrayAccess& a) {
    return a.window_offsets.empty() && std::all_of(a.offset.begin(), a.offset.end(), [](int o) { return o == 0; });
}

// Whether the write at `n` sits under a branch or an inner loop of `body`.
bool conditional_write(TSNode n, TSNode body) {
    for (TSNode p = ts_node_parent(n); !is_null(p) && !ts_node_eq(p, body); p = ts_node_parent(p))
        if (IS(p, "if_statement") || IS(p, "conditional_expression") || IS(p, "for_statement") ||
            IS(p, "while_statement") || IS(p, "do_statement") || IS(p, "switch_statement") || IS(p, "case_statement"))
            return true;
    return false;
}

// Whether expression statement `s` runs one of the writes starting at the
// bytes `writes` whatever its operands hold (not behind ?:, && or ||).
bool unconditional_in(TSNode s, const std::set<std::uint32_t>& writes) {
    bool found = false;
    walk(s, [&](TSNode n) {
        if (found) return false;
        if (!writes.count(ts_node_start_byte(n))) return true;
        for (TSNode p = ts_node_parent(n); !is_null(p) && !ts_node_eq(p, s); p = ts_node_parent(p)) {
            if (IS(p, "conditional_expression")) return true;
            if (IS(p, "binary_expression")) {
                const TSNode op = ts_node_child(p, 1);
                const std::string_view o = is_null(op) ? "" : ts_node_type(op);
                if (o == "&&" || o == "||") return true;
            }
        }
        found = true;
        return false;
    });
    return found;
}

// Whether every path through statement `s` runs one of the writes (an if
// and its else both writing count; loops, switches, ?: and && / || do
// not). Conservative: false when unsure.
bool every_path(TSNode s, const std::set<std::uint32_t>& writes, int depth) {
    if (depth > 64 || is_null(s)) return false;  // deeper than real code nests: unsure
    if (IS(s, "compound_statement")) {
        for (TSNode c : named_children(s))
            if (every_path(c, writes, depth + 1)) return true;
        return false;
    }
    if (IS(s, "if_statement")) {
        const TSNode alt = field(s, "alternative");  // else_clause
        if (is_null(alt)) return false;
        const TSNode other = ts_node_named_child_count(alt) ? ts_node_named_child(alt, 0) : TSNode{};
        return every_path(field(s, "consequence"), writes, depth + 1) && every_path(other, writes, depth + 1);
    }
    if (IS(s, "expression_statement") || IS(s, "declaration")) return unconditional_in(s, writes);
    return false;
}

bool holds_any(TSNode s, const std::set<std::uint32_t>& at) {
    const auto it = at.lower_bound(ts_node_start_byte(s));
    return it != at.end() && *it < ts_node_end_byte(s);
}

enum class First { Write, Read, Neither };

// What comes first on the way through statement `s`: a write of the point
// on every path, or a read of it. A statement that holds a read counts as
// the read (`a[i] = a[i] * 2` reads before it writes).
First first_of(TSNode s, const std::set<std::uint32_t>& writes, const std::set<std::uint32_t>& reads, int depth) {
    if (depth > 64 || is_null(s)) return First::Read;  // unsure: as if read
    if (IS(s, "compound_statement")) {
        for (TSNode c : named_children(s)) {
            const First f = first_of(c, writes, reads, depth + 1);
            if (f != First::Neither) return f;
        }
        return First::Neither;
    }
    if (holds_any(s, reads)) return First::Read;
    return every_path(s, writes, depth) ? First::Write : First::Neither;
}

}  // namespace

OldValues old_values(TSNode body, const std::vector<const AccessFact*>& facts, const std::vector<ArrayAccess>& accesses) {
    OldValues out;
    // The writes of each iteration's point (at a fixed offset from it, not
    // walked by a window loop), and the reads. A read sees what the same
    // iteration wrote only when both are of the point itself: a neighbour,
    // or a point a window walks, may hold another iteration's value or the
    // old one, so such a read always needs the old values.
    std::set<std::uint32_t> writes, reads;
    bool own_only = true;
    for (std::size_t i = 0; i < facts.size() && i < accesses.size(); ++i) {
        const std::uint32_t at = ts_node_start_byte(facts[i]->node);
        if (facts[i]->write && accesses[i].window_offsets.empty()) writes.insert(at);
        if (facts[i]->read) reads.insert(at);
        if (facts[i]->write || facts[i]->read) own_only = own_only && own_point(accesses[i]);
    }
    if (!reads.empty() && (!own_only || first_of(body, writes, reads, 0) != First::Write)) {
        out.needed = true;
        return out;
    }
    if (every_path(body, writes, 0)) return out;
    // Some paths do not write the point: name the write under a branch or
    // an inner loop, else (behind && or ||, say) the first write.
    out.needed = true;
    for (std::size_t i = 0; i < facts.size() && i < accesses.size(); ++i) {
        if (!facts[i]->write) continue;
        if (out.partial_write < 0) out.partial_write = static_cast<int>(i);
        if (!is_null(facts[i]->node) && conditional_write(facts[i]->node, body)) {
            out.partial_write = static_cast<int>(i);
            break;
        }
    }
    return out;
}

}  // namespace recipe::analyzer
