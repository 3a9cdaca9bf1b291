#include "analyzer/conversions.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "analyzer/c_types.h"
#include "analyzer/definitions.h"
#include "analyzer/purity.h"

namespace recipe::analyzer {

namespace {

constexpr int kMaxDepth = 64;

// The C math library's integer-valued functions (abs, lround, ilogb, ...).
bool integer_valued(const std::string& f) {
    for (const char* p : {"abs", "labs", "llabs", "lround", "llround", "lrint", "llrint", "ilogb"})
        if (f.rfind(p, 0) == 0) return true;
    return false;
}

ValueKind literal_kind(std::string_view s) {
    const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    for (char ch : s) {
        if (ch == '.' || (hex && (ch == 'p' || ch == 'P')) || (!hex && (ch == 'e' || ch == 'E')))
            return ValueKind::Floating;
    }
    std::size_t end = s.size();
    int longs = 0;
    while (end > 0 && std::strchr("uUlL", s[end - 1])) {
        if (s[end - 1] == 'l' || s[end - 1] == 'L') ++longs;
        --end;
    }
    if (longs > 0) return ValueKind::Int64;
    const std::string digits(s.substr(0, end));
    errno = 0;
    const unsigned long long v = std::strtoull(digits.c_str(), nullptr, 0);
    // An unsuffixed constant too large for int is a long (decimal) or, in
    // hex, an unsigned int up to UINT_MAX.
    if (errno == ERANGE || v > (hex ? static_cast<unsigned long long>(UINT_MAX) : static_cast<unsigned long long>(INT_MAX)))
        return ValueKind::Int64;
    return ValueKind::Int32;
}

ValueKind join(ValueKind a, ValueKind b) {
    if (a == ValueKind::Floating || b == ValueKind::Floating) return ValueKind::Floating;
    if (a == ValueKind::Unknown || b == ValueKind::Unknown) {
        // An integer with an unknown operand: the known one's width at least.
        return a == ValueKind::Unknown ? b : a;
    }
    return (a == ValueKind::Int64 || b == ValueKind::Int64) ? ValueKind::Int64 : ValueKind::Int32;
}

bool arithmetic(std::string_view op) {
    if (op.size() > 1 && op.back() == '=') op.remove_suffix(1);  // compound assignment
    return op == "+" || op == "-" || op == "*" || op == "/";
}

// The name an access reads: `a` of a[i][j] or *(a + i).
std::string accessed_name(TSNode n, const std::string& src) {
    for (int guard = 0; guard < kMaxDepth && !is_null(n); ++guard) {
        n = strip_parens(n);
        if (IS(n, "identifier")) return std::string(text(n, src));
        if (IS(n, "subscript_expression") || IS(n, "pointer_expression")) {
            n = field(n, "argument");
        } else if (IS(n, "binary_expression")) {
            n = field(n, "left");  // *(a + i)
        } else {
            return "";
        }
    }
    return "";
}

// The kind of the value of expression `n` (usual arithmetic conversions,
// LP64; literals by their suffix and size).
ValueKind kind_at(TSNode n, const std::string& src, const NameTypes& names, int depth) {
    if (is_null(n) || depth > kMaxDepth) return ValueKind::Unknown;
    n = strip_parens(n);
    if (IS(n, "number_literal")) return literal_kind(text(n, src));
    if (IS(n, "char_literal")) return ValueKind::Int32;
    if (IS(n, "sizeof_expression")) return ValueKind::Int64;
    if (IS(n, "identifier")) {
        const auto t = names.declared ? names.declared(std::string(text(n, src)), false) : std::nullopt;
        return t ? kind_of_type(*t, names.defs) : ValueKind::Unknown;
    }
    if (IS(n, "subscript_expression") || (IS(n, "pointer_expression") && text(field(n, "operator"), src) == "*")) {
        const std::string a = accessed_name(n, src);
        const auto t = names.declared && !a.empty() ? names.declared(a, true) : std::nullopt;
        return t ? kind_of_type(*t, names.defs) : ValueKind::Unknown;
    }
    if (IS(n, "cast_expression")) return kind_of_type(std::string(text(field(n, "type"), src)), names.defs);
    if (IS(n, "binary_expression")) {
        const std::string_view op = text(field(n, "operator"), src);
        if (op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" || op == "!=" || op == "&&" || op == "||")
            return ValueKind::Int32;
        const ValueKind l = kind_at(field(n, "left"), src, names, depth + 1);
        if (op == "<<" || op == ">>") return l;
        return join(l, kind_at(field(n, "right"), src, names, depth + 1));
    }
    if (IS(n, "unary_expression")) {
        if (text(field(n, "operator"), src) == "!") return ValueKind::Int32;
        return kind_at(field(n, "argument"), src, names, depth + 1);
    }
    if (IS(n, "conditional_expression"))
        return join(kind_at(field(n, "consequence"), src, names, depth + 1),
                    kind_at(field(n, "alternative"), src, names, depth + 1));
    if (IS(n, "call_expression")) {
        // A C math library call is floating, but for the integer-valued ones.
        const std::string f(text(field(n, "function"), src));
        if (is_pure_math_function(f) && !integer_valued(f)) return ValueKind::Floating;
    }
    return ValueKind::Unknown;
}

// True when `n` names a loop variable, a body local or an array element:
// its value changes between iterations, so converting it cannot be hoisted.
bool varies(TSNode n, const std::string& src, const NameTypes& names) {
    bool found = false;
    walk(n, [&](TSNode k) {
        if (found) return false;
        if (IS(k, "subscript_expression") || (IS(k, "pointer_expression") && text(field(k, "operator"), src) == "*"))
            found = true;
        else if (IS(k, "identifier") && names.varies && names.varies(std::string(text(k, src))))
            found = true;
        return !found;
    });
    return found;
}

bool wide_varying(TSNode n, const std::string& src, const NameTypes& names) {
    return kind_at(n, src, names, 0) == ValueKind::Int64 && varies(n, src, names);
}

}  // namespace

ValueKind kind_of_type(const std::string& type, const FileDefinitions* defs) {
    std::string t = strip_qualifiers(type);
    for (int guard = 0; guard < 16; ++guard) {
        if (t.find('*') != std::string::npos || t.find('[') != std::string::npos) return ValueKind::Unknown;
        if (is_floating_type_name(t)) return ValueKind::Floating;
        if (is_integer_type(t, defs)) {
            const auto bytes = bytes_of_type(t, defs);
            return bytes && *bytes == 8 ? ValueKind::Int64 : ValueKind::Int32;
        }
        if (!defs) return ValueKind::Unknown;
        if (auto next = defs->typedef_of(t)) {
            t = strip_qualifiers(*next);
            continue;
        }
        // `#define DATA_TYPE double`
        const Macro* m = defs->macro(t);
        if (!m || m->function_like) return ValueKind::Unknown;
        t = strip_qualifiers(m->body);
    }
    return ValueKind::Unknown;
}

int cast_conversions(const std::string& type, TSNode value, const std::string& src, const NameTypes& names) {
    return kind_of_type(type, names.defs) == ValueKind::Floating && wide_varying(value, src, names) ? 1 : 0;
}

int conversions_at(TSNode n, const std::string& src, const NameTypes& names) {
    if (is_null(n)) return 0;
    if (IS(n, "cast_expression")) return cast_conversions(std::string(text(field(n, "type"), src)), field(n, "value"), src, names);
    if (IS(n, "binary_expression") || IS(n, "assignment_expression")) {
        const std::string_view op = text(field(n, "operator"), src);
        const bool assign = IS(n, "assignment_expression");
        if (!(assign ? (op == "=" || arithmetic(op)) : arithmetic(op))) return 0;
        const TSNode l = field(n, "left"), r = field(n, "right");
        const ValueKind lk = kind_at(l, src, names, 0), rk = kind_at(r, src, names, 0);
        if (lk == ValueKind::Floating && wide_varying(r, src, names)) return 1;
        // An assignment converts its right side only (the target is written).
        if (!assign && rk == ValueKind::Floating && wide_varying(l, src, names)) return 1;
    }
    return 0;
}

}  // namespace recipe::analyzer
