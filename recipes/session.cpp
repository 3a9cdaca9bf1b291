#include "recipes/session.h"

#include <utility>

#include "analyzer/translation_unit.h"

namespace recipe::recipes {

bool analyze_file(const FileSystem& fs, const std::string& file, const analyzer::BuildFlags& build,
                  const analyzer::AnalyzeOptions& options, analyzer::TranslationUnit* unit, std::string* error) {
    std::string text;
    if (!fs.read(file, &text, error)) return false;
    return analyzer::analyze_translation_unit(file, std::move(text), build, options, unit, error);
}

bool problems_for_file(const FileSystem& fs, const std::string& file, const analyzer::BuildFlags& build,
                       const analyzer::AnalyzeOptions& options, std::optional<int> nest_id,
                       std::vector<advisor::NestProblem>* out, std::vector<std::string>* skipped,
                       advisor::RequestError* error) {
    analyzer::TranslationUnit unit;
    std::string why;
    if (!analyze_file(fs, file, build, options, &unit, &why)) {
        if (error) *error = {advisor::RequestError::Kind::Input, why};
        return false;
    }
    return advisor::problems_for_program(file, unit.program, nest_id, out, skipped, error);
}

}  // namespace recipe::recipes
