#include "analyzer/swap.h"

#include "analyzer/declarations.h"

namespace recipe::analyzer {

namespace {

// `x = y;` with plain names: fills to/from.
bool plain_copy(TSNode stmt, const std::string& src, std::string* to, std::string* from, bool allow_declaration) {
    if (allow_declaration && IS(stmt, "declaration")) {
        auto d = declarations_in(stmt, src);
        if (d.size() != 1 || is_null(d[0].value)) return false;
        TSNode v = strip_parens_and_casts(d[0].value);
        if (!IS(v, "identifier")) return false;
        *to = d[0].name;
        *from = std::string(text(v, src));
        return true;
    }
    if (!IS(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1) return false;
    TSNode e = strip_parens(ts_node_named_child(stmt, 0));
    if (!IS(e, "assignment_expression") || text(field(e, "operator"), src) != "=") return false;
    TSNode l = strip_parens(field(e, "left")), r = strip_parens_and_casts(field(e, "right"));
    if (!IS(l, "identifier") || !IS(r, "identifier")) return false;
    *to = std::string(text(l, src));
    *from = std::string(text(r, src));
    return true;
}

}  // namespace

std::vector<Swap> swaps_in_block(TSNode block, const std::string& src) {
    std::vector<Swap> out;
    std::vector<TSNode> stmts;
    for (TSNode k : named_children(block))
        if (!IS(k, "comment")) stmts.push_back(k);
    for (std::size_t i = 0; i + 2 < stmts.size(); ++i) {
        std::string t1, a1, a2, b2, b3, t3;
        // The middle statement first: it is the cheapest to rule out, and
        // reading a declaration (the first may be one) is not cheap.
        if (!plain_copy(stmts[i + 1], src, &a2, &b2, false)) continue;
        if (!plain_copy(stmts[i], src, &t1, &a1, true) || a2 != a1) continue;
        if (!plain_copy(stmts[i + 2], src, &b3, &t3, false) || b3 != b2 || t3 != t1) continue;
        if (a1 == b2 || a1 == t1 || b2 == t1) continue;
        out.push_back({a1, b2, t1, stmts[i], stmts[i + 2]});
        i += 2;
    }
    return out;
}

std::vector<Swap> swaps_under(TSNode root, const std::string& src) {
    std::vector<Swap> out;
    walk(root, [&](TSNode n) {
        if (IS(n, "compound_statement")) {
            auto s = swaps_in_block(n, src);
            out.insert(out.end(), s.begin(), s.end());
        }
        // Blocks (statement expressions included) are written with braces.
        return ts_node_has_error(n) || text_contains(n, src, "{");
    });
    return out;
}

}  // namespace recipe::analyzer
