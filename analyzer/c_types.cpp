#include "analyzer/c_types.h"

#include <map>
#include <string_view>
#include <vector>

#include "analyzer/definitions.h"

namespace recipe::analyzer {

namespace {

const std::map<std::string, int>& scalar_sizes() {
    static const std::map<std::string, int> sizes = {
        {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"bool", 1}, {"_Bool", 1},
        {"int8_t", 1}, {"uint8_t", 1},
        {"short", 2}, {"short int", 2}, {"unsigned short", 2}, {"unsigned short int", 2},
        {"signed short", 2}, {"int16_t", 2}, {"uint16_t", 2}, {"_Float16", 2}, {"half", 2}, {"__half", 2},
        {"int", 4}, {"signed", 4}, {"signed int", 4}, {"unsigned", 4}, {"unsigned int", 4},
        {"int32_t", 4}, {"uint32_t", 4}, {"float", 4},
        {"long", 8}, {"long int", 8}, {"unsigned long", 8}, {"unsigned long int", 8}, {"signed long", 8},
        {"long long", 8}, {"long long int", 8}, {"unsigned long long", 8}, {"unsigned long long int", 8},
        {"int64_t", 8}, {"uint64_t", 8}, {"size_t", 8}, {"ssize_t", 8}, {"ptrdiff_t", 8},
        {"intptr_t", 8}, {"uintptr_t", 8}, {"double", 8},
        {"long double", 16},
    };
    return sizes;
}

bool is_qualifier(std::string_view w) {
    return w == "const" || w == "volatile" || w == "restrict" || w == "__restrict" || w == "__restrict__" ||
           w == "static" || w == "register" || w == "extern" || w == "inline" || w == "__inline" ||
           w == "_Atomic" || w == "auto";
}

}  // namespace

std::string strip_qualifiers(const std::string& type) {
    // Words separated by white space, as `istream >> word` splits them.
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
    std::string out;
    std::size_t i = 0;
    while (i < type.size()) {
        while (i < type.size() && space(type[i])) ++i;
        std::size_t b = i;
        while (i < type.size() && !space(type[i])) ++i;
        if (b == i) break;
        std::string_view w(type.data() + b, i - b);
        if (is_qualifier(w)) continue;
        if (!out.empty()) out += ' ';
        out += w;
    }
    return out;
}

std::optional<int> bytes_of_type(const std::string& type, const FileDefinitions* defs) {
    std::string t = strip_qualifiers(type);
    for (int guard = 0; guard < 16; ++guard) {
        if (t.find('*') != std::string::npos) return 8;
        auto it = scalar_sizes().find(t);
        if (it != scalar_sizes().end()) return it->second;
        if (!defs) return std::nullopt;
        auto next = defs->typedef_of(t);
        if (!next) return std::nullopt;
        t = strip_qualifiers(*next);
    }
    return std::nullopt;
}

bool is_floating_type_name(const std::string& t) {
    return t == "float" || t == "double" || t == "long double" || t == "_Float16" || t == "half" || t == "__half";
}

bool is_integer_type(const std::string& type, const FileDefinitions* defs) {
    std::string t = strip_qualifiers(type);
    for (int guard = 0; guard < 16; ++guard) {
        if (is_floating_type_name(t)) return false;
        if (t.find('*') != std::string::npos) return false;
        if (scalar_sizes().count(t)) return true;
        if (!defs) return false;
        auto next = defs->typedef_of(t);
        if (!next) return false;
        t = strip_qualifiers(*next);
    }
    return false;
}

}  // namespace recipe::analyzer
