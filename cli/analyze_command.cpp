// recipe analyze FILE.c [compiler flags] [--assume NAME=VALUE]... [--json] [--assume-no-alias]
// Finds and classifies the loop nests of a C file. Exit status: 0 when at
// least one nest is accepted, 1 when none is (a file without loops too),
// 2 for usage errors and input that is not a readable C text file.
#include <cxxopts.hpp>

#include <iostream>
#include <vector>

#include "analyzer/analyzer.h"
#include "analyzer/program_json.h"
#include "analyzer/report.h"
#include "cli/command.h"
#include "cli/options.h"
#include "recipes/session.h"
#include "analyzer/translation_unit.h"

namespace {

using namespace recipe;
using cli::fail;

const cli::CommandInfo kAnalyze{cli::kAnalyze, "recipe analyze", "Find and classify the loop nests of a C file.",
                                "Exit status: 0 at least one nest accepted, 1 none accepted (or no loops), 2 usage or input error."};

int run_analyze(int argc, char** argv, std::ostream& out, std::ostream& err) {
    cli::ParsedCommand cmd;
    cli::CommandError e;
    if (!cli::parse_command(kAnalyze, argc, argv, &cmd, &e)) return fail(err, e);
    if (cmd.help) {
        out << cmd.help_text;
        return cli::kExitOk;
    }
    std::string file;
    if (!cli::one_c_file(kAnalyze, &cmd, &file, &e)) return fail(err, e);
    analyzer::AnalyzeOptions opts;
    opts.assume_no_alias = cmd.source.assume_no_alias;
    opts.assumptions = cmd.source.assumptions;
    std::string error;
    analyzer::TranslationUnit unit;
    const recipes::RealFileSystem fs;
    if (!recipes::analyze_file(fs, file, cmd.source.build, opts, &unit, &error)) return fail(err, error);
    const analyzer::Program& program = unit.program;
    if (cmd.args.count("json")) {
        analyzer::write_json(out, program);
        out << "\n";
    } else {
        analyzer::write_report(out, program, unit.original());
    }
    for (const auto& n : program.nests)
        if (n.accepted) return cli::kExitOk;
    return cli::kExitNothingAccepted;
}

}  // namespace

RECIPE_COMMAND("analyze", "find and classify loop nests in a C file", run_analyze);
