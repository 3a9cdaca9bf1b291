#include "analyzer/syntax_tree.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <system_error>


namespace recipe::analyzer {

namespace {

// Bumped before any tree is freed: a node remembered from a freed tree must
// not answer for a new node that happens to reuse its memory.
std::atomic<std::uint64_t> tree_generation{1};

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

}  // namespace

SyntaxTree::SyntaxTree(std::string source) : source_(std::move(source)), tree_(parse(source_)) {}

SyntaxTree::~SyntaxTree() {
    tree_generation.fetch_add(1, std::memory_order_acq_rel);
    ts_tree_delete(tree_);
}

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

bool text_contains_name(TSNode n, const std::string& source, std::string_view name) {
    std::string_view t = text(n, source);
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

namespace {

// ts_node_child_by_field_id scans the node's children (and descends hidden
// ones) on every call, and the analysis asks the same node for the same
// field again and again (an index is read by several passes): a small
// per-thread cache of recent answers, keyed by node and field.
struct FieldAnswer {
    const void* id = nullptr;
    const TSTree* tree = nullptr;
    std::uint32_t start_byte = 0;
    TSFieldId field = 0;
    std::uint64_t generation = 0;
    TSNode child{};
};
constexpr std::size_t kFieldCacheSize = 2048;  // a power of two
thread_local FieldAnswer field_cache[kFieldCacheSize];

}  // namespace

TSNode field(TSNode n, const char* name) {
    if (ts_node_is_null(n)) return n;
    TSFieldId id = field_id(name);
    if (id == 0) return TSNode{};
    std::uint64_t generation = tree_generation.load(std::memory_order_acquire);
    auto key = reinterpret_cast<std::uintptr_t>(n.id);
    FieldAnswer& a = field_cache[((key >> 4) ^ (key >> 12) ^ (std::uintptr_t{id} * 0x9e37u)) & (kFieldCacheSize - 1)];
    if (a.id == n.id && a.tree == n.tree && a.start_byte == n.context[0] && a.field == id && a.generation == generation)
        return a.child;
    TSNode child = ts_node_child_by_field_id(n, id);
    a = FieldAnswer{n.id, n.tree, n.context[0], id, generation, child};
    return child;
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

namespace {

// The cursors of one thread that are not in use; freed when the thread ends.
struct CursorPool {
    std::vector<TSTreeCursor*> idle;
    CursorPool() = default;
    CursorPool(const CursorPool&) = delete;
    CursorPool& operator=(const CursorPool&) = delete;
    ~CursorPool() {
        for (TSTreeCursor* c : idle) {
            ts_tree_cursor_delete(c);
            delete c;
        }
    }
};
thread_local CursorPool cursor_pool;

}  // namespace

PooledCursor::PooledCursor(TSNode n) {
    if (cursor_pool.idle.empty()) {
        cursor_ = new TSTreeCursor(ts_tree_cursor_new(n));
        return;
    }
    cursor_ = cursor_pool.idle.back();
    cursor_pool.idle.pop_back();
    ts_tree_cursor_reset(cursor_, n);  // keeps the stack's memory
}

PooledCursor::~PooledCursor() { cursor_pool.idle.push_back(cursor_); }

std::vector<TSNode> named_children(TSNode n) {
    std::vector<TSNode> out;
    for_each_named_child(n, [&](TSNode k) { out.push_back(k); });
    return out;
}

std::vector<TSNode> all_children(TSNode n) {
    std::vector<TSNode> out;
    if (ts_node_is_null(n)) return out;
    PooledCursor pooled(n);
    TSTreeCursor* c = pooled.get();
    if (ts_tree_cursor_goto_first_child(c)) {
        do out.push_back(ts_tree_cursor_current_node(c));
        while (ts_tree_cursor_goto_next_sibling(c));
    }
    return out;
}

namespace {

// Node stacks of one thread that are not in use.
struct NodeStackPool {
    std::vector<std::vector<TSNode>*> idle;
    NodeStackPool() = default;
    NodeStackPool(const NodeStackPool&) = delete;
    NodeStackPool& operator=(const NodeStackPool&) = delete;
    ~NodeStackPool() {
        for (auto* v : idle) delete v;
    }
};
thread_local NodeStackPool node_stack_pool;

}  // namespace

PooledNodeStack::PooledNodeStack() {
    if (node_stack_pool.idle.empty()) {
        nodes_ = new std::vector<TSNode>();
        return;
    }
    nodes_ = node_stack_pool.idle.back();
    node_stack_pool.idle.pop_back();
    nodes_->clear();
}

PooledNodeStack::~PooledNodeStack() { node_stack_pool.idle.push_back(nodes_); }

void append_named_children(TSNode n, std::vector<TSNode>& out) {
    for_each_named_child(n, [&](TSNode k) { out.push_back(k); });
}

void walk(TSNode root, const std::function<bool(TSNode)>& visit) {
    walk_tree(root, visit, [](TSNode) {});
}

void walk_all_nodes(TSNode root, const std::function<bool(TSNode)>& visit) {
    if (ts_node_is_null(root)) return;
    PooledCursor pooled(root);
    TSTreeCursor* c = pooled.get();
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
