// session.h — the steps every command takes, in order: read → preprocess →
// analyze → plan → render. `recipe analyze` stops after the analysis,
// predict and sweep after the nests' problems, advise goes on to the plans
// and the outputs (recipes/advise.h). The user's C file is read here alone,
// through the FileSystem interface; the outputs are written through it too
// (recipes/output_writer.h). Platform profiles are read by the advisor
// (advisor/platform.h: by name from the binary or $RECIPE_PLATFORM_DIR, or a
// path the user gave).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "advisor/request.h"
#include "analyzer/translation_unit.h"
#include "recipes/file_system.h"

namespace recipe::recipes {

// Read → preprocess (the user's compiler, with `build`) → analyze.
bool analyze_file(const FileSystem& fs, const std::string& file, const analyzer::BuildFlags& build,
                  const analyzer::AnalyzeOptions& options, analyzer::TranslationUnit* unit, std::string* error);

// analyze_file, then the accepted nests (or only `nest_id`) as the model's
// problems (advisor::problems_for_program).
bool problems_for_file(const FileSystem& fs, const std::string& file, const analyzer::BuildFlags& build,
                       const analyzer::AnalyzeOptions& options, std::optional<int> nest_id,
                       std::vector<advisor::NestProblem>* out, std::vector<std::string>* skipped,
                       advisor::RequestError* error);

}  // namespace recipe::recipes
