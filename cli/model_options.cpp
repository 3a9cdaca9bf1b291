#include "cli/model_options.h"

#include <optional>

#include "cli/command.h"

#include <cctype>


namespace recipe::cli {

void add_model_options(cxxopts::Options& opts) {
    opts.add_options()
        ("platform", "platform profile: a name (recipe platforms) or a .json path", cxxopts::value<std::string>()->default_value("h200"), "NAME|PATH")
        ("host-memory", "the host arrays are pinned or pageable (default: as the analyzer sees them)", cxxopts::value<std::string>(), "pinned|pageable")
        ("kernel-ms", "measured kernel time for the whole problem, one step (ms)", cxxopts::value<double>(), "X")
        ("gpu-memory", "device memory the plan may use, e.g. 4GiB (default: the profile's)", cxxopts::value<std::string>(), "SIZE")
        ("kernel", "name of the profile's kernel table to use (default: the nest's function)", cxxopts::value<std::string>(), "NAME")
        ("nest", "only the nest with this id", cxxopts::value<int>(), "ID");
}

bool parse_memory_size(const std::string& text, std::int64_t* bytes, std::string* error) {
    std::size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    std::string unit = text.substr(i);
    static const std::pair<const char*, int> kUnits[] = {{"", 0},   {"B", 0},   {"K", 1},   {"KiB", 1}, {"KB", 1},
                                                         {"M", 2},  {"MiB", 2}, {"MB", 2},  {"G", 3},   {"GiB", 3},
                                                         {"GB", 3}, {"T", 4},   {"TiB", 4}, {"TB", 4}};
    int power = -1;
    for (const auto& [name, p] : kUnits)
        if (unit == name) power = p;
    if (i == 0 || i > 15 || power < 0) {
        *error = "--gpu-memory " + text + ": expected a size such as 4GiB, 512MiB or a number of bytes";
        return false;
    }
    std::int64_t v = std::stoll(text.substr(0, i));
    for (int k = 0; k < power; ++k) {
        if (v > (std::int64_t{1} << 52)) {
            *error = "--gpu-memory " + text + ": too large";
            return false;
        }
        v *= 1024;
    }
    if (v <= 0) {
        *error = "--gpu-memory " + text + ": must be more than 0 bytes";
        return false;
    }
    *bytes = v;
    return true;
}

bool parse_model_options(const cxxopts::ParseResult& args, advisor::ModelOptions* model, std::string* error) {
    if (args.count("gpu-memory") && !parse_memory_size(args["gpu-memory"].as<std::string>(), &model->gpu_memory_bytes, error))
        return false;
    if (args.count("host-memory")) {
        const std::string h = args["host-memory"].as<std::string>();
        if (h == "pinned") model->host_memory = advisor::HostMemory::Pinned;
        else if (h == "pageable") model->host_memory = advisor::HostMemory::Pageable;
        else {
            *error = "--host-memory must be pinned or pageable, not '" + h + "'";
            return false;
        }
    }
    if (args.count("kernel-ms")) {
        const double k = args["kernel-ms"].as<double>();
        if (!(k > 0)) {
            *error = "--kernel-ms must be a positive number of milliseconds";
            return false;
        }
        model->kernel_ms = k;
    }
    return true;
}

int read_model_request(const cxxopts::ParseResult& args, SourceOptions* source, ModelRequest* request, std::string* error) {
    const std::string file = args["file"].as<std::string>();
    if (!parse_model_options(args, &request->model, error)) return kExitUsage;
    if (!apply_compile_database(file, source, error)) return kExitUsage;
    analyzer::AnalyzeOptions analysis;
    analysis.assumptions = source->assumptions;
    analysis.assume_no_alias = source->assume_no_alias;
    if (!advisor::find_platform(args["platform"].as<std::string>(), &request->platform, error)) return kExitUsage;
    std::optional<int> nest_id;
    if (args.count("nest")) nest_id = args["nest"].as<int>();
    advisor::RequestError failure;
    if (!advisor::problems_for_file(file, source->build, analysis, nest_id, &request->nests, &request->skipped, &failure)) {
        *error = failure.message;
        return failure.kind == advisor::RequestError::Kind::NothingAccepted ? kExitNothingAccepted : kExitUsage;
    }
    return kExitOk;
}

}  // namespace recipe::cli
