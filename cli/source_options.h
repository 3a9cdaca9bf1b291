// source_options.h — the options of every command that reads a C file, in
// one table: the compiler's own flags (-I, -D, -U, -include, -isystem,
// -iquote, -std=), -p DIR for a compile_commands.json, --cc, `--` (the rest
// goes to the preprocessor), --assume NAME=VALUE for sizes held in
// variables and --assume-no-alias. They are taken out of the arguments
// before a command parses its own, since a compiler's flags are spelled in
// ways a command-line parser does not accept (-std=c99, -DN=4, -Idir).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzer/preprocessor.h"

namespace recipe::cli {

struct SourceOptions {
    analyzer::BuildFlags build;       // what the preprocessor is run with
    std::string compile_commands;     // -p DIR
    bool cc_given = false;
    std::vector<std::pair<std::string, std::string>> assumptions;  // --assume
    bool assume_no_alias = false;
};

// Removes the options above from `args` (args[0], the command, stays) and
// fills `out`. False with a one-line error (no "recipe: error: " prefix) on
// a bad value: a -D whose name is not an identifier, an --assume that is
// not NAME=INTEGER, a flag without its value.
bool take_source_options(std::vector<std::string>* args, SourceOptions* out, std::string* error);

// A command's arguments split in two: the source options, and the rest for
// the command's own parser, as argc/argv.
class CommandLine {
public:
    // False with a one-line error on a bad source option.
    bool split(int argc, char** argv, std::string* error);
    SourceOptions source;
    int argc() const { return static_cast<int>(words_.size()); }
    char** argv() { return pointers_.data(); }

private:
    std::vector<std::string> words_;
    std::vector<char*> pointers_;
};

// With -p: puts the file's flags from DIR/compile_commands.json before the
// command line's, and its compiler unless --cc chose one.
bool apply_compile_database(const std::string& file, SourceOptions* options, std::string* error);

// The help text of these options, for every command's --help.
std::string source_options_help();


}  // namespace recipe::cli
