#include "recipes/cu_builder.h"

#include <algorithm>
#include <stdexcept>

#include <set>

#include "advisor/program_time.h"
#include "recipes/c_tree.h"
#include "recipes/recipe_view.h"
#include "recipes/source_rewriter.h"
#include "recipes/svg_charts.h"

namespace recipe::recipes {

namespace km = kainjow::mustache;

const char* library_scheme(advisor::Scheme s) { return scheme_traits(s).enumerator; }

const char* library_copy(CopyMethod m) {
    switch (m) {
        case CopyMethod::RowByRow: return "RowByRow";
        case CopyMethod::Merged: return "Merged";
        case CopyMethod::Strided: return "Strided";
    }
    return "Merged";
}

namespace {

// A list of {text, last} items: the templates join them with ", ".
km::data text_list(const std::vector<std::string>& items) {
    km::data list{km::data::type::list};
    for (std::size_t i = 0; i < items.size(); ++i) {
        km::data d;
        d.set("text", items[i]);
        d.set("last", i + 1 == items.size());
        list.push_back(d);
    }
    return list;
}

std::vector<std::string> numbers(const Index3& v) {
    return {std::to_string(v[0]), std::to_string(v[1]), std::to_string(v[2])};
}

void set_halo(km::data* d, const Halo& h) {
    d->set("has_halo", h.lo != Index3{0, 0, 0} || h.hi != Index3{0, 0, 0});
    d->set("lo", text_list(numbers(h.lo)));
    d->set("hi", text_list(numbers(h.hi)));
}

km::data array_list(const std::vector<ArrayRole>& roles, std::size_t from = 0) {
    km::data list{km::data::type::list};
    for (std::size_t i = from; i < roles.size(); ++i) {
        const auto& r = roles[i];
        km::data d;
        d.set("name", r.name);
        d.set("type", r.element_type);
        d.set("pointer", r.host_pointer);
        d.set("call", r.inout ? "inout" : "output");
        set_halo(&d, r.halo);
        d.set("last", i + 1 == roles.size());
        list.push_back(d);
    }
    return list;
}

km::data vars(const std::vector<KernelVariable>& v) {
    km::data list{km::data::type::list};
    for (const auto& x : v) {
        km::data d;
        d.set("name", x.name);
        d.set("type", x.type);
        d.set("argument", x.argument.empty() ? x.name : x.argument);
        list.push_back(d);
    }
    return list;
}

km::data gather_list(const NestConversion& c, bool outputs_only) {
    km::data list{km::data::type::list};
    auto add = [&](const ArrayRole& r) {
        if (!r.flatten) return;
        km::data d;
        d.set("name", r.name);
        d.set("type", r.element_type);
        d.set("block", r.flat_name);
        d.set("rows", c.extents[1]);
        d.set("row_length", c.extents[0]);
        list.push_back(d);
    };
    if (!outputs_only)
        for (const auto& r : c.inputs) add(r);
    for (const auto& r : c.outputs) add(r);
    return list;
}

// A staged run's thread count from the profile (stagingThreads), or no
// line: the library's default.
km::data staging_threads(const CuContext& ctx, const advisor::Prediction& p) {
    if (ctx.staging_threads <= 0 || p.host_strategy != advisor::HostStrategy::Staged) return km::data(false);
    return km::data(std::to_string(ctx.staging_threads));
}

}  // namespace

std::vector<std::string> tile_exprs(const NestConversion& c, const advisor::Prediction& p) {
    std::vector<std::string> out;
    for (int d = 0; d < 3; ++d) {
        const auto du = static_cast<std::size_t>(d);
        if (d >= c.dims) out.push_back("1");
        else if (p.config.tile[du] >= p.problem.extents[du]) out.push_back(c.extents_code[du]);
        else out.push_back(std::to_string(p.config.tile[du]));
    }
    return out;
}

std::vector<std::string> block_dims(const advisor::Prediction& p) {
    Index3 b = p.config.block;
    if (b[0] <= 0 || b[1] <= 0 || b[2] <= 0) {
        // The advisor leaves {0,0,0} only when it did not choose; a common shape per rank.
        b = p.problem.dims == 1 ? Index3{256, 1, 1} : p.problem.dims == 2 ? Index3{32, 8, 1} : Index3{32, 4, 2};
    }
    return numbers(b);
}

std::string render_kernel(const TemplateStore& t, const NestConversion& c, const CuContext& ctx, std::set<std::string>* guarded) {
    km::data v;
    v.set("source_file", ctx.source_file);
    v.set("first_line", std::to_string(c.nest_first_line));
    v.set("last_line", std::to_string(c.nest_last_line));
    v.set("function", c.function);
    v.set("kernel", c.kernel_name);
    v.set("inputs", array_list(c.inputs));
    v.set("outputs", array_list(c.outputs));
    v.set("scalars", vars(c.scalars));
    v.set("locals", vars(c.locals));
    km::data idx{km::data::type::list};
    for (std::size_t i = 0; i < c.index_vars.size(); ++i) {
        km::data d;
        d.set("name", c.index_vars[i].name);
        d.set("type", c.index_vars[i].type);
        d.set("axis", std::string(1, c.index_vars[i].axis));
        d.set("last", i + 1 == c.index_vars.size());
        idx.push_back(d);
    }
    v.set("index_vars", idx);
    km::data guards{km::data::type::list};
    for (const auto& [name, value] : c.size_guards) {
        if (guarded && !guarded->insert(name).second) continue;  // one guard per macro and file
        km::data g;
        g.set("name", name);
        g.set("value", std::to_string(value));
        g.set("cu_file", ctx.cu_file);
        guards.push_back(g);
    }
    v.set("size_guards", guards);
    v.set("wraps_continue", c.wraps_continue);
    v.set("body", c.wraps_continue ? reindent(c.body, "        ", true) : c.body);
    return t.render("cu_kernel", v, Escape::None);
}

std::string render_call(const TemplateStore& t, const NestConversion& c, const advisor::Prediction& p, double first_ms,
                        const CuContext& ctx, std::set<std::string>* taken, const RegionOutcome* called_in, int devices) {
    km::data v;
    v.set("function", c.function);
    v.set("devices", devices > 1 ? km::data(std::to_string(devices)) : km::data(false));
    v.set("gpu_memory", ctx.gpu_memory > 0 ? km::data(std::to_string(ctx.gpu_memory)) : km::data(false));
    if (called_in) {
        km::data in;
        in.set("caller", called_in->function);
        in.set("first", std::to_string(called_in->first_line));
        in.set("last", std::to_string(called_in->last_line));
        v.set("called_in", in);
    } else {
        v.set("called_in", false);
    }
    v.set("first_line", std::to_string(c.first_line));
    v.set("last_line", std::to_string(c.last_line));
    v.set("recipe_file", ctx.recipe_file);
    v.set("indent", c.indent);
    v.set("scheme", library_scheme(p.config.scheme));
    v.set("extents", text_list({c.extents_code[0], c.extents_code[1], c.extents_code[2]}));
    v.set("space_begin", text_list({c.space_begin_code[0], c.space_begin_code[1], c.space_begin_code[2]}));
    v.set("space_end", text_list({c.space_end_code[0], c.space_end_code[1], c.space_end_code[2]}));
    v.set("tile", text_list(tile_exprs(c, p)));
    v.set("copy", library_copy(p.config.copy));
    v.set("streams", std::to_string(p.config.streams));
    v.set("block", text_list(block_dims(p)));
    // A plan made with --host-memory pinned for arrays the file does not
    // allocate page-locked registers them instead: the library leaves arrays
    // that are pinned alone, and mapped schemes cannot reach pageable memory.
    bool unpinned = false;
    for (const auto* roles : {&c.inputs, &c.outputs})
        for (const auto& r : *roles) unpinned = unpinned || !r.pinned || r.flatten;
    const bool assumed = p.host_strategy == advisor::HostStrategy::Pinned && unpinned;
    v.set("host", assumed ? "Register" : recipe::enumerator(p.host_strategy));
    v.set("host_threads", staging_threads(ctx, p));
    v.set("host_assumed", assumed);
    v.set("config_name", c.function + " (" + ctx.source_file + ":" + std::to_string(c.first_line) + ")");
    v.set("platform", ctx.platform);
    const auto& ph = p.phases;
    v.set("predicted", text_list({fixed(ph.alloc + ph.free + ph.host_register + ph.host_unregister, 3), fixed(ph.h2d, 3),
                                  fixed(ph.kernel, 3), fixed(ph.d2h, 3), fixed(p.total_ms, 3), fixed(ph.staging, 3),
                                  first_ms >= 0 ? fixed(first_ms, 3) : std::string("-1")}));
    v.set("gathered", gather_list(c, false));
    v.set("scattered", gather_list(c, true));
    v.set("kernel", c.kernel_name);
    v.set("inputs", array_list(c.inputs));
    v.set("outputs", array_list(c.outputs));
    v.set("scalars", vars(c.scalars));
    v.set("iterative", c.iterative);
    if (c.iterative) {
        const ArrayRole& read = c.inputs.front();
        v.set("steps", c.steps);
        v.set("read", read.name);
        v.set("written", c.outputs.front().name);
        v.set("read_pointer", read.host_pointer);
        v.set("written_pointer", c.outputs.front().host_pointer);
        set_halo(&v, read.halo);
        v.set("has_more_inputs", c.inputs.size() > 1);
        v.set("more_inputs", array_list(c.inputs, 1));
        auto fresh = [&](const std::string& want) {
            std::string name = want;
            for (int i = 2; taken->count(name); ++i) name = want + "_" + std::to_string(i);
            taken->insert(name);
            return name;
        };
        v.set("last_var", fresh("recipe_last"));
        v.set("swap_var", fresh("recipe_swap"));
    }
    std::string text = t.render("cu_call", v, Escape::None);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

std::string render_region_call(const TemplateStore& t, const NestConversion& c, const RegionOutcome& region,
                               std::size_t launch, const std::string& region_name, const CuContext& ctx) {
    km::data v;
    v.set("in_region", true);
    v.set("region", region_name);
    v.set("function", c.function);
    v.set("first_line", std::to_string(c.first_line));
    v.set("last_line", std::to_string(c.last_line));
    // Consecutive nests sit in the region's block, one level in.
    v.set("indent", region.kind == RegionKind::Consecutive ? c.indent + "    " : c.indent);
    // The region's shape: a nest may touch fewer rows of the arrays than another.
    v.set("extents", text_list({region.extents_code[0], region.extents_code[1], region.extents_code[2]}));
    v.set("space_begin", text_list({c.space_begin_code[0], c.space_begin_code[1], c.space_begin_code[2]}));
    v.set("space_end", text_list({c.space_end_code[0], c.space_end_code[1], c.space_end_code[2]}));
    v.set("block", text_list(numbers(region.prediction.launches.at(launch).block)));
    v.set("config_name", c.function + " (" + ctx.source_file + ":" + std::to_string(c.first_line) + ")");
    v.set("kernel", c.kernel_name);
    v.set("inputs", array_list(c.inputs));
    v.set("outputs", array_list(c.outputs));
    v.set("scalars", vars(c.scalars));
    std::string text = t.render("cu_call", v, Escape::None);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

std::string render_region(const TemplateStore& t, const RegionOutcome& region, const std::string& region_name,
                          const CuContext& ctx, std::set<std::string>* taken, bool open) {
    km::data v;
    v.set("open", open);
    v.set("close", !open);
    v.set("gpu_memory", ctx.gpu_memory > 0 ? km::data(std::to_string(ctx.gpu_memory)) : km::data(false));
    v.set("time_loop", region.kind == RegionKind::TimeLoop);
    v.set("caller", region.kind == RegionKind::CallerLoop);
    v.set("consecutive", region.kind == RegionKind::Consecutive);
    v.set("callee", region.callee);
    v.set("name", region_name);
    v.set("indent", region.indent);
    if (open) {
        const advisor::Prediction& p = region.running();
        std::string cfg = region_name + "_config";
        for (int i = 2; taken->count(cfg); ++i) cfg = region_name + "_config_" + std::to_string(i);
        taken->insert(cfg);
        v.set("cfg", cfg);
        v.set("function", region.function);
        v.set("first_line", std::to_string(region.first_line));
        v.set("last_line", std::to_string(region.last_line));
        v.set("recipe_file", ctx.recipe_file);
        v.set("extents", text_list({region.extents_code[0], region.extents_code[1], region.extents_code[2]}));
        std::vector<std::string> tile;
        for (std::size_t d = 0; d < 3; ++d)
            tile.push_back(p.config.tile[d] >= region.problem.extents[d] ? region.extents_code[d] : std::to_string(p.config.tile[d]));
        v.set("tile", text_list(tile));
        v.set("streams", std::to_string(p.config.streams));
        v.set("pipelined", region.pipelined_launches() > 0 ? km::data(std::to_string(region.pipelined_launches())) : km::data(false));
        v.set("host", recipe::enumerator(p.host_strategy));
        v.set("host_threads", staging_threads(ctx, p));
        if (region.runs_ghost_zones()) {
            const advisor::GhostPlan& g = region.ghost;
            km::data ghost;
            ghost.set("launches", std::to_string(g.launches_per_pass));
            ghost.set("steps", std::to_string(g.steps_per_pass));
            ghost.set("rows", std::to_string(g.core_rows));
            ghost.set("ghost_rows", std::to_string(g.ghost_below + g.ghost_above));
            v.set("ghost", ghost);
        } else {
            v.set("ghost", false);
        }
        if (region.gpus.devices > 1) {
            km::data gpus;
            gpus.set("devices", std::to_string(region.gpus.devices));
            gpus.set("halo_rows", std::to_string(region.gpus.region.halo_rows));
            v.set("gpus", gpus);
        } else {
            v.set("gpus", false);
        }
        v.set("config_name", region.function + " (" + ctx.source_file + ":" + std::to_string(region.first_line) + ")");
        v.set("platform", ctx.platform);
        const auto& ph = p.phases;
        v.set("predicted", text_list({fixed(ph.alloc + ph.free + ph.host_register + ph.host_unregister, 3), fixed(ph.h2d, 3),
                                      fixed(ph.kernel, 3), fixed(ph.d2h, 3), fixed(p.total_ms, 3), fixed(ph.staging, 3),
                                      region.compared ? fixed(region.in_program.gpu_first_ms, 3) : std::string("-1")}));
        km::data arrays{km::data::type::list};
        for (const auto& a : region.arrays) {
            km::data d;
            d.set("pointer", a.host_pointer);
            d.set("default", a.copy_in && a.copy_out);
            d.set("copy_in", a.copy_in ? "true" : "false");
            d.set("copy_out", a.copy_out ? "true" : "false");
            if (region.skips_written_first(a)) {
                km::data box;
                box.set("begin", text_list({a.written_first_begin[0], a.written_first_begin[1], a.written_first_begin[2]}));
                box.set("end", text_list({a.written_first_end[0], a.written_first_end[1], a.written_first_end[2]}));
                d.set("written_first", box);
            } else {
                d.set("written_first", false);
            }
            arrays.push_back(d);
        }
        v.set("arrays", arrays);
    }
    std::string text = t.render("cu_region", v, Escape::None);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    // Inserted before the loop's (or first nest's) first token, its line's
    // indentation already there, and after its (the last nest's) last one.
    return open ? text + "\n" + region.indent + "    " : "\n" + text;
}

namespace {

// The start of the comment lines right above the line at `line_start` (a
// comment that introduces a function stays with it when the kernel is
// inserted above), or `line_start` itself.
std::uint32_t with_comment_above(std::string_view text, std::uint32_t line_start) {
    std::uint32_t at = line_start;
    while (at > 0) {
        const std::size_t prev_end = at - 1;  // the '\n' ending the line above
        const std::size_t prev_start = prev_end == 0 ? 0 : text.rfind('\n', prev_end - 1) + 1;
        std::string_view line = text.substr(prev_start, prev_end - prev_start);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos) break;
        if (line.substr(first, 2) == "//") {
            at = static_cast<std::uint32_t>(prev_start);
            continue;
        }
        if (line.size() < 2 || line.substr(line.size() - 2) != "*/") break;
        // A block comment ending here: it must start at the beginning of a line.
        const std::size_t open = text.rfind("/*", prev_start + line.size() - 2);
        if (open == std::string_view::npos) break;
        const std::size_t open_line = open == 0 ? 0 : text.rfind('\n', open - 1) + 1;
        if (text.substr(open_line, open - open_line).find_first_not_of(" \t") != std::string_view::npos) break;
        at = static_cast<std::uint32_t>(open_line);
    }
    return at;
}

}  // namespace

std::string render_cu(const TemplateStore& t, const analyzer::SourceMap& map, const std::vector<CuNest>& nests,
                      const std::vector<CompatFix>& fixes, const std::vector<Edit>& cleanup, const CuContext& ctx,
                      std::set<std::string>* taken) {
    // The nests' edits are at offsets of the preprocessed text; convert_nest
    // checked that each maps into the user's file.
    auto at = [&](std::uint32_t offset, bool end) {
        const auto o = map.to_original(offset, end);
        if (!o) throw std::logic_error("render_cu: an edit of a converted nest does not map into the source");
        return *o;
    };
    std::vector<Edit> edits;
    std::set<std::string> guarded;
    km::data pre;
    pre.set("cu_file", ctx.cu_file);
    pre.set("source_file", ctx.source_file);
    pre.set("recipe_file", ctx.recipe_file);
    pre.set("compile_command", ctx.compile_command);
    bool gather = false;
    for (const auto& n : nests) {
        for (const auto& r : n.conversion->inputs) gather = gather || r.flatten;
        for (const auto& r : n.conversion->outputs) gather = gather || r.flatten;
    }
    pre.set("needs_gather", gather);
    // The most any call needs at once: allocated at start-up (recipe::PoolSize).
    std::vector<const advisor::Prediction*> calls;
    int devices = 1;  // the most GPUs a call uses: the start-up thread starts every one's context
    bool halo_exchange = false;  // and makes NCCL's communicators for a region over several that exchanges halos
    for (const auto& n : nests) {
        calls.push_back(n.region ? &n.region->running() : n.chosen);
        devices = std::max(devices, n.region ? n.region->gpus.devices : n.devices);
        halo_exchange = halo_exchange || (n.region && n.region->gpus.devices > 1 && n.region->gpus.region.exchanges());
    }
    const advisor::PoolReservation reserve = advisor::pool_reservation(calls);
    if (reserve.device_bytes > 0 || reserve.pinned_bytes > 0 || devices > 1) {
        km::data pool;
        pool.set("device_bytes", std::to_string(reserve.device_bytes));
        pool.set("pinned_bytes", std::to_string(reserve.pinned_bytes));
        pool.set("streams", std::to_string(reserve.streams));
        pool.set("host_threads", std::to_string(reserve.pinned_bytes > 0 ? ctx.staging_threads : 0));
        pool.set("device_text", format_bytes(static_cast<double>(reserve.device_bytes)));
        pool.set("pinned_text", format_bytes(static_cast<double>(reserve.pinned_bytes)));
        pool.set("devices", devices > 1 ? km::data(std::to_string(devices)) : km::data(false));
        pool.set("halo_exchange", devices > 1 && halo_exchange);
        pre.set("pool", pool);
    }
    std::string phrase;
    for (std::size_t i = 0; i < nests.size(); ++i) {
        const auto& c = *nests[i].conversion;
        if (i) phrase += i + 1 == nests.size() ? " and " : ", ";
        phrase += "the loop nest at line " + std::to_string(c.first_line) + " (" + c.function + ")";
    }
    pre.set("nest_phrase", phrase);
    edits.push_back({0, 0, t.render("cu_prelude", pre, Escape::None)});
    for (const auto& n : nests) {
        const auto& c = *n.conversion;
        const std::uint32_t kernel_at = with_comment_above(map.original(), at(c.kernel_at, false));
        edits.push_back({kernel_at, kernel_at, render_kernel(t, c, ctx, &guarded)});
    }
    // Regions: opened before their time loop (or first nest), closed after it; their nests
    // launch on the resident arrays.
    std::vector<std::pair<const RegionOutcome*, std::string>> regions;
    auto region_name = [&](const RegionOutcome* r) {
        for (const auto& [k, name] : regions)
            if (k == r) return name;
        std::string name = "recipe_region";
        for (int i = 2; taken->count(name); ++i) name = "recipe_region_" + std::to_string(i);
        taken->insert(name);
        regions.emplace_back(r, name);
        edits.push_back({at(r->begin, false), at(r->begin, false), render_region(t, *r, name, ctx, taken, true)});
        edits.push_back({at(r->end, true), at(r->end, true), render_region(t, *r, name, ctx, taken, false)});
        return name;
    };
    for (const auto& n : nests) {
        const auto& c = *n.conversion;
        // A nest of a function that a region's loop calls keeps its library
        // call, which launches on the region's arrays while it is open.
        const bool called = n.region && n.region->kind == RegionKind::CallerLoop;
        if (called) region_name(n.region);
        edits.push_back({at(c.replace_begin, false), at(c.replace_end, true),
                         n.region && !called ? render_region_call(t, c, *n.region, n.launch, region_name(n.region), ctx)
                                             : render_call(t, c, *n.chosen, n.first_ms, ctx, taken, called ? n.region : nullptr,
                                                           n.devices)});
    }
    std::set<std::uint32_t> marked;
    for (const auto& n : nests)
        for (const auto& f : n.conversion->device_functions)
            for (const std::uint32_t where : f.insert_at) {
                const std::uint32_t o = at(where, false);
                if (marked.insert(o).second) edits.push_back({o, o, "__host__ __device__ "});
            }
    for (const auto& f : fixes) {
        edits.push_back(f.edit);
        edits.insert(edits.end(), f.extra.begin(), f.extra.end());
    }
    edits.insert(edits.end(), cleanup.begin(), cleanup.end());
    // After main's last GPU work (pushed last: after a region's closing
    // text at the same place).
    if (ctx.release_after) {
        const std::uint32_t o = at(*ctx.release_after, true);
        km::data v;
        v.set("indent", line_indent(map.original(), o));
        v.set("tail", ctx.release_tail_ms > 0 ? km::data(format_ms(ctx.release_tail_ms) + " ms") : km::data(false));
        std::string text = t.render("cu_release", v, Escape::None);
        if (!text.empty() && text.back() == '\n') text.pop_back();
        edits.push_back({o, o, "\n" + text});
    }
    return apply_edits(map.original(), edits);
}

}  // namespace recipe::recipes
