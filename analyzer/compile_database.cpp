#include "analyzer/compile_database.h"

#include <filesystem>

#include <nlohmann/json.hpp>

namespace recipe::analyzer {

namespace fs = std::filesystem;

std::vector<std::string> split_command(std::string_view command) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (quote) {
            if (c == quote) quote = 0;
            else if (c == '\\' && quote == '"' && i + 1 < command.size() && (command[i + 1] == '"' || command[i + 1] == '\\')) word += command[++i];
            else word += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == '\\' && i + 1 < command.size()) {
            word += command[++i];
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (in_word) words.push_back(word);
    return words;
}

namespace {

std::string normal(const fs::path& p) {
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    return (ec ? p : abs).lexically_normal().string();
}

// The instruction set (-march=, -mavx2, ...), floating-point and
// vectoriser flags of a compiler command.
bool vectorization_flag(const std::string& a) {
    for (const char* prefix : {"-march=", "-mtune=", "-mcpu=", "-mavx", "-msse", "-mfma", "-mno-avx", "-mno-sse",
                               "-mprefer-vector-width=", "-ffp-contract=", "-fvect-cost-model=", "-fsimd-cost-model="})
        if (a.rfind(prefix, 0) == 0) return true;
    for (const char* flag : {"-ffast-math", "-fno-fast-math", "-funsafe-math-optimizations", "-fno-math-errno",
                             "-ftree-vectorize", "-fno-tree-vectorize", "-ftree-loop-vectorize", "-fno-tree-loop-vectorize",
                             "-fopenmp", "-fopenmp-simd", "-funroll-loops", "-fno-strict-aliasing"})
        if (a == flag) return true;
    return false;
}

// The preprocessor's flags of a compiler command, paths made absolute.
std::vector<std::string> preprocessor_flags(const std::vector<std::string>& args, const fs::path& directory) {
    std::vector<std::string> out;
    auto path_arg = [&](const std::string& v) { return fs::path(v).is_absolute() ? v : (directory / v).lexically_normal().string(); };
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        for (const char* opt : {"-I", "-isystem", "-iquote", "-include", "-D", "-U"}) {
            const std::string o = opt;
            const bool takes_path = o != "-D" && o != "-U";
            if (a == o && i + 1 < args.size()) {
                out.push_back(o);
                out.push_back(takes_path ? path_arg(args[++i]) : args[++i]);
                goto next;
            }
            if (a.size() > o.size() && a.compare(0, o.size(), o) == 0 && (o == "-I" || o == "-D" || o == "-U")) {
                out.push_back(o + (takes_path ? path_arg(a.substr(o.size())) : a.substr(o.size())));
                goto next;
            }
        }
        // -std= and -O (which defines __OPTIMIZE__) change what the
        // preprocessor makes of the file; -O is also the .cu's host level.
        // The code-generation flags that decide what the compiler vectorises
        // (analyzer/vectorization.h) and which predefine macros (__AVX2__,
        // __FAST_MATH__, _OPENMP) go with them.
        if (a.compare(0, 5, "-std=") == 0 || a.compare(0, 2, "-O") == 0 || vectorization_flag(a)) out.push_back(a);
    next:;
    }
    return out;
}

}  // namespace

bool find_compile_entry(std::string_view database_json, const std::string& database_path, const std::string& file,
                        CompileEntry* entry, std::string* error) {
    nlohmann::json db = nlohmann::json::parse(database_json, nullptr, false);
    if (db.is_discarded() || !db.is_array()) {
        *error = database_path + ": error: not a compilation database (expected a JSON array of entries)";
        return false;
    }
    const std::string wanted = normal(file);
    for (const auto& e : db) {
        if (!e.is_object() || !e.contains("file") || !e["file"].is_string() || !e.contains("directory") || !e["directory"].is_string())
            continue;
        const fs::path directory = e["directory"].get<std::string>();
        const fs::path f = e["file"].get<std::string>();
        if (normal(f.is_absolute() ? f : directory / f) != wanted) continue;
        std::vector<std::string> args;
        if (e.contains("arguments") && e["arguments"].is_array()) {
            for (const auto& a : e["arguments"])
                if (a.is_string()) args.push_back(a.get<std::string>());
        } else if (e.contains("command") && e["command"].is_string()) {
            args = split_command(e["command"].get<std::string>());
        }
        if (args.empty()) continue;
        entry->directory = directory.string();
        entry->compiler = args.front();
        entry->flags = preprocessor_flags(args, directory);
        return true;
    }
    *error = database_path + ": error: no entry for " + file + " (its \"file\" fields are resolved against their \"directory\")";
    return false;
}

}  // namespace recipe::analyzer
