// written_text.h — the analyzer's parse read back as the user wrote it: a
// node's text as parsed (the preprocessed text) or as spelled in the user's
// file (`W`, not `8000`), and what a name was declared as. What the
// generator copies into the .cu is read this way, so that it keeps the
// user's own spelling.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

class SourceMap;

class WrittenText {
public:
    // `map` leads back to the user's file; null for a text that went through
    // no preprocessor (its spelling is its own). Both outlive this.
    WrittenText(const SyntaxTree& tree, const SourceMap* map) : source_(tree.source()), root_(tree.root()), map_(map) {}

    const std::string& source() const { return source_; }
    TSNode root() const { return root_; }
    const SourceMap* map() const { return map_; }
    // The node's text as parsed; empty for a null node (a field the parser
    // could not fill, such as a malformed declarator).
    std::string_view text(TSNode node) const;
    // The node's text as the user wrote it where it maps, else as parsed.
    std::string spelled(TSNode node) const;

private:
    const std::string& source_;
    TSNode root_{};
    const SourceMap* map_ = nullptr;
};

// The identifier a declarator declares ("(*u)[N + 2]" -> u), or a null node.
TSNode declared_name(TSNode declarator);

// The type of `declarator` in declaration `decl` written as in a cast: the
// qualifiers and type specifier followed by the declarator with its name
// removed ("float", "*in" -> "float *"), as the user spelled them.
std::string abstract_type(const WrittenText& text, TSNode decl, TSNode declarator);

struct WrittenDeclaration {
    TSNode node{};        // the declaration or parameter_declaration
    TSNode declarator{};  // the declarator naming the variable (without its initializer)
    std::string type;     // e.g. "float *", "const int", "double (*)[N + 2]"
    bool file_scope = false;
};

// The declaration of `name` visible at byte `at`: the nearest one before it
// in `function` (the function_definition around `at`, parameters included;
// may be null), else the last of `file_declarations` (the file-scope
// declarations, in source order) before it.
bool find_declaration(const WrittenText& text, TSNode function, const std::vector<TSNode>& file_declarations,
                      const std::string& name, std::uint32_t at, WrittenDeclaration* out);

}  // namespace recipe::analyzer
