// recipe advise — the main job: a C file in; a recipe, a .cu, the plan and
// pictures out. Parses options, calls recipes::advise, writes the files
// through the output writer, prints a short summary.
#include <unistd.h>

#include <cerrno>
#include <cctype>
#include <cmath>
#include <functional>
#include <iostream>
#include <cxxopts.hpp>
#include <nlohmann/json.hpp>

#include "advisor/host_cpu.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "recipes/advise.h"
#include "recipes/output_writer.h"
#include "recipes/recipe_view.h"

namespace {

using recipe::recipes::AdviseOptions;
using recipe::recipes::AdviseResult;
using recipe::recipes::RegionKind;
using recipe::recipes::Verdict;

const recipe::cli::CommandInfo kAdvise{
    recipe::cli::kAdvise, "recipe advise",
    "Find the loop nests of a C file that can run on the GPU with their copies overlapped, plan\n"
    "each for a platform, and write DIR/<stem>.recipe.md (the steps and why), DIR/<stem>.cu\n"
    "(the program converted; only when a nest was converted), DIR/<stem>.plan.json and SVG\n"
    "pictures. The input is never modified.",
    "Exit status: 0 a .cu was written, 1 no nest could be converted (the recipe says why),\n"
    "2 usage or input error (nothing written), 3 internal error."};

std::string short_plan(const recipe::advisor::Prediction& p) {
    std::string s = recipe::advisor::to_string(p.config.scheme);
    if (recipe::scheme_traits(p.config.scheme).tiled)
        s += ", tile " + recipe::advisor::format_tile(p.config.tile, p.problem.dims) + ", " + std::to_string(p.config.streams) + " streams";
    return s;
}

void print_text(const AdviseResult& r, const std::vector<std::string>& written, const std::string& compile, std::ostream& out) {
    using namespace recipe::recipes;
    int converted = 0;
    for (const auto& n : r.nests) converted += n.verdict == Verdict::Converted;
    out << r.source_file << ": " << r.nests.size() << " loop nest" << (r.nests.size() == 1 ? "" : "s") << ", "
        << r.accepted() << " accepted, " << converted << " converted (platform " << r.platform.name << ")\n";
    for (const auto& n : r.nests) {
        out << "  nest " << n.nest->id << " " << n.nest->function << "() lines " << n.nest->span.begin.line << "-"
            << n.nest->span.end.line << ": " << to_string(n.verdict);
        if (const auto* best = n.chosen()) {
            out << ", " << short_plan(*best) << ": " << format_ms(best->total_ms) << " ms predicted, ";
            if (n.plan.naive_fits)
                out << "naive " << format_ms(n.plan.naive.total_ms) << " ms, speed-up " << format_speedup(n.plan.speedup);
            else
                out << "naive does not fit in the device memory";
        } else if (!n.why.empty()) {
            out << ": " << n.why;
        }
        if (n.gpus.devices > 1) out << "; on " << n.gpus.devices << " GPUs: " << format_ms(n.running()->total_ms) << " ms";
        if (n.region >= 0 && r.regions[static_cast<std::size_t>(n.region)].converted)
            switch (r.regions[static_cast<std::size_t>(n.region)].kind) {
                case RegionKind::TimeLoop: out << "; runs in the region of its time loop"; break;
                case RegionKind::CallerLoop: out << "; runs in the region of the loop that calls it"; break;
                case RegionKind::Consecutive: out << "; runs in a region with the nests beside it"; break;
            }
        out << "\n";
    }
    for (const auto& region : r.regions) {
        const std::string nest_count =
            std::to_string(region.nests.size()) + (region.nests.size() == 1 ? " nest" : " nests") + " with the arrays resident: ";
        const std::string status = std::string(region.converted ? "converted" : "kept-on-cpu") + ", ";
        const std::string lines = "() lines " + std::to_string(region.first_line) + "-" + std::to_string(region.last_line) + ": ";
        switch (region.kind) {
            case RegionKind::TimeLoop:
                out << "  time loop " << region.function << lines << status << region.problem.steps << " steps of " << nest_count;
                break;
            case RegionKind::CallerLoop:
                out << "  loop " << region.function << lines << status << region.problem.steps << " turns calling "
                    << region.callee << "(), " << nest_count;
                break;
            case RegionKind::Consecutive: out << "  nests " << region.function << lines << status << nest_count; break;
        }
        out << format_ms(region.prediction.total.total_ms) << " ms predicted, "
            << (region.kind == RegionKind::Consecutive ? "alone " : region.kind == RegionKind::TimeLoop ? "step by step " : "call by call ")
            << format_ms(region.step_by_step_ms) << " ms";
        if (region.gpus.devices > 1)
            out << "; on " << region.gpus.devices << " GPUs: " << format_ms(region.running().total_ms) << " ms";
        out << "\n";
    }
    out << "wrote";
    for (std::size_t i = 0; i < written.size(); ++i) out << (i ? ", " : " ") << written[i];
    out << "\n";
    if (r.wrote_cu) out << "compile: " << compile << "\n";
}

nlohmann::json summary_json(const AdviseResult& r, const std::vector<std::string>& written, const std::string& compile) {
    nlohmann::json j;
    j["file"] = r.source_file;
    j["platform"] = r.platform.name;
    j["outputs"] = written;
    j["nests"] = nlohmann::json::array();
    for (const auto& n : r.nests) {
        nlohmann::json x = {{"id", n.nest->id}, {"function", n.nest->function},
                            {"lines", {n.nest->span.begin.line, n.nest->span.end.line}},
                            {"verdict", recipe::recipes::to_string(n.verdict)}};
        if (!n.why.empty()) x["why"] = n.why;
        if (const auto* best = n.chosen()) {
            x["scheme"] = recipe::advisor::to_string(best->config.scheme);
            x["tile"] = best->config.tile;
            x["streams"] = best->config.streams;
            x["predicted_ms"] = best->total_ms;
            x["naive_ms"] = n.plan.naive_fits ? nlohmann::json(n.plan.naive.total_ms) : nlohmann::json();
            x["speedup"] = n.plan.naive_fits ? nlohmann::json(n.plan.speedup) : nlohmann::json();
        }
        if (n.gpus.asked) x["gpus"] = n.gpus.devices;
        j["nests"].push_back(x);
    }
    j["regions"] = nlohmann::json::array();
    for (const auto& region : r.regions) {
        nlohmann::json x = {{"kind", to_string(region.kind)},
                            {"function", region.function}, {"lines", {region.first_line, region.last_line}},
                            {"steps", region.problem.steps}, {"converted", region.converted},
                            {"predicted_ms", region.prediction.total.total_ms}, {"step_by_step_ms", region.step_by_step_ms}};
        x["nests"] = nlohmann::json::array();
        for (const std::size_t i : region.nests) x["nests"].push_back(r.nests[i].nest->id);
        if (region.gpus.asked) x["gpus"] = region.gpus.devices;
        j["regions"].push_back(x);
    }
    if (r.wrote_cu) j["compile"] = compile;
    return j;
}

int run_advise(int argc, char** argv, std::ostream& out, std::ostream& err) {
    using namespace recipe::cli;
    ParsedCommand cmd;
    CommandError e;
    if (!parse_command(kAdvise, argc, argv, &cmd, &e)) return fail(err, e);
    if (cmd.help) {
        out << cmd.help_text;
        return kExitOk;
    }
    const cxxopts::ParseResult& args = cmd.args;
    AdviseOptions options;
    std::int64_t calls = options.calls, gpus = options.gpus;
    if (!one_c_file(kAdvise, &cmd, &options.input, &e) || !read_host_memory(args, &options.host_memory, &e) ||
        !read_kernel_ms(args, &options.kernel_ms, &e) || !read_gpu_memory(args, &options.gpu_memory_bytes, &e) ||
        !read_count(args, "calls", 1, std::int64_t{1} << 53, &calls, &e) || !read_count(args, "gpus", 1, 64, &gpus, &e))
        return fail(err, e);
    options.calls = calls;
    options.gpus = static_cast<int>(gpus);
    options.build = cmd.source.build;
    options.assumptions = cmd.source.assumptions;
    options.assume_no_alias = cmd.source.assume_no_alias;
    options.platform = platform_name(args);
    options.convert_all = args.count("convert-all") > 0;
    options.all_gpus = args.count("all-gpus") > 0;
    if (options.all_gpus && options.gpus <= 1) return fail(err, "--all-gpus needs --gpus N with N > 1");
    const std::string dir = value_or(args, "output-dir", ".");
    const std::string format = value_or(args, "format", "md");
    if (format != "md" && format != "json") return fail(err, "--format " + format + ": expected md or json");
    const bool force = args.count("force") > 0;
    // Once the options are known to be good: it takes a second or two.
    if (args.count("measure-host")) {
        options.measured_host = recipe::advisor::remember_host_reading(recipe::advisor::measure_host_cpu(false));
        if (!options.measured_host->warning.empty()) err << "recipe: warning: " << options.measured_host->warning << "\n";
    }

    recipe::recipes::RealFileSystem fs;
    AdviseResult result;
    std::string error;
    recipe::cli::Progress progress(err, &err == &std::cerr && ::isatty(2));
    options.progress = std::ref(progress);
    const bool advised = recipe::recipes::advise(fs, options, &result, &error);
    progress.finish();
    if (!advised) {
        print_error(err, error);
        return kExitUsage;
    }
    for (const auto& line : result.diagnostics) err << line << "\n";
    recipe::recipes::WriteRequest request{dir, options.input, force, std::move(result.files),
                                          [&](const std::string& name) { return recipe::recipes::is_output_name(result.stem, name); }};
    std::vector<std::string> written;
    if (!recipe::recipes::write_outputs(fs, request, &written, &error)) {
        print_error(err, error);
        return kExitUsage;
    }
    const std::string compile = recipe::recipes::compile_command(
        recipe::recipes::join_path(dir, result.stem + ".cu"), recipe::recipes::join_path(dir, result.stem), result.nvcc_flags,
        recipe::recipes::library_include_dir(), result.host_optimization);
    if (format == "json") out << summary_json(result, written, compile).dump(2) << "\n";
    else print_text(result, written, compile, out);
    return result.wrote_cu ? kExitOk : kExitNothingAccepted;
}

}  // namespace

RECIPE_COMMAND("advise", "write a recipe, a .cu file, the plan and pictures for a C file", run_advise);
