// recipe sweep — predicted time of every scheme and copy method over a
// range of tile sizes (the thesis's Table A.3 layout).
#include <algorithm>
#include <cstdio>
#include <cxxopts.hpp>
#include <nlohmann/json.hpp>

#include "advisor/explain.h"
#include "advisor/multi_gpu.h"
#include "advisor/plan.h"
#include "advisor/request.h"
#include "advisor/tile_shapes.h"
#include "cli/command.h"
#include "cli/model_options.h"

namespace {

using namespace recipe;
using namespace recipe::advisor;
using cli::fail;

const cli::CommandInfo kSweep{cli::kSweep, "recipe sweep", "Predicted run time of each scheme and copy method over tile sizes (ms).",
                              "Exit status: 0 swept, 1 no nest accepted, 2 usage or input error, 3 internal error."};

// "400x*x25": the tile with one dimension varying ('*'). Empty: whole rows
// (2D) or planes (3D), the outermost dimension varying.
bool parse_pattern(const std::string& text, const Problem& p, Index3* base, int* varying, std::string* error) {
    const Index3 space = p.space.extents();
    *base = space;
    *varying = p.dims - 1;
    if (text.empty()) return true;
    std::string t = text;
    const auto star = t.find('*');
    if (star == std::string::npos || t.find('*', star + 1) != std::string::npos) {
        *error = "--tiles '" + text + "': mark exactly one varying size with '*', e.g. 400x*x25";
        return false;
    }
    int d = 0;
    for (std::size_t i = 0; i < star; ++i)
        if (t[i] == 'x' || t[i] == 'X') ++d;
    t[star] = '1';
    if (!parse_tile(t, p.dims, base, error)) return false;
    for (int k = 0; k < p.dims; ++k) {
        if (k != d && (*base)[k] > p.extents[k]) {
            *error = "--tiles '" + text + "' is larger than the arrays (" + format_tile(p.extents, p.dims) + ")";
            return false;
        }
        (*base)[k] = std::min((*base)[k], space[k]);  // as the library: a tile wider than the loops covers them
    }
    *varying = d;
    return true;
}

std::string cell(double ms) {
    char buf[32];
    if (ms < 0) return "-";
    std::snprintf(buf, sizeof buf, "%.3f", ms);
    return buf;
}

int run_sweep(int argc, char** argv, std::ostream& out, std::ostream& err) {
    cli::ParsedCommand cmd;
    cli::CommandError e;
    if (!cli::parse_command(kSweep, argc, argv, &cmd, &e)) return fail(err, e);
    if (cmd.help) {
        out << cmd.help_text;
        return cli::kExitOk;
    }
    const cxxopts::ParseResult& args = cmd.args;
    if (args.count("csv") && args.count("json")) return fail(err, "--csv and --json exclude each other");
    std::int64_t streams_given = 3;
    if (!cli::read_count(args, "streams", 1, 1024, &streams_given, &e)) return fail(err, e);
    const int streams = static_cast<int>(streams_given);
    const std::string tiles = cli::value_or(args, "tiles", "");
    std::int64_t gpus = 1;
    if (!cli::read_count(args, "gpus", 1, 64, &gpus, &e)) return fail(err, e);
    cli::ModelRequest request;
    if (!cli::read_model_request(kSweep, &cmd, &request, &e)) return fail(err, e);
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
    for (auto& np : nests) {
        Problem& p = np.problem;
        Index3 base;
        int d = 0;
        if (!parse_pattern(tiles, p, &base, &d, &error))
            return fail(err, "nest " + std::to_string(np.nest.id) + ": " + error);
        struct Column {
            Scheme scheme;
            CopyMethod copy;
            std::string name;
        };
        std::vector<Column> columns;
        // The schemes whose tile and streams are the sweep's (thesis Table A.3: basic, scalable, buffered).
        for (const SchemeTraits& t : kSchemes) {
            if (!t.tiled || t.stream_per_tile) continue;
            for (CopyMethod m : {CopyMethod::RowByRow, CopyMethod::Merged, CopyMethod::Strided}) {
                if (p.dims == 1 && m != CopyMethod::Merged) continue;  // 1D tiles are contiguous
                columns.push_back({t.scheme, m, std::string(t.name) + (p.dims == 1 ? "" : std::string("/") + recipe::to_string(m))});
            }
        }
        Prediction naive;
        const double naive_ms = naive_baseline(p, platform, model, &naive, nullptr) ? naive.total_ms : -1;
        std::string pattern = format_tile(base, p.dims);
        {
            // Show the varying size as '*'.
            std::vector<std::string> parts;
            for (int k = 0; k < p.dims; ++k) parts.push_back(k == d ? "*" : std::to_string(base[k]));
            pattern.clear();
            for (std::size_t k = 0; k < parts.size(); ++k) pattern += (k ? "x" : "") + parts[k];
        }
        nlohmann::json rows = nlohmann::json::array();
        std::vector<std::vector<std::string>> table;
        for (auto size : sizes_along(p.space.extent(d), p.dims == 1 ? std::max<std::int64_t>(1, p.space.extent(0) / 100000) : 1)) {
            Index3 t = base;
            t[d] = size;
            std::vector<std::string> line{format_tile(t, p.dims), cell(naive_ms)};
            nlohmann::json results = nlohmann::json::object();
            // --gpus N: the fastest column of this tile on 2 ... N GPUs, each its slab (advisor/multi_gpu.h).
            std::vector<double> fastest(static_cast<std::size_t>(gpus), -1);
            for (const auto& c : columns) {
                Config cfg;
                cfg.scheme = c.scheme;
                cfg.copy = c.copy;
                cfg.tile = t;
                cfg.streams = streams;
                Prediction pr;
                const bool ok = predict(p, platform, cfg, model, &pr, nullptr);
                line.push_back(cell(ok ? pr.total_ms : -1));
                results[c.name] = ok ? nlohmann::json(pr.total_ms) : nlohmann::json();
                if (!ok || !devices_refusal(p, pr.config).empty()) continue;
                for (int n = 2; n <= gpus; ++n) {
                    DevicePrediction dp;
                    if (!predict_devices(p, platform, model, pr.config, n, &dp, nullptr)) break;
                    double& best = fastest[static_cast<std::size_t>(n - 1)];
                    if (best < 0 || dp.prediction.total_ms < best) best = dp.prediction.total_ms;
                }
            }
            nlohmann::json on_gpus = nlohmann::json::object();
            for (int n = 2; n <= gpus; ++n) {
                const double best = fastest[static_cast<std::size_t>(n - 1)];
                line.push_back(cell(best));
                on_gpus[std::to_string(n)] = best < 0 ? nlohmann::json() : nlohmann::json(best);
            }
            table.push_back(line);
            nlohmann::json row = {{"tile", format_tile(t, p.dims)}, {"size", size}, {"ms", results}};
            if (gpus > 1) row["fastest_on_gpus_ms"] = on_gpus;
            rows.push_back(row);
        }
        if (args.count("json")) {
            all.push_back({{"file", file},
                           {"nest", np.nest.id},
                           {"function", np.nest.function},
                           {"platform", platform.name},
                           {"tiles", pattern},
                           {"streams", streams},
                           {"naive_ms", naive_ms},
                           {"rows", rows}});
            continue;
        }
        std::vector<std::string> header{"tile", "naive"};
        for (const auto& c : columns) header.push_back(c.name);
        for (int n = 2; n <= gpus; ++n) header.push_back("fastest on " + std::to_string(n) + " GPUs");
        if (args.count("csv")) {
            out << "# " << file << " nest " << np.nest.id << " on " << platform.name
                << ", tiles " << pattern << ", ms\n";
            for (std::size_t i = 0; i < header.size(); ++i) out << (i ? "," : "") << header[i];
            out << "\n";
            for (const auto& line : table) {
                for (std::size_t i = 0; i < line.size(); ++i) out << (i ? "," : "") << (line[i] == "-" ? "" : line[i]);
                out << "\n";
            }
            continue;
        }
        out << file << ":" << np.nest.span.begin.line << ": nest " << np.nest.id << " ("
            << np.nest.function << ") on " << platform.name << ", tiles " << pattern << ", " << streams
            << " streams, predicted ms (" << to_string(naive.kernel_source) << " kernel time)\n";
        std::vector<std::size_t> width(header.size());
        for (std::size_t i = 0; i < header.size(); ++i) {
            width[i] = header[i].size();
            for (const auto& line : table) width[i] = std::max(width[i], line[i].size());
        }
        auto print = [&](const std::vector<std::string>& line) {
            for (std::size_t i = 0; i < line.size(); ++i)
                out << (i ? "  " : "") << std::string(width[i] - line[i].size(), ' ') << line[i];
            out << "\n";
        };
        print(header);
        for (const auto& line : table) print(line);
        out << "\n";
    }
    if (args.count("json")) out << all.dump(2) << "\n";
    for (const auto& s : skipped) err << s << "\n";
    return cli::kExitOk;
}

}  // namespace

RECIPE_COMMAND("sweep", "predicted time of every scheme over tile sizes (thesis Table A.3 style)", run_sweep);
