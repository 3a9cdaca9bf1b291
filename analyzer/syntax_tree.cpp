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

#include "analyzer/parallel.h"

namespace recipe::analyzer {

namespace {

constexpr std::size_t kParallelParseBytes = 512 * 1024;
constexpr std::size_t kBytesPerPart = 256 * 1024;

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

// Parses [begin, end) of `source` with positions in the whole text.
TSTree* parse_range(const std::string& source, std::size_t begin, std::size_t end, TSPoint begin_point, TSPoint end_point) {
    TSParser* parser = thread_parser.get();
    if (begin != 0 || end != source.size()) {
        TSRange range{begin_point, end_point, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)};
        ts_parser_set_included_ranges(parser, &range, 1);
    } else {
        ts_parser_set_included_ranges(parser, nullptr, 0);  // all of it
    }
    TSTree* tree = ts_parser_parse_string(parser, nullptr, source.data(), static_cast<std::uint32_t>(source.size()));
    if (!tree) {
        ts_parser_reset(parser);
        throw std::runtime_error("tree-sitter returned no tree");
    }
    return tree;
}

}  // namespace

std::vector<std::size_t> top_level_cuts(const std::string& s, const std::vector<std::size_t>& wanted) {
    // A light lexer: braces, parentheses, comments, strings and #if nesting.
    // A cut goes before a line that starts at column 0, at file scope,
    // right after a complete declaration or function (`;` or `}`). Where
    // the text stops making sense (a comment left open, more closing braces
    // than opening ones), the scan stops with the cuts found so far. Runs of
    // characters that matter to none of this are skipped in one go: the
    // scan runs before any parsing starts, on one thread.
    static constexpr auto special = [] {
        std::array<bool, 256> t{};
        for (unsigned char c : std::string_view("\n#/\"'{}()")) t[c] = true;
        return t;
    }();
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    std::vector<std::size_t> cuts;
    std::size_t next = 0;  // the first wanted position not yet served
    int braces = 0, parens = 0, conditionals = 0;
    char last = ';';  // the last character that is not blank, outside comments and directives
    bool column0 = true;
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n && next < wanted.size()) {
        char c = s[i];
        if (column0) {
            column0 = false;
            if (i >= wanted[next] && braces == 0 && parens == 0 && conditionals == 0 && (last == ';' || last == '}') &&
                (std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
                cuts.push_back(i);
                while (next < wanted.size() && wanted[next] <= i) ++next;
            }
            if (c == '#') {
                std::size_t j = i + 1;
                while (j < n && (s[j] == ' ' || s[j] == '\t')) ++j;
                if (s.compare(j, 2, "if") == 0) ++conditionals;  // #if, #ifdef, #ifndef
                else if (s.compare(j, 5, "endif") == 0) --conditionals;
                if (conditionals < 0) break;
                // Skip the directive and its continuation lines, up to the
                // newline that ends it.
                while (i + 1 < n && !(s[i + 1] == '\n' && s[i] != '\\')) ++i;
                ++i;
                continue;
            }
        }
        if (!special[static_cast<unsigned char>(c)]) {
            std::size_t j = i + 1;
            while (j < n && !special[static_cast<unsigned char>(s[j])]) ++j;
            for (std::size_t k = j; k > i; --k)
                if (!blank(s[k - 1])) {
                    last = s[k - 1];
                    break;
                }
            i = j;
            continue;
        }
        switch (c) {
            case '\n':
                column0 = true;
                ++i;
                continue;
            case '/':
                if (i + 1 < n && s[i + 1] == '*') {
                    std::size_t e = s.find("*/", i + 2);
                    if (e == std::string::npos) return cuts;
                    i = e + 2;
                    continue;
                }
                if (i + 1 < n && s[i + 1] == '/') {
                    while (i + 1 < n && s[i + 1] != '\n') ++i;
                    ++i;
                    continue;
                }
                break;
            case '"':
            case '\'':
                for (++i; i < n && s[i] != c && s[i] != '\n'; ++i)
                    if (s[i] == '\\') ++i;
                last = c;
                // A string left open at the end of its line: the newline
                // still starts the next line.
                if (i < n && s[i] == '\n' && c != '\n') {
                    column0 = true;
                    ++i;
                    continue;
                }
                ++i;
                continue;
            case '{': ++braces; break;
            case '}': --braces; break;
            case '(': ++parens; break;
            case ')': --parens; break;
            default: break;
        }
        if (braces < 0 || parens < 0) break;
        last = c;
        ++i;
    }
    return cuts;
}

std::size_t top_level_cut(const std::string& s, std::size_t wanted) {
    std::vector<std::size_t> cuts = top_level_cuts(s, {wanted});
    return cuts.empty() ? 0 : cuts.front();
}

SyntaxTree::SyntaxTree(std::string source, bool parallel) : SyntaxTree(std::move(source), parallel, Deferred{}) {
    for_each_task(parts(), analysis_threads(), [this](std::size_t i) { parse_part(i); });
}

SyntaxTree::SyntaxTree(std::string source, bool parallel, Deferred) : source_(std::move(source)) {
    std::vector<std::size_t> cuts;
    if (parallel && source_.size() >= kParallelParseBytes) {
        // A few more parts than threads, so that the threads finish together.
        std::size_t parts = std::clamp<std::size_t>(source_.size() / kBytesPerPart, 2, 4 * analysis_threads());
        std::vector<std::size_t> wanted;
        for (std::size_t k = 1; k < parts; ++k) wanted.push_back(source_.size() * k / parts);
        cuts = top_level_cuts(source_, wanted);
    }
    // Rows and columns of the cuts and of the end, counted in one pass.
    std::vector<std::uint32_t> bounds{0};
    std::vector<TSPoint> points{TSPoint{0, 0}};
    if (!cuts.empty()) {
        std::size_t line_start = 0, scanned = 0;
        std::uint32_t row = 0;
        cuts.push_back(source_.size());
        for (std::size_t at : cuts) {
            while (const void* nl = std::memchr(source_.data() + scanned, '\n', at - scanned)) {
                ++row;
                line_start = static_cast<std::size_t>(static_cast<const char*>(nl) - source_.data()) + 1;
                scanned = line_start;
            }
            scanned = at;
            if (at < source_.size()) bounds.push_back(static_cast<std::uint32_t>(at));
            points.push_back({row, static_cast<std::uint32_t>(at - line_start)});
        }
    } else {
        points.push_back({});  // one part: no range, positions need no offset
    }
    bounds.push_back(static_cast<std::uint32_t>(source_.size()));
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) parts_.push_back({bounds[k], bounds[k + 1], points[k], points[k + 1], nullptr});
}

void SyntaxTree::parse_part(std::size_t i) {
    Part& p = parts_[i];
    if (!p.tree) p.tree = parse_range(source_, p.begin, p.end, p.begin_point, p.end_point);
}

SyntaxTree::~SyntaxTree() {
    tree_generation.fetch_add(1, std::memory_order_acq_rel);
    // Freeing a tree visits every node: a large file's parts are freed side
    // by side, as they were parsed.
    for_each_task(parts(), analysis_threads(), [this](std::size_t i) {
        if (parts_[i].tree) ts_tree_delete(parts_[i].tree);
    });
}

std::vector<TSNode> SyntaxTree::roots() const {
    std::vector<TSNode> out;
    for (const Part& p : parts_)
        if (p.tree) out.push_back(ts_tree_root_node(p.tree));
    return out;
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
