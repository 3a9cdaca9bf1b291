// c_declarations.h — what a name was declared as, found in the parse tree:
// the kernel needs the C types of loop counters and scalars, and the C++
// fixes need the types that malloc's results are assigned to.
#pragma once

#include <cstdint>
#include <string>

#include "recipes/c_tree.h"

namespace recipe::recipes {

struct Declaration {
    TSNode node{};          // the declaration or parameter_declaration
    TSNode declarator{};    // the declarator naming the variable (without its initializer)
    std::string type;       // e.g. "float *", "const int", "double (*)[N + 2]"
    bool file_scope = false;
};

// The identifier a declarator declares ("(*u)[N + 2]" -> u), or a null node.
TSNode declared_name(TSNode declarator);

// The type of `declarator` in declaration `decl` written as in a cast:
// the qualifiers and type specifier followed by the declarator with its name
// removed ("float", "*in" -> "float *").
std::string abstract_type(const CTree& tree, TSNode decl, TSNode declarator);

// The declaration of `name` visible at byte `at`: the nearest one before it
// in the enclosing function (parameters included), else at file scope.
bool find_declaration(const CTree& tree, const std::string& name, std::uint32_t at, Declaration* out);

// The function_definition enclosing byte `at`, or a null node.
TSNode enclosing_function(const CTree& tree, std::uint32_t at);

}  // namespace recipe::recipes
