// No prediction is impossible: random problems (dimensions, extents from 1
// element to beyond a GPU's memory, halos, element sizes, array counts,
// time loops) x every stored platform x every scheme, several tiles and
// stream counts. Every prediction the model makes is finite and not
// negative in every phase. (Predictions the model refuses, such as a plan
// that does not fit the device, are allowed.) A fixed seed: the same cases
// every run. And no pipeline ends before its busiest engine: the total
// covers each engine's busy time (h2d, kernel, d2h, host staging). The same
// over 2 and 4 GPUs: calls cut into slabs and regions, on the test profile's
// multiGpu figures and every stored profile that has them.
#include <cstdlib>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <sstream>

#include "advisor/ghost_zones.h"
#include "advisor/model.h"
#include "advisor/multi_gpu.h"
#include "advisor/platform.h"
#include "advisor/program_time.h"
#include "tests/unit/advisor/multi_gpu_platform.h"

using namespace recipe::advisor;

namespace {

bool sane(double v) { return std::isfinite(v) && v >= 0; }

// Every stored profile that loads.
std::vector<Platform> stored_platforms() {
    std::vector<Platform> platforms;
    for (const auto& e : list_platforms()) {
        Platform p;
        std::string error;
        if (e.error.empty() && find_platform(e.name, &p, &error)) platforms.push_back(p);
    }
    return platforms;
}

std::string describe(const Problem& p, const Config& c, const std::string& platform) {
    std::ostringstream s;
    s << platform << " " << to_string(c.scheme) << " tile " << c.tile[0] << "x" << c.tile[1] << "x" << c.tile[2] << " streams "
      << c.streams << " extents " << p.extents[0] << "x" << p.extents[1] << "x" << p.extents[2] << " inputs " << p.inputs.size()
      << " outputs " << p.outputs.size() << " steps " << p.time_steps;
    return s.str();
}

}  // namespace

TEST_CASE("every prediction is finite, not negative and not below an engine's busy time", "[advisor]") {
    std::vector<Platform> platforms = stored_platforms();
    REQUIRE_FALSE(platforms.empty());
    // The stored profiles have no partial-line figures: one that has them,
    // as an H200 host that pays for such rows measured them.
    Platform split;
    std::string load_error;
    REQUIRE(find_platform("h200", &split, &load_error));
    split.name = "h200 with split-line copies out";
    split.strided_copy.out_partial_line_row_ns = 5.21;
    split.strided_copy.out_partial_line_beside_row_ns = 7.74;
    platforms.push_back(split);
    std::mt19937_64 rng(20261125);
    auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    auto log_extent = [&](double max_log2) {
        return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::exp2(std::uniform_real_distribution<double>(0, max_log2)(rng))));
    };
    const Scheme schemes[] = {Scheme::Naive, Scheme::Basic, Scheme::Scalable, Scheme::Buffered,
                              Scheme::Streams, Scheme::Mapped, Scheme::Hybrid};
    int priced = 0, failures = 0, negative = 0;
    std::map<std::string, int> short_of_busy;  // per platform: total below an engine's busy time
    for (int n = 0; n < 1500; ++n) {
        Problem p;
        p.dims = static_cast<int>(pick(1, 3));
        const double max_log2 = p.dims == 1 ? 34 : p.dims == 2 ? 17 : 11.5;  // up to ~16 Gi elements
        for (int d = 0; d < p.dims; ++d) p.extents[d] = log_extent(max_log2);
        p.space = {{0, 0, 0}, {p.extents[0], p.extents[1], p.extents[2]}};
        const int elem = static_cast<int>(std::int64_t{1} << pick(0, 3));
        const auto ins = pick(0, 3), outs = pick(1, 2);
        for (int i = 0; i < ins; ++i) {
            ArrayUse a;
            a.name = "in" + std::to_string(i);
            a.elem_bytes = elem;
            a.extents = p.extents;
            for (int d = 0; d < p.dims; ++d) {
                a.halo.lo[d] = pick(0, 4);
                a.halo.hi[d] = pick(0, 4);
            }
            p.inputs.push_back(a);
        }
        for (int i = 0; i < outs; ++i) {
            ArrayUse a;
            a.name = "out" + std::to_string(i);
            a.elem_bytes = elem;
            a.extents = p.extents;
            a.copy_in = pick(0, 3) == 0;
            p.outputs.push_back(a);
        }
        if (pick(0, 4) == 0 && !p.inputs.empty()) {
            p.time_steps = pick(2, 50);
            p.outputs.front().exchanged = true;
        }
        p.flops_per_point = static_cast<int>(pick(1, 40));
        p.bytes_per_point = elem * static_cast<int>(ins + outs);
        p.reads_twice = pick(0, 1) == 1;
        for (const auto& platform : platforms) {
            ModelOptions options;
            if (pick(0, 1)) options.host_memory = pick(0, 1) ? HostMemory::Pinned : HostMemory::Pageable;
            const Model model(p, platform, options);
            for (Scheme s : schemes)
                for (int t = 0; t < 3; ++t) {
                    Config c;
                    c.scheme = s;
                    // Tiles that divide the extents and tiles that do not.
                    for (int d = 0; d < 3; ++d)
                        c.tile[d] = d >= p.dims ? 1
                                    : pick(0, 1) ? std::max<std::int64_t>(1, p.extents[d] >> pick(0, 6))
                                                 : pick(1, p.extents[d]);
                    c.streams = static_cast<int>(pick(1, 4));
                    c.copy = static_cast<recipe::CopyMethod>(pick(0, 2));
                    Prediction pred;
                    std::string error;
                    if (!model.predict(c, &pred, &error, false)) continue;
                    ++priced;
                    const auto& ph = pred.phases;
                    const bool finite = sane(pred.total_ms) && sane(ph.alloc) && sane(ph.free) && sane(ph.h2d) && sane(ph.kernel) &&
                                        sane(ph.d2h) && sane(ph.host_register) && sane(ph.host_unregister) && sane(ph.staging) &&
                                        sane(ph.whole_in);
                    if (!finite) ++negative;
                    if (pred.total_ms < 0.999 * std::max({ph.h2d, ph.kernel, ph.d2h, ph.staging})) {
                        ++short_of_busy[platform.name];
                        if (std::getenv("SANITY_SHOW")) WARN(describe(p, c, platform.name) << ": total " << pred.total_ms << " ms, h2d " << ph.h2d << ", kernel "
                                                          << ph.kernel << ", d2h " << ph.d2h << ", staging " << ph.staging);
                    }
                    if (!finite && ++failures <= 10)
                        WARN(describe(p, c, platform.name) << ": total " << pred.total_ms << " ms, h2d " << ph.h2d << ", kernel "
                                                          << ph.kernel << ", d2h " << ph.d2h << ", staging " << ph.staging);
                }
        }
    }
    INFO(priced << " predictions");
    CHECK(priced > 10000);
    CHECK(negative == 0);
    for (const auto& [platform, count] : short_of_busy) WARN(platform << ": " << count << " predictions below an engine's busy time");
    CHECK(short_of_busy.empty());
}

// The same over 2 and 4 GPUs (advisor/multi_gpu.h): random problems, each
// scheme's calls cut into slabs, and random regions, on the test profile's
// multiGpu figures and every stored profile that has them. Nothing priced is
// negative or not finite.
TEST_CASE("every prediction over several GPUs is finite and not negative", "[advisor]") {
    std::vector<Platform> platforms = {recipe::test::unit_multi_gpu_platform()};
    for (const Platform& p : stored_platforms())
        if (p.multi_gpu.gpus >= 4) platforms.push_back(p);
    std::mt19937_64 rng(20261127);
    auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    auto log_extent = [&](double max_log2) {
        return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::exp2(std::uniform_real_distribution<double>(0, max_log2)(rng))));
    };
    const Scheme schemes[] = {Scheme::Basic, Scheme::Scalable, Scheme::Buffered, Scheme::Streams, Scheme::Hybrid};
    int priced = 0, regions = 0, bad = 0;
    auto sane_phases = [](const Prediction& p) {
        const auto& ph = p.phases;
        return sane(p.total_ms) && sane(ph.alloc) && sane(ph.h2d) && sane(ph.kernel) && sane(ph.d2h) && sane(ph.staging) &&
               sane(ph.host_register) && sane(ph.host_unregister) && sane(ph.whole_in) && sane(ph.pipeline);
    };
    for (int n = 0; n < 400; ++n) {
        Problem p;
        p.dims = static_cast<int>(pick(1, 3));
        const double max_log2 = p.dims == 1 ? 30 : p.dims == 2 ? 15 : 10;
        for (int d = 0; d < p.dims; ++d) p.extents[d] = log_extent(max_log2);
        p.space = {{0, 0, 0}, p.extents};
        const int elem = static_cast<int>(std::int64_t{1} << pick(0, 3));
        const auto ins = pick(1, 3), outs = pick(1, 2);
        recipe::Halo reach;
        for (int d = 0; d < p.dims; ++d) {
            reach.lo[d] = pick(0, 3);
            reach.hi[d] = pick(0, 3);
        }
        for (int i = 0; i < ins; ++i) {
            ArrayUse a;
            a.name = "a" + std::to_string(i);
            a.elem_bytes = elem;
            a.extents = p.extents;
            a.halo = reach;
            p.inputs.push_back(a);
        }
        for (int i = 0; i < outs; ++i) {
            ArrayUse a;
            a.name = "a" + std::to_string((i + pick(0, 2)) % 3);  // an output may be an input of the next launch
            a.elem_bytes = elem;
            a.extents = p.extents;
            a.copy_in = pick(0, 3) == 0;
            p.outputs.push_back(a);
        }
        p.flops_per_point = static_cast<int>(pick(1, 40));
        p.bytes_per_point = elem * static_cast<int>(ins + outs);
        p.reads_twice = true;
        for (const auto& platform : platforms) {
            ModelOptions options;
            if (pick(0, 1)) options.host_memory = pick(0, 1) ? HostMemory::Pinned : HostMemory::Pageable;
            for (Scheme s : schemes) {
                Config c;
                c.scheme = s;
                for (int d = 0; d < 3; ++d)
                    c.tile[d] = d >= p.dims ? 1 : pick(0, 1) ? std::max<std::int64_t>(1, p.extents[d] >> pick(0, 6)) : pick(1, p.extents[d]);
                c.streams = static_cast<int>(pick(1, 4));
                c.copy = static_cast<recipe::CopyMethod>(pick(0, 2));
                Prediction base;
                std::string error;
                if (!predict(p, platform, c, options, &base, &error)) continue;
                for (int gpus : {2, 4}) {
                    DevicePrediction d;
                    if (!predict_devices(p, platform, options, base.config, gpus, &d, &error)) continue;
                    ++priced;
                    bool ok = sane_phases(d.prediction);
                    for (const double ms : d.slab_ms) ok = ok && sane(ms);
                    const DeviceCost cost = device_cost(d.prediction, platform, gpus, false, fresh_output_bytes(p), pick(1, 100));
                    ok = ok && sane(cost.total_ms());
                    if (!ok && ++bad <= 10) WARN(describe(p, base.config, platform.name) << " on " << gpus << " GPUs: " << d.prediction.total_ms);
                }
            }
            if (p.dims < 2) continue;
            RegionProblem r;
            r.dims = p.dims;
            r.extents = p.extents;
            for (int i = 0; i < 3; ++i) r.arrays.push_back({"a" + std::to_string(i), elem, pick(0, 1) == 1, true});
            r.nests = {p};
            if (pick(0, 1)) r.nests.push_back(p);
            r.steps = pick(1, 100);
            r.pinned_host = pick(0, 1) == 1;
            r.swaps = pick(0, 3) == 0;
            for (int gpus : {2, 4}) {
                RegionDevicePrediction d;
                std::string error;
                if (!predict_region_devices(r, platform, options, gpus, &d, &error)) continue;
                ++regions;
                bool ok = sane_phases(d.total) && sane(d.exchange_ms_per_step);
                for (const double ms : d.launch_ms) ok = ok && sane(ms);
                ok = ok && sane(device_cost(d.total, platform, gpus, true, 0, pick(1, 100)).total_ms());
                if (!ok && ++bad <= 10) WARN("region on " << gpus << " GPUs, " << platform.name << ": " << d.total.total_ms);
            }
        }
    }
    INFO(priced << " calls and " << regions << " regions priced over several GPUs");
    CHECK(priced > 1000);
    CHECK(regions > 100);
    CHECK(bad == 0);
}

// Ghost zones (advisor/ghost_zones.h): random time loops over arrays larger
// than a random budget, on every stored profile. Every plan found is finite
// and not negative in every phase, covers its copies and kernels (its tiles
// run one after another), keeps within the budget, has tiles at least as
// tall as their ghost zone below (or one tile), and is the fastest k priced.
TEST_CASE("every ghost-zone plan is finite, within its budget and the fastest of its curve", "[advisor]") {
    const std::vector<Platform> platforms = stored_platforms();
    REQUIRE_FALSE(platforms.empty());
    std::mt19937_64 rng(20261128);
    auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    auto log_extent = [&](double max_log2) {
        return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::exp2(std::uniform_real_distribution<double>(0, max_log2)(rng))));
    };
    int planned = 0, bad = 0;
    for (int n = 0; n < 300; ++n) {
        RegionProblem r;
        r.dims = static_cast<int>(pick(1, 3));
        const double max_log2 = r.dims == 1 ? 30 : r.dims == 2 ? 14 : 9;
        for (int d = 0; d < r.dims; ++d) r.extents[d] = log_extent(max_log2);
        const int elem = static_cast<int>(std::int64_t{1} << pick(2, 3));
        const auto arrays = pick(1, 3);
        for (int i = 0; i < arrays; ++i) r.arrays.push_back({"a" + std::to_string(i), elem, pick(0, 3) > 0, pick(0, 3) > 0});
        const auto nests = pick(1, 3);
        for (int k = 0; k < nests; ++k) {
            Problem q;
            q.kernel_name = "k";
            q.dims = r.dims;
            q.extents = r.extents;
            q.space = {{0, 0, 0}, r.extents};
            const int s = r.dims - 1;
            const std::int64_t reach = pick(0, 3);
            if (r.extents[s] > 2 * reach) {
                q.space.begin[s] = reach;
                q.space.end[s] = r.extents[s] - reach;
            }
            ArrayUse in, out;
            in.name = r.arrays[static_cast<std::size_t>(pick(0, arrays - 1))].name;
            out.name = r.arrays[static_cast<std::size_t>(pick(0, arrays - 1))].name;
            in.elem_bytes = out.elem_bytes = elem;
            in.extents = out.extents = r.extents;
            for (int d = 0; d < r.dims; ++d) in.halo.lo[d] = in.halo.hi[d] = d == s ? reach : pick(0, 2);
            q.inputs = {in};
            q.outputs = {out};
            q.flops_per_point = static_cast<int>(pick(1, 40));
            q.bytes_per_point = 2 * elem;
            q.reads_twice = true;
            r.nests.push_back(q);
        }
        r.steps = pick(1, 200);
        r.pinned_host = pick(0, 1) == 1;
        const std::int64_t whole = region_device_bytes(r);
        for (const auto& platform : platforms) {
            ModelOptions options;
            options.gpu_memory_bytes = std::max<std::int64_t>(4096, whole / pick(2, 64));
            GhostPlan g;
            std::string error;
            if (!plan_ghost_region(r, platform, options, &g, &error)) continue;
            ++planned;
            const Prediction& p = g.prediction.total;
            const auto& ph = p.phases;
            bool ok = sane(p.total_ms) && sane(ph.alloc) && sane(ph.h2d) && sane(ph.kernel) && sane(ph.d2h) && sane(ph.staging);
            ok = ok && p.total_ms + 1e-9 >= ph.h2d + ph.kernel + ph.d2h;
            ok = ok && p.device_bytes <= options.gpu_memory_bytes;
            ok = ok && (g.tiles == 1 || g.core_rows >= g.ghost_below);
            ok = ok && g.steps_per_pass >= 1 && g.passes * g.steps_per_pass >= r.steps && sane(g.redundant);
            for (const GhostPlan::Point& point : g.curve) ok = ok && point.total_ms + 1e-9 >= p.total_ms;
            if (!ok && ++bad <= 10)
                WARN("ghost plan on " << platform.name << ": " << r.dims << "-D " << r.extents[0] << "x" << r.extents[1] << "x"
                                      << r.extents[2] << ", " << r.steps << " steps, k " << g.steps_per_pass << ", tile "
                                      << g.core_rows << ": " << p.total_ms << " ms");
        }
    }
    INFO(planned << " ghost-zone plans");
    CHECK(planned > 200);
    CHECK(bad == 0);
}

// One-GPU regions whose arrays have random written_first boxes (anywhere in
// the extents, empty or whole): every prediction is finite and not negative
// in every phase, and no box makes the region copy more bytes in than the
// same region copying every array whole.
TEST_CASE("every region with boxes written first is priced finite, and copies in no more than whole", "[advisor]") {
    const std::vector<Platform> platforms = stored_platforms();
    REQUIRE_FALSE(platforms.empty());
    std::mt19937_64 rng(20261129);
    auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    auto log_extent = [&](double max_log2) {
        return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::exp2(std::uniform_real_distribution<double>(0, max_log2)(rng))));
    };
    int priced = 0, bad = 0;
    for (int n = 0; n < 300; ++n) {
        Problem p;
        p.dims = static_cast<int>(pick(1, 3));
        const double max_log2 = p.dims == 1 ? 28 : p.dims == 2 ? 14 : 9;
        for (int d = 0; d < p.dims; ++d) p.extents[d] = log_extent(max_log2);
        p.space = {{0, 0, 0}, p.extents};
        const int elem = static_cast<int>(std::int64_t{1} << pick(2, 3));
        for (const char* name : {"a0", "a1"}) {
            ArrayUse a;
            a.name = name;
            a.elem_bytes = elem;
            a.extents = p.extents;
            (name[1] == '0' ? p.inputs : p.outputs).push_back(a);
        }
        p.flops_per_point = 8;
        p.bytes_per_point = 2 * elem;
        RegionProblem r;
        r.dims = p.dims;
        r.extents = p.extents;
        r.arrays = {{"a0", elem, true, pick(0, 1) == 1}, {"a1", elem, true, true}, {"a2", elem, pick(0, 1) == 1, true}};
        for (RegionArray& a : r.arrays) {
            if (pick(0, 2) == 0) continue;
            for (int d = 0; d < 3; ++d) {
                a.written_first.begin[d] = pick(0, r.extents[d] - 1);
                a.written_first.end[d] = pick(a.written_first.begin[d], r.extents[d]);
            }
        }
        r.nests = {p};
        r.steps = pick(1, 50);
        r.pinned_host = pick(0, 1) == 1;
        for (const auto& platform : platforms) {
            RegionPrediction boxed, whole;
            std::string error;
            if (!predict_region(r, platform, {}, &boxed, &error)) continue;
            REQUIRE(predict_region(copied_whole(r), platform, {}, &whole, &error));
            ++priced;
            const auto& ph = boxed.total.phases;
            const bool ok = sane(boxed.total.total_ms) && sane(ph.alloc) && sane(ph.h2d) && sane(ph.kernel) && sane(ph.d2h) &&
                            sane(ph.staging) && boxed.total.h2d.bytes <= whole.total.h2d.bytes;
            if (!ok && ++bad <= 10)
                WARN(platform.name << " dims " << r.dims << " extents " << r.extents[0] << "x" << r.extents[1] << "x" << r.extents[2]
                                   << ": " << boxed.total.total_ms << " ms, " << boxed.total.h2d.bytes << " bytes in against "
                                   << whole.total.h2d.bytes);
        }
    }
    INFO(priced << " regions priced");
    CHECK(priced > 300);
    CHECK(bad == 0);
}

TEST_CASE("every region with its launches pipelined is priced finite and never below its copies or its kernels", "[advisor]") {
    const std::vector<Platform> platforms = stored_platforms();
    REQUIRE_FALSE(platforms.empty());
    std::mt19937_64 rng(20261130);
    auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    int priced = 0, pipelined = 0, bad = 0;
    for (int n = 0; n < 200; ++n) {
        // B = f(A); A = f(B) (or, under swapped pointers, one nest a step) on
        // random extents, reaches and steps.
        Problem p;
        p.dims = static_cast<int>(pick(1, 3));
        const std::int64_t most = p.dims == 1 ? (std::int64_t{1} << 26) : p.dims == 2 ? 4096 : 400;
        for (int d = 0; d < p.dims; ++d) p.extents[d] = pick(8, most);
        const std::int64_t reach = pick(0, 2);
        recipe::Halo h;
        for (int d = 0; d < p.dims; ++d) h.lo[d] = h.hi[d] = reach;
        p.space = {{0, 0, 0}, p.extents};
        for (int d = 0; d < p.dims; ++d) {
            p.space.begin[d] = reach;
            p.space.end[d] = p.extents[d] - reach;
        }
        const int elem = static_cast<int>(std::int64_t{1} << pick(2, 3));
        ArrayUse in, out;
        in.name = "a";
        out.name = "b";
        in.elem_bytes = out.elem_bytes = elem;
        in.extents = out.extents = p.extents;
        in.halo = h;
        p.inputs = {in};
        p.outputs = {out};
        p.flops_per_point = 8;
        p.bytes_per_point = 2 * elem;
        p.reads_twice = reach > 0;
        RegionProblem r;
        r.dims = p.dims;
        r.extents = p.extents;
        r.arrays = {{"a", elem, true, true}, {"b", elem, true, true}};
        r.swaps = pick(0, 1) == 1;
        r.nests = {p};
        if (!r.swaps) {
            Problem q = p;
            q.inputs[0].name = "b";
            q.outputs[0].name = "a";
            r.nests.push_back(q);
        }
        r.steps = pick(1, 40);
        r.pinned_host = pick(0, 1) == 1;
        for (const auto& platform : platforms) {
            RegionPrediction rp;
            std::string error;
            if (!predict_region(r, platform, {}, &rp, &error)) continue;
            ++priced;
            if (rp.pipelined_launches == 0) continue;
            ++pipelined;
            const Prediction& t = rp.total;
            const auto& ph = t.phases;
            const double eps = 1e-6 * std::max(1.0, t.total_ms);
            const bool ok = sane(t.total_ms) && t.total_ms + eps >= ph.alloc + ph.h2d + ph.d2h &&
                            t.total_ms + eps >= ph.alloc + ph.kernel && rp.pieces >= r.steps * static_cast<std::int64_t>(r.nests.size());
            if (!ok && ++bad <= 10)
                WARN(platform.name << " dims " << r.dims << " extents " << r.extents[0] << "x" << r.extents[1] << "x" << r.extents[2]
                                   << " steps " << r.steps << ": " << t.total_ms << " ms against alloc " << ph.alloc << ", h2d "
                                   << ph.h2d << ", d2h " << ph.d2h << ", kernels " << ph.kernel);
        }
    }
    INFO(priced << " regions priced, " << pipelined << " pipelined");
    CHECK(pipelined > 20);
    CHECK(bad == 0);
}
