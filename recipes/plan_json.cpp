#include "recipes/plan_json.h"

#include <cstdio>
#include <cstdlib>

#include "advisor/host_record.h"
#include "recipes/cu_builder.h"
#include "recipes/tasks.h"

namespace recipe::recipes {

void round_numbers(nlohmann::json* j, int digits) {
    if (j->is_number_float()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*g", digits, j->get<double>());
        *j = std::strtod(buf, nullptr);
    } else if (j->is_structured()) {
        for (auto& v : *j) round_numbers(&v, digits);
    }
}

namespace {

nlohmann::json conversion_json(const NestConversion& c, const advisor::Prediction& p) {
    nlohmann::json j;
    j["kernel"] = c.kernel_name;
    j["replaces_lines"] = {c.first_line, c.last_line};
    j["iterative"] = c.iterative;
    if (c.iterative) j["steps"] = c.steps;
    j["extents"] = c.extents;
    j["space"] = {{"begin", c.space_begin}, {"end", c.space_end}};
    j["tile"] = tile_exprs(c, p);
    j["block"] = block_dims(p);
    j["scheme"] = library_scheme(p.config.scheme);
    j["host"] = recipe::enumerator(p.host_strategy);
    auto arrays = [](const std::vector<ArrayRole>& roles) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& r : roles) {
            nlohmann::json x = {{"name", r.name}, {"element_type", r.element_type}, {"host_pointer", r.host_pointer}};
            x["halo"] = {{"lo", r.halo.lo}, {"hi", r.halo.hi}};
            if (r.inout) x["inout"] = r.inout_reason;
            if (r.flatten) x["gathered_into"] = r.flat_name;
            a.push_back(x);
        }
        return a;
    };
    j["inputs"] = arrays(c.inputs);
    j["outputs"] = arrays(c.outputs);
    j["scalars"] = nlohmann::json::array();
    for (const auto& s : c.scalars) j["scalars"].push_back({{"name", s.name}, {"type", s.type}});
    j["accesses"] = nlohmann::json::array();
    for (const auto& a : c.accesses)
        j["accesses"].push_back({{"line", a.pos.line}, {"column", a.pos.column}, {"before", a.before}, {"after", a.after}});
    return j;
}

}  // namespace

namespace {

// The options the plan was made with.
nlohmann::json options_json(const AdviseOptions& o) {
    nlohmann::json opts = nlohmann::json::object();
    nlohmann::json assumptions = nlohmann::json::object();
    for (const auto& [name, value] : o.assumptions) assumptions[name] = value;
    opts["assumptions"] = assumptions;
    opts["build_flags"] = o.build.args;
    opts["cc"] = o.build.cc;  // the compiler whose preprocessor read the file
    if (o.assume_no_alias) opts["assume_no_alias"] = true;
    if (o.host_memory) opts["host_memory"] = advisor::to_string(*o.host_memory);
    if (!o.kernel_ms.empty()) {
        nlohmann::json k = nlohmann::json::object();
        for (const auto& [nest, ms] : o.kernel_ms) k[std::to_string(nest)] = ms;
        opts["kernel_ms"] = k;  // by nest id
    }
    if (o.calls != 1) opts["calls"] = o.calls;
    if (o.gpus != 1) opts["gpus"] = o.gpus;
    if (o.convert_all) opts["convert_all"] = true;
    return opts;
}

// --gpus N: the GPUs chosen and the program's cost on each count priced
// (recipes/gpu_choice.h); nothing without --gpus.
void gpus_json(const GpuChoice& c, nlohmann::json* x) {
    if (!c.asked) return;
    (*x)["gpus"] = c.devices;
    nlohmann::json curve = nlohmann::json::array();
    for (const auto& cost : c.curve)
        curve.push_back({{"gpus", cost.devices},
                         {"call_ms", cost.call_ms},
                         {"first_ms", cost.first_ms},
                         {"startup_added_ms", cost.added_ms},
                         {"startup_ms", cost.startup_ms},
                         {"exit_ms", cost.exit_ms},
                         {"calls", cost.calls},
                         {"program_ms", cost.total_ms()}});
    (*x)["gpuCurve"] = curve;
    (*x)["gpus_hidden_ms"] = c.hidden_ms;
    if (!c.refused.empty()) (*x)["gpus_refused"] = c.refused;
    if (!c.not_priced.empty()) (*x)["gpus_not_priced"] = c.not_priced;
    auto box = [](const Box& b) { return nlohmann::json{{"begin", b.begin}, {"end", b.end}}; };
    if (c.devices > 1 && !c.run.slabs.empty()) {
        nlohmann::json slabs = nlohmann::json::array();
        for (std::size_t i = 0; i < c.run.slabs.size(); ++i)
            slabs.push_back({{"space", box(c.run.slabs[i])}, {"ms", c.run.slab_ms[i]}, {"h2d_bytes", c.run.h2d_bytes[i]},
                             {"d2h_bytes", c.run.d2h_bytes[i]}});
        (*x)["gpuSlabs"] = slabs;
        (*x)["gpuPrediction"] = advisor::to_json(c.run.prediction);
    }
    if (c.devices > 1 && !c.region.owned.empty()) {
        nlohmann::json slabs = nlohmann::json::array();
        for (std::size_t i = 0; i < c.region.owned.size(); ++i)
            slabs.push_back({{"owned", box(c.region.owned[i])}, {"held", box(c.region.held[i])}, {"in_bytes", c.region.in_bytes[i]},
                             {"out_bytes", c.region.out_bytes[i]}, {"device_bytes", c.region.device_bytes[i]}});
        (*x)["gpuSlabs"] = slabs;
        (*x)["gpuHaloRows"] = c.region.halo_rows;
        (*x)["gpuExchange"] = {{"per_step", c.region.exchanges_per_step},
                               {"bytes_per_step", c.region.exchange_bytes_per_step},
                               {"ms_per_step", c.region.exchange_ms_per_step}};
        (*x)["gpuPrediction"] = advisor::to_json(c.region.total);
    }
}

// One nest: what became of it, its plan, and its times in the program.
nlohmann::json nest_json(const NestOutcome& n) {
    nlohmann::json x;
    x["id"] = n.nest->id;
    x["function"] = n.nest->function;
    x["lines"] = {n.nest->span.begin.line, n.nest->span.end.line};
    x["verdict"] = to_string(n.verdict);
    if (!n.why.empty()) x["why"] = n.why;
    if (n.planned) {
        x["plan"] = advisor::to_json(n.plan);
        x["timeline"] = advisor::to_json(n.timeline);
        x["pictures"] = {n.tile_chart, n.timeline_chart};
    }
    if (n.conversion.ok && n.chosen()) x["conversion"] = conversion_json(n.conversion, *n.chosen());
    gpus_json(n.gpus, &x);
    if (n.cpu) {
        const auto& t = n.in_program;
        x["in_program"] = {{"calls", t.calls},
                           {"cpu_first_ms", t.cpu_first_ms},
                           {"cpu_ms", t.cpu_ms},
                           {"gpu_first_ms", t.gpu_first_ms},
                           {"gpu_warm_ms", t.gpu_warm_ms},
                           {"gather_ms", t.gather_ms},
                           {"cpu_total_ms", t.cpu_total_ms()},
                           {"gpu_total_ms", t.gpu_total_ms()},
                           {"runs_on", n.verdict == Verdict::Converted ? "gpu" : "cpu"},
                           {"cpu_estimate", {{"bytes", n.cpu->bytes}, {"flops", n.cpu->flops},
                                             {"memory_ms", n.cpu->memory_ms}, {"compute_ms", n.cpu->compute_ms},
                                             {"gflops", n.cpu->gflops}}}};
    }
    return x;
}

// A region: nests that run with their arrays resident on the GPU.
nlohmann::json region_json(const AdviseResult& r, const RegionOutcome& region) {
    nlohmann::json x;
    x["kind"] = to_string(region.kind);
    if (region.kind == RegionKind::CallerLoop) {
        x["callee"] = region.callee;
        x["calls_per_step"] = region.calls_per_step;
        x["swaps"] = region.swaps;
    }
    x["function"] = region.function;
    x["lines"] = {region.first_line, region.last_line};
    x["steps"] = region.problem.steps;
    x["nests"] = nlohmann::json::array();
    for (const std::size_t i : region.nests) x["nests"].push_back(r.nests[i].nest->id);
    x["converted"] = region.converted;
    x["arrays"] = nlohmann::json::array();
    for (std::size_t k = 0; k < region.arrays.size(); ++k) {
        const auto& a = region.arrays[k];
        nlohmann::json j = {{"name", a.name},         {"pointer", a.host_pointer}, {"type", a.element_type}, {"bytes", a.bytes},
                            {"copy_in", a.copy_in},   {"copy_out", a.copy_out},    {"dead_after", a.dead_after}};
        // The box its first writer fills before anything reads it: not copied in.
        if (region.skips_written_first(a)) {
            const Box& b = region.problem.arrays[k].written_first;
            j["written_first"] = {{"begin", b.begin}, {"end", b.end}};
        }
        x["arrays"].push_back(j);
    }
    x["prediction"] = advisor::to_json(region.prediction.total);
    x["chunks"] = region.prediction.chunks;
    x["pipelined_launches"] = region.pipelined_launches();
    x["launches"] = nlohmann::json::array();
    for (const auto& l : region.prediction.launches)
        x["launches"].push_back({{"block", l.block}, {"kernel_ms", l.kernel_ms}, {"kernel_source", advisor::to_string(l.source)}});
    x["step_by_step_ms"] = region.step_by_step_ms;
    gpus_json(region.gpus, &x);
    if (region.compared) {
        const auto& t = region.in_program;
        x["in_program"] = {{"calls", t.calls},           {"cpu_first_ms", t.cpu_first_ms}, {"cpu_ms", t.cpu_ms},
                           {"gpu_first_ms", t.gpu_first_ms}, {"gpu_warm_ms", t.gpu_warm_ms},
                           {"runs_on", region.converted ? "gpu" : "cpu"}};
    }
    return x;
}

}  // namespace

namespace {

// `text` with every line but the first indented by `spaces` (a JSON text
// has no raw newline inside its strings).
void append_indented(const std::string& text, std::size_t spaces, std::string* out) {
    const std::string pad(spaces, ' ');
    std::size_t from = 0;
    for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
        out->append(text, from, nl + 1 - from);
        out->append(pad);
    }
    out->append(text, from, std::string::npos);
}

}  // namespace

std::string plan_json_text(const AdviseResult& r, const AdviseOptions& o) {
    nlohmann::json j;
    j["file"] = r.source_file;
    j["platform"] = r.platform.name;
    j["options"] = options_json(o);
    if (r.wrote_cu) j["compile_command"] = r.compile_command;  // $RECIPE_INCLUDE: the library's include directory
    // The planned nests in the user's program (advisor/program_time.h).
    const auto& ps = r.program_summary;
    if (ps.compared)
        j["program"] = {{"calls", o.calls},          {"cuda_startup_ms", ps.cuda_startup_ms}, {"pool_setup_ms", ps.pool_setup_ms}, {"startup_paid_ms", ps.startup_paid_ms}, {"teardown_ms", ps.teardown_ms},
                        {"cpu_ms", ps.cpu_ms},       {"gpu_ms", ps.gpu_ms},
                        {"runs_on_gpu", ps.runs_on_gpu}};
    if (ps.compared && ps.release_after) {
        j["program"]["release_after_line"] = ps.release_line;
        j["program"]["release_tail_ms"] = ps.release_tail_ms;
    }
    if (ps.compared && o.gpus > 1) {
        j["program"]["gpus"] = ps.gpus;
        j["program"]["gpus_startup_ms"] = ps.gpus_startup_ms;
        j["program"]["nccl_init_ms"] = ps.nccl_init_ms;
        j["program"]["gpus_exit_ms"] = ps.gpus_exit_ms;
    }
    if (!ps.note.empty()) j["program_note"] = ps.note;
    // --measure-host: the CPU figures the comparison used are this machine's.
    if (r.platform.host_measured)
        j["host_measured"] = {{"stream_gbs", r.platform.host_stream_gbs},
                              {"gflops", r.platform.host_gflops},
                              {"gflops_vector2", r.platform.host_gflops_vector2},
                              {"gflops_vector4", r.platform.host_gflops_vector4},
                              {"first_touch_gbs", r.platform.host_first_touch_gbs},
                              {"math_call_ns", r.platform.host_math_call_ns},
                              {"convert_ns", r.platform.host_convert_ns},
                              {"lane_load_ns", r.platform.host_lane_load_ns},
                              {"readings", r.platform.host_readings},
                              {"since", advisor::utc_time(r.platform.host_readings_since_unix_s, "%Y-%m-%dT%H:%M:%SZ")}};
    // Nests that run with their arrays resident: time loops and consecutive nests (recipes/region_plan.h).
    j["regions"] = nlohmann::json::array();
    for (const auto& region : r.regions) j["regions"].push_back(region_json(r, region));
    if (!r.region_notes.empty()) j["step_by_step_time_loops"] = r.region_notes;
    round_numbers(&j, 6);
    j["nests"] = nlohmann::json::array();
    const std::string top = j.dump(2) + "\n";
    // The nests, each made and written on its own, on the cores there are: a
    // file of thousands of nests would otherwise hold all of them as JSON
    // values at once (gigabytes for 100,000 lines) and write them on one
    // core. Each is written as nlohmann writes an element of the top-level
    // "nests" array, four spaces in.
    std::vector<std::string> nests(r.nests.size());
    for_each_task(nests.size(), [&](std::size_t i) {
        nlohmann::json n = nest_json(r.nests[i]);
        round_numbers(&n, 6);
        nests[i] = n.dump(2);
    });
    const std::string empty = "\n  \"nests\": []";
    const std::size_t at = top.find(empty);
    if (nests.empty() || at == std::string::npos) return top;
    std::size_t size = top.size();
    for (const auto& n : nests) size += n.size() + n.size() / 8 + 8;
    std::string out;
    out.reserve(size);
    out.append(top, 0, at + empty.size() - 1);
    out += "\n    ";
    for (std::size_t i = 0; i < nests.size(); ++i) {
        if (i) out += ",\n    ";
        append_indented(nests[i], 4, &out);
        std::string().swap(nests[i]);
    }
    out += "\n  ]";
    out.append(top, at + empty.size(), std::string::npos);
    return out;
}

}  // namespace recipe::recipes
