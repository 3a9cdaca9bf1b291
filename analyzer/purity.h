// purity.h — which calls have no side effects: C math functions, and
// functions defined in the same file that only compute a value from their
// arguments (no writes through pointers or to globals, no impure calls).
#pragma once

#include <string>

#include "analyzer/definitions.h"

namespace recipe::analyzer {

bool is_pure_math_function(const std::string& name);
bool is_pure_function(const FileDefinitions& defs, const std::string& name);

}  // namespace recipe::analyzer
