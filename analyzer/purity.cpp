#include "analyzer/purity.h"

#include <set>

#include "analyzer/affine.h"
#include "analyzer/declarations.h"

namespace recipe::analyzer {

namespace {

bool pure(const FileDefinitions& defs, const std::string& name, int depth) {
    if (is_pure_math_function(name) || is_min_max_name(name)) return true;
    const FunctionInfo* f = defs.function(name);
    if (!f || depth > 8) return false;
    if (auto known = defs.known_purity(name)) return *known;
    defs.remember_purity(name, false);  // recursion is not pure enough to follow
    const std::string& src = defs.source();
    std::set<std::string> locals(f->param_names.begin(), f->param_names.end());
    // A parameter that is a pointer may be written through: treat writes
    // through subscripts or `*` as impure whatever they point to.
    bool ok = true;
    walk(f->body, [&](TSNode n) {
        if (!ok) return false;
        if (IS(n, "declaration")) {
            for (const auto& v : declarations_in(n, src)) locals.insert(v.name);
        } else if (IS(n, "assignment_expression") || IS(n, "update_expression")) {
            TSNode target = strip_parens(field(n, IS(n, "assignment_expression") ? "left" : "argument"));
            if (!IS(target, "identifier") || !locals.count(std::string(text(target, src)))) ok = false;
        } else if (IS(n, "call_expression")) {
            std::string callee(text(field(n, "function"), src));
            if (callee == name || !pure(defs, callee, depth + 1)) ok = false;
        }
        return ok;
    });
    defs.remember_purity(name, ok);
    return ok;
}

}  // namespace

bool is_pure_math_function(const std::string& name) {
    static const std::set<std::string> base = {
        "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
        "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "pow", "hypot", "fabs",
        "fmin", "fmax", "fma", "fdim", "floor", "ceil", "round", "trunc", "rint", "nearbyint", "lround", "llround",
        "lrint", "fmod", "remainder", "copysign", "erf", "erfc", "tgamma", "lgamma", "ldexp", "logb", "ilogb"};
    static const std::set<std::string> integer = {"abs", "labs", "llabs"};
    if (integer.count(name) || base.count(name)) return true;
    if (name.size() > 1 && (name.back() == 'f' || name.back() == 'l'))
        return base.count(name.substr(0, name.size() - 1)) != 0;
    return false;
}

bool is_inlined_math_function(const std::string& name) {
    static const std::set<std::string> inlined = {"fabs", "fabsf", "fabsl", "copysign", "copysignf", "copysignl",
                                                  "abs", "labs", "llabs"};
    return inlined.count(name) != 0;
}

bool is_pure_function(const FileDefinitions& defs, const std::string& name) { return pure(defs, name, 0); }

}  // namespace recipe::analyzer
