#include "analyzer/syntax_tree.h"

#include <cstring>
#include <stdexcept>

namespace recipe::analyzer {

SyntaxTree::SyntaxTree(std::string source) : source_(std::move(source)) {
    TSParser* parser = ts_parser_new();
    if (!ts_parser_set_language(parser, tree_sitter_c())) {
        ts_parser_delete(parser);
        throw std::runtime_error("tree-sitter C grammar has an incompatible ABI version");
    }
    tree_ = ts_parser_parse_string(parser, nullptr, source_.data(), static_cast<std::uint32_t>(source_.size()));
    ts_parser_delete(parser);
    if (!tree_) throw std::runtime_error("tree-sitter returned no tree");
}

SyntaxTree::~SyntaxTree() { ts_tree_delete(tree_); }

bool is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

std::string_view text(TSNode n, const std::string& source) {
    if (ts_node_is_null(n)) return {};
    std::uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (b > source.size() || e > source.size() || e < b) return {};
    return std::string_view(source).substr(b, e - b);
}

TSNode field(TSNode n, const char* name) {
    if (ts_node_is_null(n)) return n;
    return ts_node_child_by_field_name(n, name, static_cast<std::uint32_t>(std::strlen(name)));
}

SourcePos pos_of(TSNode n) {
    TSPoint p = ts_node_start_point(n);
    return {static_cast<int>(p.row) + 1, static_cast<int>(p.column) + 1};
}

SourceSpan span_of(TSNode n) {
    SourceSpan s;
    TSPoint b = ts_node_start_point(n), e = ts_node_end_point(n);
    s.begin = {static_cast<int>(b.row) + 1, static_cast<int>(b.column) + 1};
    s.end = {static_cast<int>(e.row) + 1, static_cast<int>(e.column) + 1};
    s.begin_byte = ts_node_start_byte(n);
    s.end_byte = ts_node_end_byte(n);
    return s;
}

TSNode strip_parens(TSNode n) {
    while (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
    return n;
}

TSNode strip_parens_and_casts(TSNode n) {
    for (;;) {
        if (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) {
            n = ts_node_named_child(n, 0);
        } else if (is(n, "cast_expression")) {
            n = field(n, "value");
        } else {
            return n;
        }
    }
}

std::vector<TSNode> named_children(TSNode n) {
    std::vector<TSNode> out;
    if (ts_node_is_null(n)) return out;
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) {
        do {
            TSNode k = ts_tree_cursor_current_node(&c);
            if (ts_node_is_named(k)) out.push_back(k);
        } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    return out;
}

std::vector<TSNode> all_children(TSNode n) {
    std::vector<TSNode> out;
    if (ts_node_is_null(n)) return out;
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) {
        do out.push_back(ts_tree_cursor_current_node(&c));
        while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    return out;
}

void walk(TSNode root, const std::function<bool(TSNode)>& visit) {
    if (ts_node_is_null(root)) return;
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
        bool descend = visit(ts_tree_cursor_current_node(&c));
        if (descend && ts_tree_cursor_goto_first_child(&c)) continue;
        bool moved = false;
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&c)) { moved = true; break; }
            if (!ts_tree_cursor_goto_parent(&c)) break;
        }
        if (!moved) break;
    }
    ts_tree_cursor_delete(&c);
}

std::string squeeze(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    bool space = false;
    for (char ch : s) {
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += ch;
    }
    return out;
}

}  // namespace recipe::analyzer
