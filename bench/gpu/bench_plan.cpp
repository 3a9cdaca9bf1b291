// bench_plan — the model's side of the GPU benchmark. For each experiment
// (thesis §7's moving average, emboss and Jacobi, and two of other shapes: a
// 3x3 stencil on doubles and a zip of three inputs; experiments.cuh runs the
// same five) and each kind of host memory it asks the advisor for the plan
// `recipe` would choose, and predicts every configuration the benchmark
// measures: a tile-size sweep per scheme, every scheme at the chosen tile,
// every host strategy for pageable arrays, and a kernel-repeat sweep (thesis
// §7.1.2) with the measured kernel times.
//
//   bench_plan PLATFORM.json BOUNDS.tsv > configs.tsv
//
// BOUNDS.tsv is `pipeline_bench --bounds`: the kernel time per repeat count,
// which stands in for the kernel analysis of repeated kernels (thesis §6.3).
// An experiment whose kernel the profile has no table for (the two that are
// not the thesis's: recipe-profile times the samples' kernels) is planned
// with its measured kernel time, as `recipe advise --kernel-ms` plans a nest.
// Pure C++ (links recipe_core); runs wherever the recipe binary runs.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "advisor/kernel_time.h"
#include "advisor/plan.h"
#include "advisor/platform.h"

using namespace recipe;
using namespace recipe::advisor;

namespace {

struct Experiment {
    std::string name;
    Problem problem;
    std::vector<std::int64_t> sweep;  // sizes of the tiled dimension
    int tiled = 0;                    // which dimension the sweep varies
    std::vector<int> repeats;         // kernel-repeat sweep (empty: none)
};

ArrayUse array(const std::string& name, Index3 extents, Halo halo = {}, int elem_bytes = 4) {
    ArrayUse a;
    a.name = name;
    a.elem_bytes = elem_bytes;
    a.extents = extents;
    a.halo = halo;
    return a;
}

std::vector<Experiment> experiments() {
    std::vector<Experiment> out;
    {
        const std::int64_t n = 64ll * 1024 * 1024;
        Experiment e;
        e.name = "moving_average";
        Problem& p = e.problem;
        p.kernel_name = "moving_average";
        p.dims = 1;
        p.extents = {n, 1, 1};
        p.space = Box{{4, 0, 0}, {n - 4, 1, 1}};
        p.inputs = {array("in", p.extents, Halo{{4, 0, 0}, {4, 0, 0}})};
        p.outputs = {array("out", p.extents)};
        p.reads_twice = true;
        p.flops_per_point = 10;
        p.bytes_per_point = 8;
        for (std::int64_t t = 1 << 13; t <= n; t *= 2) e.sweep.push_back(t);
        e.tiled = 0;
        e.repeats = {2, 3, 5, 10};
        out.push_back(e);
    }
    {
        Experiment e;
        e.name = "emboss";
        Problem& p = e.problem;
        p.kernel_name = "emboss";
        p.dims = 2;
        p.extents = {8000, 8000, 1};
        p.space = Box{{0, 0, 0}, {8000, 8000, 1}};
        p.inputs = {array("in", p.extents, Halo{{1, 1, 0}, {1, 1, 0}})};
        p.outputs = {array("out", p.extents)};
        p.reads_twice = true;
        p.flops_per_point = 8;
        p.bytes_per_point = 8;
        e.sweep = {8, 16, 25, 32, 50, 64, 100, 125, 200, 250, 400, 500, 1000, 2000, 4000, 8000};
        e.tiled = 1;
        out.push_back(e);
    }
    {
        Experiment e;
        e.name = "jacobi_sweep";
        Problem& p = e.problem;
        p.kernel_name = "jacobi_sweep";
        p.dims = 3;
        p.extents = {400, 400, 400};
        p.space = Box{{1, 1, 1}, {399, 399, 399}};
        p.inputs = {array("in", p.extents, Halo{{1, 1, 1}, {1, 1, 1}})};
        p.outputs = {array("out", p.extents)};
        p.reads_twice = true;
        p.flops_per_point = 7;
        p.bytes_per_point = 8;
        e.sweep = {1, 2, 3, 4, 5, 8, 10, 13, 20, 25, 40, 50, 100, 199, 398};
        e.tiled = 2;
        e.repeats = {2, 3, 5, 10};
        out.push_back(e);
    }
    {
        // out[y][x] = (1 2 1 / 2 4 2 / 1 2 1)/16 around in[y][x], interior points, doubles.
        const std::int64_t n = 8192;
        Experiment e;
        e.name = "stencil9";
        Problem& p = e.problem;
        p.kernel_name = "stencil9";
        p.dims = 2;
        p.extents = {n, n, 1};
        p.space = Box{{1, 1, 0}, {n - 1, n - 1, 1}};
        p.inputs = {array("in", p.extents, Halo{{1, 1, 0}, {1, 1, 0}}, 8)};
        p.outputs = {array("out", p.extents, {}, 8)};
        p.reads_twice = true;
        p.flops_per_point = 11;
        p.bytes_per_point = 16;
        e.sweep = {8, 16, 32, 65, 126, 195, 273, 390, 546, 819, 1170, 1638, 2730, 4095, 8190};
        e.tiled = 1;
        out.push_back(e);
    }
    {
        // o[i] = a[i] + b[i] * c[i], 64 Mi floats.
        const std::int64_t n = 64ll * 1024 * 1024;
        Experiment e;
        e.name = "zip3";
        Problem& p = e.problem;
        p.kernel_name = "zip3";
        p.dims = 1;
        p.extents = {n, 1, 1};
        p.space = Box{{0, 0, 0}, {n, 1, 1}};
        p.inputs = {array("a", p.extents), array("b", p.extents), array("c", p.extents)};
        p.outputs = {array("o", p.extents)};
        p.flops_per_point = 2;
        p.bytes_per_point = 16;
        for (std::int64_t t = 1 << 15; t <= n; t *= 2) e.sweep.push_back(t);
        e.tiled = 0;
        out.push_back(e);
    }
    return out;
}

struct Line {
    std::string copy_override;  // measured with another copy method than the model prices
    std::string experiment, memory;
    std::set<std::string> groups;
    int repeat = 1;
    Prediction p;
    bool chosen = false;
};

std::string key(const std::string& experiment, const std::string& memory, int repeat, const Prediction& p) {
    const Config& c = p.config;
    std::ostringstream s;
    s << experiment << '|' << memory << '|' << repeat << '|' << to_string(c.scheme) << '|' << c.tile[0] << 'x'
      << c.tile[1] << 'x' << c.tile[2] << '|' << to_string(c.copy) << '|' << c.streams << '|'
      << recipe::to_string(p.host_strategy) << '|' << c.block[0] << 'x' << c.block[1] << 'x' << c.block[2];
    return s.str();
}

}  // namespace

// `bench_plan PLATFORM.json --predict < configs.tsv`: predicts each line
// `experiment memory scheme tile copy streams host` (tile as 400x400x7,
// host as the library names it) and prints the line with the predicted ms
// (-1 when the model refuses it). advisor/tools/check_h200.py feeds it the
// configurations of docs/results-h200.md to compare with the measurements.
int predict_lines(const Platform& platform) {
    std::map<std::string, Experiment> by_name;
    for (const Experiment& e : experiments()) by_name[e.name] = e;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::stringstream ss(line);
        std::string name, memory, scheme, tile, copy, host;
        int streams = 3;
        if (!(ss >> name >> memory >> scheme >> tile >> copy >> streams >> host)) continue;
        double ms = -1;
        auto e = by_name.find(name);
        Config c;
        ModelOptions o;
        o.host_memory = memory == "pinned" ? advisor::HostMemory::Pinned : advisor::HostMemory::Pageable;
        std::string err;
        if (e != by_name.end() && parse_scheme(scheme, &c.scheme) && parse_copy_method(copy, &c.copy) &&
            parse_tile(tile, e->second.problem.dims, &c.tile, &err)) {
            c.streams = streams;
            for (HostStrategy h : {HostStrategy::Pinned, HostStrategy::Register, HostStrategy::Staged,
                                   HostStrategy::Pageable})
                if (host == recipe::to_string(h)) c.host = h;
            Prediction p;
            if (predict(e->second.problem, platform, c, o, &p, &err)) ms = p.total_ms;
        }
        std::printf("%s\t%.4f\n", line.c_str(), ms);
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: bench_plan PLATFORM.json BOUNDS.tsv > configs.tsv\n"
                             "       bench_plan PLATFORM.json --predict < configs.tsv\n");
        return 2;
    }
    Platform platform;
    std::string error;
    if (!load_platform_file(argv[1], &platform, &error)) {
        std::fprintf(stderr, "bench_plan: %s\n", error.c_str());
        return 2;
    }
    if (std::string(argv[2]) == "--predict") return predict_lines(platform);
    std::map<std::pair<std::string, int>, double> kernel_ms;
    {
        std::ifstream in(argv[2]);
        std::string line;
        std::getline(in, line);
        while (std::getline(in, line)) {
            std::stringstream ss(line);
            std::string name;
            int repeat = 0;
            double k = 0;
            ss >> name >> repeat >> k;
            if (!name.empty()) kernel_ms[{name, repeat}] = k;
        }
    }

    std::map<std::string, Line> lines;
    std::vector<std::string> order;
    auto add = [&](const Experiment& e, const std::string& memory, int repeat, const Prediction& p,
                   const std::string& group, bool chosen) {
        const std::string k = key(e.name, memory, repeat, p);
        auto it = lines.find(k);
        if (it == lines.end()) {
            Line l;
            l.experiment = e.name;
            l.memory = memory;
            l.repeat = repeat;
            l.p = p;
            it = lines.emplace(k, l).first;
            order.push_back(k);
        }
        it->second.groups.insert(group);
        it->second.chosen = it->second.chosen || chosen;
    };
    auto predict_one = [&](const Experiment& e, const Config& c, const ModelOptions& o, Prediction* out) {
        std::string err;
        if (!predict(e.problem, platform, c, o, out, &err)) {
            std::fprintf(stderr, "bench_plan: %s %s tile %s: %s\n", e.name.c_str(), to_string(c.scheme),
                         format_tile(c.tile, 3).c_str(), err.c_str());
            return false;
        }
        return true;
    };

    for (const Experiment& e : experiments()) {
        // No table for this kernel in the profile: its time measured in this run (bounds), as --kernel-ms gives it.
        std::optional<double> measured_kernel;
        if (!find_kernel(platform, e.problem)) {
            auto k = kernel_ms.find({e.name, 1});
            if (k != kernel_ms.end())
                measured_kernel = k->second;
            else
                std::fprintf(stderr, "bench_plan: %s: no kernel table in the profile and no kernel time in %s: "
                                     "its kernel time is the model's estimate\n",
                             e.name.c_str(), argv[2]);
        }
        for (const advisor::HostMemory memory : {advisor::HostMemory::Pinned, advisor::HostMemory::Pageable}) {
            const std::string mem = to_string(memory);
            SearchOptions so;
            so.model.host_memory = memory;
            so.model.kernel_ms = measured_kernel;
            so.find_break_even = false;
            Plan plan;
            if (!advise(e.problem, platform, so, &plan, &error) || plan.ranked.empty()) {
                std::fprintf(stderr, "bench_plan: %s (%s): %s\n", e.name.c_str(), mem.c_str(), error.c_str());
                return 3;
            }
            const Prediction& best = plan.ranked.front();
            std::fprintf(stderr, "bench_plan: %s, %s: chose %s tile %s, %s, %d streams, %s: %.3f ms (naive %.3f)%s\n",
                         e.name.c_str(), mem.c_str(), to_string(best.config.scheme),
                         format_tile(best.config.tile, 3).c_str(), to_string(best.config.copy), best.config.streams,
                         recipe::to_string(best.host_strategy), best.total_ms, plan.naive.total_ms,
                         measured_kernel ? "; kernel time from the bounds" : "");
            add(e, mem, 1, best, "chosen", true);
            add(e, mem, 1, plan.naive, "naive", false);
            // Naive with one strided copy per array, as a programmer writes it
            // by hand for a space that is not contiguous. The model prices
            // naive with merged copies only, so this line has no prediction.
            auto add_strided_naive = [&](const Prediction& naive, const std::string& group, int repeat) {
                Prediction p = naive;
                p.config.copy = CopyMethod::Strided;
                p.total_ms = -1;
                add(e, mem, repeat, p, group, false);
                lines[key(e.name, mem, repeat, p)].copy_override = "strided";
            };
            add_strided_naive(plan.naive, "naive-strided", 1);
            // The baseline of the pageable target: naive copying the malloc'd arrays as they are.
            if (memory == advisor::HostMemory::Pageable) {
                Config c = plan.naive.config;
                c.host = HostStrategy::Pageable;
                Prediction p;
                if (predict_one(e, c, so.model, &p)) {
                    add(e, mem, 1, p, "naive-pageable", false);
                    add_strided_naive(p, "naive-pageable-strided", 1);
                }
            }
            // A scheme's own best copy method and streams (the advisor's
            // best-ranked plan of that scheme), else the chosen plan's.
            auto base_of = [&](Scheme s) {
                for (const Prediction& r : plan.ranked)
                    if (r.config.scheme == s) return r.config;
                Config c = best.config;
                c.scheme = s;
                if (c.streams > 16) c.streams = 3;
                return c;
            };
            // Every scheme at the chosen tile (each with its cheapest host strategy).
            for (Scheme s : {Scheme::Naive, Scheme::Basic, Scheme::Scalable, Scheme::Buffered, Scheme::Streams,
                             Scheme::Mapped, Scheme::Hybrid}) {
                Config c = base_of(s);
                c.tile = best.config.tile;
                c.host.reset();
                c.block = {0, 0, 0};
                if (s == Scheme::Naive) c.tile = e.problem.space.extents();
                Prediction p;
                if (predict_one(e, c, so.model, &p)) add(e, mem, 1, p, "schemes", false);
            }
            // Every host strategy for pageable arrays, chosen scheme and tile.
            if (memory == advisor::HostMemory::Pageable)
                for (HostStrategy h : {HostStrategy::Register, HostStrategy::Staged, HostStrategy::Pageable}) {
                    Config c = best.config;
                    c.host = h;
                    Prediction p;
                    std::string err;
                    if (predict(e.problem, platform, c, so.model, &p, &err)) add(e, mem, 1, p, "host", false);
                }
            // Tile-size sweep (thesis §7.1.1): the chosen tile varied along
            // its tiled dimension, for the chosen scheme and (pinned) the
            // thesis's pipelined schemes.
            const Index3 ext = e.problem.space.extents();
            int d = -1;
            for (int k = 0; k < 3; ++k)
                if (best.config.tile[k] < ext[k]) d = k;
            if (d < 0) d = e.tiled;
            std::vector<std::int64_t> sizes;
            if (d == e.tiled) {
                sizes = e.sweep;
            } else {
                for (std::int64_t t = 1; t < ext[d]; t *= 2) sizes.push_back(t);
                sizes.push_back(ext[d]);
            }
            sizes.push_back(best.config.tile[d]);
            std::vector<Scheme> sweep_schemes = {best.config.scheme};
            if (memory == advisor::HostMemory::Pinned)
                for (Scheme s : {Scheme::Basic, Scheme::Scalable, Scheme::Buffered})
                    if (s != best.config.scheme) sweep_schemes.push_back(s);
            for (Scheme s : sweep_schemes) {
                for (std::int64_t t : sizes) {
                    Config c = s == best.config.scheme ? best.config : base_of(s);
                    if (s != best.config.scheme) c.host.reset();
                    c.tile = best.config.tile;
                    c.tile[d] = std::min(t, ext[d]);
                    c.block = {0, 0, 0};
                    Prediction p;
                    if (predict_one(e, c, so.model, &p)) add(e, mem, 1, p, "tiles", false);
                }
            }
            // Kernel-repeat sweep (thesis §7.1.2), pinned arrays.
            if (memory == advisor::HostMemory::Pinned)
                for (int r : e.repeats) {
                    auto k = kernel_ms.find({e.name, r});
                    if (k == kernel_ms.end()) continue;
                    SearchOptions sr = so;
                    sr.model.kernel_ms = k->second;
                    Plan pr;
                    if (!advise(e.problem, platform, sr, &pr, &error) || pr.ranked.empty()) continue;
                    add(e, mem, r, pr.ranked.front(), "repeat", true);
                    add(e, mem, r, pr.naive, "repeat-naive", false);
                    add_strided_naive(pr.naive, "repeat-naive-strided", r);
                }
        }
    }

    std::printf(
        "experiment\tmemory\tgroups\trepeat\tscheme\ttx\tty\ttz\tcopy\tstreams\thost\tbx\tby\tbz\tchosen\tpredicted_ms\t"
        "p_alloc\tp_h2d\tp_kernel\tp_d2h\tp_staging\tp_tiles\tdominant\tthreads\n");
    for (const std::string& k : order) {
        const Line& l = lines[k];
        const Prediction& p = l.p;
        const Config& c = p.config;
        std::string groups;
        for (const auto& g : l.groups) groups += (groups.empty() ? "" : ",") + g;
        const double alloc = p.phases.alloc + p.phases.free + p.phases.host_register + p.phases.host_unregister;
        // A staged run packs with the profile's thread count, as the
        // generated code asks (0: the library's default).
        const int threads = p.host_strategy == recipe::HostMemory::Staged ? platform.staging_threads : 0;
        std::printf("%s\t%s\t%s\t%d\t%s\t%lld\t%lld\t%lld\t%s\t%d\t%s\t%lld\t%lld\t%lld\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%lld\t%s\t%d\n",
                    l.experiment.c_str(), l.memory.c_str(), groups.c_str(), l.repeat, to_string(c.scheme),
                    static_cast<long long>(c.tile[0]), static_cast<long long>(c.tile[1]),
                    static_cast<long long>(c.tile[2]), to_string(c.copy), c.streams, recipe::to_string(p.host_strategy),
                    static_cast<long long>(c.block[0]), static_cast<long long>(c.block[1]),
                    static_cast<long long>(c.block[2]), l.chosen ? 1 : 0, p.total_ms, alloc, p.phases.h2d,
                    p.phases.kernel, p.phases.d2h, p.phases.staging, static_cast<long long>(p.tiles),
                    to_string(p.dominant), threads);
    }
    return 0;
}
