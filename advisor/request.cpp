#include "advisor/request.h"

#include <cctype>

#include "analyzer/analyzer.h"

namespace recipe::advisor {

bool parse_define(const std::string& text, std::pair<std::string, std::string>* define, std::string* error) {
    const auto eq = text.find('=');
    const std::string name = text.substr(0, eq);
    bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ok) {
        if (error) *error = "-D '" + text + "': expected NAME=VALUE";
        return false;
    }
    *define = {name, eq == std::string::npos ? "1" : text.substr(eq + 1)};
    return true;
}

bool problems_for_file(const std::string& path, const std::vector<std::pair<std::string, std::string>>& defines,
                       std::optional<int> nest_id, std::vector<NestProblem>* out, std::vector<std::string>* skipped,
                       std::string* error) {
    analyzer::AnalyzeOptions options;
    options.defines = defines;
    analyzer::Program program;
    if (!analyzer::analyze_file(path, options, &program, error)) return false;
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
        if (error) {
            *error = path + ": no loop nest the advisor can price";
            if (skipped && !skipped->empty()) *error += " (" + skipped->front() + ")";
        }
        return false;
    }
    return true;
}

}  // namespace recipe::advisor
