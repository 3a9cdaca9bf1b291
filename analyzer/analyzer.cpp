#include "analyzer/analyzer.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "analyzer/context.h"
#include "analyzer/declarations.h"
#include "analyzer/definitions.h"
#include "analyzer/nest_builder.h"
#include "analyzer/nest_finder.h"
#include "analyzer/parallel.h"
#include "analyzer/source_text.h"
#include "analyzer/syntax_errors.h"
#include "analyzer/syntax_tree.h"
#include "analyzer/time_loop.h"

namespace recipe::analyzer {

namespace {

// Files with this many nests are analysed on several threads.
constexpr std::size_t kParallelNests = 512;

// Analyses nests [begin, end) into `nests` (already sized), with the time
// loops around them. A function's nests are consecutive (source order), so
// once past them its time loops are finished and its cached facts dropped.
void analyze_range(AnalysisContext& ctx, const NestSearch& search, std::size_t begin, std::size_t end,
                   std::vector<LoopNest>& nests) {
    std::size_t next_time_loop = 0;
    auto finish = [&](const FunctionInfo* f, std::size_t done) {
        for (; next_time_loop < search.time_loops.size(); ++next_time_loop) {
            const TimeLoopCandidate& t = search.time_loops[next_time_loop];
            if (t.nests.empty()) continue;
            std::size_t first = static_cast<std::size_t>(t.nests.front());
            if (first < begin) continue;  // another range's
            if (first >= done) break;
            std::vector<LoopNest*> inside;
            for (int i : t.nests) inside.push_back(&nests[static_cast<std::size_t>(i)]);
            attach_time_loop(ctx, t, inside);
        }
        ctx.forget(f);
    };
    for (std::size_t i = begin; i < end; ++i) {
        if (i > begin && search.nests[i].function != search.nests[i - 1].function) finish(search.nests[i - 1].function, i);
        nests[i] = analyze_nest(ctx, search.nests[i], static_cast<int>(i) + 1);
    }
    if (end > begin) finish(search.nests[end - 1].function, end);
}

// What is left for the operating system to reclaim at exit
// (AnalyzeOptions::free_syntax_tree): still reachable from here, so that
// leak checkers do not report it.
void keep_until_exit(std::unique_ptr<SyntaxTree> tree, std::unique_ptr<FileDefinitions> defs) {
    struct Kept {
        std::vector<SyntaxTree*> trees;
        std::vector<FileDefinitions*> definitions;
    };
    static std::mutex mutex;
    static auto* kept = new Kept();
    std::lock_guard<std::mutex> lock(mutex);
    kept->trees.push_back(tree.release());
    kept->definitions.push_back(defs.release());
}

}  // namespace

Program analyze_source(std::string_view file_name, std::string_view source, const AnalyzeOptions& options) {
    Program program;
    program.file = std::string(file_name);
    auto tree = std::make_unique<SyntaxTree>(std::string(source), options.parallel, SyntaxTree::Deferred{});
    auto definitions = std::make_unique<FileDefinitions>(*tree, options.assumptions, FileDefinitions::Deferred{});
    {
        FileDefinitions& defs = *definitions;
        // A part's definitions are collected by the thread that parsed it,
        // while its tree is still in that core's caches.
        for_each_task(tree->parts(), analysis_threads(), [&](std::size_t i) {
            tree->parse_part(i);
            defs.collect_part(i);
        });
        defs.finish();
        program.diagnostics = syntax_errors(*tree);
        NestSearch search = find_nests(defs, tree->parts());
        std::size_t n = search.nests.size();
        program.nests.resize(n);
        // Runs of nests cut between functions (a time loop never spans two),
        // a few more than threads; the global declarations are read once.
        std::vector<std::size_t> bounds{0};
        if (options.parallel && n >= kParallelNests) {
            std::size_t runs = std::min(n / (kParallelNests / 2), 8 * analysis_threads());
            for (std::size_t k = 1; k < runs; ++k) {
                std::size_t cut = std::max(bounds.back() + 1, n * k / runs);
                while (cut < n && search.nests[cut].function == search.nests[cut - 1].function) ++cut;
                if (cut < n) bounds.push_back(cut);
            }
        }
        bounds.push_back(n);
        GlobalTable globals = global_declarations(defs);
        for_each_task(bounds.size() - 1, analysis_threads(), [&](std::size_t i) {
            AnalysisContext ctx(program.file, defs, options, &globals);
            analyze_range(ctx, search, bounds[i], bounds[i + 1], program.nests);
        });
    }
    if (!options.free_syntax_tree) keep_until_exit(std::move(tree), std::move(definitions));
    return program;
}

bool analyze_file(const std::string& path, const AnalyzeOptions& options, Program* program, std::string* error) {
    std::string text;
    if (!read_source_file(path, &text, error)) return false;
    *program = analyze_source(path, text, options);
    return true;
}

}  // namespace recipe::analyzer
