// compiler_run.h — runs the user's C compiler on a text held in memory: the
// text on its standard input, its standard output and error kept. One place
// for the preprocessor (preprocessor.h) and the vectorizer's report
// (vectorization.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace recipe::analyzer {

struct CompilerRun {
    bool started = false;  // false: the program could not be run (not found: exit 127 too)
    int exit_status = -1;  // -1: it did not exit normally
    bool timed_out = false;  // stopped after the time it was given
    std::string out;       // its standard output
    std::string err;       // its standard error
};

// Runs `args` (args[0] looked up in PATH) with `input` on its standard input.
// False only when a temporary file for the streams cannot be made in $TMPDIR
// (else /tmp), with `error` saying so; a compiler that cannot be started is
// `started == false`. With `seconds` > 0 a compiler still running after that
// long is killed (`timed_out`, exit_status -1).
bool run_compiler(const std::vector<std::string>& args, std::string_view input, CompilerRun* run, std::string* error,
                  double seconds = 0);

}  // namespace recipe::analyzer
