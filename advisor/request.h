// request.h — what `recipe predict` and `recipe sweep` share: a C file and
// its build flags in, the accepted loop nests as Problems out.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "advisor/plan.h"
#include "analyzer/analyzer.h"
#include "analyzer/preprocessor.h"
#include "analyzer/program.h"

namespace recipe::advisor {

struct NestProblem {
    analyzer::LoopNest nest;
    Problem problem;
};

// Why a request failed; the kind, not the wording, decides the exit code.
struct RequestError {
    enum class Kind {
        Input,            // unreadable or invalid input, a nest asked for that is not there
        NothingAccepted,  // the file was read, but no nest can be priced
    } kind = Kind::Input;
    std::string message;
};

// Analyses `path` and turns the accepted nests (or only nest `nest_id`) into
// Problems. A nest the model cannot take (symbolic sizes, ...) is an error
// when asked for by id, else skipped with a line in *skipped. Fails when
// the file cannot be read or no nest is left.
bool problems_for_file(const std::string& path, const analyzer::BuildFlags& build, const analyzer::AnalyzeOptions& options,
                       std::optional<int> nest_id, std::vector<NestProblem>* out, std::vector<std::string>* skipped,
                       RequestError* error);

}  // namespace recipe::advisor
