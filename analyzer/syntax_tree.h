// syntax_tree.h — a parsed C file (tree-sitter) and the few node helpers the
// analyzer needs. Walks keep their own stack (no recursion), so that deep
// nesting is safe; children are read with a TSTreeCursor, since
// ts_node_named_child(i) is linear in i.
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

    // False when tree-sitter lost count of a node's children while parsing
    // (a node of 65,536 children or more, tree_sitter_allocator.h): nodes
    // are then missing and misplaced, and none may be trusted. Seen as the
    // parse dropping a free, or as tokens of the text that no leaf covers.
    bool whole() const { return whole_; }
    // Where the leaves and the text first part (a byte of the text), when
    // not whole(); the end of the text when only the dropped free says so.
    std::uint32_t broken_at() const { return broken_at_; }

private:
    std::string source_;
    TSTree* tree_ = nullptr;
    bool whole_ = true;
    std::uint32_t broken_at_ = 0;
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

// A tree cursor at `n`, deleted when it goes out of scope.
class Cursor {
public:
    explicit Cursor(TSNode n) : cursor_(ts_tree_cursor_new(n)) {}
    ~Cursor() { ts_tree_cursor_delete(&cursor_); }
    Cursor(const Cursor&) = delete;
    Cursor& operator=(const Cursor&) = delete;
    TSTreeCursor* get() { return &cursor_; }

private:
    TSTreeCursor cursor_;
};

// Calls f(child) for each named child, in order. A cursor steps from one
// child to the next; ts_node_named_child(n, i) would scan the children
// before the i-th each time.
template <typename F>
void for_each_named_child(TSNode n, F&& f) {
    if (ts_node_is_null(n)) return;
    Cursor cursor(n);
    TSTreeCursor* c = cursor.get();
    if (!ts_tree_cursor_goto_first_child(c)) return;
    do {
        TSNode k = ts_tree_cursor_current_node(c);
        if (ts_node_is_named(k)) f(k);
    } while (ts_tree_cursor_goto_next_sibling(c));
}

// Visits the named nodes of `root`'s subtree (root included) in source
// order, without recursion: enter(n) returns false to skip n's subtree;
// leave(n) follows once n's subtree is done (also when it was skipped).
// Punctuation and keywords are not visited: no pass looks at them (but
// the syntax-error passes, which use walk_all_nodes).
template <typename Enter, typename Leave>
void walk_tree(TSNode root, Enter&& enter, Leave&& leave) {
    if (ts_node_is_null(root)) return;
    // A null node on the stack stands for "leave the node below it".
    std::vector<TSNode> stack{root};
    while (!stack.empty()) {
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
        for_each_named_child(n, [&](TSNode k) { stack.push_back(k); });
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
// Whether `text` contains `name` as a whole word (not inside a longer
// name); an empty name is in every text.
bool contains_name(std::string_view text, std::string_view name);
// Whether `n`'s text contains `name` as a whole word: where an identifier
// `name` can be among its descendants.
inline bool text_contains_name(TSNode n, const std::string& source, std::string_view name) {
    return contains_name(text(n, source), name);
}
TSNode field(TSNode n, const char* name);
SourcePos pos_of(TSNode n);
SourceSpan span_of(TSNode n);
// The smallest named node of `root`'s subtree spanning exactly the bytes of
// `s`, or a null node: how what read a Program finds its nodes again.
TSNode node_spanning(TSNode root, const SourceSpan& s);
// Strips parentheses and casts, which never change an index's value.
TSNode strip_parens(TSNode n);
TSNode strip_parens_and_casts(TSNode n);

// Named children, in order.
std::vector<TSNode> named_children(TSNode n);

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
