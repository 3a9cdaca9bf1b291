// recipe_view.h — the markdown recipe: the thesis's three steps (§6.5) made
// concrete for the user's file (names, line numbers, the chosen parameters),
// then why this plan, caveats, and for each rejected nest why and what would
// make it legal. Builds the view for templates/recipe.md.mustache.
#pragma once

#include <string>

#include "recipes/advise.h"
#include "recipes/template_store.h"

namespace recipe::recipes {

// Number formats shared by the recipe and the summary.
std::string format_ms(double ms);
std::string format_speedup(double factor);
std::string format_bytes(double bytes);  // "16.0 KiB", "244.1 MiB", "1.50 GiB"
std::string format_tile(const Index3& tile, int dims);  // "8000 × 250"

// The command line that made the outputs, with file names only.
std::string command_line(const AdviseOptions& options, const std::string& source_file, const std::string& platform);

std::string render_recipe(const TemplateStore& templates, const AdviseResult& result, const AdviseOptions& options);

}  // namespace recipe::recipes
