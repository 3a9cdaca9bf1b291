// model_options.h — what `recipe predict` and `recipe sweep` read before
// they price anything: the model's options, the file's build (its compile
// database applied), the platform and the nests.
#pragma once

#include <string>
#include <vector>

#include "advisor/plan.h"
#include "advisor/platform.h"
#include "advisor/request.h"
#include "cli/options.h"

namespace recipe::cli {

struct ModelRequest {
    std::string file;
    advisor::ModelOptions model;
    advisor::Platform platform;
    std::vector<advisor::NestProblem> nests;  // all accepted ones, or --nest's; each with its --kernel-ms and --kernel
    std::vector<std::string> skipped;         // notes on nests the model cannot take
    std::vector<std::string> warnings;        // e.g. --measure-host's record could not be written
};
bool read_model_request(const CommandInfo& info, ParsedCommand* cmd, ModelRequest* request, CommandError* error);

}  // namespace recipe::cli
