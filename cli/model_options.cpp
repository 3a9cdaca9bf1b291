#include "cli/model_options.h"


namespace recipe::cli {

void add_model_options(cxxopts::Options& opts) {
    opts.add_options()
        ("platform", "platform profile: a name (recipe platforms) or a .json path", cxxopts::value<std::string>()->default_value("h200"))
        ("host-memory", "the host arrays are pinned or pageable (default: as the analyzer sees them)", cxxopts::value<std::string>())
        ("kernel-ms", "measured kernel time for the whole problem, one step (ms)", cxxopts::value<double>())
        ("kernel", "name of the profile's kernel table to use (default: the nest's function)", cxxopts::value<std::string>())
        ("nest", "only the nest with this id", cxxopts::value<int>());
}

bool parse_model_options(const cxxopts::ParseResult& args, advisor::ModelOptions* model, std::string* error) {
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

}  // namespace recipe::cli
