// recipe_sections.h — the views of one nest's part of the recipe: what the
// nest is, the conversion steps, why this plan, caveats, and for a rejected
// nest the diagnostics and what would make it legal.
#pragma once

#include "analyzer/report.h"

#include <string>

#include <kainjow/mustache.hpp>

#include "recipes/advise.h"
#include "recipes/template_store.h"

namespace recipe::recipes {

struct RecipeContext {
    const TemplateStore& templates;
    const AdviseResult& result;
    const AdviseOptions& options;
    std::string cu_file, recipe_file, plan_file;
    analyzer::SourceLines source_lines;  // the user's file, for the diagnostics shown
};

kainjow::mustache::data nest_description_view(const NestOutcome& n);
kainjow::mustache::data conversion_view(const RecipeContext& x, const NestOutcome& n);
kainjow::mustache::data why_view(const RecipeContext& x, const NestOutcome& n);
kainjow::mustache::data caveats_view(const RecipeContext& x, const NestOutcome& n);
kainjow::mustache::data rejected_view(const RecipeContext& x, const NestOutcome& n);
kainjow::mustache::data program_view(const AdviseResult& r, const RecipeContext& x);
// --gpus N: how many GPUs a call or region runs on and why (templates/recipe_gpus.md);
// false without --gpus.
kainjow::mustache::data gpus_view(const RecipeContext& x, const GpuChoice& choice, bool region);
// The same rendered (its section of the recipe, without the final newline), or false.
kainjow::mustache::data gpus_text(const RecipeContext& x, const GpuChoice& choice, bool region);
// The time loops whose nests run with their arrays resident (recipes/region_plan.h).
kainjow::mustache::data regions_view(const AdviseResult& r, const RecipeContext& x);

}  // namespace recipe::recipes
