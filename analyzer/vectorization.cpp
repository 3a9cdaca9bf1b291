#include "analyzer/vectorization.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>

#include "analyzer/compiler_run.h"
#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

namespace {

enum class Compiler { Gcc, Clang, Other };

// Which compiler `cc` is, by what it predefines (Clang defines __GNUC__ too).
Compiler identify(const BuildFlags& flags, std::string* why) {
    const std::string cc = flags.compiler();
    CompilerRun run;
    if (!run_compiler({cc, "-E", "-P", "-x", "c", "-"},
                      "#if defined __clang__\nrecipe_clang\n#elif defined __GNUC__\nrecipe_gcc\n#else\nrecipe_other\n#endif\n",
                      &run, why))
        return Compiler::Other;
    if (!run.started) {
        *why = "the C compiler '" + cc + "' could not be run: its vectorisation report is not read";
        return Compiler::Other;
    }
    if (run.exit_status != 0) {
        *why = "'" + cc + " -E' failed (exit " + std::to_string(run.exit_status) + "): its vectorisation report is not read";
        return Compiler::Other;
    }
    if (run.out.find("recipe_clang") != std::string::npos) return Compiler::Clang;
    if (run.out.find("recipe_gcc") != std::string::npos) return Compiler::Gcc;
    *why = "the C compiler '" + cc + "' is neither GCC nor Clang: its vectorisation report is not read";
    return Compiler::Other;
}

// A clamp of the contiguous dimension's index (`x > 0 ? x - 1 : 0`): the
// compiler loads such elements lane by lane (GCC's elementwise accesses),
// and its vector loop runs no faster than the scalar one (emboss's loop,
// bench/host/cpu_loops.c: 2.04 ns a point vectorised four wide and with
// -fno-tree-vectorize).
bool clamps_contiguous_index(const LoopNest& nest) {
    if (nest.iteration_space.empty()) return false;
    const std::string& x = nest.iteration_space.front().var;
    if (x.empty()) return false;
    for (const auto& b : nest.boundaries)
        if (b.kind == Boundary::Kind::Clamp && contains_name(b.text, x)) return true;
    return false;
}

// The reads of a nest that clamps its contiguous index whose contiguous
// offset is not 0 (`in[y * W + xp]`, `in[yp * W + xm]`; not `in[yp * W +
// x]`): those the compiler loads lane by lane. Each offset a window loop
// reaches counts.
int clamped_contiguous_reads(const LoopNest& nest) {
    int n = 0;
    for (const auto& a : nest.input_arrays)
        for (const auto& access : a.accesses) {
            if (!access.clamped) continue;
            if (access.window_offsets.empty()) {
                if (!access.offset.empty() && access.offset.front() != 0) ++n;
            } else {
                for (const auto& o : access.window_offsets)
                    if (!o.empty() && o.front() != 0) ++n;
            }
        }
    return n;
}

std::string normal(const std::string& file) {
    return file == "<stdin>" ? file : std::filesystem::path(file).lexically_normal().string();
}

}  // namespace

std::vector<VectorizedLoop> parse_vector_report(std::string_view report) {
    static const std::regex gcc(R"(^(.+):(\d+):\d+: optimized: loop vectorized using (\d+) byte vectors)");
    static const std::regex clang(R"(^(.+):(\d+):\d+: remark: vectorized loop \(vectorization width: (\d+))");
    std::vector<VectorizedLoop> loops;
    std::size_t pos = 0;
    while (pos < report.size()) {
        std::size_t eol = report.find('\n', pos);
        if (eol == std::string_view::npos) eol = report.size();
        const std::string line(report.substr(pos, eol - pos));
        pos = eol + 1;
        std::smatch m;
        if (std::regex_search(line, m, gcc))
            loops.push_back({normal(m[1]), std::stoi(m[2]), std::stoi(m[3]), 0});
        else if (std::regex_search(line, m, clang))
            loops.push_back({normal(m[1]), std::stoi(m[2]), 0, std::stoi(m[3])});
    }
    return loops;
}

VectorReport vectorization_report(const std::string& path, std::string_view text, const BuildFlags& flags) {
    VectorReport report;
    const Compiler compiler = identify(flags, &report.why_unknown);
    if (compiler == Compiler::Other) return report;
    std::vector<std::string> mode{compiler == Compiler::Gcc ? "-fopt-info-vec-optimized" : "-Rpass=loop-vectorize", "-c",
                                  "-o", "/dev/null"};
    // Without a level of their own, -O2: the level the recipe's C-side
    // figures assume (and the .cu's host code is built at).
    if (std::none_of(flags.args.begin(), flags.args.end(), [](const std::string& a) { return a.rfind("-O", 0) == 0; }))
        mode.insert(mode.begin(), "-O2");
    const std::vector<std::string> args = stdin_argv(path, flags, mode);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string word = args[i] == "-" ? path : args[i];
        report.command += (i ? " " : "") + shell_quote(word);
    }
    CompilerRun run;
    if (!run_compiler(args, text, &run, &report.why_unknown, kVectorReportSeconds)) return report;
    if (run.timed_out) {
        report.why_unknown = "the C compiler's vectorisation report took more than " +
                             std::to_string(static_cast<int>(kVectorReportSeconds)) + " s (stopped): " + report.command;
        return report;
    }
    if (!run.started || run.exit_status != 0) {
        report.why_unknown = "the C compiler did not compile the file with its vectorisation report on: " + report.command;
        return report;
    }
    report.known = true;
    report.loops = parse_vector_report(run.err);
    return report;
}

void apply_vector_report(const VectorReport& report, Program* program) {
    program->vector_report = report.known ? report.command : "";
    program->vector_report_missing = report.known ? "" : report.why_unknown;
    for (auto& nest : program->nests) {
        if (!report.known) {
            nest.host_vector_lanes = 0;
            continue;
        }
        const std::string file = nest.file.empty() ? "<stdin>" : normal(nest.file);
        int widest = 0;
        for (const auto* arrays : {&nest.input_arrays, &nest.output_arrays})
            for (const auto& a : *arrays) widest = std::max(widest, a.bytes_per_element);
        int lanes = 1;
        for (const auto& loop : report.loops) {
            if (loop.file != file || loop.line < nest.span.begin.line || loop.line > nest.span.end.line) continue;
            const int l = loop.lanes > 0 ? loop.lanes : loop.vector_bytes / std::max(1, widest > 0 ? widest : 4);
            lanes = std::max(lanes, l);
        }
        const bool clamped = clamps_contiguous_index(nest);
        nest.host_vector_lanes = clamped ? 1 : lanes;
        nest.host_reported_lanes = clamped ? lanes : 0;
        nest.host_lane_loads = clamped ? clamped_contiguous_reads(nest) : 0;
    }
}

}  // namespace recipe::analyzer
