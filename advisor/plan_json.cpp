// JSON form of predictions and plans (docs/model.md, "Plan JSON").
#include <nlohmann/json.hpp>

#include "advisor/plan.h"

namespace recipe::advisor {

namespace {

using nlohmann::json;

json tile_json(const Index3& t, int dims) {
    json a = json::array();
    for (int d = 0; d < std::max(1, dims); ++d) a.push_back(t[d]);
    return a;
}

json transfer_json(const TransferStats& s) { return {{"bytes", s.bytes}, {"copies", s.copies}}; }

}  // namespace

json to_json(const Prediction& p) {
    const int dims = p.problem.dims;
    json j;
    j["scheme"] = to_string(p.config.scheme);
    j["tile"] = tile_json(p.config.tile, dims);
    j["tile_text"] = format_tile(p.config.tile, dims);
    j["copy"] = recipe::to_string(p.config.copy);
    j["streams"] = p.config.streams;
    j["block"] = tile_json(p.config.block, 3);
    j["occupancy"] = p.occupancy;
    j["host_strategy"] = to_string(p.host_strategy);
    j["total_ms"] = p.total_ms;
    j["tiles"] = p.tiles;
    j["startup_steps"] = p.startup_steps;
    j["dominant"] = to_string(p.dominant);
    j["kernel_source"] = to_string(p.kernel_source);
    j["phases_ms"] = {{"alloc", p.phases.alloc},
                      {"free", p.phases.free},
                      {"h2d", p.phases.h2d},
                      {"kernel", p.phases.kernel},
                      {"d2h", p.phases.d2h},
                      {"host_register", p.phases.host_register},
                      {"host_unregister", p.phases.host_unregister},
                      {"staging", p.phases.staging},
                      {"pipeline", p.phases.pipeline}};
    j["h2d"] = transfer_json(p.h2d);
    j["d2h"] = transfer_json(p.d2h);
    j["device_bytes"] = p.device_bytes;
    j["host_bytes"] = p.host_bytes;
    j["typical_tile_ms"] = {{"buffer_in", p.typical_tile.buffer_in},
                            {"transfer_in", p.typical_tile.transfer_in},
                            {"kernel", p.typical_tile.kernel},
                            {"transfer_out", p.typical_tile.transfer_out},
                            {"buffer_out", p.typical_tile.buffer_out}};
    j["time_steps"] = p.problem.time_steps;
    j["notes"] = p.notes;
    return j;
}

json to_json(const Plan& plan) {
    json j;
    const int dims = plan.ranked.empty() ? plan.naive.problem.dims : plan.ranked.front().problem.dims;
    j["best"] = plan.ranked.empty() ? json() : to_json(plan.ranked.front());
    j["naive"] = plan.naive_fits ? to_json(plan.naive) : nlohmann::json();
    j["naive_fits"] = plan.naive_fits;
    if (!plan.naive_fits) j["naive_why"] = plan.naive_why;
    j["speedup"] = plan.speedup;
    json ranked = json::array();
    for (const auto& p : plan.ranked) ranked.push_back(to_json(p));
    j["ranked"] = ranked;
    j["tolerance"] = plan.tolerance;
    json within = json::array();
    for (const auto& t : plan.tiles_within_tolerance) within.push_back(format_tile(t, dims));
    j["tiles_within_tolerance"] = within;
    j["break_even_scale"] = plan.break_even_scale ? json(*plan.break_even_scale) : json();
    j["break_even_extents"] = plan.break_even_extents ? tile_json(*plan.break_even_extents, dims) : json();
    json curves = json::array();
    for (const auto& c : plan.curves) {
        json pts = json::array();
        for (const auto& p : c.points) pts.push_back({{"tile", format_tile(p.tile, dims)}, {"size", p.tile[c.dimension]}, {"total_ms", p.total_ms}});
        curves.push_back({{"scheme", to_string(c.scheme)},
                          {"copy", recipe::to_string(c.copy)},
                          {"streams", c.streams},
                          {"dimension", std::string(1, "xyz"[c.dimension])},
                          {"points", pts}});
    }
    j["curves"] = curves;
    j["candidates_evaluated"] = plan.candidates_evaluated;
    j["notes"] = plan.notes;
    return j;
}

json to_json(const std::vector<TimelineEvent>& events) {
    json a = json::array();
    for (const auto& e : events) {
        json x = {{"engine", e.engine}, {"tile", e.tile}, {"start_ms", e.start_ms}, {"end_ms", e.end_ms}};
        if (e.step > 0) x["step"] = e.step;
        if (!e.note.empty()) x["note"] = e.note;
        a.push_back(std::move(x));
    }
    return a;
}

}  // namespace recipe::advisor
