#include "cli/model_options.h"

#include "advisor/measured_host.h"
#include "recipes/session.h"

#include <map>
#include <optional>

namespace recipe::cli {

namespace {

// --kernel-ms: each nest's own (NEST=MS); a bare MS needs one nest priced.
bool apply_kernel_times(std::map<int, double> times, std::vector<advisor::NestProblem>* nests, CommandError* error) {
    std::vector<int> priced;
    for (const auto& np : *nests) priced.push_back(np.nest.id);
    if (!advisor::resolve_kernel_times(&times, priced, "priced", &error->message)) return false;
    for (auto& np : *nests)
        if (const auto t = times.find(np.nest.id); t != times.end()) np.problem.kernel_ms = t->second;
    return true;
}

}  // namespace

bool read_model_request(const CommandInfo& info, ParsedCommand* cmd, ModelRequest* request, CommandError* error) {
    const cxxopts::ParseResult& args = cmd->args;
    std::map<int, double> kernel_times;
    std::int64_t nest = 0;
    if (!read_host_memory(args, &request->model.host_memory, error) || !read_gpu_memory(args, &request->model.gpu_memory_bytes, error) ||
        !read_kernel_ms(args, &kernel_times, error) || !read_count(args, "nest", 1, 1000000000, &nest, error) ||
        !one_c_file(info, cmd, &request->file, error))
        return false;
    if (!advisor::find_platform(platform_name(args), &request->platform, &error->message)) return false;
    analyzer::AnalyzeOptions analysis;
    analysis.assumptions = cmd->source.assumptions;
    analysis.assume_no_alias = cmd->source.assume_no_alias;
    advisor::RequestError failure;
    const std::optional<int> nest_id = nest ? std::optional<int>(static_cast<int>(nest)) : std::nullopt;
    const recipes::RealFileSystem fs;
    if (!recipes::problems_for_file(fs, request->file, cmd->source.build, analysis, nest_id, &request->nests, &request->skipped,
                                    &failure)) {
        error->message = failure.message;
        error->kind = failure.kind == advisor::RequestError::Kind::NothingAccepted ? CommandError::Kind::NothingAccepted
                                                                                    : CommandError::Kind::Usage;
        return false;
    }
    if (args.count("kernel"))
        for (auto& np : request->nests) np.problem.kernel_name = args["kernel"].as<std::string>();
    if (!apply_kernel_times(kernel_times, &request->nests, error)) return false;
    // Last, once the file and the options are known to be good: it takes a second or two.
    if (args.count("measure-host")) {
        const advisor::RememberedHost host = advisor::remember_host_reading(advisor::measure_host_cpu(false));
        if (!host.warning.empty()) request->warnings.push_back(host.warning);
        advisor::use_measured_host(host, &request->platform);
    }
    return true;
}

}  // namespace recipe::cli
