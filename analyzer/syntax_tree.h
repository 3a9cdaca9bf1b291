// syntax_tree.h — a parsed C file (tree-sitter) and the few node helpers the
// analyzer needs. Walks over whole files use TSTreeCursor (iterative, and
// linear in the number of children) so that deep nesting and huge files are
// safe; ts_node_child(i) is linear in i and is only used on small nodes.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/program.h"

extern "C" const TSLanguage* tree_sitter_c();

namespace recipe::analyzer {

// Owns a parser's tree over `source` (the text must outlive the tree; the
// tree keeps its own copy of the text so nodes can be read back).
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
std::string_view text(TSNode n, const std::string& source);
TSNode field(TSNode n, const char* name);
SourcePos pos_of(TSNode n);
SourceSpan span_of(TSNode n);
// Strips parentheses and casts, which never change an index's value.
TSNode strip_parens(TSNode n);
TSNode strip_parens_and_casts(TSNode n);

// Named children, in order, via a cursor.
std::vector<TSNode> named_children(TSNode n);
// All children (named and anonymous), in order.
std::vector<TSNode> all_children(TSNode n);

// Visits `root` and its descendants in source order without recursion.
// The visitor returns false to skip a node's children.
void walk(TSNode root, const std::function<bool(TSNode)>& visit);

// Collapses runs of whitespace (including newlines) to one space: readable
// one-line renderings of expressions.
std::string squeeze(std::string_view s);

}  // namespace recipe::analyzer
