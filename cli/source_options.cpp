#include "cli/source_options.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "analyzer/compile_database.h"

namespace recipe::cli {

namespace {

// The table: each option, whether its value may be glued to it (-DN=4,
// -Idir), and what it is for.
struct SourceOption {
    const char* name;
    bool glued;      // -DNAME / -Idir also accepted
    bool takes_value;
    const char* value_name;
    const char* help;
};
const SourceOption kSourceOptions[] = {
    {"-I", true, true, "DIR", "add DIR to the preprocessor's include path (as the compiler's -I)"},
    {"-D", true, true, "NAME[=VALUE]", "define a macro for the preprocessor (as the compiler's -D)"},
    {"-U", true, true, "NAME", "undefine a macro (as the compiler's -U)"},
    {"-include", false, true, "FILE", "include FILE first (as the compiler's -include)"},
    {"-isystem", false, true, "DIR", "add a system include directory"},
    {"-iquote", false, true, "DIR", "add a directory for \"quoted\" includes"},
    {"-std=", true, false, "STD", "the C standard the file is written in (-std=c99)"},
    {"-O", true, false, "LEVEL", "the optimisation level of your C build (-O2, -O3): the .cu's host code is built at it (default -O2)"},
    {"-p", true, true, "DIR", "read the file's flags from DIR/compile_commands.json"},
    {"--cc", false, true, "CC", "the C compiler whose preprocessor reads the file (default: cc)"},
    {"--assume", false, true, "NAME=VALUE", "plan for a size held in a variable: NAME has VALUE (repeatable)"},
    {"--assume-no-alias", false, false, "", "treat pointer parameters as never overlapping, as if declared restrict"},
    {"--", false, false, "", "what follows goes to the preprocessor as it is"},
};

bool identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

// A variable (`n`) or a struct field reached from one (`g->nx`, `grid.ny`).
bool variable_path(const std::string& s) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        const bool arrow = s.compare(i, 2, "->") == 0, dot = i < s.size() && s[i] == '.';
        if (i < s.size() && !arrow && !dot) continue;
        if (!identifier(s.substr(start, i - start))) return false;
        if (arrow) ++i;
        start = i + 1;
    }
    return true;
}

bool parse_assumption(const std::string& text, std::pair<std::string, std::string>* out, std::string* error) {
    const auto eq = text.find('=');
    const std::string name = text.substr(0, eq);
    if (eq == std::string::npos || !variable_path(name)) {
        *error = "--assume " + text + ": expected NAME=INTEGER (a variable or a struct field such as g->nx, and the value to plan for)";
        return false;
    }
    const std::string value = text.substr(eq + 1);
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(value.c_str(), &end, 0);
    if (value.empty() || *end != '\0' || errno == ERANGE || v < 0) {
        *error = "--assume " + text + ": the value must be a non-negative integer of at most " + std::to_string(LLONG_MAX);
        return false;
    }
    *out = {name, value};
    return true;
}


}  // namespace

bool take_source_options(std::vector<std::string>* args, SourceOptions* out, std::string* error) {
    std::vector<std::string> rest;
    if (!args->empty()) rest.push_back(args->front());
    for (std::size_t i = 1; i < args->size(); ++i) {
        const std::string& a = (*args)[i];
        if (a == "--") {
            out->build.args.insert(out->build.args.end(), args->begin() + static_cast<std::ptrdiff_t>(i) + 1, args->end());
            break;
        }
        const SourceOption* option = nullptr;
        std::string value;
        bool has_value = false;
        for (const auto& o : kSourceOptions) {
            const std::string name = o.name;
            if (name == "--") continue;
            if (a == name) {
                option = &o;
                break;
            }
            if (o.glued && a.size() > name.size() && a.compare(0, name.size(), name) == 0 && (name != "-I" || a != "-include") &&
                !(name == "-I" && (a.rfind("-isystem", 0) == 0 || a.rfind("-iquote", 0) == 0 || a.rfind("-include", 0) == 0))) {
                option = &o;
                value = a.substr(name.size());
                has_value = true;
                break;
            }
            if (name.rfind("--", 0) == 0 && o.takes_value && a.rfind(name + "=", 0) == 0) {
                option = &o;
                value = a.substr(name.size() + 1);
                has_value = true;
                break;
            }
        }
        if (!option) {
            rest.push_back(a);
            continue;
        }
        const std::string name = option->name;
        if (option->takes_value && !has_value) {
            if (i + 1 >= args->size()) {
                *error = name + " needs a value (" + option->value_name + ")";
                return false;
            }
            value = (*args)[++i];
        }
        if (name == "-std=") {
            out->build.args.push_back(a);
        } else if (name == "-O") {
            if (value != "" && value != "0" && value != "1" && value != "2" && value != "3" && value != "s" &&
                value != "fast" && value != "g") {
                *error = a + ": not an optimisation level (-O0, -O1, -O2, -O3, -Os, -Ofast, -Og)";
                return false;
            }
            out->build.args.push_back(a);
        } else if (name == "-D" || name == "-U") {
            const std::string macro = value.substr(0, value.find('='));
            if (!identifier(macro)) {
                *error = name + " " + value + ": '" + macro + "' is not a macro name";
                return false;
            }
            out->build.args.push_back(name + value);
        } else if (name == "-I" || name == "-include" || name == "-isystem" || name == "-iquote") {
            if (value.empty()) {
                *error = name + " needs a value (" + option->value_name + ")";
                return false;
            }
            out->build.args.push_back(name);
            out->build.args.push_back(value);
        } else if (name == "-p") {
            out->compile_commands = value;
        } else if (name == "--cc") {
            if (value.empty()) {
                *error = "--cc needs a compiler";
                return false;
            }
            out->build.cc = value;
            out->cc_given = true;
        } else if (name == "--assume") {
            std::pair<std::string, std::string> a2;
            if (!parse_assumption(value, &a2, error)) return false;
            out->assumptions.push_back(a2);
        } else if (name == "--assume-no-alias") {
            out->assume_no_alias = true;
        }
    }
    *args = rest;
    return true;
}

bool CommandLine::split(int argc, char** argv, std::string* error) {
    words_.assign(argv, argv + argc);
    if (!take_source_options(&words_, &source, error)) return false;
    pointers_.clear();
    for (auto& w : words_) pointers_.push_back(w.data());
    pointers_.push_back(nullptr);
    return true;
}

bool apply_compile_database(const std::string& file, SourceOptions* options, std::string* error) {
    if (options->compile_commands.empty()) return true;
    const std::string path = options->compile_commands + "/compile_commands.json";
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = path + ": cannot read it (-p names the directory that holds compile_commands.json)";
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    analyzer::CompileEntry entry;
    if (!analyzer::find_compile_entry(text.str(), path, file, &entry, error)) return false;
    std::vector<std::string> flags = entry.flags;
    flags.insert(flags.end(), options->build.args.begin(), options->build.args.end());
    options->build.args = flags;
    if (!options->cc_given && !entry.compiler.empty()) {
        // nvcc, c++ and the like are not the preprocessor of a C file.
        const std::string base = entry.compiler.substr(entry.compiler.rfind('/') == std::string::npos ? 0 : entry.compiler.rfind('/') + 1);
        if (base.find("gcc") != std::string::npos || base.find("clang") != std::string::npos || base == "cc" || base.find("icx") != std::string::npos)
            options->build.cc = entry.compiler;
    }
    return true;
}

std::string source_options_help() {
    std::string s = "\nThe file's build (as its compiler sees it):\n";
    for (const auto& o : kSourceOptions) {
        std::string left = std::string("  ") + o.name;
        if (o.takes_value) left += (left.back() == '=' ? "" : " ") + std::string(o.value_name);
        else if (o.glued) left += o.value_name;  // -std=STD, -OLEVEL
        if (left.size() < 24) left += std::string(24 - left.size(), ' ');
        else left += "  ";
        s += left + o.help + "\n";
    }
    return s;
}


}  // namespace recipe::cli
