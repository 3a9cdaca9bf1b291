// options.h — every command's options in one table (name, help, value, the
// commands that take it), the parser and --help of each command built from
// it, and one reader per kind of value with one error type. The compiler's
// own flags (-I, -D, …) are taken off first (source_options.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "advisor/plan.h"
#include "cli/command.h"
#include "cli/source_options.h"

namespace recipe::cli {

// The commands, as bits of OptionSpec::commands.
enum CommandBit : unsigned {
    kAnalyze = 1u << 0,
    kAdvise = 1u << 1,
    kPredict = 1u << 2,
    kSweep = 1u << 3,
    kPlatforms = 1u << 4,
};

struct OptionSpec {
    const char* names;       // cxxopts form: "o,output-dir"
    const char* help;
    const char* value_name;  // nullptr: a flag without a value
    unsigned commands;       // CommandBit: the commands that take it
    bool repeatable = false; // may be given several times, every value kept
};
const std::vector<OptionSpec>& option_table();

// A mistake on the command line or in the input, and the exit code it ends
// the command with (README "Exit codes").
struct CommandError {
    enum class Kind { Usage, NothingAccepted };
    Kind kind = Kind::Usage;
    std::string message;  // one line; a located diagnostic keeps its location
    int exit_code() const { return kind == Kind::NothingAccepted ? kExitNothingAccepted : kExitUsage; }
};
// Prints the error as every command does (print_error) and returns its code.
int fail(std::ostream& err, const CommandError& e);
int fail(std::ostream& err, const std::string& usage_message);

// A command line parsed with the table's rows for one command.
struct ParsedCommand {
    SourceOptions source;          // the compiler's flags and --assume (none for platforms)
    cxxopts::ParseResult args;     // every value a string (or strings, when repeatable)
    std::vector<std::string> files;
    bool help = false;
    std::string help_text;         // the command's --help, source options and exit status included
};
struct CommandInfo {
    CommandBit bit;
    const char* name;         // "recipe advise"
    const char* description;  // the first paragraph of --help
    const char* exit_status;  // the last line of --help
    bool reads_c = true;      // takes a C file and the compiler's flags
};
bool parse_command(const CommandInfo& info, int argc, char** argv, ParsedCommand* out, CommandError* error);

// The one C file the command reads, its compile database (-p) applied.
bool one_c_file(const CommandInfo& info, ParsedCommand* cmd, std::string* file, CommandError* error);

// Readers of the values; each leaves `out` alone when the option is absent.
bool read_host_memory(const cxxopts::ParseResult& args, std::optional<advisor::HostMemory>* out, CommandError* error);
// --gpu-memory SIZE: 4GiB, 4G, 512MiB, 512M, 100000 (bytes); K, M, G, T are powers of 1024.
bool parse_memory_size(const std::string& text, std::int64_t* bytes, std::string* error);
bool read_gpu_memory(const cxxopts::ParseResult& args, std::int64_t* bytes, CommandError* error);
// --kernel-ms [NEST=]MS, repeatable: nest NEST's kernel time (key 0: no NEST given).
bool read_kernel_ms(const cxxopts::ParseResult& args, std::map<int, double>* out, CommandError* error);
// A whole number from `min` to `max` (--streams, --calls, --nest).
bool read_count(const cxxopts::ParseResult& args, const char* name, std::int64_t min, std::int64_t max, std::int64_t* out,
                CommandError* error);
// --platform (default h200).
std::string platform_name(const cxxopts::ParseResult& args);
// A string option's value, or `otherwise`.
std::string value_or(const cxxopts::ParseResult& args, const char* name, const std::string& otherwise);

}  // namespace recipe::cli
