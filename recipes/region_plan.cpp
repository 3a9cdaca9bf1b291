#include "recipes/region_plan.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "recipes/advise.h"
#include "recipes/c_declarations.h"
#include "recipes/c_tree.h"
#include "recipes/caller_loop.h"
#include "recipes/host_uses.h"
#include "recipes/nest_source_facts.h"
#include "recipes/recipe_view.h"
#include "recipes/source_rewriter.h"

namespace recipe::recipes {

namespace {

struct Refusal {
    std::string why;
};

const advisor::ArrayUse* use_of(const advisor::Problem& p, const std::string& name) {
    for (const auto* list : {&p.inputs, &p.outputs})
        for (const auto& a : *list)
            if (a.name == name) return &a;
    return nullptr;
}



// The time loop of `members` qualifies: every nest of its body converted,
// nothing else done each step, its steps known.
void check_time_loop(const CTree& tree, const std::vector<NestOutcome>& nests, const std::vector<std::size_t>& members,
                     const analyzer::Program& program, RegionOutcome* r) {
    const analyzer::LoopNest& first = *nests[members.front()].nest;
    r->loop = &*first.time_loop;
    const analyzer::TimeLoop& tl = *r->loop;
    std::vector<analyzer::SourceSpan> spans;
    for (const auto& n : program.nests)
        if (n.time_loop && n.time_loop->span.begin_byte == tl.span.begin_byte && n.time_loop->span.end_byte == tl.span.end_byte)
            spans.push_back(n.span);
    for (const std::size_t i : members) {
        const NestOutcome& n = nests[i];
        if (n.verdict != Verdict::Converted)
            throw Refusal{"its nest at line " + std::to_string(n.nest->span.begin.line) + " is not converted (" + to_string(n.verdict) + ")"};
    }
    if (spans.size() != members.size()) throw Refusal{"some nest in its body is not converted"};
    if (!tl.iterations.value || *tl.iterations.value < 0) throw Refusal{"its number of steps is unknown"};
    const TSNode loop = facts::node_for(tree, tl.span);
    if (ts_node_is_null(loop)) throw Refusal{"its span does not match the source"};
    if (const std::string why = time_loop_body_problem(tree, loop, tl, spans, true); !why.empty())
        throw Refusal{why + ", which may use the arrays between the nests"};
    r->problem.steps = *tl.iterations.value;
    r->problem.swaps = tl.exchange == analyzer::TimeLoop::Exchange::PointerSwap;
    r->begin = tl.span.begin_byte;
    r->end = tl.span.end_byte;
    r->first_line = tl.span.begin.line;
    r->last_line = tl.span.end.line;
}

// `text` with each identifier replaced by what `map_id` makes of it.
template <class F>
std::string map_identifiers(const std::string& text, F&& map_id) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
            std::size_t j = i;
            while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
            out += map_id(text.substr(i, j - i));
            i = j;
        } else {
            out += text[i++];
        }
    }
    return out;
}

// `text` with the identifiers `rename` maps replaced (a callee's parameters
// by its caller's arguments).
std::string renamed(const std::string& text, const std::map<std::string, std::string>& rename) {
    if (rename.empty()) return text;
    return map_identifiers(text, [&](const std::string& id) {
        const auto it = rename.find(id);
        return it == rename.end() ? id : it->second;
    });
}

// Whether the nest writes every element of the region's arrays (its space is their extents).
bool covers_arrays(const NestConversion& c, const std::array<std::string, 3>& extents,
                   const std::map<std::string, std::string>& rename) {
    for (std::size_t d = 0; d < 3; ++d)
        if (c.space_begin_code[d] != "0" || renamed(c.space_end_code[d], rename) != extents[d]) return false;
    return true;
}

// A written_first box is written where the region opens: its bounds must not
// name what the region's own code declares (a bound the loop body computes),
// which is not in scope there. Whether the box holds the values the nest's
// loops will have is checked by the library at the first launch naming the
// array (which copies the box in after all where it does not).
void drop_unwritable_boxes(const CTree& tree, RegionOutcome* r) {
    std::set<std::string> declared;
    const TSNode function = tree.function_at(r->begin);
    if (!ts_node_is_null(function))
        walk(function, [&](TSNode n) {
            if (!is(n, "declaration") || ts_node_start_byte(n) < r->begin || ts_node_end_byte(n) > r->end) return;
            for (const std::string& name : facts::declared_in(tree, n)) declared.insert(name);
        });
    for (std::size_t k = 0; k < r->arrays.size(); ++k) {
        RegionHostArray& a = r->arrays[k];
        if (!a.has_written_first) continue;
        bool writable = !ts_node_is_null(function);
        for (const auto* codes : {&a.written_first_begin, &a.written_first_end})
            for (const std::string& code : *codes)
                for (const std::string& name : declared) writable = writable && !contains_identifier(code, name);
        if (writable) continue;
        a.has_written_first = false;
        r->problem.arrays[k].written_first = Box{{0, 0, 0}, {0, 0, 0}};
    }
}

// One launch of a region's step: a nest, and the names its arrays and sizes
// have where the region is opened (a called function's parameters renamed
// to the caller's arguments; empty for nests written in place).
struct Launch {
    std::size_t nest;
    std::map<std::string, std::string> rename;
};

std::vector<Launch> in_place(const std::vector<std::size_t>& members) {
    std::vector<Launch> out;
    for (const std::size_t i : members) out.push_back({i, {}});
    return out;
}

// The region's shape, arrays and problem from its launches (r->problem.steps set).
void gather(const std::vector<NestOutcome>& nests, const std::vector<Launch>& launches, RegionOutcome* out) {
    RegionOutcome& r = *out;
    std::vector<std::size_t> members;
    for (const auto& l : launches) members.push_back(l.nest);
    if (r.function.empty()) r.function = nests[members.front()].nest->function;
    // One shape for every array: the nests agree on every extent but the
    // slowest, which the analyzer infers per nest from the elements it
    // touches (a pointer's rows); the region holds the most rows any nest
    // touches.
    // Nests that reach their arrays only through parts (`ey[0][j] = ...`,
    // one row) do not give the shape: they run on the arrays the others hold.
    auto whole_user = [&](std::size_t i) {
        const NestConversion& c = nests[i].conversion;
        for (const auto* list : {&c.inputs, &c.outputs})
            for (const auto& role : *list)
                if (role.part_of.empty()) return true;
        return false;
    };
    std::vector<std::size_t> shapers;
    for (const std::size_t i : members)
        if (whole_user(i)) shapers.push_back(i);
    if (shapers.empty()) throw Refusal{"its nests use parts of arrays only"};
    const NestConversion& c0 = nests[shapers.front()].conversion;
    const int slow = c0.dims - 1;
    std::size_t widest = shapers.front();
    for (const std::size_t i : shapers) {
        const NestConversion& c = nests[i].conversion;
        if (c.dims != c0.dims) throw Refusal{"its nests differ in dimensions"};
        for (int d = 0; d < slow; ++d)
            if (c.extents_code[static_cast<std::size_t>(d)] != c0.extents_code[static_cast<std::size_t>(d)])
                throw Refusal{"its nests' arrays differ in shape (line " + std::to_string(nests[i].nest->span.begin.line) + ")"};
        if (nests[i].chosen()->problem.extents[static_cast<std::size_t>(slow)] >
            nests[widest].chosen()->problem.extents[static_cast<std::size_t>(slow)])
            widest = i;
    }
    r.extents_code = nests[widest].conversion.extents_code;
    for (auto& e : r.extents_code) e = renamed(e, launches.front().rename);
    r.problem.extents = nests[widest].chosen()->problem.extents;
    r.problem.dims = c0.dims;
    bool all_pinned = true;
    struct Part {
        ArrayRole role;
        bool output;
        std::string array;  // the whole array's name where the region opens
    };
    std::vector<Part> parts;
    std::set<int> member_ids;  // the region's nests (ids)
    for (const Launch& launch : launches) member_ids.insert(nests[launch.nest].nest->id);
    // Written before the region by a nest outside it: its pages are present.
    auto outside_writer = [&member_ids](const ArrayRole& role) {
        return std::any_of(role.written_before_by.begin(), role.written_before_by.end(),
                           [&member_ids](int id) { return member_ids.count(id) == 0; });
    };
    for (const Launch& launch : launches) {
        const NestOutcome& n = nests[launch.nest];
        const NestConversion& c = n.conversion;
        const advisor::Problem& p = n.chosen()->problem;
        if (!c.wholes.empty()) throw Refusal{"the nest at line " + std::to_string(n.nest->span.begin.line) + " reads an array whole"};
        if (!c.invariant_reads.empty() && !launch.rename.empty())
            throw Refusal{"the nest at line " + std::to_string(n.nest->span.begin.line) + " reads `" + c.invariant_reads.front() +
                          "` in the function the loop calls"};
        // The launch's arrays by the names the region holds them under, so that
        // which launch reads what another wrote is known (advisor/multi_gpu.h).
        advisor::Problem launched = p;
        for (auto* uses : {&launched.inputs, &launched.outputs})
            for (auto& use : *uses) use.name = renamed(use.name, launch.rename);
        r.problem.nests.push_back(std::move(launched));
        auto note = [&](ArrayRole role, bool output) {
            if (role.flatten) throw Refusal{"`" + role.name + "` is reached through row pointers"};
            if (!role.part_of.empty()) {  // resolved below, against the arrays held whole
                parts.push_back({role, output, renamed(role.part_of, launch.rename)});
                return;
            }
            const std::string model_name = role.name;
            role.name = renamed(role.name, launch.rename);
            role.host_pointer = renamed(role.host_pointer, launch.rename);
            auto it = std::find_if(r.arrays.begin(), r.arrays.end(), [&](const RegionHostArray& a) { return a.host_pointer == role.host_pointer; });
            if (it == r.arrays.end()) {
                const advisor::ArrayUse* use = use_of(p, model_name);
                if (!use) throw Refusal{"the model has no size for `" + model_name + "`"};
                RegionHostArray a;
                a.name = role.name;
                a.host_pointer = role.host_pointer;
                a.element_type = role.element_type;
                a.bytes = r.problem.extents[0] * r.problem.extents[1] * r.problem.extents[2] * use->elem_bytes;
                a.pinned = role.pinned;
                a.zero_pages = role.zero_pages;
                a.written_before = outside_writer(role);
                // Written whole before anything reads it: nothing to copy in;
                // written in part (every point of the nest's space) before
                // anything reads it: all but that part.
                const bool written_first = output && !role.inout;
                a.copy_in = !(written_first && covers_arrays(c, r.extents_code, launch.rename));
                advisor::RegionArray modelled{role.name, use->elem_bytes, a.copy_in, false};
                if (written_first && a.copy_in && !p.space.empty()) {
                    for (std::size_t d = 0; d < 3; ++d) {
                        a.written_first_begin[d] = renamed(c.space_begin_code[d], launch.rename);
                        a.written_first_end[d] = renamed(c.space_end_code[d], launch.rename);
                    }
                    a.has_written_first = true;
                    modelled.written_first = p.space;
                }
                r.arrays.push_back(a);
                r.problem.arrays.push_back(modelled);
                it = r.arrays.end() - 1;
            } else if (it->element_type != role.element_type) {
                throw Refusal{"`" + role.name + "` is used with two element types"};
            }
            if (output) {
                it->written_before = it->written_before || outside_writer(role);
                it->copy_out = true;
                r.problem.arrays[static_cast<std::size_t>(it - r.arrays.begin())].copy_out = true;
            }
            all_pinned = all_pinned && role.pinned;
        };
        for (const auto& role : c.inputs) note(role, false);
        for (const auto& role : c.outputs) note(role, true);
        r.step_by_step_ms += n.chosen()->total_ms * static_cast<double>(r.problem.steps);
    }
    // A part runs on the device copy of its array: the library finds it by
    // its host address. Read anywhere, the array is copied in.
    r.problem.uses_parts = !parts.empty();
    for (const Part& part : parts) {
        const auto it = std::find_if(r.arrays.begin(), r.arrays.end(), [&](const RegionHostArray& a) { return a.name == part.array; });
        if (it == r.arrays.end())
            throw Refusal{"`" + part.role.host_pointer + "` is a part of `" + part.array + "`, which no nest of the region uses whole"};
        if (it->element_type != part.role.element_type) throw Refusal{"`" + part.array + "` is used with two element types"};
        const auto k = static_cast<std::size_t>(it - r.arrays.begin());
        // Where a part is used against the whole array's first write is not
        // followed here: the whole array is copied in.
        it->has_written_first = false;
        r.problem.arrays[k].written_first = Box{{0, 0, 0}, {0, 0, 0}};
        if (part.output) it->copy_out = r.problem.arrays[k].copy_out = true;
        if (!part.output || part.role.inout) it->copy_in = r.problem.arrays[k].copy_in = true;
        all_pinned = all_pinned && part.role.pinned;
    }
    // What the host reads for a launch must not be on the GPU only.
    for (const Launch& launch : launches)
        for (const std::string& read : nests[launch.nest].conversion.invariant_reads)
            for (const RegionHostArray& a : r.arrays)
                if (contains_identifier(read, a.name))
                    throw Refusal{"the host reads `" + read + "` for a launch while the region holds `" + a.name + "` on the GPU"};
    r.problem.pinned_host = all_pinned;
}

void price(const CTree& tree, const advisor::Platform& platform, const advisor::ModelOptions& options, RegionOutcome* r) {
    drop_unwritable_boxes(tree, r);
    std::string error;
    if (advisor::predict_region(r->problem, platform, options, &r->prediction, &error)) {
        // The boxes stay only where the model prices them below copying the
        // arrays whole: a frame of very short rows costs more to reach than
        // its rows do to copy.
        const bool boxed = std::any_of(r->arrays.begin(), r->arrays.end(), [](const RegionHostArray& a) { return a.has_written_first; });
        advisor::RegionPrediction whole;
        std::string ignored;
        const advisor::RegionProblem plain = advisor::copied_whole(r->problem);
        if (boxed && advisor::predict_region(plain, platform, options, &whole, &ignored) &&
            whole.total.total_ms <= r->prediction.total.total_ms) {
            for (RegionHostArray& a : r->arrays) a.has_written_first = false;
            r->problem = plain;
            r->prediction = whole;
        }
    } else {
        // Arrays larger than the device memory: a loop's steps pass through
        // the GPU tile by tile with ghost zones (seed 002).
        const std::int64_t budget = advisor::device_budget(platform, options);
        const bool too_big = budget > 0 && advisor::region_device_bytes(r->problem) > budget;
        if (!too_big || r->kind != RegionKind::TimeLoop) throw Refusal{error};
        std::string why;
        if (!advisor::plan_ghost_region(r->problem, platform, options, &r->ghost, &why))
            throw Refusal{error + "; with ghost zones: " + why};
        r->with_ghost_zones = true;
        r->prediction = r->ghost.prediction;
    }
    r->indent = line_indent(tree.source(), r->begin);
    r->converted = true;
}

// The names a nest's arrays go by in host code (`g.u` is reached through `g`).
std::set<std::string> array_names(const NestConversion& c) {
    std::set<std::string> out;
    for (const auto* list : {&c.inputs, &c.outputs})
        for (const auto& role : *list) {
            out.insert(role.name);
            map_identifiers(role.host_pointer, [&](const std::string& id) {
                out.insert(id);
                return id;
            });
        }
    return out;
}

std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == ' ' || line.back() == '{')) line.pop_back();
    return line.size() > 60 ? line.substr(0, 57) + "..." : line;
}

bool shares(const std::set<std::string>& a, const std::set<std::string>& b) {
    return std::any_of(a.begin(), a.end(), [&](const std::string& n) { return b.count(n) > 0; });
}

// Runs of consecutive converted nests that share arrays, siblings in one
// block with nothing between them that may touch the arrays. Nests that
// share arrays across such a statement get a line in `rejected`.
std::vector<std::vector<std::size_t>> consecutive_runs(const CTree& tree, const std::vector<NestOutcome>& nests,
                                                       const std::set<std::size_t>& taken, std::vector<std::string>* rejected) {
    std::map<std::uint32_t, std::pair<TSNode, std::map<std::uint32_t, std::size_t>>> blocks;  // by the block's start
    for (std::size_t i = 0; i < nests.size(); ++i) {
        const NestOutcome& n = nests[i];
        if (n.verdict != Verdict::Converted || n.nest->time_loop || n.conversion.iterative || !n.nest->file.empty() ||
            taken.count(i))
            continue;
        const TSNode s = facts::node_for(tree, n.nest->span);
        const TSNode block = ts_node_parent(s);
        if (ts_node_is_null(s) || !is(block, "compound_statement")) continue;
        auto& entry = blocks[ts_node_start_byte(block)];
        entry.first = block;
        entry.second[ts_node_start_byte(s)] = i;
    }
    std::vector<std::vector<std::size_t>> runs;
    for (const auto& [start, entry] : blocks) {
        std::vector<std::size_t> run;
        std::set<std::string> names;
        std::vector<TSNode> between;
        auto close = [&] {
            if (run.size() >= 2) runs.push_back(run);
            run.clear();
            names.clear();
        };
        for (TSNode s : named_children(entry.first)) {
            if (is(s, "comment") || is(s, "preproc_call")) continue;
            const auto it = entry.second.find(ts_node_start_byte(s));
            if (it == entry.second.end()) {
                between.push_back(s);
                continue;
            }
            const std::set<std::string> mine = array_names(nests[it->second].conversion);
            std::set<std::string> both = names;
            both.insert(mine.begin(), mine.end());
            std::string why;
            for (TSNode b : between)
                if (why.empty())
                    if (const std::string p = between_problem(tree, b, both); !p.empty())
                        why = "line " + std::to_string(tree.user_line(b)) + " between them (`" + first_line(tree.spelled(b)) + "`) " + p;
            if (!run.empty() && shares(names, mine) && !why.empty() && rejected)
                rejected->push_back("the nests at lines " + std::to_string(nests[run.back()].conversion.first_line) + " and " +
                                    std::to_string(nests[it->second].conversion.first_line) + " run one by one: " + why);
            if (!run.empty() && (!why.empty() || !shares(names, mine))) close();
            run.push_back(it->second);
            names.insert(mine.begin(), mine.end());
            between.clear();
        }
        close();
    }
    return runs;
}

// Regions around the loops that call a function whose body only runs
// converted nests (the Parboil form). `taken` gets the nests they hold.
void caller_regions(const CTree& tree, const std::vector<NestOutcome>& nests, const advisor::Platform& platform,
                    const advisor::ModelOptions& options, std::vector<RegionOutcome>* regions, std::set<std::size_t>* taken,
                    std::vector<std::string>* rejected) {
    std::map<std::string, std::vector<std::size_t>> by_function;
    for (std::size_t i = 0; i < nests.size(); ++i) {
        const NestOutcome& n = nests[i];
        if (n.verdict == Verdict::Converted && !n.nest->time_loop && !n.conversion.iterative && n.nest->file.empty())
            by_function[n.nest->function].push_back(i);
    }
    for (const auto& [callee, members] : by_function) {
        const TSNode function = enclosing_function(tree, nests[members.front()].nest->span.begin_byte);
        if (ts_node_is_null(function)) continue;
        // The parameters that bring the nests' arrays.
        const std::vector<std::string> params = parameter_names(tree, function);
        std::vector<std::size_t> pointers;
        std::string why;
        for (const std::size_t i : members)
            for (const auto* list : {&nests[i].conversion.inputs, &nests[i].conversion.outputs})
                for (const auto& role : *list) {
                    const auto p = std::find_if(params.begin(), params.end(), [&](const std::string& n) { return contains_identifier(role.host_pointer, n); });
                    if (p == params.end()) {
                        if (why.empty()) why = "`" + role.name + "` is not one of " + callee + "()'s parameters";
                        continue;
                    }
                    const auto k = static_cast<std::size_t>(p - params.begin());
                    if (std::find(pointers.begin(), pointers.end(), k) == pointers.end()) pointers.push_back(k);
                }
        const std::vector<CallerLoop> loops = loops_calling(tree, callee, pointers);
        if (loops.empty()) continue;  // not called from a loop: nothing to keep resident
        std::vector<analyzer::SourceSpan> spans;
        for (const std::size_t i : members) spans.push_back(nests[i].nest->span);
        if (why.empty()) why = callee_body_problem(tree, function, spans);
        // A part's call keeps the part's own extents, which the region's
        // launch does not take yet.
        for (const std::size_t i : members)
            for (const auto* list : {&nests[i].conversion.inputs, &nests[i].conversion.outputs})
                for (const auto& role : *list)
                    if (why.empty() && !role.part_of.empty())
                        why = "its nest at line " + std::to_string(nests[i].conversion.first_line) + " works on `" + role.host_pointer +
                              "`, a part of `" + role.part_of + "`, which a region around its callers does not run yet";
        for (const std::size_t i : members)
            if (why.empty() && nests[i].conversion.extents_code != nests[members.front()].conversion.extents_code)
                why = "its nests' arrays differ in shape";
        bool placed = false;
        for (const CallerLoop& loop : loops) {
            RegionOutcome r;
            r.kind = RegionKind::CallerLoop;
            r.callee = callee;
            r.function = loop.caller;
            r.nests = members;
            r.swaps = loop.swaps;
            r.begin = ts_node_start_byte(loop.loop);
            r.end = ts_node_end_byte(loop.loop);
            r.first_line = tree.user_line(loop.loop);
            r.last_line = r.first_line + static_cast<int>(ts_node_end_point(loop.loop).row - ts_node_start_point(loop.loop).row);
            try {
                if (!why.empty()) throw Refusal{callee + "() does more than run its converted nests: " + why};
                if (placed) throw Refusal{callee + "()'s nests already run in the region of another loop"};
                if (!loop.why.empty()) throw Refusal{loop.why};
                if (!loop.steps) throw Refusal{"its number of turns is not a constant"};
                // Each call's arguments name the arrays and sizes where the region opens.
                std::vector<Launch> launches;
                std::map<std::string, std::string> sizes;
                for (const TSNode call : loop.calls) {
                    const std::vector<TSNode> args = named_children(field(call, "arguments"));
                    if (args.size() != params.size()) throw Refusal{"a call passes " + std::to_string(args.size()) + " arguments"};
                    std::map<std::string, std::string> rename;
                    for (std::size_t k = 0; k < params.size(); ++k) {
                        const std::string arg = tree.spelled(args[k]);
                        rename[params[k]] = "(" + arg + ")";
                        if (std::find(pointers.begin(), pointers.end(), k) != pointers.end()) {
                            rename[params[k]] = arg;
                            continue;
                        }
                        if (!loop.counter.empty() && contains_identifier(arg, loop.counter))
                            throw Refusal{"its calls pass `" + arg + "`, which changes every turn"};
                        if (has_side_effects(args[k])) throw Refusal{"its calls pass `" + arg + "`, which the region cannot evaluate once for all turns"};
                        if (sizes.count(params[k]) && sizes[params[k]] != arg)
                            throw Refusal{"its calls pass `" + params[k] + "` two values"};
                        sizes[params[k]] = arg;
                    }
                    // Plain names need no parentheses.
                    for (auto& [param, arg] : rename)
                        if (arg.size() > 2 && arg.front() == '(' &&
                            std::all_of(arg.begin() + 1, arg.end() - 1, [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }))
                            arg = arg.substr(1, arg.size() - 2);
                    for (const std::size_t i : members) launches.push_back({i, rename});
                }
                r.problem.steps = *loop.steps;
                r.calls_per_step = static_cast<std::int64_t>(loop.calls.size());
                r.problem.swaps = r.swaps;
                gather(nests, launches, &r);
                if (r.swaps) {
                    // Which buffer a name holds changes every turn: each is
                    // copied in, and back if some turn wrote it (the library
                    // copies back only those) and a name that holds it
                    // after the loop may be read.
                    std::vector<std::string> names;
                    for (const RegionHostArray& a : r.arrays) names.push_back(a.name);
                    const auto holders = holders_after(tree, loop, names);
                    for (std::size_t k = 0; k < r.arrays.size(); ++k) {
                        r.arrays[k].copy_in = r.arrays[k].copy_out = true;
                        r.problem.arrays[k].copy_in = r.problem.arrays[k].copy_out = true;
                        if (!holders) continue;
                        const std::vector<std::string>& by = holders->at(r.arrays[k].name);
                        r.arrays[k].held_after = by;
                        if (!by.empty() && std::all_of(by.begin(), by.end(), [&](const std::string& n) { return dead_after(tree, r.begin, r.end, n); })) {
                            r.arrays[k].copy_out = false;
                            r.arrays[k].dead_after = true;
                            r.problem.arrays[k].copy_out = false;
                        }
                    }
                } else {
                    for (std::size_t k = 0; k < r.arrays.size(); ++k)
                        if (r.arrays[k].copy_out && dead_after(tree, r.begin, r.end, r.arrays[k].name)) {
                            r.arrays[k].copy_out = false;
                            r.arrays[k].dead_after = true;
                            r.problem.arrays[k].copy_out = false;
                        }
                }
                price(tree, platform, options, &r);
                if (r.prediction.total.total_ms >= r.step_by_step_ms)
                    throw Refusal{"with its arrays kept on the GPU it would take " + format_ms(r.prediction.total.total_ms) +
                                  " ms, call by call " + format_ms(r.step_by_step_ms) + " ms"};
                placed = true;
                taken->insert(members.begin(), members.end());
                regions->push_back(std::move(r));
            } catch (const Refusal& f) {
                if (rejected)
                    rejected->push_back("the loop at lines " + std::to_string(r.first_line) + "-" + std::to_string(r.last_line) +
                                        " calls " + callee + "() call by call: " + f.why);
            }
        }
    }
}

std::string lines_of(const RegionOutcome& r) {
    return "lines " + std::to_string(r.first_line) + "-" + std::to_string(r.last_line);
}

}  // namespace

const char* to_string(RegionKind k) {
    switch (k) {
        case RegionKind::TimeLoop: return "time-loop";
        case RegionKind::CallerLoop: return "caller-loop";
        case RegionKind::Consecutive: return "consecutive";
    }
    return "?";
}

std::vector<RegionOutcome> form_regions(const CTree& tree, const std::vector<NestOutcome>& nests,
                                        const analyzer::Program& program, const advisor::Platform& platform,
                                        const advisor::ModelOptions& options, std::vector<std::string>* rejected) {
    // The step-by-step nests by their time loop, in source order.
    std::map<std::uint32_t, std::vector<std::size_t>> loops;
    for (std::size_t i = 0; i < nests.size(); ++i) {
        const NestOutcome& n = nests[i];
        if (n.verdict == Verdict::Converted && n.conversion.step_by_step && n.nest->time_loop)
            loops[n.nest->time_loop->span.begin_byte].push_back(i);
    }
    std::vector<RegionOutcome> regions;
    for (const auto& [begin, members] : loops) {
        RegionOutcome r;
        r.kind = RegionKind::TimeLoop;
        r.nests = members;
        try {
            check_time_loop(tree, nests, members, program, &r);
            gather(nests, in_place(members), &r);
            price(tree, platform, options, &r);
            regions.push_back(std::move(r));
        } catch (const Refusal& f) {
            const auto& tl = *nests[members.front()].nest->time_loop;
            if (rejected)
                rejected->push_back("the time loop at lines " + std::to_string(tl.span.begin.line) + "-" +
                                    std::to_string(tl.span.end.line) + " runs its nests step by step: " + f.why);
        }
    }
    std::set<std::size_t> taken;
    caller_regions(tree, nests, platform, options, &regions, &taken, rejected);
    for (const auto& members : consecutive_runs(tree, nests, taken, rejected)) {
        RegionOutcome r;
        r.kind = RegionKind::Consecutive;
        r.nests = members;
        const NestConversion& first = nests[members.front()].conversion;
        const NestConversion& last = nests[members.back()].conversion;
        r.begin = first.replace_begin;
        r.end = last.replace_end;
        r.first_line = first.first_line;
        r.last_line = last.last_line;
        try {
            gather(nests, in_place(members), &r);
            // Arrays the host never reads again stay on the GPU.
            for (std::size_t k = 0; k < r.arrays.size(); ++k) {
                RegionHostArray& a = r.arrays[k];
                if (a.copy_out && dead_after(tree, r.begin, r.end, a.name)) {
                    a.copy_out = false;
                    a.dead_after = true;
                    r.problem.arrays[k].copy_out = false;
                }
            }
            price(tree, platform, options, &r);
            if (r.prediction.total.total_ms >= r.step_by_step_ms)
                throw Refusal{"with their arrays kept on the GPU they would take " + format_ms(r.prediction.total.total_ms) +
                              " ms, alone " + format_ms(r.step_by_step_ms) + " ms"};
            regions.push_back(std::move(r));
        } catch (const Refusal& f) {
            if (rejected) rejected->push_back("the nests at " + lines_of(r) + " run one by one: " + f.why);
        }
    }
    return regions;
}

}  // namespace recipe::recipes
