#include "advisor/request.h"

#include <cctype>


namespace recipe::advisor {

bool problems_for_program(const std::string& path, const analyzer::Program& program, std::optional<int> nest_id,
                          std::vector<NestProblem>* out, std::vector<std::string>* skipped, RequestError* failure) {
    std::string unused;
    std::string* error = failure ? &failure->message : &unused;  // kind Input unless set below
    bool found_id = false;
    for (const auto& nest : program.nests) {
        if (nest_id && nest.id != *nest_id) continue;
        found_id = true;
        const std::string where = path + ":" + std::to_string(nest.span.begin.line) + ":" +
                                  std::to_string(nest.span.begin.column);
        if (!nest.accepted) {
            const std::string why = nest.reasons.empty() ? "not a stenciled map/zip" : nest.reasons.front().message;
            if (nest_id) {
                if (error) *error = where + ": error: nest " + std::to_string(nest.id) + " was not accepted: " + why;
                return false;
            }
            continue;
        }
        NestProblem np;
        np.nest = nest;
        std::string e;
        if (!problem_from(nest, &np.problem, &e)) {
            if (nest_id) {
                if (error) *error = where + ": error: " + e;
                return false;
            }
            if (skipped) skipped->push_back(where + ": note: nest " + std::to_string(nest.id) + " skipped: " + e);
            continue;
        }
        out->push_back(std::move(np));
    }
    if (nest_id && !found_id) {
        if (error) *error = path + ": no loop nest with id " + std::to_string(*nest_id);
        return false;
    }
    if (out->empty()) {
        if (failure) {
            failure->kind = RequestError::Kind::NothingAccepted;
            failure->message = path + ": no loop nest the advisor can price";
            if (skipped && !skipped->empty()) failure->message += " (" + skipped->front() + ")";
        }
        return false;
    }
    return true;
}

}  // namespace recipe::advisor
