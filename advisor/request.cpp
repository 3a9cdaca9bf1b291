#include "advisor/request.h"

#include <algorithm>
#include <cctype>
#include <sstream>


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

bool resolve_kernel_times(std::map<int, double>* times, const std::vector<int>& ids, const std::string& which,
                          std::string* error) {
    auto number = [](double v) {
        std::ostringstream os;
        os << v;
        return os.str();
    };
    std::string listed;
    for (std::size_t i = 0; i < ids.size(); ++i) listed += (i ? ", " : "") + std::to_string(ids[i]);
    if (const auto bare = times->find(0); bare != times->end()) {
        if (ids.size() != 1) {
            *error = "--kernel-ms " + number(bare->second) + ": the file has " + std::to_string(ids.size()) + " " + which +
                     " nests" + (ids.empty() ? std::string() : " (" + listed + ")") +
                     "; say which nest's kernel it is with --kernel-ms NEST=MS (nests as the summary numbers them)";
            return false;
        }
        const double ms = bare->second;
        times->erase(bare);
        (*times)[ids.front()] = ms;
    }
    for (const auto& [id, ms] : *times)
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
            *error = "--kernel-ms " + std::to_string(id) + "=" + number(ms) + ": the file has no " + which + " nest " +
                     std::to_string(id) +
                     (ids.empty() ? " (none is " + which + ")" : " (" + which + ": " + listed + ")");
            return false;
        }
    return true;
}

}  // namespace recipe::advisor
