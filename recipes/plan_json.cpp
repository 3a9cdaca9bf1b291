#include "recipes/plan_json.h"

#include <cstdio>
#include <cstdlib>

#include "recipes/cu_builder.h"

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
    j["host"] = library_host(p.host_strategy);
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

nlohmann::json plan_json(const AdviseResult& r, const AdviseOptions& o) {
    nlohmann::json j;
    j["file"] = r.source_file;
    j["platform"] = r.platform.name;
    nlohmann::json opts = nlohmann::json::object();
    nlohmann::json assumptions = nlohmann::json::object();
    for (const auto& [name, value] : o.assumptions) assumptions[name] = value;
    opts["assumptions"] = assumptions;
    opts["build_flags"] = o.build.args;
    opts["cc"] = o.build.cc;  // the compiler whose preprocessor read the file
    if (o.assume_no_alias) opts["assume_no_alias"] = true;
    if (o.host_memory) opts["host_memory"] = advisor::to_string(*o.host_memory);
    if (o.kernel_ms) opts["kernel_ms"] = *o.kernel_ms;
    j["options"] = opts;
    j["nests"] = nlohmann::json::array();
    for (const auto& n : r.nests) {
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
        j["nests"].push_back(x);
    }
    round_numbers(&j, 6);
    return j;
}

}  // namespace recipe::recipes
