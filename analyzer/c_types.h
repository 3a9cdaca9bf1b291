// c_types.h — sizes of C scalar types (LP64, as on the x86-64 and aarch64
// hosts GPUs sit in), following typedefs defined in the file.
#pragma once

#include <optional>
#include <string>

namespace recipe::analyzer {

class FileDefinitions;

// "const float" -> "float"; "unsigned  int" -> "unsigned int".
std::string strip_qualifiers(const std::string& type);

// Bytes of a scalar type, e.g. 4 for "float", 8 for "double" or any pointer;
// nullopt for what is not known (structs, unknown typedefs).
std::optional<int> bytes_of_type(const std::string& type, const FileDefinitions* defs);

// True for the floating types' names ("float", "double", "long double",
// the half types), qualifiers already stripped; typedefs not followed.
bool is_floating_type_name(const std::string& stripped_type);

// True for integer types (what an index temporary is declared as).
bool is_integer_type(const std::string& type, const FileDefinitions* defs);

}  // namespace recipe::analyzer
