// c_declarations.h — what a name was declared as, found in the parse tree:
// the kernel needs the C types of scalars, and the C++ fixes need the types
// that malloc's results are assigned to.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "recipes/c_tree.h"

namespace recipe::recipes {

// What a name was declared as, read by the analyzer's code (written_text.h).
using Declaration = analyzer::WrittenDeclaration;
using analyzer::abstract_type;
using analyzer::declared_name;

// A parameter declared as a variable-length array (`float A[ni][nj]`,
// `double B[restrict n][m]`): C99 has them, C++ does not. The .cu passes it
// as a pointer to its first element (`float *A`), which is possible only when
// the function uses it nowhere but in loops the library call replaced.
struct VlaParameter {
    std::string name;
    TSNode declarator{};       // the array_declarator
    std::string element_type;  // "float"
    bool restrict_qualified = false;
    std::size_t index = 0;     // its position among the function's parameters
    std::string function;      // the function's name
};
// The parameter `name` of the function around `at`, when it is one.
bool vla_parameter(const CTree& tree, const std::string& name, std::uint32_t at, VlaParameter* out);
// Every such parameter of every function of the file.
std::vector<VlaParameter> vla_parameters(const CTree& tree);

// The declared type of a struct field reached from a variable (`in->u`,
// `g.nx`, one level): the variable's declaration at `at`, its type's struct
// (a typedef of it, or `struct tag`), the field's declaration there. "" when
// the file does not tell.
std::string field_type(const CTree& tree, const std::string& path, std::uint32_t at);

// The declaration of `name` visible at byte `at`: the nearest one before it
// in the enclosing function (parameters included), else at file scope.
bool find_declaration(const CTree& tree, const std::string& name, std::uint32_t at, Declaration* out);

// The function_definition enclosing byte `at`, or a null node.
TSNode enclosing_function(const CTree& tree, std::uint32_t at);

}  // namespace recipe::recipes
