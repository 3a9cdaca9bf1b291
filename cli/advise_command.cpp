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

#include "cli/command.h"
#include "cli/model_options.h"
#include "cli/progress.h"
#include "cli/source_options.h"
#include "recipes/advise.h"
#include "recipes/output_writer.h"
#include "recipes/recipe_view.h"

namespace {

using recipe::recipes::AdviseOptions;
using recipe::recipes::AdviseResult;
using recipe::recipes::RegionKind;
using recipe::recipes::Verdict;

// The options, defined once: this table feeds the parser and --help.
struct OptionSpec {
    const char* names;  // cxxopts form: "o,output-dir"
    const char* help;
    bool takes_value;
    const char* value_name;
    bool repeatable = false;  // may be given several times
};
const OptionSpec kOptions[] = {
    {"platform", "platform profile: a stored name (recipe platforms) or a .json path (default: h200)", true, "NAME|PATH"},
    {"o,output-dir", "directory for the outputs, created if missing (default: the current directory)", true, "DIR"},
    {"host-memory", "the host arrays are pinned or pageable (default: as the analyzer sees them)", true, "pinned|pageable"},
    {"kernel-ms", "nest NEST's measured kernel time for its whole problem, one step, in ms (repeatable; NEST= may "
                  "be left out when the file has one accepted nest)", true, "[NEST=]MS", true},
    {"gpu-memory", "device memory the plans may use, e.g. 4GiB for a shared GPU (default: the profile's); arrays "
                   "larger than it are tiled", true, "SIZE"},
    {"calls", "how often the program runs the file's nests (e.g. a function called from a loop elsewhere); "
              "the CPU comparison prices N calls (default: 1; time loops in the file are counted anyway)", true, "N"},
    {"convert-all", "convert every nest the generator can convert, also those the comparison with the CPU keeps "
                    "there (to measure both)", false, ""},
    {"format", "summary on stdout: md (text) or json (default: md)", true, "md|json"},
    {"force", "replace existing output files", false, ""},
    {"h,help", "show this help", false, ""},
};

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
            << format_ms(region.step_by_step_ms) << " ms\n";
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
        j["regions"].push_back(x);
    }
    if (r.wrote_cu) j["compile"] = compile;
    return j;
}

int run_advise(int argc, char** argv, std::ostream& out, std::ostream& err) {
    using namespace recipe::cli;
    CommandLine command_line;
    {
        std::string e;
        if (!command_line.split(argc, argv, &e)) {
            print_error(err, e);
            return kExitUsage;
        }
    }
    SourceOptions& source = command_line.source;
    argc = command_line.argc();
    argv = command_line.argv();
    cxxopts::Options parser("recipe advise",
                            "Find the loop nests of a C file that can run on the GPU with their copies overlapped, plan\n"
                            "each for a platform, and write DIR/<stem>.recipe.md (the steps and why), DIR/<stem>.cu\n"
                            "(the program converted; only when a nest was converted), DIR/<stem>.plan.json and SVG\n"
                            "pictures. The input is never modified.");
    parser.positional_help("FILE.c");
    auto adder = parser.add_options();
    for (const auto& o : kOptions) {
        if (o.repeatable) {
            adder(o.names, o.help, cxxopts::value<std::vector<std::string>>(), o.value_name);
        } else if (o.takes_value) {
            adder(o.names, o.help, cxxopts::value<std::string>(), o.value_name);
        } else {
            adder(o.names, o.help);
        }
    }
    parser.add_options()("file", "", cxxopts::value<std::vector<std::string>>());
    parser.parse_positional({"file"});
    parser.custom_help("[OPTION...]");
    AdviseOptions options;
    std::string dir = ".", format = "md";
    bool force = false;
    try {
        const auto args = parser.parse(argc, argv);
        if (args.count("help")) {
            out << parser.help() << source_options_help() << "\nExit status: 0 a .cu was written, 1 no nest could be converted (the recipe says why),\n"
                                    "2 usage or input error (nothing written), 3 internal error.\n";
            return kExitOk;
        }
        if (!args.count("file")) {
            err << "recipe: error: advise needs a C file (recipe advise FILE.c --platform NAME)\n";
            return kExitUsage;
        }
        if (args["file"].as<std::vector<std::string>>().size() != 1) {
            err << "recipe: error: advise takes one C file (got " << args["file"].as<std::vector<std::string>>().size() << ")\n";
            return kExitUsage;
        }
        options.input = args["file"].as<std::vector<std::string>>().front();
        std::string e;
        if (!apply_compile_database(options.input, &source, &e)) {
            print_error(err, e);
            return kExitUsage;
        }
        options.build = source.build;
        options.assumptions = source.assumptions;
        options.assume_no_alias = source.assume_no_alias;
        options.platform = args.count("platform") ? args["platform"].as<std::string>() : "h200";
        if (args.count("output-dir")) dir = args["output-dir"].as<std::string>();
        if (args.count("host-memory")) {
            const std::string h = args["host-memory"].as<std::string>();
            if (h == "pinned") options.host_memory = recipe::advisor::HostMemory::Pinned;
            else if (h == "pageable") options.host_memory = recipe::advisor::HostMemory::Pageable;
            else {
                err << "recipe: error: --host-memory " << h << ": expected pinned or pageable\n";
                return kExitUsage;
            }
        }
        if (args.count("kernel-ms"))
            for (const std::string& k : args["kernel-ms"].as<std::vector<std::string>>()) {
                // [NEST=]MS: NEST a nest's number (as the summary gives it), MS > 0.
                const auto eq = k.find('=');
                const std::string nest = eq == std::string::npos ? "" : k.substr(0, eq);
                const std::string ms = eq == std::string::npos ? k : k.substr(eq + 1);
                char* end = nullptr;
                errno = 0;
                const long id = nest.empty() ? 0 : std::strtol(nest.c_str(), &end, 10);
                const bool id_ok = eq == std::string::npos || (!nest.empty() && *end == '\0' && errno != ERANGE && id >= 1 && id <= 1000000000 &&
                                                    std::isdigit(static_cast<unsigned char>(nest[0])));
                const double v = std::strtod(ms.c_str(), &end);
                if (!id_ok || ms.empty() || *end != '\0' || !(v > 0) || !std::isfinite(v)) {
                    err << "recipe: error: --kernel-ms " << k
                        << ": expected [NEST=]MS, a nest's number and a positive number of milliseconds\n";
                    return kExitUsage;
                }
                if (options.kernel_ms.count(static_cast<int>(id))) {
                    err << "recipe: error: --kernel-ms " << k << ": "
                        << (id ? "nest " + nest + " has" : std::string("the file's nest has")) << " a kernel time already\n";
                    return kExitUsage;
                }
                options.kernel_ms[static_cast<int>(id)] = v;
            }
        if (args.count("gpu-memory")) {
            std::string bad;
            if (!recipe::cli::parse_memory_size(args["gpu-memory"].as<std::string>(), &options.gpu_memory_bytes, &bad)) {
                print_error(err, bad);
                return kExitUsage;
            }
        }
        if (args.count("calls")) {
            const std::string c = args["calls"].as<std::string>();
            char* end = nullptr;
            errno = 0;
            const long long v = std::strtoll(c.c_str(), &end, 10);
            if (c.empty() || *end != '\0' || errno == ERANGE || v < 1) {
                err << "recipe: error: --calls " << c << ": expected a whole number of calls, at least 1\n";
                return kExitUsage;
            }
            options.calls = v;
        }
        if (args.count("format")) format = args["format"].as<std::string>();
        if (format != "md" && format != "json") {
            err << "recipe: error: --format " << format << ": expected md or json\n";
            return kExitUsage;
        }
        force = args.count("force") > 0;
        options.convert_all = args.count("convert-all") > 0;
    } catch (const cxxopts::exceptions::exception& e) {
        print_error(err, e.what());
        return kExitUsage;
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
        recipe::recipes::library_include_dir());
    if (format == "json") out << summary_json(result, written, compile).dump(2) << "\n";
    else print_text(result, written, compile, out);
    return result.wrote_cu ? kExitOk : kExitNothingAccepted;
}

}  // namespace

RECIPE_COMMAND("advise", "write a recipe, a .cu file, the plan and pictures for a C file", run_advise);
