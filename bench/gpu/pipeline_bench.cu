// pipeline_bench.cu — the thesis's §7 experiments on the GPU it runs on:
// moving average (64 Mi floats, radius 4), emboss (8000 x 8000) and Jacobi
// (400^3), each run through the library with the configurations listed in a
// file, pinned or pageable host arrays, timed end to end.
//
//   pipeline_bench --bounds            kernel times (per repeat count) and
//                                      whole-array copy times -> TSV on stdout
//   pipeline_bench --configs FILE      runs every configuration in FILE
//                                      (bench_plan's TSV) -> TSV on stdout
//
// Each configuration: one warm-up run, three timed runs (seven for the
// advisor's choices; host clock around recipe::run: allocation,
// registration, copies, kernels, frees), one more with the library's
// per-phase events. Before an experiment's first configuration, five more
// warm-up runs. Outputs are poisoned before each run
// and compared, element for element, with a sequential CPU reference after
// the last one (both sides compute in the same order without FMA, so the
// comparison is exact).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <recipe/recipe.cuh>

#include "../../tools/profiler/sample_kernels.cuh"

namespace {

void ck(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "pipeline_bench: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(3);
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Experiment {
    std::string name;
    recipe::Index3 extents;
    recipe::Box space;
    recipe::Halo halo;
    // Runs the nest through the library.
    std::function<recipe::Measured(const recipe::Config&, const float*, float*, int)> run;
    // The C program's loop, sequentially.
    std::function<void(const float*, float*)> reference;
    std::int64_t elements() const { return extents[0] * extents[1] * extents[2]; }
};

constexpr int kRadius = 4;
constexpr std::int64_t kN = 64ll * 1024 * 1024;
constexpr int kW = 8000, kH = 8000;
constexpr int kX = 400, kY = 400, kZ = 400;

std::vector<Experiment> experiments() {
    std::vector<Experiment> e;
    e.push_back({"moving_average",
                 {kN, 1, 1},
                 {{kRadius, 0, 0}, {kN - kRadius, 1, 1}},
                 recipe::Halo{{kRadius, 0, 0}, {kRadius, 0, 0}},
                 [](const recipe::Config& c, const float* in, float* out, int repeat) {
                     return recipe::run(c, samples::moving_average,
                                        recipe::inputs(recipe::input(in, recipe::Halo{{kRadius, 0, 0}, {kRadius, 0, 0}})),
                                        recipe::outputs(recipe::output(out)), kRadius, repeat);
                 },
                 [](const float* in, float* out) {
                     for (std::int64_t i = kRadius; i < kN - kRadius; i++) {
                         float s = 0.0f;
                         for (int d = -kRadius; d <= kRadius; d++) s += in[i + d];
                         out[i] = s / (2 * kRadius + 1);
                     }
                 }});
    e.push_back({"emboss",
                 {kW, kH, 1},
                 {{0, 0, 0}, {kW, kH, 1}},
                 recipe::Halo{{1, 1, 0}, {1, 1, 0}},
                 [](const recipe::Config& c, const float* in, float* out, int repeat) {
                     return recipe::run(c, samples::emboss,
                                        recipe::inputs(recipe::input(in, recipe::Halo{{1, 1, 0}, {1, 1, 0}})),
                                        recipe::outputs(recipe::output(out)), kW, kH, repeat);
                 },
                 [](const float* in, float* out) {
                     for (int y = 0; y < kH; y++)
                         for (int x = 0; x < kW; x++) {
                             const int xm = x > 0 ? x - 1 : 0, xp = x < kW - 1 ? x + 1 : kW - 1;
                             const int ym = y > 0 ? y - 1 : 0, yp = y < kH - 1 ? y + 1 : kH - 1;
                             const float lit = in[y * kW + xp] + in[yp * kW + x] + in[yp * kW + xp];
                             const float shade = in[y * kW + xm] + in[ym * kW + x] + in[ym * kW + xm];
                             out[y * kW + x] = 0.5f + (lit - shade) / 6.0f;
                         }
                 }});
    e.push_back({"jacobi_sweep",
                 {kX, kY, kZ},
                 {{1, 1, 1}, {kX - 1, kY - 1, kZ - 1}},
                 recipe::Halo{{1, 1, 1}, {1, 1, 1}},
                 [](const recipe::Config& c, const float* in, float* out, int repeat) {
                     return recipe::run(c, samples::jacobi_sweep,
                                        recipe::inputs(recipe::input(in, recipe::Halo{{1, 1, 1}, {1, 1, 1}})),
                                        recipe::outputs(recipe::output(out)), repeat);
                 },
                 [](const float* in, float* out) {
                     auto I = [](int x, int y, int z) { return x + kX * (y + kY * static_cast<std::int64_t>(z)); };
                     for (int z = 1; z < kZ - 1; z++)
                         for (int y = 1; y < kY - 1; y++)
                             for (int x = 1; x < kX - 1; x++)
                                 out[I(x, y, z)] = (in[I(x, y, z)] + in[I(x - 1, y, z)] + in[I(x + 1, y, z)] +
                                                    in[I(x, y - 1, z)] + in[I(x, y + 1, z)] + in[I(x, y, z - 1)] +
                                                    in[I(x, y, z + 1)]) /
                                                   7.0f;
                 }});
    return e;
}

void fill(float* a, std::int64_t n) {
    unsigned s = 12345u;
    float level = 100.0f;
    for (std::int64_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        level += (static_cast<float>(s >> 8) / 16777216.0f - 0.5f) * 0.25f;
        if (level < 1.0f) level = 1.0f;
        a[i] = level;
    }
}

// Host arrays of one experiment: pinned and pageable inputs and outputs.
struct Arrays {
    std::int64_t n = 0;
    float *pinned_in = nullptr, *pinned_out = nullptr, *pageable_in = nullptr, *pageable_out = nullptr;
    std::vector<float> want;  // reference, poison outside the space
    explicit Arrays(const Experiment& e) : n(e.elements()) {
        const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
        ck(cudaMallocHost(&pinned_in, bytes), "cudaMallocHost");
        ck(cudaMallocHost(&pinned_out, bytes), "cudaMallocHost");
        pageable_in = static_cast<float*>(std::malloc(bytes));
        pageable_out = static_cast<float*>(std::malloc(bytes));
        if (!pageable_in || !pageable_out) std::exit(2);
        fill(pinned_in, n);
        std::memcpy(pageable_in, pinned_in, bytes);
        std::memset(pageable_out, 0xff, bytes);  // touched: malloc is lazy (thesis §7)
        want.assign(static_cast<std::size_t>(n), 0.0f);
        std::memset(want.data(), 0xff, bytes);
        e.reference(pinned_in, want.data());
    }
    ~Arrays() {
        cudaFreeHost(pinned_in);
        cudaFreeHost(pinned_out);
        std::free(pageable_in);
        std::free(pageable_out);
    }
};

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

// Kernel time over the whole space (device arrays, events), and the time of
// copying the whole input in and the whole output out (pinned): the bound
// max(H2D, D2H, kernel) of a perfect pipeline.
void bounds() {
    std::printf("experiment\trepeat\tkernel_ms\th2d_ms\td2h_ms\n");
    cudaStream_t s;
    ck(cudaStreamCreate(&s), "cudaStreamCreate");
    cudaEvent_t a, b;
    ck(cudaEventCreate(&a), "event");
    ck(cudaEventCreate(&b), "event");
    auto timed = [&](const std::function<void()>& op) {
        std::vector<double> t;
        op();
        for (int r = 0; r < 7; ++r) {
            ck(cudaEventRecord(a, s), "record");
            op();
            ck(cudaEventRecord(b, s), "record");
            ck(cudaEventSynchronize(b), "sync");
            float ms = 0;
            ck(cudaEventElapsedTime(&ms, a, b), "elapsed");
            t.push_back(ms);
        }
        return median(t);
    };
    for (const Experiment& e : experiments()) {
        Arrays h(e);
        const std::size_t bytes = static_cast<std::size_t>(e.elements()) * sizeof(float);
        float *din, *dout;
        ck(cudaMalloc(&din, bytes), "cudaMalloc");
        ck(cudaMalloc(&dout, bytes), "cudaMalloc");
        const double h2d = timed([&] { ck(cudaMemcpyAsync(din, h.pinned_in, bytes, cudaMemcpyHostToDevice, s), "h2d"); });
        const double d2h = timed([&] { ck(cudaMemcpyAsync(h.pinned_out, dout, bytes, cudaMemcpyDeviceToHost, s), "d2h"); });
        for (int repeat : {1, 2, 3, 5, 10}) {
            // The kernel as the naive scheme launches it, on device arrays.
            const recipe::Box sp = e.space;
            recipe::Tile tile{};
            for (int d = 0; d < 3; ++d) {
                tile.core.begin[d] = sp.begin[d];
                tile.core.end[d] = sp.end[d];
            }
            tile.count = 1;
            const recipe::InView<float> vin{din, {0, 0, 0}, e.extents[0], e.extents[1]};
            const recipe::OutView<float> vout{dout, {0, 0, 0}, e.extents[0], e.extents[1]};
            double ms = 0;
            if (e.name == "moving_average")
                ms = timed([&] {
                    samples::moving_average<<<static_cast<unsigned>((sp.extent(0) + 255) / 256), 256, 0, s>>>(
                        tile, vin, vout, kRadius, repeat);
                });
            else if (e.name == "emboss")
                ms = timed([&] {
                    samples::emboss<<<dim3((kW + 31) / 32, (kH + 7) / 8), dim3(32, 8), 0, s>>>(tile, vin, vout, kW, kH,
                                                                                               repeat);
                });
            else
                ms = timed([&] {
                    samples::jacobi_sweep<<<dim3((kX - 2 + 31) / 32, (kY - 2 + 7) / 8, kZ - 2), dim3(32, 8, 1), 0, s>>>(
                        tile, vin, vout, repeat);
                });
            ck(cudaGetLastError(), "kernel");
            std::printf("%s\t%d\t%.4f\t%.4f\t%.4f\n", e.name.c_str(), repeat, ms, h2d, d2h);
            std::fflush(stdout);
        }
        cudaFree(din);
        cudaFree(dout);
    }
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

void run_configs(const std::string& path) {
    std::vector<std::string> header;
    const std::vector<Row> rows = read_tsv(path, &header);
    for (const std::string& h : header) std::printf("%s\t", h.c_str());
    std::printf("measured_ms\tmeasured_min_ms\tmeasured_max_ms\tm_alloc\tm_h2d\tm_kernel\tm_d2h\tm_staging\tverified\n");
    const auto all = experiments();
    for (const Experiment& e : all) {
        bool any = false;
        for (const Row& r : rows) any = any || r.get("experiment") == e.name;
        if (!any) continue;
        Arrays h(e);
        const std::size_t bytes = static_cast<std::size_t>(e.elements()) * sizeof(float);
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
            cfg.name = e.name;
            const int repeat = static_cast<int>(r.i("repeat"));
            const bool pinned = r.get("memory") == "pinned";
            const float* in = pinned ? h.pinned_in : h.pageable_in;
            float* out = pinned ? h.pinned_out : h.pageable_out;
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
                    std::memset(out, 0xff, bytes);
                    recipe::Config c = cfg;
                    c.measure = k == timed + 1;
                    const recipe::Measured m = e.run(c, in, out, repeat);
                    if (k >= 1 && k <= timed) t.push_back(m.total);
                    if (k == timed + 1) phases = m;
                }
                if (std::memcmp(out, h.want.data(), bytes) != 0) status = "NO";
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

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::string(argv[1]) == "--bounds") {
        bounds();
        return 0;
    }
    if (argc >= 3 && std::string(argv[1]) == "--configs") {
        run_configs(argv[2]);
        return 0;
    }
    std::fprintf(stderr, "usage: pipeline_bench --bounds | --configs FILE\n");
    return 2;
}
