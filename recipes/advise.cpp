#include "recipes/advise.h"
#include "recipes/unused_counters.h"

#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "advisor/measured_host.h"
#include "advisor/request.h"
#include "analyzer/analyzer.h"
#include "analyzer/report.h"
#include "recipes/c_declarations.h"
#include "recipes/c_tree.h"
#include "recipes/cu_builder.h"
#include "recipes/main_work.h"
#include "recipes/plan_json.h"
#include "recipes/recipe_view.h"
#include "recipes/session.h"
#include "recipes/svg_charts.h"
#include "recipes/tasks.h"
#include "recipes/template_store.h"

namespace recipe::recipes {

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::Converted: return "converted";
        case Verdict::RecipeOnly: return "recipe-only";
        case Verdict::NotConverted: return "not-converted";
        case Verdict::NotPlanned: return "not-planned";
        case Verdict::KeptOnCpu: return "kept-on-cpu";
        case Verdict::Rejected: return "rejected";
    }
    return "?";
}

int AdviseResult::accepted() const {
    int n = 0;
    for (const auto& x : nests) n += x.nest->accepted ? 1 : 0;
    return n;
}

bool is_output_name(const std::string& stem, const std::string& name) {
    if (name.size() <= stem.size() + 1 || name.compare(0, stem.size() + 1, stem + ".") != 0) return false;
    const std::string rest = name.substr(stem.size() + 1);
    if (rest == "recipe.md" || rest == "cu" || rest == "plan.json") return true;
    // nest<N>.tile-size.svg, nest<N>.pipeline.svg
    if (rest.rfind("nest", 0) != 0) return false;
    std::size_t i = 4;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) ++i;
    return i > 4 && (rest.substr(i) == ".tile-size.svg" || rest.substr(i) == ".pipeline.svg");
}

std::string compile_command(const std::string& cu_file, const std::string& program_name, const std::string& flags,
                            const std::string& include_dir, const std::string& optimization) {
    // --fmad=false: the kernels round as the C program does (recipe caveat).
    return "nvcc " + optimization + " -std=c++17 -arch=native --fmad=false -I" + include_dir + flags + " " + cu_file +
           " -o " + program_name;
}

std::string host_optimization(const analyzer::BuildFlags& build) {
    // The user's C build's level, so that the code around the converted
    // nests runs as fast as it did: the comparison with the C program is then
    // about the nests alone. nvcc's -O is the host code's level (device code
    // is optimised whatever it says); the levels nvcc does not take go to the
    // host compiler as they are. Without a level given, -O2: the usual one.
    std::string level = "-O2";
    for (const auto& a : build.args)
        if (a.rfind("-O", 0) == 0) level = a;
    if (level == "-O") return "-O1";
    if (level == "-O0" || level == "-O1" || level == "-O2" || level == "-O3") return level;
    return "-Xcompiler=" + level;
}


std::string flags_for_nvcc(const analyzer::BuildFlags& build) {
    std::string s;
    const auto& a = build.args;
    for (std::size_t i = 0; i < a.size(); ++i) {
        for (const char* two : {"-I", "-include", "-isystem", "-iquote", "-D", "-U"})
            if (a[i] == two && i + 1 < a.size()) {
                s += " " + a[i] + " " + analyzer::shell_quote(a[i + 1]);
                ++i;
                goto next;
            }
        for (const char* glued : {"-I", "-D", "-U"})
            if (a[i].size() > 2 && a[i].compare(0, 2, glued) == 0) {
                s += " " + analyzer::shell_quote(a[i]);
                goto next;
            }
    next:;
    }
    return s;
}

std::string library_include_dir() {
    if (const char* env = std::getenv("RECIPE_INCLUDE"); env && *env) return env;
    std::error_code ec;
    const std::filesystem::path source = std::filesystem::path(RECIPE_SOURCE_DIR) / "library" / "include";
    if (std::filesystem::exists(source / "recipe" / "recipe.cuh", ec)) return source.string();
    return (std::filesystem::path(RECIPE_INSTALL_DATADIR).parent_path().parent_path() / "include").string();
}

namespace {

// The ranked plans kept per nest: the recipe shows five, the plan JSON ten
// (the search may rank thousands; their JSON would run to megabytes).
constexpr std::size_t kRankedKept = 10;

std::string base_name(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string stem_of(const std::string& file) {
    const auto dot = file.rfind('.');
    return dot == std::string::npos || dot == 0 ? file : file.substr(0, dot);
}

// The first line of a diagnostic, as analyze prints it.
const auto warning_line = analyzer::diagnostic_line;

std::string names_list(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + ("`" + names[i] + "`");
    return s;
}

// Flat accesses (`a[y * W + x]`) compute their index in the loop
// variables' type: an array with more elements than that type holds is
// indexed wrongly, by the C program too. One warning per array.
void index_overflow_warnings(const CTree& tree, const analyzer::LoopNest& nest, const std::string& file,
                             std::vector<std::string>* out) {
    std::string narrow;  // the declared type of a loop variable, when 32-bit
    std::int64_t limit = 0;
    for (const auto& l : nest.iteration_space) {
        Declaration d;
        if (!find_declaration(tree, l.var, nest.span.begin_byte, &d)) continue;
        const std::string t = d.type;
        if (t.find("long") != std::string::npos || t.find("size_t") != std::string::npos || t.find("64") != std::string::npos ||
            t.find("ptrdiff") != std::string::npos || t.find("int") == std::string::npos)
            continue;
        narrow = t;
        limit = t.find("unsigned") != std::string::npos ? 4294967295LL : 2147483647LL;
    }
    if (narrow.empty()) return;
    for (const auto* arrays : {&nest.input_arrays, &nest.output_arrays})
        for (const auto& a : *arrays) {
            if (a.layout != analyzer::ArrayLayout::Flat || a.accesses.empty() || a.size.size() < 2) continue;
            double elements = 1;
            for (const auto& e : a.size) elements *= e.value ? static_cast<double>(*e.value) : 0.0;
            if (elements <= static_cast<double>(limit)) continue;
            char count[32];
            std::snprintf(count, sizeof count, "%.3g", elements);
            out->push_back(warning_line(file, a.accesses.front().span.begin, "warning",
                                        "'" + a.accesses.front().text + "' computes its index in `" + narrow + "`, but `" + a.name +
                                            "` has " + count + " elements, more than `" + narrow + "` holds (" + std::to_string(limit) +
                                            "): the C program indexes it wrongly too; declare the loop variables `long` or `size_t`",
                                        "index-overflow"));
        }
}

// The advisor's search for one accepted nest (thread-safe: it reads only
// its arguments). Sets planned, plan, timeline, or the NotPlanned verdict.
void plan_nest(const advisor::Platform& platform, const AdviseOptions& options, NestOutcome* out) {
    advisor::SearchOptions search;
    search.model.host_memory = options.host_memory;
    if (const auto k = options.kernel_ms.find(out->nest->id); k != options.kernel_ms.end()) search.model.kernel_ms = k->second;
    search.model.gpu_memory_bytes = options.gpu_memory_bytes;
    search.keep = kRankedKept;
    std::string error;
    if (!advisor::advise(*out->nest, platform, search, &out->plan, &error) || out->plan.ranked.empty()) {
        out->verdict = Verdict::NotPlanned;
        out->why = error.empty() ? "the search found no plan." : error + (error.back() == '.' ? "" : ".");
        return;
    }
    out->planned = true;
    out->timeline = advisor::timeline(out->plan.ranked.front(), platform, 8);
}

// Converts a planned nest; fills the outcome's verdict. Sequential: kernel
// names are made unique in nest order.
void convert_planned(const CTree& tree, const analyzer::SourceMap& map, std::set<std::string>* taken,
                     NestOutcome* out) {
    out->conversion = convert_nest(tree, *out->nest, taken, &map);
    if (!out->conversion.ok) {
        out->verdict = Verdict::NotConverted;
        out->why = "the generator cannot convert it faithfully: " + out->conversion.why_not + ".";
    } else if (!out->conversion.inexact_calls.empty()) {
        out->verdict = Verdict::RecipeOnly;
        out->why = "its body calls " + names_list(out->conversion.inexact_calls) +
                   ", which CUDA computes to within a few units in the last place but not exactly as the C library "
                   "does, so on the GPU the program's results would change in their last bits.";
    } else {
        out->verdict = Verdict::Converted;
    }
}

std::string ms_text(double ms) { return format_ms(ms) + " ms"; }

// How often the program runs a converted nest's library call: --calls, times
// the steps of a time loop that calls it once per step.
std::int64_t calls_of(const NestOutcome& n, const AdviseOptions& options, bool* steps_unknown) {
    std::int64_t calls = std::max<std::int64_t>(1, options.calls);
    if (n.conversion.step_by_step && n.nest->time_loop) {
        if (const auto& v = n.nest->time_loop->iterations.value; v && *v > 0) calls *= *v;
        else *steps_unknown = true;
    }
    return calls;
}

// What the decision against the CPU weighs: a converted nest, or a region
// (its nests together, run once per --calls).
struct Unit {
    std::vector<NestOutcome*> nests;
    RegionOutcome* region = nullptr;
    const advisor::Prediction* gpu = nullptr;  // the plan it runs with
    advisor::ProgramTime t;
    double hidden_ms = 0;  // of CUDA's start-up, by filling the unit's inputs
    std::string what() const {
        if (!region) return "it";
        return (region->kind == RegionKind::TimeLoop      ? "the time loop at lines "
                : region->kind == RegionKind::CallerLoop ? "the loop calling " + region->callee + "() at lines "
                                                         : std::string("the nests at lines ")) +
               std::to_string(region->first_line) + "-" + std::to_string(region->last_line) +
               " (its " + std::to_string(nests.size()) + (nests.size() == 1 ? " nest" : " nests") + " with the arrays kept on the GPU)";
    }
};

// Each converted nest's CPU time and its time in the program on the GPU;
// false (with the summary's note) when the profile cannot price the CPU.
bool price_nests(const AdviseOptions& options, AdviseResult* r) {
    auto& summary = r->program_summary;
    std::string error;
    for (auto& n : r->nests) {
        if (n.verdict != Verdict::Converted) continue;
        advisor::CpuEstimate cpu;
        if (!advisor::cpu_time(n.chosen()->problem, r->platform, &cpu, &error)) {
            summary.note = error + "; every convertible nest is converted without comparing with the CPU";
            return false;
        }
        bool steps_unknown = false;
        n.cpu = cpu;
        n.in_program = advisor::program_time(*n.running(), cpu, r->platform, calls_of(n, options, &steps_unknown),
                                             n.gpus.devices);
        if (steps_unknown)
            summary.note = "a time loop's step count is unknown: its nest is priced as one call per --calls";
    }
    return true;
}

// What is decided as one: each region, and each priced nest outside one.
std::vector<Unit> decision_units(const AdviseOptions& options, AdviseResult* r) {
    const advisor::Platform& platform = r->platform;
    std::vector<Unit> units;
    for (auto& region : r->regions) {
        Unit u;
        u.region = &region;
        u.gpu = &region.running();
        const double steps = static_cast<double>(region.problem.steps * region.calls_per_step);
        double first = 0, warm = 0;
        for (const std::size_t i : region.nests) {
            NestOutcome& n = r->nests[i];
            u.nests.push_back(&n);
            first += n.cpu->first_ms + (steps - 1) * n.cpu->ms;
            warm += steps * n.cpu->ms;
        }
        const advisor::Prediction& gpu = region.running();
        u.t.calls = std::max<std::int64_t>(1, options.calls);
        u.t.cpu_first_ms = first;
        u.t.cpu_ms = warm;
        u.t.gpu_warm_ms = gpu.total_ms;
        // Arrays the region copies in were written by the host before, unless
        // their pages still are zero pages: only the others' pages are fresh
        // on its first run.
        u.t.gpu_first_ms =
            gpu.total_ms + advisor::first_call_extra_ms(gpu, platform, region_fresh_bytes(region), region.gpus.devices);
        u.hidden_ms = advisor::hidden_startup_ms(u.nests.front()->chosen()->problem, platform);
        region.in_program = u.t;
        region.compared = true;
        units.push_back(u);
    }
    for (auto& n : r->nests)
        if (n.cpu && n.region < 0) {
            Unit u;
            u.nests.push_back(&n);
            u.gpu = n.running();
            u.t = n.in_program;
            u.hidden_ms = advisor::hidden_startup_ms(n.chosen()->problem, platform);
            units.push_back(u);
        }
    return units;
}

void keep_on_cpu(Unit& u, const std::string& why) {
    if (u.region) u.region->converted = false;
    for (NestOutcome* n : u.nests) {
        n->verdict = Verdict::KeptOnCpu;
        n->why = u.region ? u.what() + " is kept on the CPU: " + why : why;
    }
}

// The decision against the CPU (advisor/program_time.h): each converted nest
// or region stays on the GPU when it saves time there, and the ones that do
// must together save more than CUDA's start-up, which the program pays once.
void decide_against_cpu(const CTree& tree, const AdviseOptions& options, AdviseResult* r) {
    auto& summary = r->program_summary;
    summary.cuda_startup_ms = advisor::cuda_startup_ms(r->platform, options.gpus);
    if (!price_nests(options, r)) return;
    summary.compared = true;
    std::vector<Unit> units = decision_units(options, r);
    double saving = 0;
    std::vector<Unit*> on_gpu;
    for (auto& u : units) {
        summary.cpu_ms += u.t.cpu_total_ms();
        if (u.t.saving_ms() > 0 || options.convert_all) {
            saving += u.t.saving_ms();
            on_gpu.push_back(&u);
            continue;
        }
        keep_on_cpu(u, "on the CPU it takes about " + ms_text(u.t.cpu_total_ms()) + ", on the GPU " +
                           ms_text(u.t.gpu_total_ms()) + " (" + std::to_string(u.t.calls) +
                           (u.t.calls == 1 ? " call" : " calls") +
                           (u.t.gather_ms > 0 ? ", transfers and the gathering of its row-pointer arrays included"
                                              : ", transfers included") +
                           "), before CUDA's start-up.");
    }
    // The start-up overlaps the program's work before its first call: at
    // least the filling of the inputs (the least of them: any converted unit
    // may come first), or the nests main() keeps on the CPU before it, when
    // the file shows them.
    double hidden = -1;
    for (const Unit* u : on_gpu) hidden = hidden < 0 ? u->hidden_ms : std::min(hidden, u->hidden_ms);
    hidden = std::max({0.0, hidden, work_before_first_call(tree, *r, r->platform)});
    // The start-up thread then allocates the largest call's device and staging
    // blocks (recipe::PoolSize), which the same work may hide.
    std::vector<const advisor::Prediction*> calls;
    for (const Unit* u : on_gpu) calls.push_back(u->gpu);
    summary.pool_setup_ms = advisor::pool_setup_ms(advisor::pool_reservation(calls), r->platform);
    // Over several GPUs (--gpus): the same thread first starts the further
    // GPUs' contexts and, when a region over several exchanges halos, makes
    // NCCL's communicators (recipe::PoolSize; advisor/multi_gpu.h).
    bool exchanges = false;
    for (const Unit* u : on_gpu) {
        const int n = u->region ? u->region->gpus.devices : u->nests.front()->gpus.devices;
        summary.gpus = std::max(summary.gpus, n);
        exchanges = exchanges || (u->region && n > 1 && u->region->gpus.region.exchanges());
    }
    summary.gpus_startup_ms = advisor::extra_contexts_ms(r->platform, summary.gpus);
    summary.nccl_init_ms = exchanges ? advisor::nccl_init_ms(r->platform, summary.gpus) : 0.0;
    summary.startup_paid_ms = std::max(
        0.0, summary.cuda_startup_ms + summary.gpus_startup_ms + summary.nccl_init_ms + summary.pool_setup_ms - hidden);
    summary.gpus_exit_ms = advisor::extra_exit_ms(r->platform, summary.gpus, exchanges);
    summary.teardown_ms = advisor::cuda_teardown_ms(r->platform) + summary.gpus_exit_ms;
    // On one GPU the .cu releases CUDA after main's last GPU work, on a
    // thread of its own, where the work after it hides more of the release
    // than the exit would then pay on top (recipe::release_async).
    if (summary.gpus == 1)
        if (const auto last = last_gpu_work(tree, *r, r->platform)) {
            const double released = advisor::released_teardown_ms(r->platform, last->after_ms);
            if (released >= 0 && released < summary.teardown_ms) {
                summary.release_after = last->end_byte;
                summary.release_line = last->line;
                summary.release_tail_ms = last->after_ms;
                summary.teardown_ms = released;
            }
        }
    summary.runs_on_gpu = saving > summary.startup_paid_ms + summary.teardown_ms || options.convert_all;
    if (!summary.runs_on_gpu)
        for (Unit* u : on_gpu)
            keep_on_cpu(*u, "it would save about " + ms_text(u->t.saving_ms()) + " on the GPU (" + ms_text(u->t.cpu_total_ms()) +
                                " on the CPU, " + ms_text(u->t.gpu_total_ms()) + " on the GPU), but the converted nests together save " +
                                ms_text(saving) +
                                ", less than what using CUDA at all costs the program: the part of its start-up the program would "
                                "wait for (" + ms_text(summary.startup_paid_ms) + " of " + ms_text(summary.cuda_startup_ms) + " and " +
                                ms_text(summary.pool_setup_ms) + " of allocation) and its teardown at exit (" + ms_text(summary.teardown_ms) + ").");
    for (const auto& u : units) {
        const bool gpu = u.nests.front()->verdict == Verdict::Converted;
        summary.gpu_ms += gpu ? u.t.gpu_total_ms() : u.t.cpu_total_ms();
    }
    if (summary.runs_on_gpu) summary.gpu_ms += summary.startup_paid_ms + summary.teardown_ms;
}

}  // namespace

namespace {

// What every step of one advise run shares.
struct Run {
    const AdviseOptions& options;
    AdviseResult& r;
    std::string cu_file, recipe_file, plan_file;

    // Diagnostics name the header a nest is in, else the input as given.
    std::string where(const std::string& file) const { return file.empty() ? options.input : file; }
    void progress(const char* stage, std::size_t done, std::size_t total) const {
        if (options.progress) options.progress(stage, done, total);
    }
    void warn_not_converted(const NestOutcome& n) {
        r.diagnostics.push_back(warning_line(where(n.nest->file), n.nest->span.begin, "warning",
                                             "loop nest not converted into " + cu_file + ": " + n.why, to_string(n.verdict)));
    }
};

// The file through the user's preprocessor and the analyzer; the names of
// the outputs; the file-level diagnostics; the compile command.
bool analyze_input(const FileSystem& fs, Run& run, std::string* error) {
    const AdviseOptions& options = run.options;
    AdviseResult* r = &run.r;
    if (!advisor::find_platform(options.platform, &r->platform, error)) return false;
    if (const std::string missing = advisor::missing_gpu_figures(r->platform, options.gpus); !missing.empty()) {
        *error = missing;
        return false;
    }
    if (options.measured_host) advisor::use_measured_host(*options.measured_host, &r->platform);
    analyzer::AnalyzeOptions ao;
    ao.assumptions = options.assumptions;
    ao.assume_no_alias = options.assume_no_alias;
    if (!analyze_file(fs, options.input, options.build, ao, &r->unit, error)) return false;
    r->source = std::string(r->unit.original());
    r->source_file = base_name(options.input);
    r->stem = stem_of(r->source_file);
    run.cu_file = r->stem + ".cu";
    run.recipe_file = r->stem + ".recipe.md";
    run.plan_file = r->stem + ".plan.json";
    for (const auto& d : r->unit.program.diagnostics)
        r->diagnostics.push_back(warning_line(run.where(d.file), d.pos, analyzer::to_string(d.severity), d.message, d.rule_id));
    // The .cu is compiled where it is written: the file's own headers are
    // found through its directory, as the C compiler found them.
    r->nvcc_flags = flags_for_nvcc(options.build);
    if (r->unit.map->lines().has_user_headers()) {
        const auto slash = options.input.rfind('/');
        r->nvcc_flags += " -I" + analyzer::shell_quote(slash == std::string::npos ? "." : options.input.substr(0, slash == 0 ? 1 : slash));
    }
    r->host_optimization = host_optimization(options.build);
    r->compile_command = compile_command(run.cu_file, r->stem, r->nvcc_flags, "\"$RECIPE_INCLUDE\"", r->host_optimization);
    return true;
}

// --kernel-ms names nests by their ids; a bare value needs a file of one
// accepted nest, and takes its id.
bool resolve_kernel_times(const analyzer::Program& program, AdviseOptions* options, std::string* error) {
    std::vector<int> accepted;
    for (const auto& n : program.nests)
        if (n.accepted) accepted.push_back(n.id);
    return advisor::resolve_kernel_times(&options->kernel_ms, accepted, "accepted", error);
}

// The searches are independent: the accepted nests are planned on the
// cores there are (the results do not depend on the order).
void plan_nests(const Run& run) {
    std::vector<NestOutcome*> accepted;
    for (auto& out : run.r.nests)
        if (out.nest->accepted) accepted.push_back(&out);
    std::atomic<std::size_t> planned{0};
    const std::thread::id caller = std::this_thread::get_id();
    for_each_task(accepted.size(), [&](std::size_t k) {
        plan_nest(run.r.platform, run.options, accepted[k]);
        const std::size_t done = ++planned;
        if (std::this_thread::get_id() == caller) run.progress("planning", done, accepted.size());
    });
}

// Rejected nests say why; planned ones are converted (in nest order, so that
// kernel names are made unique the same way every time).
void convert_nests(const CTree& tree, Run& run, std::set<std::string>* taken) {
    AdviseResult* r = &run.r;
    for (std::size_t i = 0; i < r->nests.size(); ++i) {
        auto& out = r->nests[i];
        const auto& nest = *out.nest;
        run.progress("converting", i, r->nests.size());
        if (!nest.accepted) {
            out.verdict = Verdict::Rejected;
            for (const auto& d : nest.reasons) {
                if (d.severity == analyzer::Severity::Note) continue;
                if (out.why.empty()) out.why = d.message;
                r->diagnostics.push_back(warning_line(run.where(d.file), d.pos, "warning", d.message, d.rule_id));
            }
            continue;
        }
        index_overflow_warnings(tree, nest, run.where(nest.file), &r->diagnostics);
        if (out.planned && !nest.file.empty()) {
            out.verdict = Verdict::NotConverted;
            out.why = "it is written in the header " + nest.file + "; the .cu is made from " + r->source_file + " alone.";
        } else if (out.planned) {
            convert_planned(tree, *r->unit.map, taken, &out);
            const std::string base = r->stem + ".nest" + std::to_string(nest.id);
            out.tile_chart = base + ".tile-size.svg";
            out.timeline_chart = base + ".pipeline.svg";
        }
    }
}

// --gpus N: how many GPUs each region and each converted call outside one
// runs on (recipes/gpu_choice.h), before the comparison with the CPU, which
// then weighs each as it runs.
void choose_gpus(const CTree& tree, const AdviseOptions& options, AdviseResult* r) {
    if (options.gpus <= 1) return;
    advisor::ModelOptions model;
    model.host_memory = options.host_memory;
    model.gpu_memory_bytes = options.gpu_memory_bytes;
    // The further GPUs start while the program works before its first call
    // (as decide_against_cpu counts it: main's nests kept on the CPU before
    // it, or at least the filling of the call's own inputs).
    const double before = work_before_first_call(tree, *r, r->platform);
    for (auto& region : r->regions) {
        const double hidden =
            std::max(before, advisor::hidden_startup_ms(r->nests[region.nests.front()].chosen()->problem, r->platform));
        region.gpus = choose_region_gpus(region, r->platform, model, options.gpus, std::max<std::int64_t>(1, options.calls),
                                         region_fresh_bytes(region), options.all_gpus, hidden);
    }
    for (auto& n : r->nests) {
        if (n.verdict != Verdict::Converted) continue;
        advisor::ModelOptions nest = model;
        if (const auto k = options.kernel_ms.find(n.nest->id); k != options.kernel_ms.end()) nest.kernel_ms = k->second;
        std::string refused;
        if (n.region >= 0)
            refused = "it runs as a launch of the region at lines " + std::to_string(r->regions[static_cast<std::size_t>(n.region)].first_line) +
                      "-" + std::to_string(r->regions[static_cast<std::size_t>(n.region)].last_line) +
                      ", whose GPUs are chosen for the region as a whole";
        else if (n.conversion.iterative)
            refused = "its time loop runs through recipe::iterate, which keeps the arrays on one GPU between the steps";
        bool unknown = false;
        const double hidden = std::max(before, advisor::hidden_startup_ms(n.chosen()->problem, r->platform));
        n.gpus = choose_call_gpus(*n.chosen(), r->platform, nest, options.gpus, calls_of(n, options, &unknown), refused,
                                  options.all_gpus, hidden, &n.plan.ranked);
    }
}

// Nests whose arrays can stay on the GPU between them (time loops, caller
// loops, consecutive nests), then the comparison with the CPU; every nest
// left out of the .cu says why.
void plan_regions_and_decide(const CTree& tree, Run& run) {
    AdviseResult* r = &run.r;
    advisor::ModelOptions model;
    model.host_memory = run.options.host_memory;
    // A nest's --kernel-ms travels in its problem (Problem::kernel_ms).
    model.gpu_memory_bytes = run.options.gpu_memory_bytes;
    std::vector<std::string> step_by_step;
    r->regions = form_regions(tree, r->nests, r->unit.program, r->platform, model, &step_by_step);
    for (std::size_t k = 0; k < r->regions.size(); ++k)
        for (const std::size_t i : r->regions[k].nests) r->nests[i].region = static_cast<int>(k);
    for (const auto& why : step_by_step) r->region_notes.push_back(why);
    choose_gpus(tree, run.options, r);
    decide_against_cpu(tree, run.options, r);
    for (auto& out : r->nests) {
        if (!out.nest->accepted || out.verdict == Verdict::Converted) continue;
        if (out.verdict != Verdict::KeptOnCpu) {
            run.warn_not_converted(out);
            continue;
        }
        r->diagnostics.push_back(warning_line(run.where(out.nest->file), out.nest->span.begin, "note",
                                              "loop nest kept on the CPU: " + out.why, to_string(out.verdict)));
    }
}

// The C -> C++ fixes outside the converted nests. A nest whose variable-
// length array parameter the function also uses elsewhere cannot be passed
// as C++ allows: it stays on the CPU, and the others are looked at again
// without it; a parameter still left makes any .cu invalid C++. `replaced`
// gets the converted nests' spans.
void settle_cpp_fixes(const CTree& tree, Run& run, std::vector<std::pair<std::uint32_t, std::uint32_t>>* replaced) {
    AdviseResult* r = &run.r;
    std::vector<std::pair<std::uint32_t, std::string>> unfixable;
    for (bool again = true; again;) {
        again = false;
        replaced->clear();
        for (const auto& n : r->nests)
            if (n.verdict == Verdict::Converted) replaced->emplace_back(n.conversion.replace_begin, n.conversion.replace_end);
        unfixable.clear();
        r->fixes = cpp_compat_fixes(tree, *replaced, *r->unit.map, &unfixable);
        for (auto& n : r->nests) {
            if (n.verdict != Verdict::Converted) continue;
            const TSNode fn = enclosing_function(tree, n.nest->span.begin_byte);
            for (const auto* roles : {&n.conversion.inputs, &n.conversion.outputs})
                for (const auto& role : *roles)
                    for (const auto& [fn_start, name] : unfixable)
                        if (role.vla_parameter && role.name == name && !ts_node_is_null(fn) && ts_node_start_byte(fn) == fn_start &&
                            n.verdict == Verdict::Converted) {
                            n.verdict = Verdict::NotConverted;
                            n.why = "the generator cannot convert it faithfully: `" + name +
                                    "` is a variable-length array parameter, which C++ does not have, and " + n.nest->function +
                                    "() uses it outside the loops the .cu moves to the GPU.";
                            run.warn_not_converted(n);
                            again = true;
                        }
        }
    }
    if (unfixable.empty()) return;
    const std::string& name = unfixable.front().second;
    for (auto& n : r->nests) {
        if (n.verdict != Verdict::Converted) continue;
        n.verdict = Verdict::NotConverted;
        n.why = "the generator cannot convert it faithfully: the file's parameter `" + name +
                "` is a variable-length array that C++ cannot express (its function hands it on otherwise than "
                "by subscripting every dimension), so no .cu of this file would compile.";
        run.warn_not_converted(n);
    }
}

// The recipe, the .cu (when a nest was converted), the plan and two
// pictures per planned nest (made on the cores there are).
void render_outputs(const CTree& tree, Run& run, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& replaced,
                    std::set<std::string>* taken) {
    AdviseResult* r = &run.r;
    std::vector<CuNest> cu_nests;
    for (std::size_t i = 0; i < r->nests.size(); ++i) {
        const NestOutcome& n = r->nests[i];
        if (n.verdict != Verdict::Converted) continue;
        CuNest c{&n.conversion, n.running(), n.cpu ? n.in_program.library_first_ms() : -1};
        c.devices = n.gpus.devices;
        if (n.region >= 0 && r->regions[static_cast<std::size_t>(n.region)].converted) {
            const RegionOutcome& region = r->regions[static_cast<std::size_t>(n.region)];
            c.region = &region;
            c.launch = static_cast<std::size_t>(std::find(region.nests.begin(), region.nests.end(), i) - region.nests.begin());
        }
        cu_nests.push_back(c);
    }
    const TemplateStore& templates = TemplateStore::embedded();
    r->wrote_cu = !cu_nests.empty();
    r->files.push_back({run.recipe_file, render_recipe(templates, *r, run.options)});
    std::string plan_text = plan_json_text(*r, run.options);
    std::vector<const NestOutcome*> drawn;
    for (const auto& n : r->nests)
        if (n.planned) drawn.push_back(&n);
    // The .cu and the pictures are independent: one pool (task 0, then two
    // pictures per drawn nest).
    std::string cu;
    std::vector<OutputFile> pictures(2 * drawn.size());
    std::atomic<std::size_t> done{0};
    const std::thread::id caller = std::this_thread::get_id();
    for_each_task(1 + drawn.size(), [&](std::size_t task) {
        if (task == 0) {
            if (cu_nests.empty()) return;
            const CuContext ctx{r->source_file, run.cu_file, run.recipe_file, r->platform.name, r->compile_command, run.options.gpu_memory_bytes,
                                r->platform.staging_threads, r->program_summary.release_after, r->program_summary.release_tail_ms};
            cu = render_cu(templates, *r->unit.map, cu_nests, r->fixes, unused_declaration_edits(tree, *r->unit.map, replaced), ctx, taken);
            return;
        }
        const std::size_t k = task - 1;
        const NestOutcome& n = *drawn[k];
        const std::string place = r->source_file + ":" + std::to_string(n.nest->span.begin.line) + " " + n.nest->function + "()";
        pictures[2 * k] = {n.tile_chart, render_tile_chart(templates, n.plan, place + ": predicted run time against tile size on " + r->platform.name)};
        const auto& best = n.plan.ranked.front();
        pictures[2 * k + 1] = {n.timeline_chart,
                               render_timeline_chart(templates, n.timeline, best.tiles,
                                                     place + ": " + advisor::to_string(best.config.scheme) + " pipeline on " + r->platform.name)};
        const std::size_t d = ++done;
        if (std::this_thread::get_id() == caller) run.progress("drawing", d, drawn.size());
    });
    if (r->wrote_cu) r->files.push_back({run.cu_file, std::move(cu)});
    r->files.push_back({run.plan_file, std::move(plan_text)});
    for (auto& f : pictures) r->files.push_back(std::move(f));
}

}  // namespace

bool advise(const FileSystem& fs, const AdviseOptions& given, AdviseResult* r, std::string* error) {
    AdviseOptions options = given;  // with --kernel-ms resolved to nest ids
    Run run{options, *r, {}, {}, {}};
    if (!analyze_input(fs, run, error)) return false;
    const analyzer::Program& program = r->unit.program;
    if (!resolve_kernel_times(program, &options, error)) return false;
    // The generator reads the analyzer's own parse of the preprocessed text;
    // the .cu is the user's own text with its edits mapped back into it.
    const CTree tree{*r->unit.tree, r->unit.map.get()};
    r->nests.resize(program.nests.size());
    for (std::size_t i = 0; i < r->nests.size(); ++i) r->nests[i].nest = &program.nests[i];
    std::set<std::string> taken;  // names the .cu uses
    plan_nests(run);
    convert_nests(tree, run, &taken);
    plan_regions_and_decide(tree, run);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> replaced;
    settle_cpp_fixes(tree, run, &replaced);
    render_outputs(tree, run, replaced, &taken);
    return true;
}

}  // namespace recipe::recipes
