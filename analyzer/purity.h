// purity.h — which calls have no side effects: C math functions, and
// functions defined in the same file that only compute a value from their
// arguments (no writes through pointers or to globals, no impure calls).
#pragma once

#include <string>

#include "analyzer/definitions.h"

namespace recipe::analyzer {

bool is_pure_math_function(const std::string& name);
// Of those, the ones gcc -O2 compiles on x86-64 to an instruction or two
// (a sign mask, an integer absolute value) rather than a C library call:
// fabs, copysign (float, double, long double) and abs, labs, llabs. The
// model prices them as arithmetic, not at hostMathCallNs (a libm call's
// 2.5-6 ns).
bool is_inlined_math_function(const std::string& name);
bool is_pure_function(const FileDefinitions& defs, const std::string& name);

}  // namespace recipe::analyzer
