#include "recipes/recipe_view.h"

#include "analyzer/report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "recipes/cu_builder.h"
#include "recipes/recipe_sections.h"
#include "recipes/recipe_text.h"
#include "recipes/svg_charts.h"
#include "recipes/tasks.h"

namespace recipe::recipes {

namespace km = kainjow::mustache;
using analyzer::LoopNest;
using namespace text;

std::string format_ms(double ms) { return fixed(ms, std::fabs(ms) >= 1 ? 2 : 3); }
std::string format_speedup(double f) { return fixed(f, 2) + "×"; }
std::string format_bytes(double bytes) {
    if (bytes < 1024.0 * 1024.0) return fixed(bytes / 1024.0, 1) + " KiB";
    if (bytes < 1024.0 * 1024.0 * 1024.0) return fixed(bytes / (1024.0 * 1024.0), 1) + " MiB";
    return fixed(bytes / (1024.0 * 1024.0 * 1024.0), 2) + " GiB";
}

std::string format_tile(const Index3& tile, int dims) {
    std::string s;
    for (int d = 0; d < std::max(1, dims); ++d) s += (d ? " × " : "") + std::to_string(tile[static_cast<std::size_t>(d)]);
    return s;
}

std::string command_line(const AdviseOptions& o, const std::string& source_file, const std::string& platform) {
    std::string s = "recipe advise " + source_file + " --platform " + platform;
    if (!o.build.args.empty()) s += flags_for_nvcc(o.build);
    for (const auto& [name, value] : o.assumptions) s += " --assume " + name + "=" + value;
    if (o.assume_no_alias) s += " --assume-no-alias";
    if (o.host_memory) s += std::string(" --host-memory ") + advisor::to_string(*o.host_memory);
    for (const auto& [nest, ms] : o.kernel_ms) s += " --kernel-ms " + std::to_string(nest) + "=" + fixed(ms, 3);
    if (o.gpus > 1) s += " --gpus " + std::to_string(o.gpus);
    return s;
}

namespace {

// One row of the recipe's summary table.
km::data summary_row(const NestOutcome& n) {
    const LoopNest& nest = *n.nest;
    km::data s;
    s.set("id", std::to_string(nest.id));
    s.set("function", nest.function);
    s.set("lines", lines(nest.span.begin.line, nest.span.end.line));
    std::string verdict = verdict_text(n.verdict);
    if (n.verdict == Verdict::Rejected) {
        std::vector<std::string> ids;
        for (const auto& dg : nest.reasons)
            if (dg.severity != analyzer::Severity::Note && std::find(ids.begin(), ids.end(), dg.rule_id) == ids.end()) ids.push_back(dg.rule_id);
        std::string joined;
        for (std::size_t i = 0; i < ids.size(); ++i) joined += (i ? ", " : "") + ids[i];
        if (!joined.empty()) verdict += " (" + joined + ")";
    }
    s.set("verdict", verdict);
    const advisor::Prediction* best = n.chosen();
    s.set("plan", best ? advisor::to_string(best->config.scheme) +
                             (!scheme_traits(best->config.scheme).tiled
                                  ? std::string()
                                  : ", tile " + format_tile(best->config.tile, best->problem.dims)) +
                             ", " + std::to_string(best->config.streams) + " streams"
                       : "–");
    s.set("predicted", best ? format_ms(best->total_ms) + " ms" : "–");
    s.set("naive", best && n.plan.naive_fits ? format_ms(n.plan.naive.total_ms) + " ms" : best ? "does not fit" : "–");
    s.set("speedup", best && n.plan.naive_fits ? format_speedup(n.plan.speedup) : "–");
    return s;
}

// One nest's section: what it is, what became of it and why.
km::data nest_section(const RecipeContext& x, const NestOutcome& n) {
    const AdviseResult& r = x.result;
    const LoopNest& nest = *n.nest;
    const advisor::Prediction* best = n.chosen();
    km::data d;
    d.set("id", std::to_string(nest.id));
    d.set("function", nest.function);
    d.set("first_line", std::to_string(nest.span.begin.line));
    d.set("last_line", std::to_string(nest.span.end.line));
    d.set("why", n.why);
    d.set("converted", n.verdict == Verdict::Converted);
    d.set("recipe_only", n.verdict == Verdict::RecipeOnly);
    d.set("not_converted", n.verdict == Verdict::NotConverted);
    d.set("not_planned", n.verdict == Verdict::NotPlanned);
    d.set("kept_on_cpu", n.verdict == Verdict::KeptOnCpu);
    km::data described = nest.accepted ? nest_description_view(n) : km::data(false);
    // A nest that shares its arrays with the nests beside it, or across the calls of its function.
    if (nest.accepted && n.region >= 0 && n.verdict == Verdict::Converted) {
        const RegionOutcome& region = r.regions[static_cast<std::size_t>(n.region)];
        if (region.kind != RegionKind::TimeLoop) {
            km::data shared;
            shared.set("first_line", std::to_string(region.first_line));
            shared.set("last_line", std::to_string(region.last_line));
            shared.set("called", region.kind == RegionKind::CallerLoop);
            shared.set("function", nest.function);
            shared.set("caller", region.function);
            described.set("shared", shared);
        }
    }
    d.set("described", described);
    const bool has_steps = (n.verdict == Verdict::Converted || n.verdict == Verdict::RecipeOnly ||
                            n.verdict == Verdict::KeptOnCpu) && n.conversion.ok && best;
    d.set("conversion", has_steps ? conversion_view(x, n) : km::data(false));
    d.set("why", n.why);
    d.set("caveats", has_steps ? caveats_view(x, n) : km::data(false));
    km::data whyv = best ? why_view(x, n) : km::data(false);
    d.set("rejected", n.verdict == Verdict::Rejected ? rejected_view(x, n) : km::data(false));
    d.set("why_section", best ? whyv : km::data(false));
    d.set("gpus", n.verdict == Verdict::Converted ? gpus_text(x, n.gpus, false) : km::data(false));
    return d;
}

}  // namespace

std::string render_recipe(const TemplateStore& t, const AdviseResult& r, const AdviseOptions& o) {
    RecipeContext x{t, r, o, r.stem + ".cu", r.stem + ".recipe.md", r.stem + ".plan.json", analyzer::SourceLines(r.source)};
    km::data v;
    v.set("source_file", r.source_file);
    v.set("platform_name", r.platform.name);
    v.set("platform_description", r.platform.description.empty() ? r.platform.name : r.platform.description);
    v.set("command", command_line(o, r.source_file, r.platform.name));
    v.set("nest_count", std::to_string(r.nests.size()));
    v.set("nest_noun", r.nests.size() == 1 ? "nest" : "nests");
    const int accepted = r.accepted();
    v.set("any_accepted", accepted > 0);
    v.set("accepted_phrase", accepted == static_cast<int>(r.nests.size())
                                 ? (accepted == 1 ? std::string("It is") : accepted == 2 ? std::string("Both are") : "All " + std::to_string(accepted) + " are")
                                 : std::to_string(accepted) + (accepted == 1 ? " is" : " are"));
    v.set("has_cu", r.wrote_cu);
    std::vector<std::string> file_diags;
    for (const auto& dg : r.program().diagnostics)
        file_diags.push_back(analyzer::diagnostic_line(dg.file.empty() ? r.source_file : dg.file, dg.pos,
                                                       analyzer::to_string(dg.severity), dg.message, dg.rule_id));
    v.set("has_file_diagnostics", !file_diags.empty());
    v.set("file_diagnostics", list_of(file_diags, [](km::data& d, const std::string& s) { d.set("text", s); }));
    v.set("cu_file", x.cu_file);
    v.set("plan_file", x.plan_file);
    std::vector<const NestOutcome*> converted;
    for (const auto& n : r.nests)
        if (n.verdict == Verdict::Converted) converted.push_back(&n);
    std::string phrase;
    for (std::size_t i = 0; i < converted.size(); ++i) {
        if (i) phrase += i + 1 == converted.size() ? " and " : ", ";
        phrase += "lines " + lines(converted[i]->conversion.first_line, converted[i]->conversion.last_line) + " (`" +
                  converted[i]->nest->function + "`)";
    }
    v.set("converted_phrase", (converted.size() == 1 ? "the loop nest at " : "the loop nests at ") + phrase);

    km::data summary{km::data::type::list};
    for (const auto& n : r.nests) summary.push_back(summary_row(n));
    v.set("summary", summary);
    v.set("program", program_view(r, x));
    v.set("regions", regions_view(r, x));
    v.set("has_region_notes", !r.region_notes.empty());
    v.set("region_notes", list_of(r.region_notes, [](km::data& d, const std::string& s) { d.set("text", s); }));
    const std::string& note = r.program_summary.note;
    v.set("program_note", note.empty() ? km::data(false) : km::data(note));
    v.set("has_fixes", !r.fixes.empty());
    v.set("fixes", list_of(r.fixes, [](km::data& f, const CompatFix& fix) {
        f.set("line", std::to_string(fix.pos.line));
        f.set("column", std::to_string(fix.pos.column));
        f.set("before", cell(fix.before));
        f.set("after", cell(fix.after));
        f.set("why", fix.why);
    }));
    v.set("compile_command", r.compile_command);
    std::string own_headers;
    for (const auto& fix : r.fixes)
        if (!fix.c_header.empty()) own_headers += (own_headers.empty() ? "`" : ", `") + fix.c_header + "`";
    v.set("own_headers", own_headers.empty() ? km::data(false) : km::data(own_headers));
    // Each nest's section is rendered on its own, on the cores there are (a
    // file of thousands of nests spends most of its recipe here), with the
    // file's names beside its own.
    std::vector<std::string> sections(r.nests.size());
    for_each_task(sections.size(), [&](std::size_t i) {
        sections[i] = t.render("recipe_nest.md", nest_section(x, r.nests[i]), v, Escape::None);
    });
    v.set("nests", list_of(sections, [](km::data& d, const std::string& s) { d.set("text", s); }));
    return t.render("recipe.md", v, Escape::None);
}

}  // namespace recipe::recipes
