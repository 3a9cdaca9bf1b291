// pipeline_bench.cu — the GPU benchmark's experiments (experiments.cuh: the
// thesis's §7 three and two of other shapes) on the GPU it runs on, through
// the library with the configurations listed in a file, pinned or pageable
// host arrays, timed end to end; and what the hardware allows them.
//
//   pipeline_bench --bounds [--floor FILE]
//        bounds TSV on stdout: per experiment and kernel repeat count the
//        kernel over the whole space, every input copied in, the output
//        copied out, and both directions at once (whole arrays, pinned,
//        events); with --floor, the raw-CUDA floor's search (raw_floor.cuh)
//        into FILE
//   pipeline_bench --configs FILE
//        runs every configuration in FILE (bench_plan's TSV) -> TSV on stdout
//   --only NAME[,NAME...]   restricts either to the experiments named
//
// Each configuration: one warm-up run, three timed runs (seven for the
// advisor's choices; host clock around recipe::run: allocation,
// registration, copies, kernels, frees), one more with the library's
// per-phase events. Before an experiment's first configuration, five more
// warm-up runs. The output is poisoned before the warm-up run and before the
// last run and compared, byte for byte, with a sequential CPU reference
// after the last one (both sides compute in the same order without fused
// multiply-adds, so the comparison is exact). The timed runs are not
// poisoned: they repeat a call as a program repeats it, and one thread
// writing the output just before a staged run slowed it 7-35% (and left it
// 1.5-3.5x from one run to the next) on an H200 host, where the same runs
// unpoisoned were what recipe-profile's stagingTile measures
// (bench/kernel/staged_pace_probe.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <recipe/recipe.cuh>

#include "experiments.cuh"
#include "raw_floor.cuh"

namespace {

using bench::ck;
using bench::Experiment;
using bench::HostArrays;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<Experiment> selected(const std::string& only) {
    std::vector<Experiment> out;
    for (const Experiment& e : bench::experiments())
        if (only.empty() || ("," + only + ",").find("," + e.name + ",") != std::string::npos) out.push_back(e);
    return out;
}

recipe::Scheme scheme_of(const std::string& s) {
    static const std::map<std::string, recipe::Scheme> m = {
        {"naive", recipe::Scheme::Naive},       {"basic", recipe::Scheme::Basic},   {"scalable", recipe::Scheme::Scalable},
        {"buffered", recipe::Scheme::Buffered}, {"streams", recipe::Scheme::Streams}, {"mapped", recipe::Scheme::Mapped},
        {"hybrid", recipe::Scheme::Hybrid}};
    return m.at(s);
}
recipe::CopyMethod copy_of(const std::string& s) {
    if (s == "row-by-row") return recipe::CopyMethod::RowByRow;
    if (s == "merged") return recipe::CopyMethod::Merged;
    return recipe::CopyMethod::Strided;
}
recipe::HostMemory host_of(const std::string& s) {
    if (s == "pinned") return recipe::HostMemory::Pinned;
    if (s == "register") return recipe::HostMemory::Register;
    if (s == "staged") return recipe::HostMemory::Staged;
    return recipe::HostMemory::Pageable;
}

// The bound of a perfect pipeline, its parts timed alone with events on
// device arrays of the whole problem: the kernel over the whole space (per
// repeat count), every input copied in one after the other, the output
// copied out, and the two directions at once (inputs in on one stream, the
// output out on another): max(kernel, H2D, D2H, both). With a floor file,
// the raw pipeline's search follows on the same host arrays.
void bounds(const std::vector<Experiment>& all, const char* floor_path) {
    std::FILE* floor = nullptr;
    if (floor_path) {
        floor = std::fopen(floor_path, "w");
        if (!floor) {
            std::fprintf(stderr, "pipeline_bench: cannot write %s\n", floor_path);
            std::exit(2);
        }
        std::fprintf(floor, "experiment\tdim\ttile\ttiles\tstreams\tms\tmin_ms\tverified\n");
    }
    std::printf("experiment\trepeat\tkernel_ms\th2d_ms\td2h_ms\tboth_ms\n");
    cudaStream_t s, s2;
    ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    ck(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "cudaStreamCreate");
    cudaEvent_t a, b, b2;
    ck(cudaEventCreate(&a), "event");
    ck(cudaEventCreate(&b), "event");
    ck(cudaEventCreate(&b2), "event");
    // Median of 7 after one warm-up; `op` issues on s (and may fork to s2
    // after `a` and join before `b`).
    auto timed = [&](const std::function<void()>& op) {
        std::vector<double> t;
        for (int r = 0; r < 8; ++r) {
            ck(cudaEventRecord(a, s), "record");
            op();
            ck(cudaEventRecord(b, s), "record");
            ck(cudaEventSynchronize(b), "sync");
            float ms = 0;
            ck(cudaEventElapsedTime(&ms, a, b), "elapsed");
            if (r) t.push_back(ms);
        }
        return median(t);
    };
    for (const Experiment& e : all) {
        HostArrays h(e);
        const std::size_t bytes = e.bytes();
        std::vector<bench::DeviceArray> din(static_cast<std::size_t>(e.inputs()));
        for (auto& d : din) {
            ck(cudaMalloc(&d.data, bytes), "cudaMalloc");
            d.extents = e.extents;
        }
        bench::DeviceArray dout;
        ck(cudaMalloc(&dout.data, bytes), "cudaMalloc");
        dout.extents = e.extents;
        auto copy_in = [&](cudaStream_t st) {
            for (std::size_t k = 0; k < din.size(); ++k)
                ck(cudaMemcpyAsync(din[k].data, h.pinned_in[k], bytes, cudaMemcpyHostToDevice, st), "h2d");
        };
        auto copy_out = [&](cudaStream_t st) {
            ck(cudaMemcpyAsync(h.pinned_out, dout.data, bytes, cudaMemcpyDeviceToHost, st), "d2h");
        };
        const double h2d = timed([&] { copy_in(s); });
        const double d2h = timed([&] { copy_out(s); });
        const double both = timed([&] {
            ck(cudaStreamWaitEvent(s2, a, 0), "wait");
            copy_out(s2);
            copy_in(s);
            ck(cudaEventRecord(b2, s2), "record");
            ck(cudaStreamWaitEvent(s, b2, 0), "wait");
        });
        // The kernel as the naive scheme launches it: one tile, the whole space.
        const recipe::Tile whole = bench::make_tile(e.space, 0, 1);
        for (int repeat : e.repeats) {
            const double ms = timed([&] { e.launch(whole, din, dout, e.block, s, repeat); });
            ck(cudaGetLastError(), "kernel");
            std::printf("%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\n", e.name.c_str(), repeat, ms, h2d, d2h, both);
            std::fflush(stdout);
        }
        for (auto& d : din) cudaFree(d.data);
        cudaFree(dout.data);
        if (floor) {
            const auto points = bench::floor_search(e, h, {4, 8, 16, 32, 64, 128}, {2, 3, 4}, 5);
            for (const bench::FloorPoint& f : points)
                std::fprintf(floor, "%s\t%d\t%lld\t%lld\t%d\t%.4f\t%.4f\t%s\n", e.name.c_str(), f.dim,
                             static_cast<long long>(f.tile), static_cast<long long>(f.tiles), f.streams, f.ms,
                             f.min_ms, f.verified ? "yes" : "NO");
            std::fflush(floor);
            std::fprintf(stderr, "  %s: floor searched (%zu points)\n", e.name.c_str(), points.size());
        }
    }
    if (floor) std::fclose(floor);
}

// One line of bench_plan's TSV.
struct Row {
    std::map<std::string, std::string> f;
    std::string get(const std::string& k) const {
        auto it = f.find(k);
        return it == f.end() ? "" : it->second;
    }
    std::int64_t i(const std::string& k) const { return std::stoll(get(k)); }
};

std::vector<Row> read_tsv(const std::string& path, std::vector<std::string>* header) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "pipeline_bench: cannot read %s\n", path.c_str());
        std::exit(2);
    }
    std::string line;
    std::vector<Row> rows;
    std::getline(in, line);
    {
        std::stringstream ss(line);
        std::string c;
        while (std::getline(ss, c, '\t')) header->push_back(c);
    }
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::stringstream ss(line);
        std::string c;
        Row r;
        for (std::size_t k = 0; std::getline(ss, c, '\t'); ++k)
            if (k < header->size()) r.f[(*header)[k]] = c;
        rows.push_back(r);
    }
    return rows;
}

void run_configs(const std::vector<Experiment>& all, const std::string& path) {
    std::vector<std::string> header;
    const std::vector<Row> rows = read_tsv(path, &header);
    for (const std::string& h : header) std::printf("%s\t", h.c_str());
    std::printf("measured_ms\tmeasured_min_ms\tmeasured_max_ms\tm_alloc\tm_h2d\tm_kernel\tm_d2h\tm_staging\tverified\n");
    for (const Experiment& e : all) {
        bool any = false;
        for (const Row& r : rows) any = any || r.get("experiment") == e.name;
        if (!any) continue;
        HostArrays h(e);
        std::size_t done = 0;
        for (const Row& r : rows) {
            if (r.get("experiment") != e.name) continue;
            recipe::Config cfg;
            cfg.scheme = scheme_of(r.get("scheme"));
            cfg.extents = e.extents;
            cfg.space = e.space;
            cfg.tile = {r.i("tx"), r.i("ty"), r.i("tz")};
            cfg.copy = copy_of(r.get("copy"));
            cfg.streams = static_cast<int>(r.i("streams"));
            cfg.block = dim3(static_cast<unsigned>(r.i("bx")), static_cast<unsigned>(r.i("by")),
                             static_cast<unsigned>(r.i("bz")));
            cfg.host = host_of(r.get("host"));
            cfg.host_threads = static_cast<int>(r.i("threads"));  // the profile's stagingThreads for staged runs
            cfg.name = e.name;
            const int repeat = static_cast<int>(r.i("repeat"));
            const bool pinned = r.get("memory") == "pinned";
            const bench::Pointers in = h.inputs(pinned);
            char* out = h.output(pinned);
            std::vector<double> t;
            recipe::Measured phases{};
            std::string status = "yes";
            // The advisor's choices get more timed runs: their figures are the ones reported.
            const int timed = r.get("chosen") == "1" ? 7 : 3;
            try {
                if (done == 0) {
                    // The link and the GPU idled while the reference was
                    // computed: bring them up to speed before the first timing.
                    for (int k = 0; k < 5; ++k) e.run(cfg, in, out, repeat);
                }
                for (int k = 0; k < timed + 2; ++k) {
                    if (k == 0 || k == timed + 1) std::memset(out, 0xff, h.bytes);
                    recipe::Config c = cfg;
                    c.measure = k == timed + 1;
                    const recipe::Measured m = e.run(c, in, out, repeat);
                    if (k >= 1 && k <= timed) t.push_back(m.total);
                    if (k == timed + 1) phases = m;
                }
                if (!h.matches(out)) status = "NO";
            } catch (const recipe::Error& err) {
                std::fprintf(stderr, "pipeline_bench: %s\n", err.what());
                status = "error";
                t = {-1};
            }
            for (const std::string& k : header) std::printf("%s\t", r.get(k).c_str());
            std::printf("%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%s\n", median(t),
                        *std::min_element(t.begin(), t.end()), *std::max_element(t.begin(), t.end()), phases.alloc,
                        phases.h2d, phases.kernel, phases.d2h, phases.staging, status.c_str());
            std::fflush(stdout);
            if (++done % 10 == 0) std::fprintf(stderr, "  %s: %zu configurations\n", e.name.c_str(), done);
        }
    }
}

int usage() {
    std::fprintf(stderr, "usage: pipeline_bench --bounds [--floor FILE] [--only NAMES]\n"
                         "       pipeline_bench --configs FILE [--only NAMES]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string mode, configs, only;
    const char* floor = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--bounds")
            mode = a;
        else if (a == "--configs" && has_value)
            mode = a, configs = argv[++i];
        else if (a == "--floor" && has_value)
            floor = argv[++i];
        else if (a == "--only" && has_value)
            only = argv[++i];
        else
            return usage();
    }
    const std::vector<Experiment> all = selected(only);
    if (all.empty()) {
        std::fprintf(stderr, "pipeline_bench: no experiment named %s\n", only.c_str());
        return 2;
    }
    if (mode == "--bounds") {
        bounds(all, floor);
        return 0;
    }
    if (mode == "--configs" && !floor) {
        run_configs(all, configs);
        return 0;
    }
    return usage();
}
