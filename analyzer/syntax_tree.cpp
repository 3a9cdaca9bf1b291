#include "analyzer/syntax_tree.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "analyzer/tree_sitter_allocator.h"

namespace recipe::analyzer {

namespace {

// One parser per thread, kept between parses: the analysis parses every
// macro body it expands as a small tree of its own, and a new parser costs
// more than such a parse.
struct ThreadParser {
    TSParser* parser = nullptr;
    ThreadParser() = default;
    ThreadParser(const ThreadParser&) = delete;
    ThreadParser& operator=(const ThreadParser&) = delete;
    ~ThreadParser() {
        if (parser) ts_parser_delete(parser);
    }
    TSParser* get() {
        if (!parser) {
            install_tree_sitter_allocator();
            parser = ts_parser_new();
            if (!ts_parser_set_language(parser, tree_sitter_c())) {
                ts_parser_delete(parser);
                parser = nullptr;
                throw std::runtime_error("tree-sitter C grammar has an incompatible ABI version");
            }
        }
        return parser;
    }
};
thread_local ThreadParser thread_parser;

TSTree* parse(const std::string& source) {
    TSParser* parser = thread_parser.get();
    TSTree* tree = ts_parser_parse_string(parser, nullptr, source.data(), static_cast<std::uint32_t>(source.size()));
    if (!tree) {
        ts_parser_reset(parser);
        throw std::runtime_error("tree-sitter returned no tree");
    }
    return tree;
}

// Blank to the C grammar between tokens: ASCII white space and line
// continuations. A byte of a multi-byte character counts as blank too:
// the grammar skips Unicode white space, and no C token is made of such
// bytes alone.
bool blank_at(const std::string& s, std::size_t i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c >= 0x80) return true;
    return c == '\\' && (s.compare(i + 1, 1, "\n") == 0 || s.compare(i + 1, 2, "\r\n") == 0);
}

// The first byte of `s` that is not blank and that no leaf of `root`
// covers, or one that two leaves cover; s.size() when there is none. The
// leaves of a tree tile its text but for blanks between them; where
// tree-sitter lost count of a node's children, their text is left
// uncovered, or the nodes after them are placed over text not theirs.
std::size_t first_uncovered(TSNode root, const std::string& s) {
    std::size_t covered = 0;  // the end of the leaves so far
    auto blank_until = [&](std::size_t end) {
        for (; covered < end; ++covered)
            if (!blank_at(s, covered)) return false;
        return true;
    };
    Cursor cursor(root);
    TSTreeCursor* c = cursor.get();
    for (;;) {
        if (ts_tree_cursor_goto_first_child(c)) continue;
        TSNode leaf = ts_tree_cursor_current_node(c);
        std::size_t b = ts_node_start_byte(leaf), e = ts_node_end_byte(leaf);
        if (b < e) {
            if (b < covered || e > s.size()) return std::min(covered, s.size());
            if (!blank_until(b)) return covered;
            covered = e;
        }
        while (!ts_tree_cursor_goto_next_sibling(c))
            if (!ts_tree_cursor_goto_parent(c)) return blank_until(s.size()) ? s.size() : covered;
    }
}

}  // namespace

SyntaxTree::SyntaxTree(std::string source) : source_(std::move(source)) {
    const std::size_t dropped = dropped_frees();
    tree_ = parse(source_);
    const std::size_t uncovered = first_uncovered(root(), source_);
    whole_ = uncovered == source_.size() && dropped_frees() == dropped;
    broken_at_ = static_cast<std::uint32_t>(uncovered);
}

SyntaxTree::~SyntaxTree() { ts_tree_delete(tree_); }

// Node types are string literals too: compare symbols, not names. With
// grammar ABI 14 both sides are public (deduplicated) symbols, so equal
// symbols mean equal names.
static TSSymbol symbol_for(const char* type) {
    struct Entry {
        const char* name;
        TSSymbol symbol;
    };
    static thread_local Entry cache[256] = {};
    std::size_t slot = (reinterpret_cast<std::uintptr_t>(type) >> 3) % 256;
    auto lookup = [type] {
        auto len = static_cast<std::uint32_t>(std::strlen(type));
        TSSymbol s = ts_language_symbol_for_name(tree_sitter_c(), type, len, true);
        if (s == 0) s = ts_language_symbol_for_name(tree_sitter_c(), type, len, false);
        return s;
    };
    for (std::size_t probe = 0; probe < 256; ++probe) {
        Entry& e = cache[(slot + probe) % 256];
        if (e.name == type) return e.symbol;
        if (!e.name) {
            e.name = type;
            e.symbol = lookup();
            return e.symbol;
        }
    }
    return lookup();
}

TSSymbol symbol_of(const char* type) { return symbol_for(type); }

bool is(TSNode n, const char* type) {
    if (ts_node_is_null(n)) return false;
    TSSymbol s = symbol_for(type);
    if (s == 0) return std::strcmp(ts_node_type(n), type) == 0;  // a name the grammar does not have
    return ts_node_symbol(n) == s;
}

bool contains_name(std::string_view t, std::string_view name) {
    if (name.empty()) return true;
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = t.find(name); at != std::string_view::npos; at = t.find(name, at + 1)) {
        std::size_t end = at + name.size();
        if ((at == 0 || !word(t[at - 1])) && (end == t.size() || !word(t[end]))) return true;
    }
    return false;
}

std::string_view text(TSNode n, const std::string& source) {
    if (ts_node_is_null(n)) return {};
    std::uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (b > source.size() || e > source.size() || e < b) return {};
    return std::string_view(source).substr(b, e - b);
}

// Field names are string literals; looking their ids up by name scans the
// grammar's field table, so remember the id per literal.
static TSFieldId field_id(const char* name) {
    struct Entry {
        const char* name;
        TSFieldId id;
    };
    static thread_local Entry cache[64] = {};
    std::size_t slot = (reinterpret_cast<std::uintptr_t>(name) >> 3) % 64;
    for (std::size_t probe = 0; probe < 64; ++probe) {
        Entry& e = cache[(slot + probe) % 64];
        if (e.name == name) return e.id;
        if (!e.name) {
            e.name = name;
            e.id = ts_language_field_id_for_name(tree_sitter_c(), name, static_cast<std::uint32_t>(std::strlen(name)));
            return e.id;
        }
    }
    return ts_language_field_id_for_name(tree_sitter_c(), name, static_cast<std::uint32_t>(std::strlen(name)));
}

TSNode field(TSNode n, const char* name) {
    if (ts_node_is_null(n)) return n;
    TSFieldId id = field_id(name);
    return id == 0 ? TSNode{} : ts_node_child_by_field_id(n, id);
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

TSNode node_spanning(TSNode root, const SourceSpan& s) {
    const TSNode n = ts_node_named_descendant_for_byte_range(root, s.begin_byte, s.end_byte);
    if (ts_node_is_null(n) || ts_node_start_byte(n) != s.begin_byte || ts_node_end_byte(n) != s.end_byte) return TSNode{};
    return n;
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
    for_each_named_child(n, [&](TSNode k) { out.push_back(k); });
    return out;
}

void walk(TSNode root, const std::function<bool(TSNode)>& visit) {
    walk_tree(root, visit, [](TSNode) {});
}

void walk_all_nodes(TSNode root, const std::function<bool(TSNode)>& visit) {
    if (ts_node_is_null(root)) return;
    Cursor cursor(root);
    TSTreeCursor* c = cursor.get();
    for (;;) {
        if (visit(ts_tree_cursor_current_node(c)) && ts_tree_cursor_goto_first_child(c)) continue;
        bool moved = false;
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(c)) {
                moved = true;
                break;
            }
            if (!ts_tree_cursor_goto_parent(c)) break;
        }
        if (!moved) break;
    }
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

std::string shorten(std::string_view s, std::size_t max) {
    std::string out = squeeze(s.substr(0, std::min<std::size_t>(s.size(), max * 4)));
    if (out.size() > max) out = out.substr(0, max) + "...";
    return out;
}

}  // namespace recipe::analyzer
