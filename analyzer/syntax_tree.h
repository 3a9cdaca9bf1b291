// syntax_tree.h — a parsed C file (tree-sitter) and the few node helpers the
// analyzer needs. Walks keep their own stack (no recursion), so that deep
// nesting and huge files are safe; ts_node_named_child(i) is linear in i and
// is only used on small nodes, large ones are read with a TSTreeCursor.
// Every tree-sitter call costs hundreds of instructions: the helpers below
// pool cursors, cache field lookups and skip punctuation.
#pragma once

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/program.h"

extern "C" const TSLanguage* tree_sitter_c();

namespace recipe::analyzer {

// Owns the parse of `source` (and the text, so nodes can be read back).
class SyntaxTree {
public:
    explicit SyntaxTree(std::string source);
    ~SyntaxTree();
    SyntaxTree(const SyntaxTree&) = delete;
    SyntaxTree& operator=(const SyntaxTree&) = delete;

    TSNode root() const { return ts_tree_root_node(tree_); }
    const std::string& source() const { return source_; }

private:
    std::string source_;
    TSTree* tree_ = nullptr;
};

// A node together with the text it was parsed from (macro bodies are parsed
// into trees of their own, so a node alone does not say where its text is).
struct Expr {
    TSNode node{};
    const std::string* source = nullptr;
};

inline bool is_null(TSNode n) { return ts_node_is_null(n); }
bool is(TSNode n, const char* type);
// The grammar's symbol for a node type name (for hot loops that compare
// ts_node_symbol against a few types).
TSSymbol symbol_of(const char* type);

inline bool has_symbol(TSNode n, TSSymbol s) { return !ts_node_is_null(n) && ts_node_symbol(n) == s; }

// A node's grammar symbol, 0 for a null node: code that tests one node
// against many types reads it once and compares it with SYM("type").
inline TSSymbol symbol(TSNode n) { return ts_node_is_null(n) ? TSSymbol{0} : ts_node_symbol(n); }

// The symbol of a node type, looked up once per use site.
#define SYM(type)                                                                  \
    ([] {                                                                          \
        static const TSSymbol recipe_symbol = ::recipe::analyzer::symbol_of(type); \
        return recipe_symbol;                                                      \
    }())

// is(n, "type") with the symbol looked up once per use site: the analysis
// asks this for most nodes it visits.
#define IS(node, type)                                                           \
    ::recipe::analyzer::has_symbol((node), [] {                                  \
        static const TSSymbol recipe_symbol = ::recipe::analyzer::symbol_of(type); \
        return recipe_symbol;                                                    \
    }())

// A tree cursor at `n`, borrowed from a pool of the calling thread: a new
// cursor allocates its stack, and the analysis of a large file starts
// hundreds of thousands of short walks. Cursors may be nested (a walk
// inside a walk's visitor); each is given back when it goes out of scope.
class PooledCursor {
public:
    explicit PooledCursor(TSNode n);
    ~PooledCursor();
    PooledCursor(const PooledCursor&) = delete;
    PooledCursor& operator=(const PooledCursor&) = delete;
    TSTreeCursor* get() const { return cursor_; }

private:
    TSTreeCursor* cursor_;
};

// The named children of `n`, in order, appended to `out`. Small nodes are
// read by index (cheaper than a cursor's steps over their punctuation),
// large ones with a cursor (reading by index would be quadratic).
void append_named_children(TSNode n, std::vector<TSNode>& out);

// A stack of nodes borrowed from a per-thread pool (walks run inside other
// walks' visitors), for the walks below.
class PooledNodeStack {
public:
    PooledNodeStack();
    ~PooledNodeStack();
    PooledNodeStack(const PooledNodeStack&) = delete;
    PooledNodeStack& operator=(const PooledNodeStack&) = delete;
    std::vector<TSNode>& get() { return *nodes_; }

private:
    std::vector<TSNode>* nodes_;
};

// Visits the named nodes of `root`'s subtree (root included) in source
// order, without recursion: enter(n) returns false to skip n's subtree;
// leave(n) follows once n's subtree is done (also when it was skipped).
// Punctuation and keywords are not visited: no pass looks at them (but
// the syntax-error passes, which use walk_all_nodes).
template <typename Enter, typename Leave>
void walk_tree(TSNode root, Enter&& enter, Leave&& leave) {
    if (ts_node_is_null(root)) return;
    // A null node on the stack stands for "leave the node below it".
    PooledNodeStack pooled;
    std::vector<TSNode>& stack = pooled.get();
    std::size_t base = stack.size();
    stack.push_back(root);
    while (stack.size() > base) {
        TSNode n = stack.back();
        stack.pop_back();
        if (ts_node_is_null(n)) {
            TSNode done = stack.back();
            stack.pop_back();
            leave(done);
            continue;
        }
        if (!enter(n) || ts_node_named_child_count(n) == 0) {
            leave(n);
            continue;
        }
        stack.push_back(n);
        stack.push_back(TSNode{});
        std::size_t first = stack.size();
        append_named_children(n, stack);
        std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
    }
}

// Every node of `root`'s subtree, punctuation and MISSING tokens included
// (what the syntax-error passes need), with a cursor.
void walk_all_nodes(TSNode root, const std::function<bool(TSNode)>& visit);

std::string_view text(TSNode n, const std::string& source);
// Whether `n`'s text contains `needle`: walks that look for a name or a
// keyword skip subtrees whose text cannot hold it (a node's text includes
// all of its descendants' text).
inline bool text_contains(TSNode n, const std::string& source, std::string_view needle) {
    return text(n, source).find(needle) != std::string_view::npos;
}
// Whether `n`'s text contains `name` as a whole word (not inside a longer
// name): where an identifier `name` can be among its descendants.
bool text_contains_name(TSNode n, const std::string& source, std::string_view name);
TSNode field(TSNode n, const char* name);
SourcePos pos_of(TSNode n);
SourceSpan span_of(TSNode n);
// Strips parentheses and casts, which never change an index's value.
TSNode strip_parens(TSNode n);
TSNode strip_parens_and_casts(TSNode n);

// Calls f(child) for each named child, in order, without allocating. A
// small node's children are read by index; a large node's with a cursor
// (by index, each would scan the children before it).
template <typename F>
void for_each_named_child(TSNode n, F&& f) {
    if (ts_node_is_null(n)) return;
    if (ts_node_child_count(n) <= 8) {
        std::uint32_t named = ts_node_named_child_count(n);
        for (std::uint32_t i = 0; i < named; ++i) f(ts_node_named_child(n, i));
        return;
    }
    PooledCursor pooled(n);
    TSTreeCursor* c = pooled.get();
    if (!ts_tree_cursor_goto_first_child(c)) return;
    do {
        TSNode k = ts_tree_cursor_current_node(c);
        if (ts_node_is_named(k)) f(k);
    } while (ts_tree_cursor_goto_next_sibling(c));
}

// Named children, in order, via a cursor.
std::vector<TSNode> named_children(TSNode n);
// All children (named and anonymous), in order.
std::vector<TSNode> all_children(TSNode n);

// Visits `root` and its named descendants in source order without
// recursion (see walk_tree). The visitor returns false to skip a node's
// children.
void walk(TSNode root, const std::function<bool(TSNode)>& visit);

// Collapses runs of whitespace (including newlines) to one space: readable
// one-line renderings of expressions.
std::string squeeze(std::string_view s);

// A code fragment for a message: squeezed and cut to `max` characters.
std::string shorten(std::string_view s, std::size_t max = 60);

}  // namespace recipe::analyzer
