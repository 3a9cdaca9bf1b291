// advise.h — `recipe advise` as a function: a C file and a platform in; the
// files to write (recipe, .cu, plan JSON, pictures), the warnings and what
// happened to every nest out. Reads through a FileSystem; writes and prints
// nothing (cli/advise_command.cpp does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "advisor/host_record.h"
#include "advisor/plan.h"
#include "advisor/platform.h"
#include "advisor/program_time.h"
#include "analyzer/program.h"
#include "analyzer/translation_unit.h"
#include "recipes/cpp_compat.h"
#include "recipes/file_system.h"
#include "recipes/nest_conversion.h"
#include "recipes/output_writer.h"
#include "recipes/region_plan.h"

namespace recipe::recipes {

struct AdviseOptions {
    std::string input;     // the C file, as given
    std::string platform;  // a stored profile's name or a profile's path
    analyzer::BuildFlags build;  // the user's preprocessor and flags
    std::vector<std::pair<std::string, std::string>> assumptions;  // --assume NAME=VALUE
    bool assume_no_alias = false;
    std::optional<advisor::HostMemory> host_memory;            // --host-memory
    // --kernel-ms [NEST=]MS: the nest's measured kernel time, by nest id;
    // id 0 stands for the file's only accepted nest.
    std::map<int, double> kernel_ms;
    std::int64_t gpu_memory_bytes = 0;                         // --gpu-memory (0: the profile's)
    std::int64_t calls = 1;  // --calls: how often the program runs each nest (a time loop's steps come on top)
    bool convert_all = false;  // --convert-all: the comparison with the CPU informs, it does not decide
    // --gpus N: the most GPUs a call or region may run on (recipe::Config::devices);
    // each converted one runs on as many of 1 ... N as the program is fastest with.
    int gpus = 1;
    // --all-gpus: every call and region that can be cut runs on all `gpus`,
    // whatever is fastest (to measure them; the recipe still gives the prices).
    bool all_gpus = false;
    // --measure-host: this machine's host figures, measured by the caller
    // and combined with its recent readings (advisor/host_record.h), in
    // place of the profile's (advisor/measured_host.h).
    std::optional<advisor::RememberedHost> measured_host;
    // Called as the per-nest stages go ("planning", "converting", "drawing"),
    // from the calling thread; the CLI shows it when a run is slow.
    std::function<void(const char* stage, std::size_t done, std::size_t total)> progress;
};

enum class Verdict {
    Converted,    // in the .cu: kernel + library call
    RecipeOnly,   // planned and convertible, left out of the .cu (why says why)
    NotConverted, // planned, but the generator cannot convert it faithfully
    NotPlanned,   // accepted by the analyzer, but the model cannot plan it
    KeptOnCpu,    // convertible, but the program is faster with it on the CPU (why gives both times)
    Rejected,     // not a stenciled map/zip nest
};
const char* to_string(Verdict v);

struct NestOutcome {
    const analyzer::LoopNest* nest = nullptr;
    Verdict verdict = Verdict::Rejected;
    std::string why;  // for every verdict but Converted: one sentence
    bool planned = false;
    advisor::Plan plan;
    NestConversion conversion;  // ok when the generator could convert it
    std::vector<advisor::TimelineEvent> timeline;
    // The nest in the user's program (advisor/program_time.h); set when the
    // profile has host figures and the nest was converted or kept on the CPU.
    std::optional<advisor::CpuEstimate> cpu;
    advisor::ProgramTime in_program;
    int region = -1;  // index into AdviseResult::regions when the nest runs in one
    std::string tile_chart;      // file names, "" when not drawn
    std::string timeline_chart;
    GpuChoice gpus;  // the GPUs its call runs on (recipe advise --gpus)
    const advisor::Prediction* chosen() const { return planned && !plan.ranked.empty() ? &plan.ranked.front() : nullptr; }
    // The call as the program runs it: the chosen plan on one GPU, or on gpus.devices.
    const advisor::Prediction* running() const { return gpus.devices > 1 ? &gpus.run.prediction : chosen(); }
};

struct AdviseResult {
    std::string source_file;  // the input's file name, as outputs name it
    std::string stem;
    std::string source;
    analyzer::TranslationUnit unit;  // the file through the user's preprocessor, and its analysis
    const analyzer::Program& program() const { return unit.program; }
    advisor::Platform platform;
    std::vector<NestOutcome> nests;
    std::vector<RegionOutcome> regions;  // time loops whose nests run with their arrays resident
    std::vector<std::string> region_notes;  // time loops whose converted nests run step by step, and why
    std::vector<CompatFix> fixes;  // C -> C++ edits in the .cu
    std::vector<OutputFile> files;
    std::vector<std::string> diagnostics;  // `file:line:col: warning: ... [rule]` lines for stderr
    std::string compile_command;           // as the recipe gives it
    std::string host_optimization;         // its -O level (host_optimization)
    std::string nvcc_flags;                // the user's flags the .cu needs, each after a blank
    bool wrote_cu = false;
    // The planned nests together: on the CPU, and as the emitted program runs
    // them (CUDA's start-up once, when any nest runs on the GPU).
    struct ProgramSummary {
        bool compared = false;  // the profile has host figures
        double cuda_startup_ms = 0;
        double pool_setup_ms = 0;    // allocating the largest call's blocks, on the start-up thread (recipe::PoolSize)
        int gpus = 1;                // the most GPUs a call or region on the GPU runs on
        double gpus_startup_ms = 0;  // starting the further GPUs' contexts, on the start-up thread
        double nccl_init_ms = 0;     // making NCCL's communicators, on the start-up thread (a region over several exchanges halos)
        double gpus_exit_ms = 0;     // of teardown_ms, the further GPUs' contexts and NCCL's communicators torn down at exit
        double startup_paid_ms = 0;  // what the work before the first call does not hide, of both
        double teardown_ms = 0;      // CUDA's teardown when the program exits, gpus_exit_ms included
        // Where the .cu calls recipe::release_async (the byte of the analyzed
        // text after main's last GPU work, main_work.h), and main's CPU work
        // after it, which hides the release; none: the exit pays it whole.
        std::optional<std::uint32_t> release_after;
        int release_line = 0;  // the user's line of that statement
        double release_tail_ms = 0;
        double cpu_ms = 0;
        double gpu_ms = 0;
        bool runs_on_gpu = false;
        std::string note;  // why the comparison was not made, or a caveat
    } program_summary;
    int accepted() const;
};

// Whether `name` is one of the files advise writes for an input of this
// stem (the recipe, .cu, plan and any nest's picture).
bool is_output_name(const std::string& stem, const std::string& name);

// The nvcc command line for the emitted file (also in the recipe).
// `flags` are the user's preprocessor flags, each after a blank.
// `optimization` is the host code's level (host_optimization).
std::string compile_command(const std::string& cu_file, const std::string& program_name, const std::string& flags,
                            const std::string& include_dir, const std::string& optimization);

// The nvcc option that builds the host code at the user's C build's -O
// level (the last -O of their flags), -O2 when they name none.
std::string host_optimization(const analyzer::BuildFlags& build);

// The flags of the user's build that the .cu needs: -I, -D, -U, -include,
// -isystem, -iquote (not -std=, which names a C standard, nor what nvcc
// would not take), shell-quoted, each after a blank.
std::string flags_for_nvcc(const analyzer::BuildFlags& build);

// Where recipe/recipe.cuh lives on this machine, for the command line printed
// on stdout (the recipe itself stays machine-independent): $RECIPE_INCLUDE,
// the source tree's library/include, or the install prefix's include.
std::string library_include_dir();

// User errors (unreadable input, unknown platform, a file that is not C)
// return false with `error`; a nest that fails does not stop the others.
bool advise(const FileSystem& fs, const AdviseOptions& options, AdviseResult* result, std::string* error);

}  // namespace recipe::recipes
