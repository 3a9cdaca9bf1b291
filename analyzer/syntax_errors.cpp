#include "analyzer/syntax_errors.h"

namespace recipe::analyzer {

namespace {

std::string excerpt(std::string_view t) {
    std::string s = squeeze(t.substr(0, std::min<std::size_t>(t.size(), 200)));
    if (s.size() > 30) s = s.substr(0, 30) + "...";
    return s;
}

}  // namespace

std::vector<Diagnostic> syntax_errors(const SyntaxTree& tree, std::size_t limit) {
    std::vector<Diagnostic> out;
    std::size_t total = 0;
    walk_all_nodes(tree.root(), [&](TSNode n) {
        if (!ts_node_has_error(n) && !ts_node_is_missing(n)) return false;
        Diagnostic d;
        d.severity = Severity::Error;
        d.rule_id = "syntax";
        d.pos = pos_of(n);
        if (ts_node_is_missing(n)) {
            d.message = "syntax error: missing '" + std::string(ts_node_type(n)) + "'";
        } else if (IS(n, "ERROR")) {
            std::string t = excerpt(text(n, tree.source()));
            d.message = t.empty() ? "syntax error" : "syntax error: unexpected '" + t + "'";
        } else {
            return true;
        }
        if (++total <= limit) out.push_back(d);
        return false;  // one diagnostic per error region
    });
    if (total > limit) {
        Diagnostic more;
        more.severity = Severity::Note;
        more.rule_id = "syntax";
        more.pos = out.back().pos;
        more.message = std::to_string(total - limit) + " more syntax errors not shown";
        out.push_back(more);
    }
    return out;
}

}  // namespace recipe::analyzer
