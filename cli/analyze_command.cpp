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
#include "analyzer/source_text.h"
#include "cli/command.h"
#include "cli/source_options.h"
#include "analyzer/translation_unit.h"

namespace {

using recipe::cli::print_error;

using namespace recipe;

int run_analyze(int argc, char** argv, std::ostream& out, std::ostream& err) {
    cli::CommandLine command_line;
    {
        std::string e;
        if (!command_line.split(argc, argv, &e)) {
            print_error(err, e);
            return cli::kExitUsage;
        }
    }
    cli::SourceOptions& source_options = command_line.source;
    argc = command_line.argc();
    argv = command_line.argv();
    cxxopts::Options options("recipe analyze", "Find and classify the loop nests of a C file.");
    options.positional_help("FILE.c");
    options.add_options()
        ("json", "print the analysis as JSON (schema: docs/analyze-json.md)")
        ("h,help", "show this help")
        ("file", "the C file", cxxopts::value<std::vector<std::string>>());
    options.parse_positional({"file"});
    try {
        auto args = options.parse(argc, argv);
        if (args.count("help")) {
            out << options.help() << cli::source_options_help() << "\nExit status: 0 at least one nest accepted, 1 none accepted (or no loops), "
                                     "2 usage or input error.\n";
            return cli::kExitOk;
        }
        if (!args.count("file") || args["file"].as<std::vector<std::string>>().size() != 1) {
            err << "recipe: error: analyze takes exactly one C file (got "
                << (args.count("file") ? args["file"].as<std::vector<std::string>>().size() : 0) << "; see recipe analyze --help)\n";
            return cli::kExitUsage;
        }
        std::string file = args["file"].as<std::vector<std::string>>().front();
        std::string error;
        if (!cli::apply_compile_database(file, &source_options, &error)) {
            print_error(err, error);
            return cli::kExitUsage;
        }
        analyzer::AnalyzeOptions opts;
        opts.assume_no_alias = source_options.assume_no_alias;
        opts.assumptions = source_options.assumptions;
        std::string source;
        if (!analyzer::read_source_file(file, &source, &error)) {
            err << error << "\n";
            return cli::kExitUsage;
        }
        analyzer::TranslationUnit unit;
        if (!analyzer::analyze_translation_unit(file, source, source_options.build, opts, &unit, &error)) {
            err << error << "\n";
            return cli::kExitUsage;
        }
        const analyzer::Program& program = unit.program;
        if (args.count("json")) {
            analyzer::write_json(out, program);
            out << "\n";
        } else {
            analyzer::write_report(out, program, unit.original());
        }
        for (const auto& n : program.nests)
            if (n.accepted) return cli::kExitOk;
        return cli::kExitNothingAccepted;
    } catch (const cxxopts::exceptions::exception& e) {
        print_error(err, e.what());
        return cli::kExitUsage;
    }
}

}  // namespace

RECIPE_COMMAND("analyze", "find and classify loop nests in a C file", run_analyze);
