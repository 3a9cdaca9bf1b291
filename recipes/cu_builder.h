// cu_builder.h — the emitted .cu: the user's file with, for every converted
// nest, a kernel inserted above its function and the nest (or its time loop)
// replaced by a call into the library; plus the edits C++ needs. The views
// handed to the cu_* templates are built here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "advisor/plan.h"
#include "recipes/cpp_compat.h"
#include "recipes/nest_conversion.h"
#include "recipes/region_plan.h"
#include "recipes/template_store.h"

namespace recipe::recipes {

class CTree;

// A converted nest and the plan it is run with.
struct CuNest {
    const NestConversion* conversion = nullptr;
    const advisor::Prediction* chosen = nullptr;
    double first_ms = -1;  // the process's first call, predicted (advisor/program_time.h); < 0: not predicted
    // Set when the nest runs in a region: one launch on its resident arrays
    // (`launch`: the nest's place among the region's, for its block).
    const RegionOutcome* region = nullptr;
    std::size_t launch = 0;
    int devices = 1;  // GPUs its call runs on (recipe advise --gpus; recipe::Config::devices)
};

struct CuContext {
    std::string source_file;      // "emboss.c", as the recipe names it
    std::string cu_file;          // "emboss.cu"
    std::string recipe_file;      // "emboss.recipe.md"
    std::string platform;         // profile name
    std::string compile_command;  // the nvcc line
    std::int64_t gpu_memory = 0;  // --gpu-memory, bytes: every Config gets it as device_memory (0: none)
    int staging_threads = 0;      // the profile's stagingThreads: staged runs ask for them (0: the library's default)
    // Where recipe::release_async goes (after main's last GPU work, a byte of
    // the analyzed text) and main's CPU work after it; none: no release.
    std::optional<std::uint32_t> release_after = std::nullopt;
    double release_tail_ms = 0;
};

// Library names for the advisor's choices.
const char* library_scheme(advisor::Scheme s);
const char* library_copy(CopyMethod m);

// The values the call template shows, x first: tile sizes (the array's extent
// expression where a tile spans the whole dimension), block and predictions.
std::vector<std::string> tile_exprs(const NestConversion& c, const advisor::Prediction& p);
std::vector<std::string> block_dims(const advisor::Prediction& p);

// `guarded` (optional) holds the macros whose size guard an earlier kernel
// of the file already has.
std::string render_kernel(const TemplateStore& t, const NestConversion& c, const CuContext& ctx,
                          std::set<std::string>* guarded = nullptr);
// The call that replaces the nest; its first line starts where the nest did.
// `first_ms`: the program's first call, predicted (< 0: not predicted).
// `called_in`: the region of a loop that calls the nest's function (the call then says so).
// `devices` > 1: the call runs on that many GPUs (cfg.devices).
std::string render_call(const TemplateStore& t, const NestConversion& c, const advisor::Prediction& p, double first_ms,
                        const CuContext& ctx, std::set<std::string>* taken, const RegionOutcome* called_in = nullptr,
                        int devices = 1);
// A nest of a region: one launch on the arrays the region variable `region_name` holds.
std::string render_region_call(const TemplateStore& t, const NestConversion& c, const RegionOutcome& region,
                               std::size_t launch, const std::string& region_name, const CuContext& ctx);
// What opens a region (before its time loop) and closes it (after it).
std::string render_region(const TemplateStore& t, const RegionOutcome& region, const std::string& region_name,
                          const CuContext& ctx, std::set<std::string>* taken, bool open);
// The user's file (map.original()) with the nests' edits, which are at
// offsets of the preprocessed text, moved into it; `fixes` are already in
// the user's text.
// `cleanup`: edits of the user's text outside the nests (unused_counters.h).
std::string render_cu(const TemplateStore& t, const analyzer::SourceMap& map, const std::vector<CuNest>& nests,
                      const std::vector<CompatFix>& fixes, const std::vector<Edit>& cleanup, const CuContext& ctx,
                      std::set<std::string>* taken);

}  // namespace recipe::recipes
