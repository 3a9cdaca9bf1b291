// recipe predict — one what-if: a scheme and tile for a nest on a platform,
// with the breakdown of where the time goes.
#include <algorithm>
#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "advisor/explain.h"
#include "advisor/plan.h"
#include "advisor/request.h"
#include "cli/command.h"
#include "cli/model_options.h"
#include "cli/source_options.h"

namespace {

using recipe::cli::print_error;

using namespace recipe;
using namespace recipe::advisor;

int fail(std::ostream& err, const std::string& message, int code = cli::kExitUsage) {
    print_error(err, message);
    return code;
}

// The schemes' names from their table: "naive, basic, ..." with `last`
// before the last one.
std::string scheme_names(const char* last) {
    std::string names;
    for (std::size_t i = 0; i < kSchemeCount; ++i)
        names += std::string(i == 0 ? "" : i + 1 == kSchemeCount ? last : ", ") + kSchemes[i].name;
    return names;
}

int run_predict(int argc, char** argv, std::ostream& out, std::ostream& err) {
    cli::CommandLine command_line;
    {
        std::string e;
        if (!command_line.split(argc, argv, &e)) return fail(err, e);
    }
    cli::SourceOptions& source = command_line.source;
    argc = command_line.argc();
    argv = command_line.argv();
    cxxopts::Options opts("recipe predict", "Predict one scheme and tile size for the loop nests of a C file.");
    opts.positional_help("FILE.c");
    opts.add_options()
        ("file", "C file", cxxopts::value<std::string>())
        ("scheme", scheme_names(" or "), cxxopts::value<std::string>(), "SCHEME")
        ("tile", "tile size, x first, e.g. 400x400x25 (not for naive or mapped)", cxxopts::value<std::string>(), "XxYxZ")
        ("copy", "row-by-row, merged or strided", cxxopts::value<std::string>()->default_value("merged"), "METHOD")
        ("streams", "tile buffers / CUDA streams", cxxopts::value<int>()->default_value("3"), "N")
        ("timeline", "include the pipeline timeline (with --json)")
        ("json", "print JSON")
        ("h,help", "show this help");
    cli::add_model_options(opts);
    opts.parse_positional({"file"});
    cxxopts::ParseResult args;
    try {
        args = opts.parse(argc, argv);
    } catch (const cxxopts::exceptions::exception& e) {
        return fail(err, e.what());
    }
    if (args.count("help")) {
        out << opts.help() << cli::source_options_help() << "\n";
        return cli::kExitOk;
    }
    if (!args.count("file")) return fail(err, "no input file (usage: recipe predict FILE.c --scheme S --tile T)");
    if (!args.count("scheme")) return fail(err, "--scheme is required (" + scheme_names(", ") + ")");

    Config config;
    if (!parse_scheme(args["scheme"].as<std::string>(), &config.scheme))
        return fail(err, "unknown scheme '" + args["scheme"].as<std::string>() +
                             "' (" + scheme_names(", ") + ")");
    if (!parse_copy_method(args["copy"].as<std::string>(), &config.copy))
        return fail(err, "unknown copy method '" + args["copy"].as<std::string>() + "' (row-by-row, merged, strided)");
    config.streams = args["streams"].as<int>();
    if (config.streams < 1) return fail(err, "--streams must be at least 1");
    const bool needs_tile = scheme_traits(config.scheme).tiled;
    if (needs_tile && !args.count("tile")) return fail(err, std::string("--tile is required for the ") + to_string(config.scheme) + " scheme");
    if (needs_tile) {  // its form, before any file is read: 1 to 3 positive sizes
        const std::string t = args["tile"].as<std::string>();
        const int parts = 1 + static_cast<int>(std::count(t.begin(), t.end(), 'x'));
        Index3 ignored;
        std::string e;
        if (parts > 3) return fail(err, "--tile " + t + ": at most three sizes, x first (e.g. 400x400x25)");
        if (!parse_tile(t, parts, &ignored, &e)) return fail(err, "--tile " + t + ": " + e);
    }

    cli::ModelRequest request;
    std::string error;
    if (const int code = cli::read_model_request(args, &source, &request, &error)) return fail(err, error, code);
    const ModelOptions& model = request.model;
    const Platform& platform = request.platform;
    std::vector<NestProblem>& nests = request.nests;
    std::vector<std::string>& skipped = request.skipped;

    nlohmann::json all = nlohmann::json::array();
    int printed = 0;  // nests predicted
    for (auto& np : nests) {
        if (args.count("kernel")) np.problem.kernel_name = args["kernel"].as<std::string>();
        Config c = config;
        if (needs_tile && !parse_tile(args["tile"].as<std::string>(), np.problem.dims, &c.tile, &error)) {
            // Several nests: a tile of another dimensionality is meant for another nest.
            if (args.count("nest") || nests.size() == 1) return fail(err, "nest " + std::to_string(np.nest.id) + ": " + error);
            skipped.push_back(args["file"].as<std::string>() + ":" + std::to_string(np.nest.span.begin.line) +
                              ": note: nest " + std::to_string(np.nest.id) + " skipped: " + error);
            continue;
        }
        Prediction pred, naive;
        if (!predict(np.problem, platform, c, model, &pred, &error))
            return fail(err, "nest " + std::to_string(np.nest.id) + ": " + error);
        const bool have_naive = naive_baseline(np.problem, platform, model, &naive, nullptr);
        ++printed;
        if (args.count("json")) {
            nlohmann::json j;
            j["file"] = args["file"].as<std::string>();
            j["nest"] = np.nest.id;
            j["function"] = np.nest.function;
            j["line"] = np.nest.span.begin.line;
            j["platform"] = platform.name;
            j["prediction"] = to_json(pred);
            if (have_naive) j["naive"] = to_json(naive);
            if (args.count("timeline")) j["timeline"] = to_json(timeline(pred, platform, 16));
            all.push_back(j);
        } else {
            out << args["file"].as<std::string>() << ":" << np.nest.span.begin.line << ": nest " << np.nest.id << " ("
                << np.nest.function << ") on " << platform.name << "\n";
            out << explain(pred, have_naive ? &naive : nullptr) << "\n";
        }
    }
    for (const auto& s : skipped) err << s << "\n";
    if (printed == 0) return fail(err, "--tile " + args["tile"].as<std::string>() + " fits no nest of the file (see the notes above)");
    if (args.count("json")) out << all.dump(2) << "\n";
    return cli::kExitOk;
}

}  // namespace

RECIPE_COMMAND("predict", "predict one scheme and tile size, with its breakdown", run_predict);
