// recipe predict — one what-if: a scheme and tile for a nest on a platform,
// with the breakdown of where the time goes.
#include <algorithm>
#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "advisor/explain.h"
#include "advisor/multi_gpu.h"
#include "advisor/plan.h"
#include "advisor/request.h"
#include "cli/command.h"
#include "cli/model_options.h"

namespace {

using namespace recipe;
using namespace recipe::advisor;
using cli::fail;

// The schemes' names from their table: "naive, basic, ..." with `last`
// before the last one.
std::string scheme_names(const char* last) {
    std::string names;
    for (std::size_t i = 0; i < kSchemeCount; ++i)
        names += std::string(i == 0 ? "" : i + 1 == kSchemeCount ? last : ", ") + kSchemes[i].name;
    return names;
}

const cli::CommandInfo kPredict{cli::kPredict, "recipe predict", "Predict one scheme and tile size for the loop nests of a C file.",
                                "Exit status: 0 predicted, 1 no nest accepted, 2 usage or input error, 3 internal error."};

// --scheme, --copy, --streams and the form of --tile, checked before any
// file is read.
bool read_config(const cxxopts::ParseResult& args, Config* config, cli::CommandError* e) {
    if (!args.count("scheme")) {
        e->message = "--scheme is required (" + scheme_names(", ") + ")";
        return false;
    }
    if (!parse_scheme(args["scheme"].as<std::string>(), &config->scheme)) {
        e->message = "unknown scheme '" + args["scheme"].as<std::string>() + "' (" + scheme_names(", ") + ")";
        return false;
    }
    const std::string copy = cli::value_or(args, "copy", "merged");
    if (!parse_copy_method(copy, &config->copy)) {
        e->message = "unknown copy method '" + copy + "' (row-by-row, merged, strided)";
        return false;
    }
    std::int64_t streams = 3;
    if (!cli::read_count(args, "streams", 1, 1024, &streams, e)) return false;
    config->streams = static_cast<int>(streams);
    if (!scheme_traits(config->scheme).tiled) return true;
    if (!args.count("tile")) {
        e->message = std::string("--tile is required for the ") + to_string(config->scheme) + " scheme";
        return false;
    }
    // Its form: 1 to 3 positive sizes.
    const std::string t = args["tile"].as<std::string>();
    const int parts = 1 + static_cast<int>(std::count(t.begin(), t.end(), 'x'));
    Index3 ignored;
    std::string why;
    if (parts > 3) why = "at most three sizes, x first (e.g. 400x400x25)";
    else parse_tile(t, parts, &ignored, &why);
    if (why.empty()) return true;
    e->message = "--tile " + t + ": " + why;
    return false;
}

int run_predict(int argc, char** argv, std::ostream& out, std::ostream& err) {
    cli::ParsedCommand cmd;
    cli::CommandError e;
    if (!cli::parse_command(kPredict, argc, argv, &cmd, &e)) return fail(err, e);
    if (cmd.help) {
        out << cmd.help_text;
        return cli::kExitOk;
    }
    const cxxopts::ParseResult& args = cmd.args;
    Config config;
    if (!read_config(args, &config, &e)) return fail(err, e);
    const bool needs_tile = scheme_traits(config.scheme).tiled;

    std::int64_t gpus = 1;
    if (!cli::read_count(args, "gpus", 1, 64, &gpus, &e)) return fail(err, e);
    cli::ModelRequest request;
    if (!cli::read_model_request(kPredict, &cmd, &request, &e)) return fail(err, e);
    for (const auto& w : request.warnings) err << "recipe: warning: " << w << "\n";
    if (const std::string missing = missing_gpu_figures(request.platform, static_cast<int>(gpus)); !missing.empty())
        return fail(err, missing);
    std::string error;
    const ModelOptions& model = request.model;
    const Platform& platform = request.platform;
    std::vector<NestProblem>& nests = request.nests;
    std::vector<std::string>& skipped = request.skipped;
    const std::string& file = request.file;

    nlohmann::json all = nlohmann::json::array();
    int printed = 0;  // nests predicted
    for (auto& np : nests) {
        Config c = config;
        if (needs_tile && !parse_tile(args["tile"].as<std::string>(), np.problem.dims, &c.tile, &error)) {
            // Several nests: a tile of another dimensionality is meant for another nest.
            if (args.count("nest") || nests.size() == 1) return fail(err, "nest " + std::to_string(np.nest.id) + ": " + error);
            skipped.push_back(file + ":" + std::to_string(np.nest.span.begin.line) +
                              ": note: nest " + std::to_string(np.nest.id) + " skipped: " + error);
            continue;
        }
        Prediction pred, naive;
        if (!predict(np.problem, platform, c, model, &pred, &error))
            return fail(err, "nest " + std::to_string(np.nest.id) + ": " + error);
        const bool have_naive = naive_baseline(np.problem, platform, model, &naive, nullptr);
        ++printed;
        // --gpus N: the same configuration on 2 ... N GPUs, each its slab (advisor/multi_gpu.h).
        std::vector<DevicePrediction> on;
        std::string refused;
        if (gpus > 1) refused = devices_refusal(np.problem, pred.config);
        for (int n = 2; n <= gpus && refused.empty(); ++n) {
            DevicePrediction d;
            if (!predict_devices(np.problem, platform, model, pred.config, n, &d, &refused)) break;
            on.push_back(std::move(d));
        }
        if (args.count("json")) {
            nlohmann::json j;
            j["file"] = file;
            j["nest"] = np.nest.id;
            j["function"] = np.nest.function;
            j["line"] = np.nest.span.begin.line;
            j["platform"] = platform.name;
            j["prediction"] = to_json(pred);
            if (have_naive) j["naive"] = to_json(naive);
            if (args.count("timeline")) j["timeline"] = to_json(timeline(pred, platform, 16));
            if (gpus > 1) {
                nlohmann::json curve = nlohmann::json::array({{{"gpus", 1}, {"total_ms", pred.total_ms}}});
                for (const DevicePrediction& d : on) {
                    nlohmann::json slabs = nlohmann::json::array();
                    for (std::size_t i = 0; i < d.slabs.size(); ++i)
                        slabs.push_back({{"begin", d.slabs[i].begin}, {"end", d.slabs[i].end}, {"ms", d.slab_ms[i]}});
                    curve.push_back({{"gpus", d.devices}, {"total_ms", d.prediction.total_ms}, {"slabs", slabs}});
                }
                j["gpuCurve"] = curve;
                if (!refused.empty()) j["gpus_refused"] = refused;
            }
            all.push_back(j);
        } else {
            out << file << ":" << np.nest.span.begin.line << ": nest " << np.nest.id << " ("
                << np.nest.function << ") on " << platform.name << "\n";
            out << explain(pred, have_naive ? &naive : nullptr) << "\n";
            if (gpus > 1) {
                out << "on several GPUs (each its slab of the space, at its share of the host's links; one call, "
                       "start-up not included):\n  1 GPU: "
                    << pred.total_ms << " ms\n";
                for (const DevicePrediction& d : on) {
                    out << "  " << d.devices << " GPUs: " << d.prediction.total_ms << " ms, slabs of";
                    for (const Box& b : d.slabs) out << " " << b.extent(d.split_dimension);
                    out << " along " << "xyz"[d.split_dimension] << "\n";
                }
                if (!refused.empty()) out << "  " << (on.empty() ? "runs on one GPU only: " : "no more: ") << refused << "\n";
                out << "\n";
            }
        }
    }
    for (const auto& s : skipped) err << s << "\n";
    if (printed == 0) return fail(err, "--tile " + args["tile"].as<std::string>() + " fits no nest of the file (see the notes above)");
    if (args.count("json")) out << all.dump(2) << "\n";
    return cli::kExitOk;
}

}  // namespace

RECIPE_COMMAND("predict", "predict one scheme and tile size, with its breakdown", run_predict);
