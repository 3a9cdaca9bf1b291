// command.h — the sub-commands of `recipe`. Each lives in its own
// <name>_command.cpp and registers itself with RECIPE_COMMAND; main.cpp only
// dispatches. A command parses its options, calls the core, prints, and
// returns one of the exit codes below; it never calls exit().
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace recipe::cli {

// Documented in README.md ("Exit codes").
enum ExitCode : int {
    kExitOk = 0,              // analysed / written
    kExitNothingAccepted = 1, // no loop nest could be accepted
    kExitUsage = 2,           // bad options, unreadable or invalid input
    kExitInternal = 3,        // a bug in recipe: please report it
};

struct Command {
    const char* name;
    const char* summary;
    // argv[0] is the command's name.
    int (*run)(int argc, char** argv, std::ostream& out, std::ostream& err);
};

std::vector<Command>& registry();

// Every command's one way to report a user-level error: a message that is
// already a located diagnostic (`file:line:col: error: ...`, as the
// analyzer and the preprocessor write them) goes out as it is; any other
// gets "recipe: error: " in front. One line each.
inline void print_error(std::ostream& err, const std::string& message) {
    const auto at = message.find(": error: ");
    const bool located = at != std::string::npos && message.find('\n') > at;
    err << (located ? "" : "recipe: error: ") << message << "\n";
}

struct Registrar {
    explicit Registrar(Command c) { registry().push_back(c); }
};

}  // namespace recipe::cli

#define RECIPE_COMMAND(name, summary, fn) \
    static const ::recipe::cli::Registrar recipe_command_registrar_##fn{{name, summary, fn}}
