// recipe-profile — the platform analysis of thesis §6.3 as one CUDA program:
// measures every field of the advisor's platform profile (docs/model.md,
// "Platform profiles") on the GPU it runs on and writes the profile JSON.
//
//   recipe-profile [-o profile.json] [--name h200] [--description "..."] [--quick]
//
// Copies, allocations and registrations are timed at 10, 100, ... 10^9 bytes
// (the thesis's powers of ten). Progress goes to stderr; a full run takes
// well under three minutes on an H200 host.
#include <unistd.h>

#include <cerrno>
#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "cold_start.cuh"
#include "multi_gpu.cuh"
#include "../../advisor/host_cpu.h"  // shared with recipe --measure-host; header-only, no include path needed
#include "library_costs.cuh"
#include "sample_kernels.cuh"
#include "view_kernels.cuh"

namespace {

using Clock = std::chrono::steady_clock;

// Exit codes as recipe's (README): 2 for a usage error or a machine without
// a usable GPU, 3 for a CUDA call that failed during the measurements.
constexpr int kExitUsage = 2, kExitInternal = 3;

[[noreturn]] void die(const std::string& what, int code = kExitInternal) {
    std::fprintf(stderr, "recipe-profile: error: %s\n", what.c_str());
    std::exit(code);
}

void check(cudaError_t e, const char* call) {
    if (e != cudaSuccess) die(std::string(call) + " failed: " + cudaGetErrorString(e) + " [" + cudaGetErrorName(e) + "]");
}
#define CK(call) check((call), #call)

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double ns_since(Clock::time_point t0) { return std::chrono::duration<double, std::nano>(Clock::now() - t0).count(); }

// Progress on stderr: "[ 3/15] pinned copies, host to device ... 0.4 s".
struct Progress {
    int step = 0, steps = 0;
    Clock::time_point start = Clock::now(), t0;
    void begin(const char* what) {
        t0 = Clock::now();
        std::fprintf(stderr, "[%2d/%d] %-52s", ++step, steps, what);
        std::fflush(stderr);
    }
    void end(const std::string& result) {
        std::fprintf(stderr, " %6.1f s  %s\n", ns_since(t0) / 1e9, result.c_str());
    }
};

struct Buffers {
    std::size_t max_bytes;
    char* pinned_a = nullptr;  // host, pinned
    char* pinned_b = nullptr;
    char* pageable = nullptr;  // host, malloc'd and touched
    char* device_a = nullptr;
    char* device_b = nullptr;
};

// Event time of `reps` back-to-back operations, per operation, in ns:
// the rate a pipeline that queues its copies sees (LogGP's gap for small ones).
double per_op_ns(cudaStream_t s, int reps, const std::function<void()>& op) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    op();  // warm
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < reps; ++i) op();
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return ms * 1e6 / reps;
}

// Host wall time of a synchronous operation, median of `reps`, in ns.
double host_ns(int reps, const std::function<void()>& op) {
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = Clock::now();
        op();
        t.push_back(ns_since(t0));
    }
    return median(t);
}

std::vector<double> sizes() {
    std::vector<double> s;
    for (double b = 10; b <= 1e9; b *= 10) s.push_back(b);
    return s;
}

// Copies of each size, one direction.
std::vector<double> copy_table(cudaStream_t s, char* dst, const char* src, cudaMemcpyKind kind, bool quick) {
    std::vector<double> ns;
    for (double b : sizes()) {
        const std::size_t n = static_cast<std::size_t>(b);
        std::vector<double> runs;
        const int batch = b <= 1e5 ? 200 : (b <= 1e7 ? 20 : 1);
        for (int r = 0; r < (quick ? 1 : 3); ++r)
            runs.push_back(per_op_ns(s, batch, [&] { CK(cudaMemcpyAsync(dst, src, n, kind, s)); }));
        ns.push_back(median(runs));
    }
    return ns;
}

void parallel_memcpy(char* dst, const char* src, std::size_t n, int threads) {
    if (threads <= 1) {
        std::memcpy(dst, src, n);
        return;
    }
    std::vector<std::thread> pool;
    const std::size_t chunk = (n + threads - 1) / threads;
    for (int t = 0; t < threads; ++t) {
        const std::size_t from = std::min(n, chunk * t), to = std::min(n, from + chunk);
        pool.emplace_back([=] { std::memcpy(dst + from, src + from, to - from); });
    }
    for (auto& th : pool) th.join();
}

__global__ void empty_kernel() {}

// Mapped (zero-copy) access, seed 003 Table 5.2: a kernel streaming through
// pinned host memory by its device pointer.
__global__ void mapped_write_kernel(float4* out, std::size_t n) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = make_float4(1.0f, 2.0f, 3.0f, static_cast<float>(i));
}
__global__ void mapped_read_kernel(const float4* in, float* sink, std::size_t n) {
    float s = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        s += in[i].x + in[i].w;
    if (s == 1234.5f) sink[0] = s;
}

// Eight independent FMA chains per thread: enough work in flight to reach
// the arithmetic rate rather than the FMA latency.
__global__ void fma_kernel(float* out, int iters) {
    float v[8];
    for (int j = 0; j < 8; ++j) v[j] = threadIdx.x * 1e-7f + j;
    const float m = 0.999999f, c = 1e-6f;
    for (int i = 0; i < iters; ++i) {
#pragma unroll
        for (int j = 0; j < 8; ++j) v[j] = fmaf(v[j], m, c);
    }
    float s = 0;
    for (int j = 0; j < 8; ++j) s += v[j];
    if (s == 1234.5f) out[0] = s;  // keeps the work alive
}

std::string json_array(const std::vector<double>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s%.0f", i ? ", " : "", v[i]);
        s += buf;
    }
    return s + "]";
}

std::string fmt(double v, const char* f = "%.4g") {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// A kernel table: ns for one pass over `elements` elements (thesis §6.3).
struct KernelTable {
    std::string name;
    std::vector<double> elements, ns;
    std::string shape;  // the work it times, as the profile records it (advisor/platform.h KernelShape)
};

}  // namespace

int main(int argc, char** argv) {
    // The child of the cold-start measurement (cold_start.cuh).
    if (argc == 6 && std::string(argv[1]) == "--cold-child")
        return profiler::cold_child_main(argv[2], argv[3], argv[4], argv[5]);
    // The child of the several GPUs' context start-up (multi_gpu.cuh).
    if (argc == 3 && std::string(argv[1]) == "--context-child") return profiler::context_child_main(argv[2]);
    if (argc == 3 && std::string(argv[1]) == "--nccl-child") return profiler::nccl_child_main(argv[2]);
    std::string out_path = "profile.json", name, description;
    bool quick = false, multi_gpu_only = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) die("option " + a + " needs a value", kExitUsage);
            return argv[++i];
        };
        if (a == "-o" || a == "--output")
            out_path = value();
        else if (a == "--name")
            name = value();
        else if (a == "--description")
            description = value();
        else if (a == "--quick")
            quick = true;
        else if (a == "--multi-gpu-only")
            multi_gpu_only = true;
        else if (a == "-h" || a == "--help") {
            std::printf("usage: recipe-profile [-o profile.json] [--name NAME] [--description TEXT] [--quick] [--multi-gpu-only]\n"
                        "Measures the platform profile of the current GPU (thesis §6.3) and writes it as JSON; on a host\n"
                        "with several GPUs also their \"multiGpu\" figures (--multi-gpu-only: those alone, as\n"
                        "{\"multiGpu\": ...}, to merge into a profile).\n");
            return 0;
        } else
            die("unknown option " + a + " (see --help)", kExitUsage);
    }
    // A machine without a usable GPU is the user's situation, not a bug.
    // Asked in a child process, so that no process of ours holds a GPU
    // before the cold starts below (cold_start.cuh).
    int devices = 0;
    {
        std::string why;
        if (!profiler::count_devices_in_child(&devices, &why))
            die("no usable CUDA GPU here (" + why + ")", kExitUsage);
    }
    // Found before minutes of measuring, not after.
    {
        const auto slash = out_path.rfind('/');
        const std::string dir = slash == std::string::npos ? "." : out_path.substr(0, slash == 0 ? 1 : slash);
        if (::access(dir.c_str(), W_OK) != 0) die("cannot write " + out_path + ": " + std::strerror(errno), kExitUsage);
    }

    // Several GPUs (their cold context start-up needs GPUs no process of
    // ours holds: alone, first; in a whole profile, after its cold start).
    profiler::MultiGpu multi;
    const auto measure_multi = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        std::fprintf(stderr, "recipe-profile: %d GPUs: copies, staging, context start-up and NCCL halo exchanges at once\n", devices);
        multi = profiler::measure_multi_gpu(argv[0], devices, quick);
        if (!multi.error.empty()) die("several GPUs: " + multi.error);
        std::fprintf(stderr, "recipe-profile: %d GPUs measured in %.1f s\n", devices,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (multi_gpu_only) {
            cudaDeviceProp prop{};
            cudaGetDeviceProperties(&prop, 0);
            int driver = 0;
            cudaDriverGetVersion(&driver);
            const std::string how = std::to_string(devices) + " x " + prop.name + ", driver API " + std::to_string(driver);
            FILE* f = std::fopen(out_path.c_str(), "w");
            if (!f) die("cannot write " + out_path + ": " + std::strerror(errno), kExitUsage);
            std::fprintf(f, "{\"multiGpu\": %s}\n", profiler::multi_gpu_json(multi, how).c_str());
            std::fclose(f);
            std::exit(0);
        }
    };
    if (multi_gpu_only) measure_multi();

    Progress p;
    p.steps = 24;
    // First, while no process of ours holds the GPU: a user's program starts
    // CUDA on an idle GPU (without persistence mode the driver sets the GPU
    // up again then, which a context held elsewhere would spare it).
    p.begin("cold start: fresh processes, first and second runs");
    profiler::ColdStart cold = profiler::measure_cold_start(quick);
    if (!cold.error.empty()) die(cold.error);
    if (devices > 1) measure_multi();
    p.end("start-up " + std::to_string(static_cast<int>(cold.startup_ns / 1e6)) + " ms, exit " +
          std::to_string(static_cast<int>(cold.teardown_ns / 1e6)) + " ms (after a release of " +
          std::to_string(static_cast<int>(cold.release_ns / 1e6)) + " ms: " +
          std::to_string(static_cast<int>(cold.exit_after_release_ns / 1e6)) + " ms), first call +" +
          std::to_string(static_cast<int>(cold.first_call_ns.back() / 1e6)) + " ms at " +
          std::to_string(static_cast<long long>(cold.first_call_bytes.back() / 1e6)) + " MB out" +
          (cold.first_call_note.empty() ? "" : " (" + cold.first_call_note + ")"));
    p.begin("host: one thread's streaming bandwidth and arithmetic");
    const recipe::advisor::HostCpu host = recipe::advisor::measure_host_cpu(quick);
    p.end(fmt(host.stream_gbs, "%.1f GB/s") + ", " + fmt(host.gflops, "%.2f GFLOP/s") + " (vectorised " +
          fmt(host.gflops_vector2, "%.2f") + " two wide, " + fmt(host.gflops_vector4, "%.2f") + " four wide), first touch " +
          fmt(host.first_touch_gbs, "%.1f GB/s") + ", math call " + fmt(host.math_call_ns, "%.1f ns") + ", 64-bit integer to float " + fmt(host.convert_ns, "%.2f ns") + ", chained sum " +
          fmt(host.chain_ns.empty() ? 0.0 : host.chain_ns.back() / (host.stream_bytes.back() / sizeof(double)), "%.2f ns") + " an add over " +
          fmt(host.stream_bytes.empty() ? 0.0 : host.stream_bytes.back() / (1 << 20), "%.0f MiB"));
    int dev = 0;
    CK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, dev));
    if (name.empty()) {
        for (const char* c = prop.name; *c; ++c) name += (std::isalnum(static_cast<unsigned char>(*c)) ? static_cast<char>(std::tolower(*c)) : '-');
    }
    int driver = 0, runtime = 0;
    CK(cudaDriverGetVersion(&driver));
    CK(cudaRuntimeGetVersion(&runtime));
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    std::fprintf(stderr, "recipe-profile: %s, %d SMs, %.1f GiB, CUDA driver %d, runtime %d\n", prop.name,
                 prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, driver, runtime);

    // ---- buffers
    p.begin("allocating and touching 1 GB host and device buffers");
    Buffers buf;
    buf.max_bytes = 1000000000;
    CK(cudaMallocHost(&buf.pinned_a, buf.max_bytes));
    CK(cudaMallocHost(&buf.pinned_b, buf.max_bytes));
    buf.pageable = static_cast<char*>(std::malloc(buf.max_bytes));
    if (!buf.pageable) die("malloc of 1 GB failed");
    std::memset(buf.pinned_a, 1, buf.max_bytes);
    std::memset(buf.pinned_b, 2, buf.max_bytes);
    std::memset(buf.pageable, 3, buf.max_bytes);
    CK(cudaMalloc(&buf.device_a, buf.max_bytes));
    CK(cudaMalloc(&buf.device_b, buf.max_bytes));
    CK(cudaMemset(buf.device_a, 0, buf.max_bytes));
    CK(cudaMemset(buf.device_b, 0, buf.max_bytes));
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CK(cudaDeviceSynchronize());
    p.end("");

    // ---- thesis §5.2 copy tables
    p.begin("pinned copies, host to device, 10 B .. 1 GB");
    const auto h2d = copy_table(s1, buf.device_a, buf.pinned_a, cudaMemcpyHostToDevice, quick);
    p.end(fmt(1e9 / h2d.back(), "%.1f GB/s at 1 GB"));
    p.begin("pinned copies, device to host, 10 B .. 1 GB");
    const auto d2h = copy_table(s1, buf.pinned_a, buf.device_a, cudaMemcpyDeviceToHost, quick);
    p.end(fmt(1e9 / d2h.back(), "%.1f GB/s at 1 GB"));
    p.begin("pageable copies, host to device, 10 B .. 1 GB");
    const auto h2d_pageable = copy_table(s1, buf.device_a, buf.pageable, cudaMemcpyHostToDevice, quick);
    p.end(fmt(1e9 / h2d_pageable.back(), "%.1f GB/s at 1 GB"));
    p.begin("pageable copies, device to host, 10 B .. 1 GB");
    const auto d2h_pageable = copy_table(s1, buf.pageable, buf.device_a, cudaMemcpyDeviceToHost, quick);
    p.end(fmt(1e9 / d2h_pageable.back(), "%.1f GB/s at 1 GB"));

    // LogGP (seed 003 §5.2): latency = one isolated small copy, gap = per copy
    // when queued back to back, G = ns per byte of a large copy.
    p.begin("copy latency and gap (LogGP)");
    auto isolated = [&](char* dst, const char* src, cudaMemcpyKind kind) {
        std::vector<double> t;
        cudaEvent_t a, b;
        CK(cudaEventCreate(&a));
        CK(cudaEventCreate(&b));
        for (int i = 0; i < 50; ++i) {
            CK(cudaEventRecord(a, s1));
            CK(cudaMemcpyAsync(dst, src, 10, kind, s1));
            CK(cudaEventRecord(b, s1));
            CK(cudaEventSynchronize(b));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, a, b));
            t.push_back(ms * 1e6);
        }
        CK(cudaEventDestroy(a));
        CK(cudaEventDestroy(b));
        return median(t);
    };
    const double lat_h2d = isolated(buf.device_a, buf.pinned_a, cudaMemcpyHostToDevice);
    const double lat_d2h = isolated(buf.pinned_a, buf.device_a, cudaMemcpyDeviceToHost);
    const double G_h2d = (h2d[8] - h2d[6]) / (1e9 - 1e7), G_d2h = (d2h[8] - d2h[6]) / (1e9 - 1e7);
    p.end("latency " + fmt(lat_h2d) + "/" + fmt(lat_d2h) + " ns, gap " + fmt(h2d[0]) + "/" + fmt(d2h[0]) + " ns");

    // ---- duplex factor (thesis §6.4.4): both directions at once
    p.begin("duplex: 256 MiB each way at once");
    const std::size_t dup = 256u << 20;
    double both = 0, in_alone = 0, out_alone = 0;
    {
        std::vector<double> tb, ti, to;
        // The link and the GPU idle before this step: warm them up with the
        // measured copies themselves, then take medians of 11.
        for (int r = 0; r < 3; ++r) {
            CK(cudaMemcpyAsync(buf.device_a, buf.pinned_a, dup, cudaMemcpyHostToDevice, s1));
            CK(cudaMemcpyAsync(buf.pinned_b, buf.device_b, dup, cudaMemcpyDeviceToHost, s2));
            CK(cudaDeviceSynchronize());
        }
        for (int r = 0; r < (quick ? 5 : 11); ++r) {
            ti.push_back(host_ns(1, [&] {
                CK(cudaMemcpyAsync(buf.device_a, buf.pinned_a, dup, cudaMemcpyHostToDevice, s1));
                CK(cudaStreamSynchronize(s1));
            }));
            to.push_back(host_ns(1, [&] {
                CK(cudaMemcpyAsync(buf.pinned_b, buf.device_b, dup, cudaMemcpyDeviceToHost, s2));
                CK(cudaStreamSynchronize(s2));
            }));
            tb.push_back(host_ns(1, [&] {
                CK(cudaMemcpyAsync(buf.device_a, buf.pinned_a, dup, cudaMemcpyHostToDevice, s1));
                CK(cudaMemcpyAsync(buf.pinned_b, buf.device_b, dup, cudaMemcpyDeviceToHost, s2));
                CK(cudaStreamSynchronize(s1));
                CK(cudaStreamSynchronize(s2));
            }));
        }
        both = median(tb);
        in_alone = median(ti);
        out_alone = median(to);
    }
    const double duplex = std::clamp((both - std::max(in_alone, out_alone)) / std::min(in_alone, out_alone), 0.0, 1.0);
    p.end("factor " + fmt(duplex, "%.3f") + " (" + fmt(both / 1e6, "%.3f") + " ms vs " + fmt(in_alone / 1e6, "%.3f") +
          " + " + fmt(out_alone / 1e6, "%.3f") + ")");

    // ---- strided copies: cudaMemcpy2DAsync vs one contiguous copy of the same bytes
    p.begin("strided copies (cudaMemcpy2DAsync) vs contiguous");
    double per_row = 0, per_call = 0;
    {
        const std::size_t width = 800, pitch = 1600;
        std::vector<double> rows_v = {100, 1000, 10000, 100000}, extra;
        for (double rows : rows_v) {
            const std::size_t r = static_cast<std::size_t>(rows);
            const int reps = rows <= 1000 ? 50 : 5;
            const double strided = per_op_ns(s1, reps, [&] {
                CK(cudaMemcpy2DAsync(buf.device_a, width, buf.pinned_a, pitch, width, r, cudaMemcpyHostToDevice, s1));
            });
            const double contiguous = per_op_ns(s1, reps, [&] {
                CK(cudaMemcpyAsync(buf.device_a, buf.pinned_a, width * r, cudaMemcpyHostToDevice, s1));
            });
            extra.push_back(strided - contiguous);
        }
        // least squares: extra = per_call + per_row * rows
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        const double n = static_cast<double>(rows_v.size());
        for (std::size_t i = 0; i < rows_v.size(); ++i) {
            sx += rows_v[i];
            sy += extra[i];
            sxx += rows_v[i] * rows_v[i];
            sxy += rows_v[i] * extra[i];
        }
        per_row = std::max(0.0, (n * sxy - sx * sy) / (n * sxx - sx * sx));
        per_call = std::max(0.0, (sy - per_row * sx) / n);
    }
    p.end("per row " + fmt(per_row, "%.3f") + " ns, per call " + fmt(per_call, "%.0f") + " ns");

    // ---- copies out whose rows begin and end inside 64-byte lines of host
    // memory (an interior box: rows of 1592 B at a 1600-B pitch, 4 B in).
    // On some H200 hosts these cost several ns a row beyond a contiguous
    // copy, more with copies in running beside them, where copies in of the
    // same rows, or copies out of whole lines, cost next to nothing
    // (bench/kernel/strided_probe.cu). Eight 16 MiB copies, alone and beside
    // eight contiguous 16 MiB copies in on another stream.
    p.begin("strided copies out of partial host lines, alone and beside copies in");
    double out_partial_row = 0, out_partial_beside_row = 0;
    {
        const std::size_t width = 1592, pitch = 1600, skew = 4, copy = 16u << 20, copies = 8, rows = copy / width;
        auto pass = [&](bool strided, bool beside) {
            return host_ns(1, [&] {
                for (std::size_t c = 0; c < copies; ++c) {
                    char* host = buf.pinned_b + c * rows * pitch + skew;
                    const char* dev = buf.device_b + c * rows * pitch + skew;
                    if (strided)
                        CK(cudaMemcpy2DAsync(host, pitch, dev, pitch, width, rows, cudaMemcpyDeviceToHost, s1));
                    else
                        CK(cudaMemcpyAsync(host, dev, width * rows, cudaMemcpyDeviceToHost, s1));
                    if (beside)
                        CK(cudaMemcpyAsync(buf.device_a + c * copy, buf.pinned_a + c * copy, copy, cudaMemcpyHostToDevice, s2));
                }
                CK(cudaStreamSynchronize(s1));
                CK(cudaStreamSynchronize(s2));
            });
        };
        std::vector<double> alone, beside;
        pass(true, true);  // warm
        for (int r = 0; r < (quick ? 5 : 11); ++r) {
            alone.push_back(pass(true, false) - pass(false, false));
            beside.push_back(pass(true, true) - pass(false, true));
        }
        const double n = static_cast<double>(rows * copies);
        out_partial_row = std::max(0.0, median(alone) / n);
        out_partial_beside_row = std::max(out_partial_row, median(beside) / n);
    }
    p.end("per row " + fmt(out_partial_row, "%.2f") + " ns alone, " + fmt(out_partial_beside_row, "%.2f") +
          " ns beside copies in");

    // ---- host memcpy tables
    p.begin("host memcpy pinned -> pinned, 10 B .. 1 GB");
    std::vector<double> h2h, pageable_to_pinned;
    for (double b : sizes()) {
        const std::size_t n = static_cast<std::size_t>(b);
        const int reps = b <= 1e6 ? 2000 : (b <= 1e8 ? 3 : (quick ? 1 : 2));
        const int inner = b <= 1e4 ? 100 : 1;
        h2h.push_back(host_ns(b <= 1e6 ? 20 : reps, [&] {
                          for (int i = 0; i < inner; ++i) std::memcpy(buf.pinned_b, buf.pinned_a, n);
                      }) /
                      inner);
    }
    p.end(fmt(1e9 / h2h.back(), "%.1f GB/s at 1 GB"));
    p.begin("host memcpy pageable -> pinned, 10 B .. 1 GB");
    for (double b : sizes()) {
        const std::size_t n = static_cast<std::size_t>(b);
        const int inner = b <= 1e4 ? 100 : 1;
        pageable_to_pinned.push_back(host_ns(b <= 1e6 ? 20 : (quick ? 1 : 2), [&] {
                                         for (int i = 0; i < inner; ++i) std::memcpy(buf.pinned_b, buf.pageable, n);
                                     }) /
                                     inner);
    }
    // The library's default staging threads against one thread, 256 MiB.
    const int threads = recipe::detail::staging_thread_count(0);
    const double one = host_ns(3, [&] { parallel_memcpy(buf.pinned_b, buf.pageable, 256u << 20, 1); });
    const double many = host_ns(3, [&] { parallel_memcpy(buf.pinned_b, buf.pageable, 256u << 20, threads); });
    const double speedup = std::max(1.0, one / many);
    p.end(fmt(1e9 / pageable_to_pinned.back(), "%.1f GB/s at 1 GB") + ", " + std::to_string(threads) + " threads " +
          fmt(speedup, "%.2f") + "x");

    // ---- allocations (thesis §6.4.1: malloc + free measured together)
    p.begin("cudaMalloc + cudaFree, 10 B .. 1 GB");
    std::vector<double> malloc_dev, malloc_host, reg, unreg;
    for (double b : sizes()) {
        const std::size_t n = static_cast<std::size_t>(b);
        malloc_dev.push_back(host_ns(b <= 1e8 ? 9 : 3, [&] {
            void* d = nullptr;
            CK(cudaMalloc(&d, n));
            CK(cudaFree(d));
        }));
    }
    p.end(fmt(malloc_dev.back() / 1e6, "%.3f ms at 1 GB"));
    p.begin("cudaMallocHost + cudaFreeHost, 10 B .. 1 GB");
    for (double b : sizes()) {
        const std::size_t n = static_cast<std::size_t>(b);
        malloc_host.push_back(host_ns(b <= 1e7 ? 5 : (quick || b > 1e8 ? 1 : 3), [&] {
            void* h = nullptr;
            CK(cudaMallocHost(&h, n));
            CK(cudaFreeHost(h));
        }));
    }
    p.end(fmt(malloc_host.back() / 1e6, "%.1f ms at 1 GB"));
    p.begin("cudaHostRegister / cudaHostUnregister, 10 B .. 1 GB");
    for (double b : sizes()) {
        const std::size_t n = static_cast<std::size_t>(b);
        std::vector<double> r, u;
        for (int i = 0; i < (b <= 1e8 ? 5 : 3); ++i) {
            auto t0 = Clock::now();
            CK(cudaHostRegister(buf.pageable, n, cudaHostRegisterDefault));
            r.push_back(ns_since(t0));
            t0 = Clock::now();
            CK(cudaHostUnregister(buf.pageable));
            u.push_back(ns_since(t0));
        }
        reg.push_back(median(r));
        unreg.push_back(median(u));
    }
    p.end(fmt(reg.back() / 1e6, "%.1f ms") + " / " + fmt(unreg.back() / 1e6, "%.1f ms at 1 GB"));

    // ---- launches, device bandwidth, arithmetic
    p.begin("kernel launch overhead (back to back)");
    double launch_ns = 0;
    {
        std::vector<double> t;
        for (int r = 0; r < 5; ++r) t.push_back(per_op_ns(s1, 2000, [&] { empty_kernel<<<1, 32, 0, s1>>>(); }));
        CK(cudaGetLastError());
        launch_ns = median(t);
    }
    p.end(fmt(launch_ns, "%.0f ns"));

    // ---- the host's time to issue one asynchronous call: the library's
    // host thread issues each tile's copy in, launch, copy out and event
    // record one after the other, round robin over its streams. Timed on
    // the host while the GPU works through them (small copies, so the
    // queues never fill and the host never waits).
    p.begin("host time per asynchronous call (copies, launches, event records)");
    double async_call_ns = 0;
    {
        constexpr int kStreams = 3, kIters = 150;
        cudaStream_t st[kStreams];
        cudaEvent_t ev[kStreams];
        for (int i = 0; i < kStreams; ++i) {
            CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
            CK(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
        }
        std::vector<double> t;
        for (int r = 0; r < 8; ++r) {
            const double ns = host_ns(1, [&] {
                for (int i = 0; i < kIters; ++i) {
                    cudaStream_t s = st[i % kStreams];
                    CK(cudaMemcpyAsync(buf.device_a, buf.pinned_a, 4096, cudaMemcpyHostToDevice, s));
                    empty_kernel<<<1, 32, 0, s>>>();
                    CK(cudaMemcpyAsync(buf.pinned_b, buf.device_b, 4096, cudaMemcpyDeviceToHost, s));
                    CK(cudaEventRecord(ev[i % kStreams], s));
                }
            });
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            if (r > 0) t.push_back(ns / (4.0 * kIters));  // the first run warms up
        }
        async_call_ns = median(t);
        for (int i = 0; i < kStreams; ++i) {
            CK(cudaEventDestroy(ev[i]));
            CK(cudaStreamDestroy(st[i]));
        }
    }
    p.end(fmt(async_call_ns, "%.0f ns"));
    p.begin("device bandwidth (device-to-device copy, read + write)");
    const double d2d = per_op_ns(s1, 10, [&] {
        CK(cudaMemcpyAsync(buf.device_b, buf.device_a, buf.max_bytes, cudaMemcpyDeviceToDevice, s1));
    });
    const double device_gbs = 2.0 * buf.max_bytes / d2d;
    p.end(fmt(device_gbs, "%.0f GB/s"));
    p.begin("single-precision FMA rate");
    double gflops = 0;
    {
        const int blocks = prop.multiProcessorCount * 8, threads_per = 256, iters = 4096;
        const double ns = per_op_ns(s1, 5, [&] {
            fma_kernel<<<blocks, threads_per, 0, s1>>>(reinterpret_cast<float*>(buf.device_a), iters);
        });
        CK(cudaGetLastError());
        gflops = 2.0 * 8 * iters * double(blocks) * threads_per / ns;
    }
    p.end(fmt(gflops, "%.0f GFLOP/s"));

    p.begin("mapped host memory, kernel reads and writes (256 MiB)");
    double mapped_write_ns_per_byte = 0, mapped_read_ns_per_byte = 0;
    {
        const std::size_t bytes = 256u << 20, n = bytes / sizeof(float4);
        void* mapped = nullptr;
        CK(cudaHostGetDevicePointer(&mapped, buf.pinned_a, 0));
        const int blocks = prop.multiProcessorCount * 8;
        const double w = per_op_ns(s1, 5, [&] { mapped_write_kernel<<<blocks, 256, 0, s1>>>(static_cast<float4*>(mapped), n); });
        const double r = per_op_ns(s1, 5, [&] {
            mapped_read_kernel<<<blocks, 256, 0, s1>>>(static_cast<const float4*>(mapped), reinterpret_cast<float*>(buf.device_a), n);
        });
        CK(cudaGetLastError());
        mapped_write_ns_per_byte = w / bytes;
        mapped_read_ns_per_byte = r / bytes;
    }
    p.end("write " + fmt(1.0 / mapped_write_ns_per_byte, "%.1f GB/s") + ", read " +
          fmt(1.0 / mapped_read_ns_per_byte, "%.1f GB/s"));

    // ---- implicit synchronisation (seed 003 §5.3): does a kernel in one
    // stream wait for a large copy in another?
    p.begin("implicit synchronisation of copies and kernels");
    bool implicit_sync = false;
    {
        const std::size_t big = 512u << 20;
        CK(cudaDeviceSynchronize());
        const auto t0 = Clock::now();
        CK(cudaMemcpyAsync(buf.device_a, buf.pinned_a, big, cudaMemcpyHostToDevice, s1));
        empty_kernel<<<1, 32, 0, s2>>>();
        CK(cudaGetLastError());
        CK(cudaStreamSynchronize(s2));
        const double kernel_done = ns_since(t0);
        CK(cudaStreamSynchronize(s1));
        const double copy_done = ns_since(t0);
        implicit_sync = kernel_done > 0.5 * copy_done;
    }
    p.end(implicit_sync ? "yes" : "no");

    // ---- the example kernels (thesis §6.3)
    p.begin("example kernels: moving_average, emboss, jacobi_sweep");
    std::vector<KernelTable> kernels;
    {
        float* in = reinterpret_cast<float*>(buf.device_a);
        float* out = reinterpret_cast<float*>(buf.device_b);
        auto time_kernel = [&](const std::function<void()>& launch) {
            std::vector<double> t;
            for (int r = 0; r < 3; ++r) t.push_back(per_op_ns(s1, 10, launch));
            CK(cudaGetLastError());
            return median(t);
        };
        auto tile_of = [](std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, std::int64_t z0,
                          std::int64_t z1) {
            recipe::Tile t{};
            t.core = recipe::DeviceBox{{x0, y0, z0}, {x1, y1, z1}};
            t.index = 0;
            t.count = 1;
            return t;
        };
        const std::int64_t origin[3] = {0, 0, 0};
        auto view_in = [&](const float* d, std::int64_t ex, std::int64_t ey, std::int64_t ez = 1) {
            return recipe::make_in_view(d, origin, ex, ey, ez);
        };
        auto view_out = [&](float* d, std::int64_t ex, std::int64_t ey, std::int64_t ez = 1) {
            return recipe::make_out_view(d, origin, ex, ey, ez);
        };
        KernelTable ma{"moving_average", {}, {}, R"({"dims": 1, "elementBytes": 4, "inputs": 1, "outputs": 1, "haloLow": [4, 0, 0], "haloHigh": [4, 0, 0]})"};
        for (double n : {1e3, 1e4, 1e5, 1e6, 1e7, 6.7108864e7}) {
            const std::int64_t N = static_cast<std::int64_t>(n);
            const auto tile = tile_of(4, N + 4, 0, 1, 0, 1);
            ma.elements.push_back(n);
            ma.ns.push_back(time_kernel([&] {
                samples::moving_average<<<static_cast<unsigned>((N + 255) / 256), 256, 0, s1>>>(
                    tile, view_in(in, N + 8, 1), view_out(out, N + 8, 1), 4, 1);
            }));
        }
        kernels.push_back(ma);
        KernelTable em{"emboss", {}, {}, R"({"dims": 2, "elementBytes": 4, "inputs": 1, "outputs": 1, "haloLow": [1, 1, 0], "haloHigh": [1, 1, 0]})"};
        for (double rows : {1.0, 10.0, 100.0, 1000.0, 8000.0}) {
            const std::int64_t W = 8000, H = static_cast<std::int64_t>(rows);
            const auto tile = tile_of(0, W, 0, H, 0, 1);
            em.elements.push_back(W * rows);
            em.ns.push_back(time_kernel([&] {
                samples::emboss<<<dim3(static_cast<unsigned>((W + 31) / 32), static_cast<unsigned>((H + 7) / 8)),
                                  dim3(32, 8), 0, s1>>>(tile, view_in(in, W, 8000), view_out(out, W, 8000), 8000, 8000,
                                                        1);
            }));
        }
        kernels.push_back(em);
        KernelTable ja{"jacobi_sweep", {}, {}, R"({"dims": 3, "elementBytes": 4, "inputs": 1, "outputs": 1, "haloLow": [1, 1, 1], "haloHigh": [1, 1, 1]})"};
        for (double slabs : {1.0, 4.0, 25.0, 100.0, 398.0}) {
            const std::int64_t X = 400, Y = 400, Z = static_cast<std::int64_t>(slabs);
            const auto tile = tile_of(1, X - 1, 1, Y - 1, 1, Z + 1);
            ja.elements.push_back(398.0 * 398.0 * slabs);
            ja.ns.push_back(time_kernel([&] {
                samples::jacobi_sweep<<<dim3(static_cast<unsigned>((X - 2 + 31) / 32), static_cast<unsigned>((Y - 2 + 7) / 8),
                                             static_cast<unsigned>(Z)),
                                        dim3(32, 8, 1), 0, s1>>>(tile, view_in(in, X, Y, Z + 2), view_out(out, X, Y, Z + 2), 1);
            }));
        }
        kernels.push_back(ja);
    }
    p.end(fmt(kernels[0].ns.back() / 1e6, "%.3f ms") + " / " + fmt(kernels[1].ns.back() / 1e6, "%.3f ms") + " / " +
          fmt(kernels[2].ns.back() / 1e6, "%.3f ms at full size"));

    // ---- kernels by the elements each point reads (view_kernels.cuh)
    p.begin("kernels by reads per point: copy, zip of three, 5-point, 3x3, 3-D copy and 7-point");
    std::vector<view_kernels::Timed> view_timed;
    {
        void* d[4];
        for (auto& a : d) {
            CK(cudaMalloc(&a, view_kernels::kArrayBytes));
            CK(cudaMemset(a, 0, view_kernels::kArrayBytes));
        }
        view_timed = view_kernels::measure(d, s1, [&](const std::function<void()>& launch) {
            std::vector<double> t;
            for (int r = 0; r < 3; ++r) t.push_back(per_op_ns(s1, 20, launch));
            CK(cudaGetLastError());
            return median(t);
        });
        for (auto* a : d) CK(cudaFree(a));
    }
    {
        std::string line;
        for (const auto& k : view_timed)
            line += (line.empty() ? "" : ", ") + k.name + (k.element_bytes == 8 ? " (double) " : " ") +
                    fmt(k.ns / k.points * 1e3, "%.2f");
        p.end(line + " ns per 1000 points");
    }

    // ---- the library's own costs (run through the library itself)
    p.begin("library: setup per run and stream, staging block, staging per tile");
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaFree(buf.device_a));
    CK(cudaFree(buf.device_b));
    const profiler::LibraryCosts lib = profiler::measure_library_costs(buf.pinned_a, buf.pinned_b, buf.pageable, quick);
    p.end("setup " + fmt(lib.setup_ns[2] / 1e6, "%.3f ms") + " at 10 MB, stream " + fmt(lib.stream_setup_ns, "%.0f ns") + ", region run " + fmt(lib.region_run_ns, "%.0f ns") +
          ", staging block " + fmt(lib.staging_setup_ns[2] / 1e6, "%.2f ms") + " at 10 MB, staging " +
          fmt(2 * lib.staging_tile_bytes[3] / lib.staging_tile_ns[3], "%.1f GB/s") + " staged at 4 MiB tiles on " +
          std::to_string(lib.staging_threads) + " threads, row " +
          fmt(lib.staging_row_ns, "%.1f ns") + ", pinned pipeline " +
          fmt(lib.pipeline_tile_ns[2] / 1e3, "%.1f us") + " per 4 MiB tile, a staged region's chunks in / out at best " +
          fmt(profiler::best_region_rate(lib, lib.region_chunk_in_ns), "%.1f") + " / " +
          fmt(profiler::best_region_rate(lib, lib.region_chunk_out_ns), "%.1f GB/s"));

    CK(cudaFreeHost(buf.pinned_a));
    CK(cudaFreeHost(buf.pinned_b));
    std::free(buf.pageable);

    // The first run's extra again, on the staging threads the emitted
    // programs will use (stagingThreads) when that is not the library's
    // default the first measurement ran on: a first run's unpacking faults
    // the output's fresh pages in on every staging thread at once, so the
    // model must price the count the programs run with (on an H200 whose
    // profile chose 6, +76 ms at 536 MB on 6 threads, +66 ms on 8). This
    // process now holds a context, which the children's own start-ups would
    // notice, but not their first run's extra over the second.
    p.begin("cold start: first calls on the profile's staging threads");
    if (lib.staging_threads > 0 && lib.staging_threads != recipe::detail::staging_thread_count(0)) {
        const profiler::ColdStart again = profiler::measure_cold_start(quick, lib.staging_threads);
        if (!again.error.empty()) die(again.error);
        cold.first_call_bytes = again.first_call_bytes;
        cold.first_call_ns = again.first_call_ns;
        cold.first_call_note = again.first_call_note;
        cold.first_call_threads = lib.staging_threads;
        p.end("first call +" + std::to_string(static_cast<int>(cold.first_call_ns.back() / 1e6)) + " ms at " +
              std::to_string(static_cast<long long>(cold.first_call_bytes.back() / 1e6)) + " MB out on " +
              std::to_string(lib.staging_threads) + " threads" +
              (cold.first_call_note.empty() ? "" : " (" + cold.first_call_note + ")"));
    } else {
        cold.first_call_threads = recipe::detail::staging_thread_count(0);
        p.end("the library's default " + std::to_string(cold.first_call_threads) + " threads: measured above");
    }


    // ---- the profile
    int max_blocks_per_sm = 0;
    CK(cudaDeviceGetAttribute(&max_blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, dev));
    const std::string how = std::string("measured by recipe-profile on an ") + prop.name + ", " + date;
    const std::string per_copy = how + "; event time per copy, copies queued back to back in one stream";
    FILE* f = std::fopen(out_path.c_str(), "w");
    if (!f) die("cannot write " + out_path);
    std::string kernels_json, kernels_source;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const KernelTable& k = kernels[i];
        kernels_json += std::string(i ? ",\n" : "") + "    \"" + k.name + "\": {\"shape\": " + k.shape + ", \"elements\": " + json_array(k.elements) +
                        ", \"ns\": " + json_array(k.ns) + "}";
        kernels_source += ",\n    \"kernels." + k.name + "\": \"" + how +
                          "; one pass of the sample's kernel (tools/profiler/sample_kernels.cuh), median of 3x10 launches\"";
    }
    std::fprintf(f, "{\n");
    std::fprintf(f, "  \"name\": \"%s\",\n", name.c_str());
    std::fprintf(f, "  \"description\": \"%s (%d SMs, %.0f GiB), CUDA driver %d, runtime %d\",\n",
                 description.empty() ? prop.name : description.c_str(), prop.multiProcessorCount,
                 prop.totalGlobalMem / 1073741824.0, driver, runtime);
    std::fprintf(f, "  \"copyEngines\": %d,\n", prop.asyncEngineCount);
    std::fprintf(f, "  \"pinnedHostToPinnedHost\": %s,\n", json_array(h2h).c_str());
    std::fprintf(f, "  \"pinnedHostToDevice\": %s,\n", json_array(h2d).c_str());
    std::fprintf(f, "  \"deviceToPinnedHost\": %s,\n", json_array(d2h).c_str());
    std::fprintf(f, "  \"mallocFreeHost\": %s,\n", json_array(malloc_host).c_str());
    std::fprintf(f, "  \"mallocFreeDevice\": %s,\n", json_array(malloc_dev).c_str());
    std::fprintf(f, "  \"duplexFactor\": %.4f,\n", duplex);
    std::fprintf(f, "  \"implicitSynchronization\": %s,\n", implicit_sync ? "true" : "false");
    std::fprintf(f, "  \"pageableHostToDevice\": %s,\n", json_array(h2d_pageable).c_str());
    std::fprintf(f, "  \"deviceToPageableHost\": %s,\n", json_array(d2h_pageable).c_str());
    std::fprintf(f, "  \"hostRegister\": %s,\n", json_array(reg).c_str());
    std::fprintf(f, "  \"hostUnregister\": %s,\n", json_array(unreg).c_str());
    std::fprintf(f, "  \"pageableHostToPinnedHost\": %s,\n", json_array(pageable_to_pinned).c_str());
    std::fprintf(f, "  \"hostCopyParallelSpeedup\": %.3f,\n", speedup);
    std::fprintf(f,
                 "  \"stridedCopy\": {\"perRowNs\": %.4f, \"perCallNs\": %.1f, \"outPartialLineRowNs\": %.3f, "
                 "\"outPartialLineBesideRowNs\": %.3f},\n",
                 per_row, per_call, out_partial_row, out_partial_beside_row);
    auto sized = [](const std::vector<double>& b, const std::vector<double>& ns) {
        return "{\"bytes\": " + json_array(b) + ", \"ns\": " + json_array(ns) + "}";
    };
    std::fprintf(f, "  \"librarySetup\": %s,\n", sized(lib.setup_bytes, lib.setup_ns).c_str());
    std::fprintf(f, "  \"streamSetupNs\": %.0f,\n", lib.stream_setup_ns);
    std::fprintf(f, "  \"regionRunNs\": %.0f,\n", lib.region_run_ns);
    std::fprintf(f, "  \"stagingSetup\": %s,\n", sized(lib.staging_setup_bytes, lib.staging_setup_ns).c_str());
    std::fprintf(f, "  \"stagingTile\": %s,\n", sized(lib.staging_tile_bytes, lib.staging_tile_ns).c_str());
    {
        std::string t = "{";
        for (std::size_t i = 0; i < lib.staging_tile_streams.size(); ++i)
            t += (i ? ", \"" : "\"") + std::to_string(lib.staging_tile_streams[i]) + "\": " +
                 sized(lib.staging_tile_bytes, lib.staging_tile_ns_by_streams[i]);
        std::fprintf(f, "  \"stagingTileStreams\": %s,\n", (t + "}").c_str());
    }
    auto by_streams = [&](const std::vector<std::vector<double>>& ns) {
        std::string t = "{";
        for (std::size_t i = 0; i < lib.region_streams.size(); ++i)
            t += (i ? ", \"" : "\"") + std::to_string(lib.region_streams[i]) + "\": " + sized(lib.region_chunk_bytes, ns[i]);
        return t + "}";
    };
    std::fprintf(f, "  \"regionChunkIn\": %s,\n", by_streams(lib.region_chunk_in_ns).c_str());
    std::fprintf(f, "  \"regionChunkOut\": %s,\n", by_streams(lib.region_chunk_out_ns).c_str());
    std::fprintf(f, "  \"regionPassIn\": %s,\n", by_streams(lib.region_pass_in_ns).c_str());
    std::fprintf(f, "  \"regionPassOut\": %s,\n", by_streams(lib.region_pass_out_ns).c_str());
    std::fprintf(f, "  \"stagingRowNs\": %.1f,\n", lib.staging_row_ns);
    std::fprintf(f, "  \"stagingThreads\": %d,\n", lib.staging_threads);
    std::fprintf(f, "  \"pipelineTile\": %s,\n", sized(lib.pipeline_tile_bytes, lib.pipeline_tile_ns).c_str());
    std::fprintf(f, "  \"cudaStartupNs\": %.0f,\n", cold.startup_ns);
    std::fprintf(f, "  \"cudaTeardownNs\": %.0f,\n", cold.teardown_ns);
    std::fprintf(f, "  \"cudaReleaseNs\": %.0f,\n", cold.release_ns);
    std::fprintf(f, "  \"cudaExitAfterReleaseNs\": %.0f,\n", cold.exit_after_release_ns);
    std::fprintf(f, "  \"firstCall\": %s,\n", sized(cold.first_call_bytes, cold.first_call_ns).c_str());
    std::fprintf(f, "  \"hostStreamGBs\": %.2f,\n", host.stream_gbs);
    std::fprintf(f, "  \"hostStream\": %s,\n", sized(host.stream_bytes, host.stream_ns).c_str());
    std::fprintf(f, "  \"hostGflops\": %.3f,\n", host.gflops);
    std::fprintf(f, "  \"hostGflopsVector2\": %.3f,\n", host.gflops_vector2);
    std::fprintf(f, "  \"hostGflopsVector4\": %.3f,\n", host.gflops_vector4);
    std::fprintf(f, "  \"hostFirstTouchGBs\": %.2f,\n", host.first_touch_gbs);
    std::fprintf(f, "  \"hostMathCallNs\": %.2f,\n", host.math_call_ns);
    std::fprintf(f, "  \"hostConvertNs\": %.3f,\n", host.convert_ns);
    std::fprintf(f, "  \"hostChainedSum\": %s,\n", sized(host.stream_bytes, host.chain_ns).c_str());
    std::fprintf(f, "  \"hostLaneLoadNs\": %.3f,\n", host.lane_load_ns);
    std::fprintf(f, "  \"kernelLaunchNs\": %.1f,\n", launch_ns);
    std::fprintf(f, "  \"asyncCallNs\": %.1f,\n", async_call_ns);
    std::fprintf(f, "  \"deviceBandwidthGBs\": %.1f,\n", device_gbs);
    std::fprintf(f, "  \"peakGflops\": %.0f,\n", gflops);
    std::fprintf(f, "  \"smCount\": %d,\n", prop.multiProcessorCount);
    std::fprintf(f, "  \"deviceMemoryBytes\": %zu,\n", prop.totalGlobalMem);
    std::fprintf(f, "  \"l2CacheBytes\": %d,\n", prop.l2CacheSize);
    std::fprintf(f,
                 "  \"occupancy\": {\"warpSize\": %d, \"maxThreadsPerBlock\": %d, \"maxBlockDim\": [%d, %d, %d], "
                 "\"maxThreadsPerSm\": %d, \"maxBlocksPerSm\": %d, \"registersPerSm\": %d, \"maxRegistersPerThread\": "
                 "255, \"sharedMemoryPerSm\": %zu, \"sharedMemoryPerBlock\": %zu},\n",
                 prop.warpSize, prop.maxThreadsPerBlock, prop.maxThreadsDim[0], prop.maxThreadsDim[1],
                 prop.maxThreadsDim[2], prop.maxThreadsPerMultiProcessor, max_blocks_per_sm, prop.regsPerMultiprocessor,
                 prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlock);
    std::fprintf(f,
                 "  \"logGP\": {\"hostToDevice\": {\"latencyNs\": %.1f, \"gapNs\": %.1f, \"nsPerByte\": %.6f}, "
                 "\"deviceToHost\": {\"latencyNs\": %.1f, \"gapNs\": %.1f, \"nsPerByte\": %.6f}, "
                 "\"mappedNsPerByte\": %.6f, \"mappedReadNsPerByte\": %.6f},\n",
                 lat_h2d, h2d[0], G_h2d, lat_d2h, d2h[0], G_d2h, mapped_write_ns_per_byte, mapped_read_ns_per_byte);
    if (devices > 1) std::fprintf(f, "  \"multiGpu\": %s,\n", profiler::multi_gpu_json(multi, how).c_str());
    std::fprintf(f, "  \"kernels\": {\n%s\n  },\n", kernels_json.c_str());
    {
        std::fprintf(f, "  \"viewKernels\": [\n%s\n  ],\n", view_kernels::json_entries(view_timed).c_str());
    }
    std::fprintf(f, "  \"source\": {\n");
    std::fprintf(f, "    \"copyEngines\": \"%s; cudaDeviceProp::asyncEngineCount\",\n", how.c_str());
    std::fprintf(f, "    \"pinnedHostToPinnedHost\": \"%s; memcpy between two pinned buffers, one thread, median\",\n", how.c_str());
    std::fprintf(f, "    \"pinnedHostToDevice\": \"%s\",\n", per_copy.c_str());
    std::fprintf(f, "    \"deviceToPinnedHost\": \"%s\",\n", per_copy.c_str());
    std::fprintf(f, "    \"mallocFreeHost\": \"%s; cudaMallocHost + cudaFreeHost, host clock, median\",\n", how.c_str());
    std::fprintf(f, "    \"mallocFreeDevice\": \"%s; cudaMalloc + cudaFree, host clock, median\",\n", how.c_str());
    std::fprintf(f, "    \"duplexFactor\": \"%s; 256 MiB each way in two streams: (both - max(alone)) / min(alone)\",\n", how.c_str());
    std::fprintf(f, "    \"implicitSynchronization\": \"%s; an empty kernel in a second stream during a 512 MiB copy\",\n", how.c_str());
    std::fprintf(f, "    \"pageableHostToDevice\": \"%s; from malloc'd, touched memory\",\n", per_copy.c_str());
    std::fprintf(f, "    \"deviceToPageableHost\": \"%s; into malloc'd, touched memory\",\n", per_copy.c_str());
    std::fprintf(f, "    \"hostRegister\": \"%s; cudaHostRegister of malloc'd, touched memory, host clock, median\",\n", how.c_str());
    std::fprintf(f, "    \"hostUnregister\": \"%s; cudaHostUnregister, host clock, median\",\n", how.c_str());
    std::fprintf(f, "    \"pageableHostToPinnedHost\": \"%s; memcpy from malloc'd memory into a pinned buffer, one thread\",\n", how.c_str());
    std::fprintf(f, "    \"hostCopyParallelSpeedup\": \"%s; 256 MiB pageable -> pinned with %d threads (the library's staging threads) vs one\",\n", how.c_str(), threads);
    const std::string lib_how = how + "; the library's own run (recipe::run, tools/profiler/library_costs.cuh)";
    std::fprintf(f, "    \"librarySetup\": \"%s: alloc phase (setup + teardown) of a one-stream pinned scalable run against its device block's bytes, median\",\n", lib_how.c_str());
    std::fprintf(f, "    \"streamSetupNs\": \"%s: alloc phase with 65 streams minus 1 stream, over 64\",\n", lib_how.c_str());
    std::fprintf(f, "    \"regionRunNs\": \"%s: one recipe::Region::run of a kernel that writes nothing over 1024 resident floats, back to back: regions of 1000 and 2000 runs differenced, medians\",\n", lib_how.c_str());
    std::fprintf(f, "    \"stagingSetup\": \"%s: %d staging threads and the pinned staging block (touched in parallel, registered), got and released, median\",\n", lib_how.c_str(), lib.staging_threads);
    const std::string region_how =
        "over 2, 3 and 4 streams, chunks of these bytes, each pass over an array one thread has just written (as a program's "
        "initialisation does): single regions of n and n/2 chunks (up to 512 MiB, 128 chunks) and of 4, medians";
    std::fprintf(f, "    \"regionChunkIn\": \"%s: time per chunk of a staged recipe::Region's copies in (one array of floats, nothing copied out, no launch) %s differenced\",\n", lib_how.c_str(), region_how.c_str());
    std::fprintf(f, "    \"regionChunkOut\": \"%s: time per chunk of a staged recipe::Region's copies out (one array of floats after one launch that writes nothing, nothing copied in) %s differenced\",\n", lib_how.c_str(), region_how.c_str());
    std::fprintf(f, "    \"regionPassIn\": \"%s: what a pass of regionChunkIn pays beyond its chunks (a pass of 4 chunks less 4 chunks' time) %s\",\n", lib_how.c_str(), region_how.c_str());
    std::fprintf(f, "    \"regionPassOut\": \"%s: what a pass of regionChunkOut pays beyond its chunks (a pass of 4 chunks less 4 chunks' time) %s\",\n", lib_how.c_str(), region_how.c_str());
    std::fprintf(f, "    \"stagingTile\": \"%s: steady time per tile of a staged scalable run's pipeline (packing, unpacking, calls and waits for the copy engines) with one input and one output tile of these bytes, 2 streams: runs of n and n/2 tiles (up to 256 MiB) differenced, medians\",\n", lib_how.c_str());
    std::fprintf(f, "    \"stagingTileStreams\": \"%s: stagingTile over 2, 3 and 4 streams\",\n", lib_how.c_str());
    std::fprintf(f, "    \"pipelineTile\": \"%s: steady time per tile of a pinned scalable run's pipeline with one input and one output tile of these bytes, 3 streams: runs of n and n/2 tiles (up to 512 MiB) differenced, medians\",\n", lib_how.c_str());
    std::fprintf(f, "    \"stagingRowNs\": \"%s: extra time per row of a packed box, from an 8192 x 8192 staged run in tiles 128 floats wide\",\n", lib_how.c_str());
    {
        std::string sweep;
        for (std::size_t i = 0; i < lib.thread_counts.size(); ++i)
            sweep += (i ? ", " : "") + std::to_string(lib.thread_counts[i]) + " threads " +
                     std::to_string(static_cast<long long>(lib.thread_tile_ns[i])) + " ns";
        std::fprintf(f, "    \"stagingThreads\": \"%s: the fewest staging threads within 3%% of the lowest steady time per 4 MiB tile of a staged scalable run (both copy directions busy, 2 streams, 64 tiles): %s\",\n",
                     lib_how.c_str(), sweep.c_str());
    }
    std::fprintf(f, "    \"stridedCopy\": \"%s; cudaMemcpy2DAsync of 100..100000 rows of 800 B minus one contiguous copy of the same bytes, least squares; outPartialLine*: 8 cudaMemcpy2DAsync out of 16 MiB in rows of 1592 B at a 1600-B pitch, 4 B in, minus contiguous copies of the same bytes, alone and beside 8 contiguous 16 MiB copies in, per row, median of 11\",\n", how.c_str());
    std::fprintf(f, "    \"cudaStartupNs\": \"%s; cudaFree(0) as the first CUDA call of a fresh process, each begun once the GPU had idled %d s, median of %d processes\",\n", how.c_str(), profiler::idle_seconds_before_cold_start, cold.processes);
    std::fprintf(f, "    \"cudaTeardownNs\": \"%s; exit() of a fresh process after its CUDA work (the runtime's teardown of its context), from the exit call until the parent reaped it, median of every other of %d processes\",\n", how.c_str(), cold.processes);
    std::fprintf(f, "    \"cudaReleaseNs\": \"%s; recipe::release_async (the library's pool freed and cudaDeviceReset, on a thread of its own) after the same runs, from the call until the thread was done, median of every other of the same processes\",\n", how.c_str());
    std::fprintf(f, "    \"cudaExitAfterReleaseNs\": \"%s; exit() of those processes once their release was done, from the exit call until the parent reaped it, median\",\n", how.c_str());
    std::fprintf(f, "    \"firstCall\": \"%s; in a fresh process after cudaFree(0) and the library's pool reserved by its start-up thread as an emitted program's is (recipe::PoolSize): a staged scalable run (16 tiles, 2 streams, %d staging threads, malloc'd arrays) run twice on a filled input and a fresh (malloc'd, untouched) output, the first's total minus the second's, by the bytes of the output, median%s%s\",\n", how.c_str(), cold.first_call_threads, cold.first_call_note.empty() ? "" : "; ", cold.first_call_note.c_str());
    std::fprintf(f, "    \"hostStreamGBs\": \"%s; one thread, a[i] = b[i] + s * c[i] over 3 x 256 MiB of doubles, bytes read + written, best of 5\",\n", how.c_str());
    std::fprintf(f, "    \"hostStream\": \"%s; one pass of the same loop over 3 MiB .. 768 MiB (the three arrays' bytes), repeated: best of 20 (5 above 100 MiB)\",\n", how.c_str());
    std::fprintf(f, "    \"hostGflops\": \"%s; one thread, a 2-D five-point stencil (4 adds, 1 multiply per point) on 180 x 180 doubles through pointers that may overlap, its sizes compile-time constants, compiled like gcc -O2 (not vectorised), the best of ~5 ms windows spread over the host measurement (2 s; 0.6 s with --quick)\",\n", how.c_str());
    std::fprintf(f, "    \"hostMathCallNs\": \"%s; one thread, sinf, cosf, expf, logf, sin and exp in turn over 4096 floats, compiled like gcc -O2 (libm calls), the best of ~2 ms windows taken with the stencil's, per call\",\n", how.c_str());
    std::fprintf(f, "    \"hostGflopsVector2\": \"%s; the same stencil through restrict pointers, compiled like gcc -O2 (vectorised two doubles wide), windows taken with it\",\n", how.c_str());
    std::fprintf(f, "    \"hostGflopsVector4\": \"%s; the same stencil on 182 x 182 floats through restrict pointers, compiled like gcc -O2 (vectorised four floats wide), windows taken with it\",\n", how.c_str());
    std::fprintf(f, "    \"hostConvertNs\": \"%s; one thread, f[i] = (float)(i + k) + (float)(i ^ k) over 4096 floats with a 64-bit i, compiled like gcc -O2 (scalar conversions), the best of windows taken with the stencil's, per conversion\",\n", how.c_str());
    std::fprintf(f, "    \"hostChainedSum\": \"%s; one thread, s += x[i] over the same working sets of doubles (the three arrays in turn), compiled like gcc -O2 (one chain of dependent adds): best of 5 (1 above 100 MiB), per pass\",\n", how.c_str());
    std::fprintf(f, "    \"hostLaneLoadNs\": \"%s; one thread, the stencil on 182 x 182 floats with its contiguous neighbours clamped (j > 0 ? j - 1 : 0), compiled like gcc -O2 (vectorised, those two reads loaded lane by lane), its time a point beyond the unclamped stencil's four floats wide, over its two clamped reads; the best of windows taken with the stencil's\",\n", how.c_str());
    std::fprintf(f, "    \"hostFirstTouchGBs\": \"%s; one thread writing a[i] = i into 256 MiB freshly malloc'd (pages faulted in as written), best of 3\",\n", how.c_str());
    std::fprintf(f, "    \"kernelLaunchNs\": \"%s; empty kernels launched back to back\",\n", how.c_str());
    std::fprintf(f, "    \"asyncCallNs\": \"%s; host time to issue 150 rounds of a 4 KiB copy in, an empty launch, a 4 KiB copy out and an event record over 3 streams, per call, median of 7\",\n", how.c_str());
    std::fprintf(f, "    \"deviceBandwidthGBs\": \"%s; 1 GB device-to-device copy, bytes read + written\",\n", how.c_str());
    std::fprintf(f, "    \"peakGflops\": \"%s; eight independent FMA chains per thread, 8 blocks of 256 threads per SM\",\n", how.c_str());
    std::fprintf(f, "    \"smCount\": \"%s; cudaDeviceProp::multiProcessorCount\",\n", how.c_str());
    std::fprintf(f, "    \"deviceMemoryBytes\": \"%s; cudaDeviceProp::totalGlobalMem\",\n", how.c_str());
    std::fprintf(f, "    \"l2CacheBytes\": \"%s; cudaDeviceProp::l2CacheSize\",\n", how.c_str());
    std::fprintf(f, "    \"occupancy\": \"%s; cudaDeviceProp (sharedMemoryPerBlock without opt-in; 255 registers per thread is the sm_90 limit)\",\n", how.c_str());
    std::fprintf(f, "    \"logGP\": \"%s; latency: one isolated 10 B copy; gap: per 10 B copy queued back to back; G: slope between 10 MB and 1 GB; mappedNsPerByte: a kernel writing 256 MiB of pinned host memory through its device pointer; mappedReadNsPerByte: one reading it\",\n", how.c_str());
    std::fprintf(f, "    \"viewKernels\": \"%s; one launch of each kernel of tools/profiler/view_kernels.cuh (every array through the library's views, 4096^2 and 256^3 grids, then 1024^2 and 128^3, interior points, in floats and in doubles), median of 3x20 launches back to back\",\n", how.c_str());
    std::fprintf(f, "    \"kernels\": \"%s; thesis 6.3 kernel analysis\"%s\n", how.c_str(), kernels_source.c_str());
    std::fprintf(f, "  }\n}\n");
    std::fclose(f);
    std::fprintf(stderr, "recipe-profile: wrote %s in %.1f s\n", out_path.c_str(), ns_since(p.start) / 1e9);
    return 0;
}
