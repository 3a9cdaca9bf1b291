#include "analyzer/parenthesized_names.h"

#include <string_view>
#include <vector>

#include "analyzer/source_map.h"

namespace recipe::analyzer {

namespace {

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

bool is_identifier(std::string_view t) { return !t.empty() && ident_start(t[0]); }

// C's type keywords and the library's usual typedefs, whose declarations
// are in the system headers the analyzer does not read.
const std::set<std::string> kKnownTypes = {
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool", "bool", "_Complex",
    "const", "volatile", "restrict", "struct", "union", "enum", "FILE", "va_list", "__builtin_va_list", "wchar_t",
    "__int128", "_Float128", "_Float64", "_Float32"};

bool known_type(const std::string& name, const std::set<std::string>& types) {
    if (types.count(name) || kKnownTypes.count(name)) return true;
    return name.size() > 2 && name.compare(name.size() - 2, 2, "_t") == 0;  // size_t, int64_t, pthread_t, ...
}

}  // namespace

std::set<std::string> type_names(const std::string& text) {
    std::set<std::string> names;
    const auto tokens = c_tokens(text);
    auto tok = [&](std::size_t i) { return std::string_view(text).substr(tokens[i].first, tokens[i].second - tokens[i].first); };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tok(i) != "typedef") continue;
        // The declared name: the last identifier before the `;` at depth 0
        // that is not inside parentheses of a parameter list, or the one
        // after `(*` in a function pointer typedef.
        int depth = 0;
        std::string last;
        for (std::size_t j = i + 1; j < tokens.size(); ++j) {
            const std::string_view t = tok(j);
            if (t == "{" || t == "(" || t == "[") {
                if (t == "(" && j + 2 < tokens.size() && tok(j + 1) == "*" && is_identifier(tok(j + 2)) && depth == 0)
                    last = std::string(tok(j + 2));
                ++depth;
            } else if (t == "}" || t == ")" || t == "]") {
                --depth;
            } else if (depth == 0 && (t == ";" || t == ",")) {
                if (!last.empty()) names.insert(last);
                if (t == ";") break;
            } else if (depth == 0 && is_identifier(t)) {
                last = std::string(t);
            }
        }
    }
    return names;
}

int blank_name_parentheses(std::string* text, const std::set<std::string>& types) {
    const auto tokens = c_tokens(*text);
    auto tok = [&](std::size_t i) { return std::string_view(*text).substr(tokens[i].first, tokens[i].second - tokens[i].first); };
    int blanked = 0;
    for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
        if (tok(i) != "(" || tok(i + 2) != ")" || !is_identifier(tok(i + 1))) continue;
        const std::string name(tok(i + 1));
        if (known_type(name, types)) continue;
        if (i > 0) {
            // After a name, `)` or `]` the parentheses are a call's, a
            // keyword's (`if (x)`, `sizeof (x)`) or a declarator's.
            const std::string_view prev = tok(i - 1);
            if (is_identifier(prev) || prev == ")" || prev == "]") continue;
        }
        // `(x)(...)` calls through a parenthesized name: leave it alone.
        if (i + 3 < tokens.size() && tok(i + 3) == "(") continue;
        (*text)[tokens[i].first] = ' ';
        (*text)[tokens[i + 2].first] = ' ';
        ++blanked;
        i += 2;
    }
    return blanked;
}

}  // namespace recipe::analyzer
