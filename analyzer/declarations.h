// declarations.h — the variables a function can see (its parameters, its
// locals, the file's globals) with what the analysis needs from their
// declarators: scalar type, pointer and array levels, restrict, initializer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/definitions.h"

namespace recipe::analyzer {

// One level of a declarator, read from the name outward: `double (*u)[N+2]`
// is {Pointer, Array(N+2)}; `float a[H][W]` is {Array(H), Array(W)};
// `float **p` is {Pointer, Pointer}.
struct DeclLevel {
    enum class Kind { Pointer, Array } kind = Kind::Pointer;
    TSNode size{};  // Array: the size expression (null for `[]`)
};

struct VarDecl {
    std::string name;
    std::string type;       // specifier with qualifiers, e.g. "const float"
    std::vector<DeclLevel> levels;
    bool restrict_qualified = false;
    bool is_param = false;
    bool is_global = false;
    TSNode declaration{};   // the declaration / parameter_declaration
    TSNode declarator{};    // the declarator naming this variable
    TSNode value{};         // initializer, if any
    std::uint32_t at = 0;   // byte where the declaration starts

    bool is_pointer_or_array() const { return !levels.empty(); }
    // The type a declaration line would give a scalar variable: for a
    // scalar, `type`; for arrays and pointers, `type` plus the stars.
    std::string full_type() const;
};

// The file's globals by name (the first declaration of a name wins).
using GlobalTable = std::map<std::string, VarDecl>;

// Every declaration in one function plus the file's globals. A function's
// declarations are read only when a name they spell is asked for: the
// analysis asks about a handful of names per function, and reading every
// declaration of every function of a large file would cost more than the
// rest of its analysis.
class Scope {
public:
    // `declarations`: every declaration node in the function's body.
    Scope(const FileDefinitions& defs, const FunctionInfo* function, const GlobalTable* globals, std::vector<TSNode> declarations);

    // The declaration of `name` that is in effect at byte `at` (the nearest
    // earlier local, else the parameter, else the global); null if none.
    const VarDecl* find(const std::string& name, std::uint32_t at) const;
    const FunctionInfo* function() const { return function_; }
    // Every local declaration named `name` in the function.
    std::vector<const VarDecl*> locals(const std::string& name) const;

private:
    const std::string& source_;
    const FunctionInfo* function_;
    const GlobalTable* globals_;
    std::vector<TSNode> declarations_;
    // What was read for a name: its locals in source order, its parameter.
    struct Named {
        std::vector<VarDecl> locals;
        std::vector<VarDecl> params;
    };
    mutable std::unordered_map<std::string, Named> named_;
    const Named& named(const std::string& name) const;
};

// Declarations in `declaration` (or `parameter_declaration`) node `decl`.
std::vector<VarDecl> declarations_in(TSNode decl, const std::string& source);

// The file's global variables (declarations outside every function).
GlobalTable global_declarations(const FileDefinitions& defs);

}  // namespace recipe::analyzer
