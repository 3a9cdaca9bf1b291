// c_tree.h — a C source parsed with tree-sitter, for the few syntactic
// questions the generator asks itself (how an index expression splits into
// coordinates, what type a variable was declared with, which conversions C
// allows and C++ does not). The analyzer answers the semantic ones.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

namespace recipe::analyzer {
class SourceMap;
}

namespace recipe::recipes {

class CTree {
public:
    explicit CTree(std::string source);
    ~CTree();
    CTree(const CTree&) = delete;
    CTree& operator=(const CTree&) = delete;

    const std::string& source() const { return source_; }
    TSNode root() const;
    std::string_view text(TSNode node) const;

    // The smallest named node that spans exactly [begin, end), or a null node.
    TSNode node_at(std::uint32_t begin, std::uint32_t end) const;

    // For a preprocessed text: the map back to the user's file, so that
    // code the generator copies keeps the user's spelling (`W`, not `8000`).
    void set_source_map(const analyzer::SourceMap* map) { map_ = map; }
    // The node's text as the user wrote it where it maps, else as parsed.
    std::string spelled(TSNode node) const;
    // The line the node starts on in the user's file (the preprocessed
    // text's own line without a map).
    int user_line(TSNode node) const;

private:
    std::string source_;
    TSParser* parser_ = nullptr;
    TSTree* tree_ = nullptr;
    const analyzer::SourceMap* map_ = nullptr;
};

// Small helpers over TSNode.
inline std::string_view type_of(TSNode n) { return ts_node_type(n); }
inline bool is(TSNode n, std::string_view type) { return !ts_node_is_null(n) && type_of(n) == type; }
TSNode field(TSNode n, const char* name);
std::vector<TSNode> named_children(TSNode n);
// The name a call_expression calls, "" when it is not a plain name.
std::string called_function(const CTree& tree, TSNode call);
// Whether evaluating `n` may change state: it holds a call, an assignment or
// an increment.
bool has_side_effects(TSNode n);
// Calls `visit` on `n` and every named descendant, parents first, in
// source order. Iterative: a 100,000-deep expression must not overflow the
// stack.
template <class F>
void walk(TSNode n, F&& visit) {
    std::vector<TSNode> stack{n};
    while (!stack.empty()) {
        const TSNode k = stack.back();
        stack.pop_back();
        visit(k);
        for (std::uint32_t i = ts_node_named_child_count(k); i-- > 0;) stack.push_back(ts_node_named_child(k, i));
    }
}

}  // namespace recipe::recipes
