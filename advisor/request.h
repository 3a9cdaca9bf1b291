// request.h — what `recipe predict` and `recipe sweep` share: an analysed
// C file in, the accepted loop nests as Problems out.
#pragma once

#include <map>
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

// The accepted nests of an analysed file (`path` names it in messages), or
// only nest `nest_id`, as Problems. A nest the model cannot take (symbolic
// sizes, ...) is an error when asked for by id, else skipped with a line in
// *skipped. Fails when no nest is left. (Reading and analysing the file is
// the session's: recipes/session.h.)
bool problems_for_program(const std::string& path, const analyzer::Program& program, std::optional<int> nest_id,
                          std::vector<NestProblem>* out, std::vector<std::string>* skipped, RequestError* error);

// --kernel-ms as given (nest id -> ms; id 0: no NEST= was written) against
// the nests it may name, `ids`, which the messages call `which` nests
// ("accepted", "priced"): a bare value becomes the one nest's, and every id
// must be one of them. One rule for advise, predict and sweep.
bool resolve_kernel_times(std::map<int, double>* times, const std::vector<int>& ids, const std::string& which,
                          std::string* error);

}  // namespace recipe::advisor
