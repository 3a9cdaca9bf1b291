#include "recipes/c_tree.h"

#include "analyzer/source_map.h"

#include <stdexcept>

extern "C" const TSLanguage* tree_sitter_c();

namespace recipe::recipes {

CTree::CTree(std::string source) : source_(std::move(source)) {
    parser_ = ts_parser_new();
    if (!ts_parser_set_language(parser_, tree_sitter_c())) {
        ts_parser_delete(parser_);
        throw std::logic_error("tree-sitter C grammar does not load");
    }
    tree_ = ts_parser_parse_string(parser_, nullptr, source_.data(), static_cast<std::uint32_t>(source_.size()));
}

CTree::~CTree() {
    ts_tree_delete(tree_);
    ts_parser_delete(parser_);
}

TSNode CTree::root() const { return ts_tree_root_node(tree_); }

std::string_view CTree::text(TSNode node) const {
    const std::uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
    return std::string_view(source_).substr(b, e - b);
}

TSNode CTree::node_at(std::uint32_t begin, std::uint32_t end) const {
    TSNode n = ts_node_named_descendant_for_byte_range(root(), begin, end);
    if (ts_node_is_null(n) || ts_node_start_byte(n) != begin || ts_node_end_byte(n) != end) return TSNode{};
    return n;
}

TSNode field(TSNode n, const char* name) {
    return ts_node_child_by_field_name(n, name, static_cast<std::uint32_t>(std::char_traits<char>::length(name)));
}

std::vector<TSNode> named_children(TSNode n) {
    std::vector<TSNode> out;
    const std::uint32_t count = ts_node_named_child_count(n);
    for (std::uint32_t i = 0; i < count; ++i) out.push_back(ts_node_named_child(n, i));
    return out;
}

std::string called_function(const CTree& tree, TSNode call) {
    const TSNode f = field(call, "function");
    return is(f, "identifier") ? std::string(tree.text(f)) : std::string();
}

bool has_side_effects(TSNode n) {
    bool effects = false;
    walk(n, [&](TSNode k) {
        effects = effects || is(k, "call_expression") || is(k, "assignment_expression") || is(k, "update_expression");
    });
    return effects;
}

int CTree::user_line(TSNode node) const {
    const int line = static_cast<int>(ts_node_start_point(node).row) + 1;
    const int mapped = map_ ? map_->lines().origin(line).line : line;
    return mapped > 0 ? mapped : line;
}

std::string CTree::spelled(TSNode node) const {
    if (map_ && !ts_node_is_null(node))
        if (auto o = map_->original_text(ts_node_start_byte(node), ts_node_end_byte(node))) return *o;
    return std::string(text(node));
}

}  // namespace recipe::recipes
