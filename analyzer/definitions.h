// definitions.h — what a C file defines that the analysis looks up by name:
// object-like and function-like macros, enumerators, typedefs, const
// variables, functions (with small `static inline` index helpers) and the
// command line's -D overrides. Built once per file with tree-sitter queries.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

struct Macro {
    std::string name;
    bool function_like = false;
    std::vector<std::string> params;
    std::string body;  // cleaned: comments and line continuations removed
};

// `enum { A = 4, B };`: B has no value node and follows A.
struct Enumerator {
    TSNode value{};        // null when implicit
    std::string previous;  // the enumerator before it in its list, if any
};

struct ConstVariable {
    std::string name;
    std::string type;  // as declared, qualifiers included: "const int"
    TSNode value{};    // initializer in the file's tree
    std::uint32_t scope_begin = 0, scope_end = 0;  // byte range where visible
};

struct FunctionInfo {
    std::string name;
    TSNode node{};    // function_definition
    TSNode body{};    // compound_statement
    std::vector<TSNode> params;  // parameter_declaration nodes
    std::vector<std::string> param_names;
    // A small helper whose body is one `return expr;` (idx2(x, y, size)).
    TSNode single_return{};
    // Found in the same pass: every declaration in the body, and every
    // assignment to a plain name (`x = ...`, `x += ...`, `x++`, `&x`).
    std::vector<TSNode> declarations;
    std::vector<TSNode> assignments;
};

class FileDefinitions {
public:
    FileDefinitions(const SyntaxTree& tree, const std::vector<std::pair<std::string, std::string>>& defines);

    const SyntaxTree& tree() const { return tree_; }
    const std::string& source() const { return tree_.source(); }

    const Macro* macro(const std::string& name) const;
    // The body of a macro (or a -D value) parsed as one C expression; a null
    // node when it is not an expression.
    Expr macro_expression(const std::string& name) const;
    // A -D override replaces the file's #define of the same name.
    bool overridden(const std::string& name) const { return overrides_.count(name) != 0; }

    const Enumerator* enumerator(const std::string& name) const;
    // The type a typedef name stands for ("float" for `typedef float real;`).
    std::optional<std::string> typedef_of(const std::string& name) const;
    // The innermost const variable named `name` visible at byte `at`.
    const ConstVariable* const_variable(const std::string& name, std::uint32_t at) const;
    const FunctionInfo* function(const std::string& name) const;
    const std::vector<FunctionInfo>& functions() const { return functions_; }
    // The function whose definition contains byte `at`, if any.
    const FunctionInfo* function_at(std::uint32_t at) const;
    // Every call to `name` in the file (call_expression nodes).
    const std::vector<TSNode>& calls_to(const std::string& name) const;
    // Declarations outside every function, in order.
    const std::vector<TSNode>& global_declarations() const { return globals_; }
    // Loops that are not inside another loop, in source order.
    const std::vector<TSNode>& outermost_loops() const { return loops_; }
    // Whether a function of the file only computes a value (purity.h);
    // remembered once asked.
    std::optional<bool> known_purity(const std::string& name) const;
    void remember_purity(const std::string& name, bool pure) const;

private:
    const SyntaxTree& tree_;
    // Looked up by name for most identifiers the analysis meets: hashed.
    std::unordered_map<std::string, Macro> macros_;
    std::unordered_map<std::string, std::string> overrides_;
    std::unordered_map<std::string, Enumerator> enumerators_;
    std::unordered_map<std::string, std::string> typedefs_;
    std::multimap<std::string, ConstVariable> consts_;
    std::vector<FunctionInfo> functions_;  // in source order
    std::unordered_map<std::string, std::size_t> function_index_;
    std::unordered_map<std::string, std::vector<TSNode>> calls_;
    std::vector<TSNode> globals_;
    std::vector<TSNode> loops_;
    mutable std::map<std::string, bool> purity_;
    // Macro bodies (and -D values) parsed when first asked for; the trees
    // stay alive with their nodes.
    struct ParsedMacro {
        std::unique_ptr<SyntaxTree> tree;
        Expr value;  // null node when the body is not one expression
    };
    mutable std::unordered_map<std::string, ParsedMacro> parsed_;

    // One pass over the tree collects everything above (queries would take
    // one pass each, and the tree of a large file is the analysis's cost).
    void collect(std::vector<TSNode>& calls);
    void add_macro(TSNode def);
    void add_enumerators(TSNode list);
    void add_typedef(TSNode def);
    bool add_function(TSNode def);
    void add_consts(TSNode decl, TSNode function);
};

// Extracts the declared name from a declarator (`*a`, `a[N]`, `(*a)[M]`,
// `f(int x)`, `x = 3`); empty when there is none.
std::string declarator_name(TSNode declarator, const std::string& source);

// Whether the text of an expression (or a declarator) can hold what the
// definitions pass records: a call, an assignment, an address `&`, an
// increment or a block. It may answer yes wrongly (`a & b`), never no.
bool may_hold_definitions(std::string_view expression_text);

}  // namespace recipe::analyzer
