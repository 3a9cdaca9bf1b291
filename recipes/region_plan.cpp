#include "recipes/region_plan.h"

#include <algorithm>
#include <map>

#include "recipes/advise.h"
#include "recipes/c_tree.h"
#include "recipes/nest_source_facts.h"
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

// Whether the nest writes every element of the region's arrays (its space is their extents).
bool covers_arrays(const NestConversion& c, const std::array<std::string, 3>& extents) {
    for (std::size_t d = 0; d < 3; ++d)
        if (c.space_begin_code[d] != "0" || c.space_end_code[d] != extents[d]) return false;
    return true;
}

RegionOutcome build(const CTree& tree, const std::vector<NestOutcome>& nests, const std::vector<std::size_t>& members,
                    const analyzer::Program& program, const advisor::Platform& platform,
                    const advisor::ModelOptions& options) {
    RegionOutcome r;
    const analyzer::LoopNest& first = *nests[members.front()].nest;
    r.loop = &*first.time_loop;
    r.function = first.function;
    const analyzer::TimeLoop& tl = *r.loop;
    // Every nest of the loop's body converted, step by step.
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
    if (const std::string why = time_loop_body_problem(tree, loop, tl, spans); !why.empty())
        throw Refusal{why + ", which may use the arrays between the nests"};

    // One shape for every array: the nests agree on every extent but the
    // slowest, which the analyzer infers per nest from the elements it
    // touches (a pointer's rows); the region holds the most rows any nest
    // touches.
    const NestConversion& c0 = nests[members.front()].conversion;
    const int slow = c0.dims - 1;
    std::size_t widest = members.front();
    for (const std::size_t i : members) {
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
    r.problem.extents = nests[widest].chosen()->problem.extents;
    r.problem.dims = c0.dims;
    r.problem.steps = *tl.iterations.value;
    bool all_pinned = true;
    for (const std::size_t i : members) {
        const NestOutcome& n = nests[i];
        const NestConversion& c = n.conversion;
        const advisor::Problem& p = n.chosen()->problem;
        if (!c.wholes.empty()) throw Refusal{"the nest at line " + std::to_string(n.nest->span.begin.line) + " reads an array whole"};
        r.problem.nests.push_back(p);
        auto note = [&](const ArrayRole& role, bool output) {
            if (role.flatten) throw Refusal{"`" + role.name + "` is reached through row pointers"};
            auto it = std::find_if(r.arrays.begin(), r.arrays.end(), [&](const RegionHostArray& a) { return a.host_pointer == role.host_pointer; });
            if (it == r.arrays.end()) {
                const advisor::ArrayUse* use = use_of(p, role.name);
                if (!use) throw Refusal{"the model has no size for `" + role.name + "`"};
                RegionHostArray a;
                a.name = role.name;
                a.host_pointer = role.host_pointer;
                a.element_type = role.element_type;
                a.bytes = r.problem.extents[0] * r.problem.extents[1] * r.problem.extents[2] * use->elem_bytes;
                a.pinned = role.pinned;
                // Written whole before anything reads it: nothing to copy in.
                a.copy_in = !(output && !role.inout && covers_arrays(c, r.extents_code));
                r.arrays.push_back(a);
                r.problem.arrays.push_back({role.name, use->elem_bytes, a.copy_in, false});
                it = r.arrays.end() - 1;
            } else if (it->element_type != role.element_type) {
                throw Refusal{"`" + role.name + "` is used with two element types"};
            }
            if (output) {
                it->copy_out = true;
                r.problem.arrays[static_cast<std::size_t>(it - r.arrays.begin())].copy_out = true;
            }
            all_pinned = all_pinned && role.pinned;
        };
        for (const auto& role : c.inputs) note(role, false);
        for (const auto& role : c.outputs) note(role, true);
        r.step_by_step_ms += n.chosen()->total_ms * static_cast<double>(r.problem.steps);
    }
    r.problem.pinned_host = all_pinned;
    std::string error;
    if (!advisor::predict_region(r.problem, platform, options, &r.prediction, &error)) throw Refusal{error};
    r.begin = tl.span.begin_byte;
    r.end = tl.span.end_byte;
    r.indent = line_indent(tree.source(), r.begin);
    r.first_line = tl.span.begin.line;
    r.last_line = tl.span.end.line;
    r.converted = true;
    return r;
}

}  // namespace

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
        try {
            regions.push_back(build(tree, nests, members, program, platform, options));
            regions.back().nests = members;
        } catch (const Refusal& f) {
            const auto& tl = *nests[members.front()].nest->time_loop;
            if (rejected)
                rejected->push_back("the time loop at lines " + std::to_string(tl.span.begin.line) + "-" +
                                    std::to_string(tl.span.end.line) + " runs its nests step by step: " + f.why);
        }
    }
    return regions;
}

}  // namespace recipe::recipes
