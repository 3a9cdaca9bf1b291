#include "analyzer/analyzer.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/aliasing.h"
#include "analyzer/as_written.h"
#include "analyzer/context.h"
#include "analyzer/declarations.h"
#include "analyzer/definitions.h"
#include "analyzer/nest_builder.h"
#include "analyzer/nest_finder.h"
#include "analyzer/source_text.h"
#include "analyzer/syntax_errors.h"
#include "analyzer/syntax_tree.h"
#include "analyzer/time_loop.h"

namespace recipe::analyzer {

namespace {

// The memory objects of every nest's outputs (aliasing.h's memory_objects,
// at the nest), in the order of its output_arrays; nullopt where the file
// does not tell.
using Objects = std::optional<std::set<std::string>>;
std::vector<std::vector<Objects>> outputs_memory(AnalysisContext& ctx, const NestSearch& search,
                                                 const std::vector<LoopNest>& nests) {
    std::vector<std::vector<Objects>> written(nests.size());
    for (std::size_t i = 0; i < nests.size(); ++i) {
        const NestCandidate& c = search.nests[i];
        for (const ArrayProperties& a : nests[i].output_arrays)
            written[i].push_back(
                memory_objects(ctx, c.function, a.name.substr(0, a.name.find('[')), ts_node_start_byte(c.chain.front())));
    }
    return written;
}

bool share(const std::set<std::string>& a, const std::set<std::string>& b) {
    return std::any_of(a.begin(), a.end(), [&b](const std::string& o) { return b.count(o) > 0; });
}

// An output left zero-filled (ArrayProperties::zero_pages) stays so only
// where no other accepted nest of the file writes the same memory.
void keep_zero_pages_unwritten(const std::vector<std::vector<Objects>>& written, std::vector<LoopNest>& nests) {
    for (std::size_t i = 0; i < nests.size(); ++i)
        for (std::size_t k = 0; k < nests[i].output_arrays.size(); ++k) {
            ArrayProperties& a = nests[i].output_arrays[k];
            if (!a.zero_pages) continue;
            const Objects& mine = written[i][k];
            if (!mine) {
                a.zero_pages = false;
                continue;
            }
            for (std::size_t j = 0; j < nests.size(); ++j) {
                if (j == i || !nests[j].accepted) continue;
                for (const Objects& theirs : written[j])
                    if (!theirs || share(*mine, *theirs)) a.zero_pages = false;
            }
        }
}

// Where a nest has surely run once, by function: past its end in its own,
// and past the earliest call of a function where it has (a few calls up).
// Straight-line order: a call inside a branch that is not taken, or a jump
// back, is not seen.
using DonePoints = std::map<const FunctionInfo*, std::uint32_t>;
constexpr int kMaxCallDepth = 4;

DonePoints done_points(AnalysisContext& ctx, const FunctionInfo* f, std::uint32_t end) {
    DonePoints done;
    if (!f) return done;
    done[f] = end;
    std::vector<const FunctionInfo*> level{f};
    for (int depth = 0; depth < kMaxCallDepth && !level.empty(); ++depth) {
        std::vector<const FunctionInfo*> next;
        for (const FunctionInfo* g : level)
            for (TSNode call : ctx.defs().calls_to(g->name)) {
                const FunctionInfo* caller = ctx.defs().function_at(ts_node_start_byte(call));
                if (!caller) continue;
                const std::uint32_t past = ts_node_end_byte(call);
                auto it = done.find(caller);
                if (it == done.end()) {
                    done[caller] = past;
                    next.push_back(caller);
                } else if (past < it->second) {
                    it->second = past;
                }
            }
        level = std::move(next);
    }
    return done;
}

// Whether code at byte `at` of `f` runs only past one of `done`: directly,
// or because every call of `f` in the file does. `every_call`: what is known
// of the latter, by function.
bool runs_after(AnalysisContext& ctx, const DonePoints& done, const FunctionInfo* f, std::uint32_t at, int depth,
                std::map<const FunctionInfo*, bool>* every_call) {
    if (!f) return false;
    if (const auto it = done.find(f); it != done.end() && at >= it->second) return true;
    if (depth >= kMaxCallDepth) return false;
    if (const auto known = every_call->find(f); known != every_call->end()) return known->second;
    (*every_call)[f] = false;  // while it is being worked out (a recursive call)
    const auto& calls = ctx.defs().calls_to(f->name);
    bool all = !calls.empty();
    for (TSNode call : calls) {
        const std::uint32_t where = ts_node_start_byte(call);
        if (!runs_after(ctx, done, ctx.defs().function_at(where), where, depth + 1, every_call)) {
            all = false;
            break;
        }
    }
    (*every_call)[f] = all;
    return all;
}

// ArrayProperties::written_before_by: for every output, the nests that write
// the same memory (as far as the file tells) and run before it.
void find_outputs_written_before(AnalysisContext& ctx, const NestSearch& search,
                                 const std::vector<std::vector<Objects>>& written, std::vector<LoopNest>& nests) {
    std::vector<DonePoints> done(nests.size());
    std::vector<std::map<const FunctionInfo*, bool>> every_call(nests.size());
    for (std::size_t j = 0; j < nests.size(); ++j)
        done[j] = done_points(ctx, search.nests[j].function, ts_node_end_byte(search.nests[j].chain.front()));
    for (std::size_t i = 0; i < nests.size(); ++i) {
        const NestCandidate& here = search.nests[i];
        for (std::size_t k = 0; k < nests[i].output_arrays.size(); ++k) {
            const Objects& mine = written[i][k];
            if (!mine) continue;
            for (std::size_t j = 0; j < nests.size(); ++j) {
                const bool shared = std::any_of(written[j].begin(), written[j].end(),
                                                [&](const Objects& theirs) { return theirs && share(*mine, *theirs); });
                if (j != i && shared && runs_after(ctx, done[j], here.function, ts_node_start_byte(here.chain.front()), 0, &every_call[j]))
                    nests[i].output_arrays[k].written_before_by.push_back(nests[j].id);
            }
        }
    }
}

}  // namespace

Program analyze_source(std::string_view file_name, std::string_view source, const AnalyzeOptions& options) {
    const SyntaxTree tree{std::string(source)};
    Program program = analyze_tree(file_name, tree, options);
    read_as_written(tree, nullptr, &program);
    return program;
}

Program analyze_tree(std::string_view file_name, const SyntaxTree& tree, const AnalyzeOptions& options) {
    Program program;
    program.file = std::string(file_name);
    const std::string& source = tree.source();
    if (!tree.whole()) {
        // Freeing the tree is safe (tree_sitter_allocator.h); reading it is not.
        Diagnostic d;
        d.severity = Severity::Error;
        d.rule_id = kUnparsable;
        int line = 1, col = 1;
        line_col_of(source, tree.broken_at(), &line, &col);
        d.pos = {line, col};
        d.message = "the parser cannot hold this file: one construct has 65,536 or more pieces of syntax side "
                    "by side (brackets or statements left open that deep, or that many comments in a row), "
                    "more than tree-sitter 0.20.7 can count";
        program.diagnostics.push_back(d);
        return program;
    }
    FileDefinitions defs(tree, options.assumptions);
    program.diagnostics = syntax_errors(tree);
    NestSearch search = find_nests(defs);
    std::vector<LoopNest>& nests = program.nests;
    nests.resize(search.nests.size());
    AnalysisContext ctx(program.file, defs, options);
    // A function's nests are consecutive (source order): once past them, the
    // time loops around them are complete and its cached facts are dropped.
    std::size_t next_time_loop = 0;
    auto finish = [&](const FunctionInfo* f, std::size_t done) {
        for (; next_time_loop < search.time_loops.size(); ++next_time_loop) {
            const TimeLoopCandidate& t = search.time_loops[next_time_loop];
            if (t.nests.empty()) continue;
            if (static_cast<std::size_t>(t.nests.front()) >= done) break;
            std::vector<LoopNest*> inside;
            for (int i : t.nests) inside.push_back(&nests[static_cast<std::size_t>(i)]);
            attach_time_loop(ctx, t, inside);
        }
        ctx.forget(f);
    };
    for (std::size_t i = 0; i < nests.size(); ++i) {
        if (i > 0 && search.nests[i].function != search.nests[i - 1].function) finish(search.nests[i - 1].function, i);
        nests[i] = analyze_nest(ctx, search.nests[i], static_cast<int>(i) + 1);
    }
    if (!nests.empty()) finish(search.nests.back().function, nests.size());
    const auto written = outputs_memory(ctx, search, nests);
    keep_zero_pages_unwritten(written, nests);
    find_outputs_written_before(ctx, search, written, nests);
    return program;
}

bool parsed_whole(const Program& program, const std::string& path, std::string* error) {
    for (const Diagnostic& d : program.diagnostics) {
        if (d.rule_id != kUnparsable) continue;
        *error = (d.file.empty() ? path : d.file) + ":" + std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) +
                 ": error: " + d.message;
        return false;
    }
    return true;
}

bool analyze_file(const std::string& path, const AnalyzeOptions& options, Program* program, std::string* error) {
    std::string text;
    if (!read_source_file(path, &text, error)) return false;
    *program = analyze_source(path, text, options);
    return parsed_whole(*program, path, error);
}

}  // namespace recipe::analyzer
