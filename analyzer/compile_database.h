// compile_database.h — a file's own flags from a compile_commands.json (the
// JSON compilation database of CMake, Bear and Meson, as clang-tidy and
// clangd read it with -p): the entry whose "file" is the input, and of its
// command the flags that reach the preprocessor, with relative include
// paths made absolute against the entry's "directory".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace recipe::analyzer {

struct CompileEntry {
    std::string directory;
    std::vector<std::string> flags;  // -I -D -U -include -isystem -iquote -std, in order
    std::string compiler;            // the command's first word
};

// Finds `file` (a path as the user gave it, resolved against the current
// directory) in the database text. False with a one-line error when the
// text is not a compilation database or holds no entry for the file.
bool find_compile_entry(std::string_view database_json, const std::string& database_path, const std::string& file,
                        CompileEntry* entry, std::string* error);

// Splits a "command" string as a POSIX shell would (quotes and backslashes).
std::vector<std::string> split_command(std::string_view command);

}  // namespace recipe::analyzer
