#include "recipes/recipe_sections.h"

#include "advisor/host_record.h"
#include "analyzer/report.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <set>

#include "recipes/cu_builder.h"
#include "recipes/recipe_text.h"
#include "recipes/recipe_view.h"
#include "recipes/svg_charts.h"

namespace recipe::recipes {

namespace km = kainjow::mustache;
using analyzer::LoopNest;
using namespace text;

km::data nest_description_view(const NestOutcome& n) {
    const LoopNest& nest = *n.nest;
    km::data d;
    d.set("nest_first_line", std::to_string(nest.span.begin.line));
    d.set("nest_last_line", std::to_string(nest.span.end.line));
    d.set("dims", std::to_string(nest.dimensionality));
    d.set("kind", analyzer::to_string(nest.kind));
    std::vector<std::size_t> order(nest.iteration_space.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return nest.iteration_space[a].depth < nest.iteration_space[b].depth; });
    static const char* axes[] = {"x", "y", "z"};
    d.set("loops", list_of(order, [&](km::data& l, std::size_t i) {
        const auto& lp = nest.iteration_space[i];
        const bool conv = n.conversion.ok;
        l.set("var", lp.var);
        l.set("lower", conv ? "`" + n.conversion.space_begin[i] + "`" : extent_text(lp.lower));
        l.set("upper", conv ? "`" + n.conversion.space_end[i] + "`" : extent_text(lp.upper));
        if (conv && lp.upper.value) l.set("upper", "`" + n.conversion.space_end[i] + "` = " + std::to_string(*lp.upper.value));
        l.set("line", std::to_string(lp.span.begin.line));
        l.set("contiguous", i == 0);
        l.set("axis", i < 3 ? axes[i] : "?");
    }));
    if (nest.time_loop) {
        km::data tl;
        tl.set("first_line", std::to_string(nest.time_loop->span.begin.line));
        tl.set("last_line", std::to_string(nest.time_loop->span.end.line));
        tl.set("steps", "`" + (nest.time_loop->iterations.expr.empty() ? std::to_string(nest.time_loop->iterations.value.value_or(0)) : nest.time_loop->iterations.expr) + "`");
        const auto& arrays = nest.time_loop->arrays;
        tl.set("read", n.conversion.ok && n.conversion.iterative ? n.conversion.read_array : (arrays.size() > 0 ? arrays[0] : "?"));
        tl.set("written", n.conversion.ok && n.conversion.iterative ? n.conversion.written_array : (arrays.size() > 1 ? arrays[1] : "?"));
        const bool swap = nest.time_loop->exchange == analyzer::TimeLoop::Exchange::PointerSwap;
        tl.set("swap", swap);
        const bool resident = n.region >= 0 && n.verdict == Verdict::Converted;
        tl.set("resident", resident);
        tl.set("step_by_step", !swap && !resident);
        tl.set("exchange", std::string(analyzer::to_string(nest.time_loop->exchange)));
        tl.set("exchanged", !arrays.empty());  // fdtd-2d's loop updates its arrays in place: nothing to exchange
        tl.set("arrays", and_list([&] {
            std::vector<std::string> named;
            for (const auto& a : arrays) named.push_back("`" + a + "`");
            return named;
        }()));
        d.set("time_loop", tl);
    } else {
        d.set("time_loop", false);
    }
    std::vector<const analyzer::ArrayProperties*> arrays;
    std::set<std::string> outs;
    for (const auto& a : nest.output_arrays) outs.insert(a.name);
    for (const auto& a : nest.input_arrays)
        if (!outs.count(a.name)) arrays.push_back(&a);
    for (const auto& a : nest.output_arrays) arrays.push_back(&a);
    d.set("arrays", list_of(arrays, [&](km::data& a, const analyzer::ArrayProperties* p) {
        bool read_too = p->reads_own_element;
        for (const auto& in : nest.input_arrays) read_too = read_too || (outs.count(p->name) && in.name == p->name);
        a.set("name", p->name);
        a.set("role", !outs.count(p->name) ? "input" : read_too ? "output, also read" : "output");
        a.set("type", p->element_type);
        a.set("layout", analyzer::to_string(p->layout));
        std::string ext;
        for (std::size_t i = 0; i < p->size.size(); ++i) ext += (i ? " × " : "") + extent_text(p->size[i]);
        a.set("extents", ext);
        a.set("reach", outs.count(p->name) ? "–" : reach_text({p->halo().lo, p->halo().hi}, nest.dimensionality));
    }));
    return d;
}

namespace {

// The five best plans and the naive port, as the ranking table shows them.
km::data ranked_rows(const advisor::Plan& plan, int dims) {
    const std::size_t shown = std::min<std::size_t>(plan.ranked.size(), 5);
    std::vector<const advisor::Prediction*> rows;
    for (std::size_t i = 0; i < shown; ++i) rows.push_back(&plan.ranked[i]);
    if (plan.naive_fits) rows.push_back(&plan.naive);
    km::data ranked{km::data::type::list};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& p = *rows[i];
        const bool naive = plan.naive_fits && i + 1 == rows.size();
        km::data r;
        r.set("rank", naive ? "naive" : std::to_string(i + 1));
        r.set("scheme", advisor::to_string(p.config.scheme));
        r.set("tile", !scheme_traits(p.config.scheme).tiled ? "whole space" : format_tile(p.config.tile, dims));
        r.set("copy", !copies_tiles(p.config.scheme) ? "–" : to_string(p.config.copy));
        r.set("streams", naive ? "1" : std::to_string(p.config.streams));
        r.set("host", host_text(p.host_strategy));
        r.set("ms", format_ms(p.total_ms));
        r.set("speedup", plan.naive_fits ? format_speedup(plan.naive.total_ms / p.total_ms) : std::string("–"));
        ranked.push_back(r);
    }
    return ranked;
}

// The chosen plan's time by phase, the phases it has.
km::data phases_list(const advisor::PhaseTimes& ph) {
    std::vector<std::pair<std::string, double>> phases = {
        {"allocation and frees", ph.alloc + ph.free},
        {"page-locking the arrays (cudaHostRegister)", ph.host_register},
        {"releasing them (cudaHostUnregister)", ph.host_unregister},
        {"host staging (memcpy into page-locked buffers)", ph.staging},
        {"copies in (host to GPU)", ph.h2d},
        {"kernel", ph.kernel},
        {"copies out (GPU to host)", ph.d2h}};
    phases.erase(std::remove_if(phases.begin(), phases.end(), [](const auto& p) { return p.second <= 0; }), phases.end());
    return list_of(phases, [](km::data& v, const std::pair<std::string, double>& p) {
        v.set("name", p.first);
        v.set("ms", format_ms(p.second));
    });
}

// The tiles within the tolerance of the best, and the break-even size.
void set_tile_limits(const advisor::Plan& plan, int dims, km::data* out) {
    km::data& d = *out;
    std::vector<std::string> within;
    for (const auto& t : plan.tiles_within_tolerance) {
        if (within.size() == 8) {
            within.push_back("…");
            break;
        }
        within.push_back(format_tile(t, dims));
    }
    std::string w;
    for (std::size_t i = 0; i < within.size(); ++i) w += (i ? ", " : "") + within[i];
    d.set("tiles_within", within.size() > 1 ? km::data(w) : km::data(false));
    d.set("tolerance", fixed(plan.tolerance * 100, 0) + "%");
    if (plan.break_even_extents) {
        km::data be;
        be.set("extents", format_tile(*plan.break_even_extents, dims));
        // The scale is of the points; each dimension shrinks by its dims-th root.
        const double per_dim = std::pow(plan.break_even_scale.value_or(1), 1.0 / std::max(1, dims)) * 100;
        be.set("percent", fixed(per_dim, per_dim < 10 ? 1 : 0));
        d.set("break_even", be);
    } else {
        d.set("break_even", false);
    }
}

// What the host arrays' memory means for the run (pinned assumed, pageable).
void set_host_caveats(const advisor::Prediction& best, const NestConversion& c, km::data* out) {
    km::data& d = *out;
    std::vector<std::string> names;
    for (const auto& a : best.problem.inputs) names.push_back(a.name);
    for (const auto& a : best.problem.outputs)
        if (std::find(names.begin(), names.end(), a.name) == names.end()) names.push_back(a.name);
    bool unpinned = false;
    for (const auto* roles : {&c.inputs, &c.outputs})
        for (const auto& r : *roles) unpinned = unpinned || !r.pinned || r.flatten;
    if (best.host_strategy == advisor::HostStrategy::Pinned && unpinned) {
        km::data ap;
        ap.set("arrays_phrase", and_list(names));
        ap.set("them", names.size() == 1 ? "it" : "them");
        d.set("assumed_pinned", ap);
    } else {
        d.set("assumed_pinned", false);
    }
    if (best.host_strategy != advisor::HostStrategy::Pinned) {
        km::data pg;
        pg.set("arrays_phrase", and_list(names));
        pg.set("array_verb", names.size() == 1 ? "is" : "are");
        pg.set("them", names.size() == 1 ? "it" : "them");
        const bool mapped = maps_host_memory(best.config.scheme);
        pg.set("mapped", mapped);
        pg.set(std::string("host_") + to_string(best.host_strategy), !mapped);  // sections named by the modes
        const double cost = best.host_strategy == advisor::HostStrategy::Staged ? best.phases.staging
                                                                               : best.phases.host_register + best.phases.host_unregister;
        pg.set("cost", format_ms(cost));
        d.set("pageable", pg);
    } else {
        d.set("pageable", false);
    }
}

// The assumptions the plan was made for and the flags the .cu needs.
void set_build_caveats(const RecipeContext& x, km::data* out) {
    km::data& d = *out;
    if (!x.options.assumptions.empty()) {
        std::string l;
        std::vector<std::string> assumed;
        for (std::size_t i = 0; i < x.options.assumptions.size(); ++i) {
            l += (i ? ", " : "") + ("`" + x.options.assumptions[i].first + " = " + x.options.assumptions[i].second + "`");
            assumed.push_back(x.options.assumptions[i].first);
        }
        km::data df;
        df.set("list", l);
        df.set("names", and_list(assumed));
        df.set("verb", assumed.size() == 1 ? "has" : "have");
        d.set("assumptions", df);
    } else {
        d.set("assumptions", false);
    }
    if (!x.result.nvcc_flags.empty()) {
        km::data bf;
        bf.set("flags", x.result.nvcc_flags.substr(1));
        d.set("build_flags", bf);
    } else {
        d.set("build_flags", false);
    }
}

// The kernel the nest becomes (its parameters, locals, accesses) and the
// library call that replaces the loops.
void set_kernel_and_call(const RecipeContext& x, const NestOutcome& n, km::data* out) {
    km::data& d = *out;
    const NestConversion& c = n.conversion;
    d.set("has_scalars", !c.scalars.empty());
    auto var = [](km::data& v, const KernelVariable& k) {
        v.set("name", k.name);
        v.set("type", k.type);
    };
    d.set("scalars", list_of(c.scalars, var));
    d.set("has_locals", !c.locals.empty());
    d.set("locals", list_of(c.locals, var));
    d.set("index_vars", list_of(c.index_vars, [](km::data& v, const IndexVar& i) {
        v.set("name", i.name);
        v.set("axis", std::string(1, i.axis));
    }));
    d.set("wraps_continue", c.wraps_continue);
    d.set("has_device_functions", !c.device_functions.empty());
    d.set("device_functions", list_of(c.device_functions, [](km::data& v, const NestConversion::DeviceFunction& f) {
        v.set("name", f.name);
        v.set("line", std::to_string(f.line));
    }));
    d.set("accesses", list_of(c.accesses, [](km::data& v, const AccessChange& a) {
        v.set("line", std::to_string(a.pos.line));
        v.set("column", std::to_string(a.pos.column));
        v.set("before", cell(a.before));
        v.set("after", cell(a.after));
    }));
    CuContext ctx{x.result.source_file, x.cu_file, x.recipe_file, x.result.platform.name, x.result.compile_command};
    std::string kernel = render_kernel(x.templates, c, ctx);
    while (!kernel.empty() && kernel.back() == '\n') kernel.pop_back();
    d.set("kernel_code", kernel);
    NestConversion flat = c;
    flat.indent.clear();
    std::set<std::string> taken;
    d.set("call_code", render_call(x.templates, flat, *n.running(), n.cpu ? n.in_program.library_first_ms() : -1, ctx, &taken, nullptr,
                                   n.gpus.devices));
    d.set("replace_first_line", std::to_string(c.first_line));
    d.set("replace_last_line", std::to_string(c.last_line));
}

// The inputs' halo padding.
void set_padding(const NestConversion& c, km::data* out) {
    km::data& d = *out;
    std::vector<std::pair<std::string, std::string>> pads;
    for (const auto& a : c.inputs) {
        const std::string reach = reach_text(a.halo, c.dims);
        if (reach != "none") pads.emplace_back(a.name, reach);
    }
    d.set("has_padding", !pads.empty());
    d.set("padding", list_of(pads, [](km::data& v, const std::pair<std::string, std::string>& pad) {
        v.set("name", pad.first);
        v.set("reach", pad.second);
    }));
}

// Arrays gathered from row pointers, and outputs also read (inout).
void set_array_notes(const NestConversion& c, const NestOutcome& n, km::data* out) {
    km::data& d = *out;
    std::vector<const ArrayRole*> gathered;
    bool scatters = false;
    for (const auto& a : c.inputs)
        if (a.flatten) gathered.push_back(&a);
    for (const auto& a : c.outputs)
        if (a.flatten) gathered.push_back(&a), scatters = true;
    if (!gathered.empty()) {
        km::data g;
        g.set("gathered", list_of(gathered, [](km::data& v, const ArrayRole* a) { v.set("name", a->name); }));
        g.set("gathered_verb", gathered.size() == 1 ? "is" : "are");
        g.set("pointer_type", gathered.front()->element_type + " **");
        g.set("scatters", scatters);
        // Priced in the nest's GPU time (advisor::gather_cost), outside the
        // library call and so outside cfg.predicted.
        if (n.cpu && n.in_program.gather_ms > 0) g.set("gather_ms", format_ms(n.in_program.gather_ms) + " ms");
        d.set("gathers", g);
    } else {
        d.set("gathers", false);
    }
    std::vector<const ArrayRole*> inouts;
    for (const auto& a : c.outputs)
        if (a.inout) inouts.push_back(&a);
    d.set("inouts", list_of(inouts, [](km::data& v, const ArrayRole* a) {
        v.set("name", a->name);
        v.set("reason", a->inout_reason);
    }));
}

}  // namespace

km::data conversion_view(const RecipeContext& x, const NestOutcome& n) {
    const NestConversion& c = n.conversion;
    const advisor::Prediction& p = *n.chosen();
    km::data d;
    d.set("body_first_line", std::to_string(c.body_first_line));
    d.set("body_last_line", std::to_string(c.body_last_line));
    d.set("kernel", c.kernel_name);
    d.set("function", c.function);
    d.set("function_line", std::to_string(c.function_line));
    std::vector<std::string> views;
    for (const auto& a : c.inputs) views.push_back("recipe::InView<" + a.element_type + "> " + a.name);
    for (const auto& a : c.outputs) views.push_back("recipe::OutView<" + a.element_type + "> " + a.name);
    d.set("views", list_of(views, [](km::data& v, const std::string& s) { v.set("decl", s); }));
    set_kernel_and_call(x, n, &d);

    const std::string scheme = advisor::to_string(p.config.scheme);
    d.set("scheme", scheme);
    km::data sf = flag(scheme);
    sf.set("iterative", c.iterative);
    d.set("scheme_explanation", explain(x.templates, "explain_scheme.md", sf));
    d.set("tile", format_tile(p.config.tile, c.dims));
    const bool whole_rows = c.dims >= 2 && p.config.tile[0] >= p.problem.extents[0];
    const bool whole_planes = c.dims == 3 && whole_rows && p.config.tile[1] >= p.problem.extents[1];
    const bool untiled = !scheme_traits(p.config.scheme).tiled;
    d.set("tile_untiled", untiled);
    d.set("tile_planes", !untiled && whole_planes);
    d.set("tile_rows", !untiled && !whole_planes && whole_rows);
    d.set("tiles", std::to_string(p.tiles));
    d.set("tile_noun", p.tiles == 1 ? "tile" : "tiles");
    const auto block = block_dims(p);
    std::string b = block[0];
    for (int i = 1; i < c.dims; ++i) b += " × " + block[static_cast<std::size_t>(i)];
    d.set("block", b);
    d.set("occupancy", fixed(p.occupancy * 100, 0) + "%");
    d.set("streams", std::to_string(p.config.streams));
    const bool own_streams = scheme_traits(p.config.scheme).stream_per_tile;
    d.set("own_streams", own_streams);
    set_padding(c, &d);
    d.set("copy", to_string(p.config.copy));
    km::data cf = flag(copy_flag(p.config.copy));
    cf.set("whole_rows", whole_rows);
    d.set("copy_explanation", explain(x.templates, "explain_copy.md", cf));
    bool unpinned = false;
    for (const auto* roles : {&c.inputs, &c.outputs})
        for (const auto& r : *roles) unpinned = unpinned || !r.pinned || r.flatten;
    const bool assumed = p.host_strategy == advisor::HostStrategy::Pinned && unpinned;
    d.set("host", assumed ? "registered" : host_text(p.host_strategy));
    d.set("host_explanation", explain(x.templates, "explain_host.md", flag(assumed ? std::string("assumed_pinned") : std::string("host_") + to_string(p.host_strategy))));
    set_array_notes(c, n, &d);
    return d;
}

km::data why_view(const RecipeContext& x, const NestOutcome& n) {
    const advisor::Plan& plan = n.plan;
    const advisor::Prediction& best = plan.ranked.front();
    const int dims = best.problem.dims;
    km::data d;
    std::int64_t points = 1;
    for (int i = 0; i < dims; ++i) points *= best.problem.extents[static_cast<std::size_t>(i)];
    d.set("space", format_tile(best.problem.extents, dims));
    d.set("points", std::to_string(points));
    d.set("time_steps", best.problem.time_steps > 1 ? km::data(std::to_string(best.problem.time_steps)) : km::data(false));
    d.set("h2d_total", format_bytes(static_cast<double>(best.h2d.bytes)));
    d.set("d2h_total", format_bytes(static_cast<double>(best.d2h.bytes)));
    d.set("platform", x.result.platform.name);
    d.set("candidates", std::to_string(plan.candidates_evaluated));
    d.set("ranked", ranked_rows(plan, dims));
    d.set("speedup", format_speedup(plan.speedup));
    d.set("naive_ms", format_ms(plan.naive.total_ms));
    d.set("naive_fits", plan.naive_fits);
    d.set("naive_why", plan.naive_why);
    d.set("best_ms", format_ms(best.total_ms));
    d.set("dominant", dominant_text(best.dominant));
    d.set("dominant_explanation", explain(x.templates, "explain_dominant.md", flag(dominant_flag(best.dominant))));
    d.set("phases", phases_list(best.phases));
    d.set("h2d_copies", std::to_string(best.h2d.copies));
    d.set("h2d_size", format_bytes(static_cast<double>(best.h2d.bytes)));
    d.set("d2h_copies", std::to_string(best.d2h.copies));
    d.set("d2h_size", format_bytes(static_cast<double>(best.d2h.bytes)));
    d.set("device_size", format_bytes(static_cast<double>(best.device_bytes)));
    d.set("host_size", best.host_bytes > 0 ? km::data(format_bytes(static_cast<double>(best.host_bytes))) : km::data(false));
    d.set("kernel_measured", best.kernel_source == advisor::KernelSource::Measured);
    d.set("kernel_given", best.kernel_source == advisor::KernelSource::UserGiven);
    d.set("kernel_estimated", best.kernel_source == advisor::KernelSource::Estimate);
    std::string note = best.kernel_note;  // "kernel time is …", opening the line
    if (!note.empty()) note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(note[0])));
    d.set("kernel_note", note);
    set_tile_limits(plan, dims, &d);
    std::vector<std::string> notes = plan.notes;
    for (const auto& s : best.notes)  // the kernel's note is the "Kernel time" line's
        if (s != best.kernel_note && std::find(notes.begin(), notes.end(), s) == notes.end()) notes.push_back(s);
    d.set("notes", list_of(notes, [](km::data& v, const std::string& s) { v.set("text", s); }));
    d.set("tile_chart", n.tile_chart);
    d.set("timeline_chart", n.timeline_chart);
    return d;
}

km::data caveats_view(const RecipeContext& x, const NestOutcome& n) {
    const auto& best = *n.chosen();
    const NestConversion& c = n.conversion;
    km::data d;
    set_host_caveats(best, c, &d);
    d.set("edge_tiles", best.tiles > 1);
    if (c.ok && c.iterative) {
        km::data it;
        it.set("written", c.written_array);
        it.set("read", c.read_array);
        it.set("steps", "`" + c.steps + "`");
        d.set("iterative", it);
    } else {
        d.set("iterative", false);
    }
    std::vector<std::string> inouts, gathers;
    for (const auto& a : c.outputs)
        if (a.inout) inouts.push_back(a.name);
    for (const auto& a : c.inputs)
        if (a.flatten) gathers.push_back(a.name);
    for (const auto& a : c.outputs)
        if (a.flatten) gathers.push_back(a.name);
    if (c.ok && !inouts.empty()) {
        km::data io;
        io.set("names", and_list(inouts));
        io.set("verb", inouts.size() == 1 ? "is" : "are");
        d.set("inout", io);
    } else {
        d.set("inout", false);
    }
    if (c.ok && !c.dropped_pragma.empty()) {
        km::data o;
        o.set("pragma", c.dropped_pragma);
        d.set("omp", o);
    } else {
        d.set("omp", false);
    }
    if (c.ok && !gathers.empty()) {
        km::data g;
        g.set("names", and_list(gathers));
        d.set("gather", g);
    } else {
        d.set("gather", false);
    }
    set_build_caveats(x, &d);
    return d;
}


km::data rejected_view(const RecipeContext& x, const NestOutcome& n) {
    km::data d;
    std::vector<std::string> blocks;
    std::vector<std::string> rules;
    for (const auto& dg : n.nest->reasons) {
        if (dg.severity == analyzer::Severity::Note) continue;
        std::string block = analyzer::format_diagnostic(x.result.source_file, x.source_lines, dg);
        if (!block.empty() && block.back() == '\n') block.pop_back();
        blocks.push_back(block);
        if (std::find(rules.begin(), rules.end(), dg.rule_id) == rules.end()) rules.push_back(dg.rule_id);
    }
    d.set("diagnostics", list_of(blocks, [](km::data& v, const std::string& s) { v.set("text", s); }));
    std::vector<std::string> advice;
    for (const auto& rule : rules) {
        km::data f = flag(rule);
        f.set("array", n.nest->dependences.empty() ? std::string("the array") : n.nest->dependences.front().array);
        std::string a = explain(x.templates, "rejection_advice.md", f);
        if (a.empty()) a = explain(x.templates, "rejection_advice.md", flag("other"));
        advice.push_back(a);
    }
    for (auto& a : advice) a[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(a[0])));
    d.set("advice", list_of(advice, [](km::data& v, const std::string& s) { v.set("text", s); }));
    return d;
}

// "In your program": the planned nests against the CPU (advise.cpp, decide_against_cpu).
// How wide the nests' arithmetic is priced, as the user's compiler
// vectorises their loops (host_vector_lanes, analyzer/vectorization.h): "4
// lanes", "scalar", several joined by ", " in the order met; "–" when no
// report was read.
std::string compiler_widths(const std::vector<int>& lanes) {
    std::vector<std::string> seen;
    for (const int l : lanes) {
        const std::string w = l <= 0 ? "–" : l == 1 ? "scalar" : std::to_string(l) + " lanes";
        if (std::find(seen.begin(), seen.end(), w) == seen.end()) seen.push_back(w);
    }
    std::string joined;
    for (const auto& w : seen) joined += (joined.empty() ? "" : ", ") + w;
    return joined;
}

km::data program_view(const AdviseResult& r, const RecipeContext& x) {
    const auto& ps = r.program_summary;
    if (!ps.compared) return km::data(false);
    auto ms = [](double v) { return format_ms(v) + " ms"; };
    km::data p;
    p.set("cpu_ms", ms(ps.cpu_ms));
    p.set("gpu_ms", ms(ps.gpu_ms));
    p.set("startup_ms", ms(ps.cuda_startup_ms));
    p.set("startup_paid_ms", ms(ps.startup_paid_ms));
    p.set("pool_setup_ms", ms(ps.pool_setup_ms));
    p.set("gpus_startup", ps.gpus > 1 ? km::data(ms(ps.gpus_startup_ms)) : km::data(false));
    p.set("nccl_init", ps.nccl_init_ms > 0 ? km::data(ms(ps.nccl_init_ms)) : km::data(false));
    p.set("teardown_ms", ms(ps.teardown_ms));
    if (ps.release_after) {
        km::data release;
        release.set("line", std::to_string(ps.release_line));
        release.set("tail_ms", ms(ps.release_tail_ms));
        p.set("release", release);
    } else {
        p.set("release", false);
    }
    p.set("runs_on_gpu", ps.runs_on_gpu);
    p.set("calls", std::to_string(x.options.calls));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", r.platform.host_stream_gbs);
    p.set("stream", std::string(buf));
    std::snprintf(buf, sizeof buf, "%.2f", r.platform.host_gflops);
    p.set("gflops", std::string(buf));
    // The rates of loops the user's compiler vectorises (analyzer/vectorization.h).
    if (r.platform.host_gflops_vector2 > 0 && r.platform.host_gflops_vector4 > 0) {
        std::snprintf(buf, sizeof buf, "%.2f and %.2f", r.platform.host_gflops_vector2, r.platform.host_gflops_vector4);
        p.set("vector_gflops", std::string(buf));
    } else {
        p.set("vector_gflops", false);
    }
    // A clamped contiguous read, loaded one lane at a time (hostLaneLoadNs).
    if (r.platform.host_lane_load_ns > 0) {
        std::snprintf(buf, sizeof buf, "%.2f", r.platform.host_lane_load_ns);
        p.set("lane_load", std::string(buf));
    } else {
        p.set("lane_load", false);
    }
    p.set("host_measured", r.platform.host_measured);
    if (r.platform.host_measured && r.platform.host_readings > 1)
        p.set("host_readings_note", "the best of its " + std::to_string(r.platform.host_readings) + " readings since " +
                                        advisor::utc_time(r.platform.host_readings_since_unix_s, "%Y-%m-%d %H:%M UTC"));
    km::data rows{km::data::type::list};
    for (const auto& region : r.regions) {
        if (!region.compared) continue;
        const auto& t = region.in_program;
        std::string ids;
        for (std::size_t k = 0; k < region.nests.size(); ++k)
            ids += (k ? (k + 1 == region.nests.size() ? " and " : ", ") : "") + std::to_string(r.nests[region.nests[k]].nest->id);
        km::data row;
        row.set("id", ids + (region.kind == RegionKind::TimeLoop     ? " (time loop, lines "
                             : region.kind == RegionKind::CallerLoop ? " (called from the loop at lines "
                                                                     : " (lines ") +
                          std::to_string(region.first_line) + "–" + std::to_string(region.last_line) + ", arrays resident)");
        row.set("calls", std::to_string(t.calls));
        row.set("cpu", ms(t.cpu_total_ms()));
        std::vector<int> lanes;
        for (const std::size_t k : region.nests) lanes.push_back(r.nests[k].nest->host_vector_lanes);
        row.set("vector", compiler_widths(lanes));
        row.set("first", ms(t.gpu_first_ms));
        row.set("warm", t.calls > 1 ? ms(t.gpu_warm_ms) + " each" : std::string("–"));
        row.set("on", region.converted ? "GPU" : "CPU");
        rows.push_back(row);
    }
    for (const auto& n : r.nests) {
        if (!n.cpu || (n.region >= 0 && r.regions[static_cast<std::size_t>(n.region)].compared)) continue;
        const auto& t = n.in_program;
        km::data row;
        row.set("id", std::to_string(n.nest->id));
        row.set("calls", std::to_string(t.calls));
        row.set("cpu", ms(t.cpu_total_ms()));
        row.set("vector", compiler_widths({n.nest->host_vector_lanes}));
        row.set("first", ms(t.gpu_first_ms));
        row.set("warm", t.calls > 1 ? ms(t.gpu_warm_ms) + " each" : std::string("–"));
        row.set("on", n.verdict == Verdict::Converted ? "GPU" : "CPU");
        rows.push_back(row);
    }
    p.set("rows", rows);
    return p;
}

km::data gpus_view(const RecipeContext& x, const GpuChoice& c, bool region) {
    if (!c.asked) return km::data(false);
    auto ms = [](double v) { return format_ms(v) + " ms"; };
    auto rows_text = [](const std::vector<std::int64_t>& rows) {
        std::vector<std::string> parts;
        for (const std::int64_t n : rows) parts.push_back(std::to_string(n));
        const bool equal = std::all_of(rows.begin(), rows.end(), [&](std::int64_t n) { return n == rows.front(); });
        if (equal) return rows.size() > 1 ? std::to_string(rows.size()) + " × " + parts.front() : parts.front();
        std::string joined;
        for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? (i + 1 == parts.size() ? " and " : ", ") : "") + parts[i];
        return joined;
    };
    km::data d;
    d.set("asked", std::to_string(x.options.gpus));
    d.set("region", region);
    d.set("calls", std::to_string(x.options.calls));
    static const char* axes[] = {"x", "y", "z"};
    d.set("axis", axes[std::clamp(c.split_dimension, 0, 2)]);
    if (!c.refused.empty()) {
        km::data refused;
        refused.set("reason", c.refused);
        d.set("refused", refused);
        return d;
    }
    d.set("refused", false);
    d.set("priced", std::to_string(c.curve.back().devices));
    const std::int64_t halo = c.halo_rows;
    d.set("halo_rows", std::to_string(halo));
    d.set("halo_noun", halo == 1 ? "row" : "rows");
    km::data curve{km::data::type::list};
    for (std::size_t i = 0; i < c.curve.size(); ++i) {
        const advisor::DeviceCost& k = c.curve[i];
        km::data e;
        e.set("gpus", std::to_string(k.devices));
        e.set("chosen", k.devices == c.devices);
        e.set("rows", i < c.rows.size() ? rows_text(c.rows[i]) : std::string("–"));
        e.set("call", ms(k.call_ms));
        e.set("first", ms(k.first_ms));
        e.set("added", ms(k.added_ms));
        e.set("startup", ms(k.startup_ms));
        e.set("exit", ms(k.exit_ms));
        e.set("program", ms(k.total_ms()));
        curve.push_back(e);
    }
    d.set("curve", curve);
    d.set("hidden", ms(c.hidden_ms));
    d.set("own_startup", ms(c.own_startup_ms));
    d.set("exit_measured", !x.result.platform.multi_gpu.exit_ms.empty());
    d.set("not_priced", list_of(c.not_priced, [](km::data& v, const std::string& s) { v.set("text", s); }));
    const advisor::DeviceCost& one = c.curve.front();
    d.set("one_program", ms(one.total_ms()));
    if (c.devices > 1) {
        const advisor::DeviceCost& chosen = c.curve[static_cast<std::size_t>(c.devices - 1)];
        km::data m;
        m.set("devices", std::to_string(c.devices));
        m.set("program", ms(chosen.total_ms()));
        m.set("startup", ms(chosen.startup_ms));
        m.set("exit", ms(chosen.exit_ms));
        m.set("nccl", chosen.nccl_ms > 0);
        if (c.forced) {
            km::data f;
            f.set("fastest", std::to_string(c.fastest));
            f.set("fastest_program", ms(c.curve[static_cast<std::size_t>(c.fastest - 1)].total_ms()));
            m.set("forced", f);
        } else {
            m.set("forced", false);
        }
        std::vector<std::size_t> index(static_cast<std::size_t>(c.devices));
        for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
        const int s = c.split_dimension;
        m.set("gpus_list", list_of(index, [&](km::data& v, std::size_t i) {
            v.set("index", std::to_string(i));
            const Box& b = region ? c.region.owned[i] : c.run.slabs[i];
            v.set("rows", std::to_string(b.begin[static_cast<std::size_t>(s)]) + "–" + std::to_string(b.end[static_cast<std::size_t>(s)]));
            v.set("in", format_bytes(static_cast<double>(region ? c.region.in_bytes[i] : c.run.h2d_bytes[i])));
            v.set("out", format_bytes(static_cast<double>(region ? c.region.out_bytes[i] : c.run.d2h_bytes[i])));
            v.set("memory", format_bytes(static_cast<double>(region ? c.region.device_bytes[i] : c.run.prediction.device_bytes)));
        }));
        if (region && c.region.exchanges_per_step > 0) {
            km::data e;
            e.set("exchanges", std::to_string(c.region.exchanges_per_step));
            e.set("exchange_verb", c.region.exchanges_per_step == 1 ? "s" : "");
            e.set("exchange_bytes", format_bytes(static_cast<double>(c.region.exchange_bytes_per_step)));
            e.set("exchange_ms", ms(c.region.exchange_ms_per_step));
            m.set("exchanges", e);
        } else {
            m.set("exchanges", false);
        }
        d.set("several", m);
        d.set("one", false);
    } else if (c.curve.size() > 1) {
        std::size_t best = 1;
        for (std::size_t i = 2; i < c.curve.size(); ++i)
            if (c.curve[i].total_ms() < c.curve[best].total_ms()) best = i;
        km::data o;
        o.set("best_devices", std::to_string(c.curve[best].devices));
        o.set("best_program", ms(c.curve[best].total_ms()));
        o.set("slower_call", c.curve[best].call_ms >= one.call_ms);
        o.set("saving", ms(one.call_ms - c.curve[best].call_ms));
        o.set("startup", ms(c.curve[best].startup_ms));
        o.set("exit", ms(c.curve[best].exit_ms));
        o.set("nccl", c.curve[best].nccl_ms > 0);
        d.set("one", o);
        d.set("several", false);
    } else {
        d.set("one", false);
        d.set("several", false);
    }
    return d;
}

km::data gpus_text(const RecipeContext& x, const GpuChoice& choice, bool region) {
    const km::data view = gpus_view(x, choice, region);
    if (view.is_false()) return km::data(false);
    std::string text = x.templates.render("recipe_gpus.md", view, Escape::None);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return km::data(text);
}

// A region run with ghost zones: why, its passes and tiles, the steps per
// pass priced (templates/recipe.md.mustache).
km::data ghost_view(const RegionOutcome& region, const advisor::Platform& platform, const RecipeContext& x) {
    const advisor::GhostPlan& g = region.ghost;
    km::data v;
    auto mb = [](double bytes) {
        char b[32];
        std::snprintf(b, sizeof b, "%.1f MB", bytes / 1e6);
        return std::string(b);
    };
    std::int64_t arrays = 0;
    for (const auto& a : region.arrays) arrays += a.bytes;
    v.set("arrays_mb", mb(static_cast<double>(arrays)));
    advisor::ModelOptions options;
    options.gpu_memory_bytes = x.options.gpu_memory_bytes;
    v.set("budget_mb", mb(static_cast<double>(advisor::device_budget(platform, options))));
    v.set("gpu_memory", x.options.gpu_memory_bytes > 0);
    v.set("k", std::to_string(g.steps_per_pass));
    v.set("rows", std::to_string(g.core_rows));
    v.set("axis", std::string(1, "xyz"[std::clamp(region.problem.dims - 1, 0, 2)]));
    v.set("ghost_rows", std::to_string(g.ghost_below + g.ghost_above));
    v.set("passes", std::to_string(g.passes) + (g.passes == 1 ? " pass" : " passes"));
    v.set("tiles", std::to_string(g.tiles) + (g.tiles == 1 ? " tile" : " tiles"));
    v.set("ghost_launches", std::to_string(g.launches_per_pass));
    char redundant[32];
    std::snprintf(redundant, sizeof redundant, "%.1f%%", 100 * g.redundant);
    v.set("redundant", std::string(redundant));
    // The curve at 1, 2, 4, ... steps per pass, the chosen k and the last.
    std::vector<advisor::GhostPlan::Point> shown;
    for (std::size_t i = 0; i < g.curve.size(); ++i) {
        const std::int64_t k = g.curve[i].steps_per_pass;
        if ((k & (k - 1)) == 0 || k == g.steps_per_pass || i + 1 == g.curve.size()) shown.push_back(g.curve[i]);
    }
    v.set("curve", list_of(shown, [&](km::data& e, const advisor::GhostPlan::Point& p) {
        e.set("k", std::to_string(p.steps_per_pass));
        e.set("chosen", p.steps_per_pass == g.steps_per_pass);
        e.set("rows", std::to_string(p.core_rows));
        e.set("total", format_ms(p.total_ms) + " ms");
    }));
    return v;
}

km::data regions_view(const AdviseResult& r, const RecipeContext& x) {
    km::data list{km::data::type::list};
    auto mb = [](double bytes) {
        char b[32];
        std::snprintf(b, sizeof b, "%.1f MB", bytes / 1e6);
        return std::string(b);
    };
    auto ms = [](double v) { return format_ms(v) + " ms"; };
    for (const auto& region : r.regions) {
        const advisor::Prediction& p = region.prediction.total;
        km::data d;
        const bool loop = region.kind != RegionKind::Consecutive;
        d.set("time_loop", region.kind == RegionKind::TimeLoop);
        d.set("caller", region.kind == RegionKind::CallerLoop);
        d.set("consecutive", region.kind == RegionKind::Consecutive);
        d.set("callee", region.callee);
        d.set("swaps", region.swaps);
        d.set("calls_per_turn", region.calls_per_step == 1 ? std::string("once each")
                                                           : std::to_string(region.calls_per_step) + " times each");
        d.set("function", region.function);
        d.set("first_line", std::to_string(region.first_line));
        d.set("last_line", std::to_string(region.last_line));
        d.set("steps", std::to_string(region.problem.steps));
        std::vector<std::string> ids;
        for (const std::size_t i : region.nests) ids.push_back(std::to_string(r.nests[i].nest->id));
        d.set("nests", and_list(ids));
        d.set("launches", std::to_string(region.nests.size()));
        // Nests on parts of the held arrays, and values the host reads per launch.
        km::data parts{km::data::type::list}, host_reads{km::data::type::list};
        for (const std::size_t i : region.nests) {
            const NestConversion& c = r.nests[i].conversion;
            const std::string id = std::to_string(r.nests[i].nest->id);
            for (const auto* roles : {&c.inputs, &c.outputs})
                for (const auto& role : *roles) {
                    if (role.part_of.empty()) continue;
                    km::data e;
                    e.set("nest", id);
                    e.set("part", role.host_pointer);
                    e.set("array", role.part_of);
                    e.set("reads", roles == &c.inputs);
                    parts.push_back(e);
                }
            for (const auto& read : c.invariant_reads) {
                km::data e;
                e.set("nest", id);
                e.set("read", read);
                host_reads.push_back(e);
            }
        }
        d.set("parts", parts);
        d.set("host_reads", host_reads);
        // An array the region writes in part before reading it: the points
        // of that part are not copied in (docs/model.md, "Regions").
        const auto frame_only = [&region](const RegionHostArray& h) -> std::string {
            if (!region.skips_written_first(h)) return "";
            std::string box;
            for (int k = 0; k < std::clamp(region.problem.dims, 1, 3); ++k)
                box += (k ? " × [" : "[") + h.written_first_begin[k] + ", " + h.written_first_end[k] + ")";
            return ", all but " + box + ", which its first nest writes before anything reads it";
        };
        d.set("arrays", list_of(region.arrays, [&](km::data& a, const RegionHostArray& h) {
            a.set("name", h.name);
            a.set("type", h.element_type);
            a.set("size", mb(static_cast<double>(h.bytes)));
            if (region.runs_ghost_zones()) {
                const std::string every = "every " + std::to_string(region.ghost.steps_per_pass) + " steps, tile by tile";
                a.set("in", h.copy_in ? every : h.copy_out ? every + ", once a pass has written it" : "no: the loop writes all of it first");
                a.set("out", h.copy_out ? every : "no: the loop only reads it");
            } else if (loop) {
                a.set("in", h.copy_in ? "once, before the loop" + frame_only(h) : "no: the loop writes all of it first");
                a.set("out", h.copy_out     ? (region.swaps ? "once, after the loop, if a turn wrote it" : "once, after the loop")
                             : h.dead_after ? (h.held_after.empty() || h.held_after.front() == h.name
                                                   ? std::string("no: the code after the loop never reads it")
                                                                    : "no: after the loop it is `" + h.held_after.front() +
                                                                          "`'s, which the code after the loop never reads")
                                            : "no: the loop only reads it");
            } else {
                a.set("in", h.copy_in ? "once, before the first nest" + frame_only(h) : "no: a nest writes all of it first");
                a.set("out", h.copy_out     ? "once, after the last nest"
                             : h.dead_after ? "no: the code after the nests never reads it"
                                            : "no: the nests only read it");
            }
        }));
        d.set("in_mb", mb(static_cast<double>(p.h2d.bytes)));
        d.set("copies_in", p.h2d.bytes > 0);
        d.set("out_mb", mb(static_cast<double>(p.d2h.bytes)));
        const auto count = [](std::int64_t n, const char* one) { return std::to_string(n) + " " + one + (n == 1 ? "" : "s"); };
        d.set("chunks", count(region.prediction.chunks, "chunk"));
        const std::int64_t pipelined = region.pipelined_launches();
        d.set("streams", count(p.config.streams - (pipelined > 0 ? 1 : 0), "stream"));
        if (pipelined > 0) {
            km::data pl;
            pl.set("launches", std::to_string(pipelined));
            pl.set("pieces", std::to_string(region.prediction.pieces));
            pl.set("whole", std::to_string(static_cast<std::int64_t>(region.problem.nests.size()) * region.problem.steps));
            d.set("pipelined", pl);
        } else {
            d.set("pipelined", false);
        }
        d.set("nests_word", region.nests.size() == 1 ? "nest" : "nests");
        d.set("staged", p.host_strategy == advisor::HostStrategy::Staged);
        d.set("platform", r.platform.name);
        d.set("total", ms(p.total_ms));
        d.set("h2d", ms(p.phases.h2d));
        d.set("kernel", ms(p.phases.kernel));
        d.set("d2h", ms(p.phases.d2h));
        d.set("alloc", ms(p.phases.alloc));
        d.set("staging", ms(p.phases.staging));
        d.set("estimate", p.kernel_source == advisor::KernelSource::Estimate);
        d.set("step_by_step", ms(region.step_by_step_ms));
        d.set("converted", region.converted);
        d.set("gpus", gpus_text(x, region.gpus, true));
        d.set("ghost", region.runs_ghost_zones() ? ghost_view(region, r.platform, x) : km::data(false));
        d.set("split_fits", false);
        if (region.with_ghost_zones && !region.runs_ghost_zones()) {
            km::data fits = ghost_view(region, r.platform, x);
            fits.set("devices", std::to_string(region.gpus.devices));
            d.set("split_fits", fits);
        }
        d.set("cu_file", x.cu_file);
        std::string why;
        if (!region.converted)
            for (const std::size_t i : region.nests)
                if (r.nests[i].verdict != Verdict::Converted) why = r.nests[i].why;
        d.set("why", why);
        list.push_back(d);
    }
    return list;
}

}  // namespace recipe::recipes
