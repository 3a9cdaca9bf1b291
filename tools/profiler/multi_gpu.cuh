// multi_gpu.cuh — the figures of a host with several GPUs that the model
// prices calls over several GPUs with (docs/model.md, "Several GPUs";
// Config::devices): do copies to several GPUs at once add up or share the
// host's links and memory, what the staging threads of several GPUs pack at
// once, what starting several contexts and NCCL's communicators costs, and
// what one halo exchange between neighbours costs (NCCL send/recv, the
// library's own, detail/nccl.cuh).
//
// Written as the profile's "multiGpu" object; entry i of each array is for
// i+1 GPUs at once. The cold context start-up is measured in fresh
// processes (the profiler run again with --context-child N), before this
// process holds any GPU.
#pragma once

#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <recipe/recipe.cuh>

#include "gpu_idle.cuh"

namespace profiler {

struct MultiGpu {
    int gpus = 1;
    std::vector<double> h2d_gbs, d2h_gbs, staging_gbs, fresh_gbs, context_ms, nccl_init_ms;
    // The exit of the same fresh processes: holding i + 1 contexts, and
    // holding i + 1 contexts and NCCL's communicators (entry 0: 0, as
    // nccl_init_ms), from the figure read until the process is reaped.
    std::vector<double> exit_ms, nccl_exit_ms;
    double exchange_us = 0, exchange_gbs = 0;
    std::vector<double> exchange_bytes, exchange_ns;  // the points fitted
    std::string error;
};

namespace multi_detail {

inline double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Runs f(d) for d in [0, n) on a thread each, all starting together.
template <class F>
void on_gpus(int n, const F& f) {
    std::vector<std::thread> threads;
    for (int d = 0; d < n; ++d)
        threads.emplace_back([&, d] {
            cudaSetDevice(d);
            f(d);
        });
    for (std::thread& t : threads) t.join();
}

}  // namespace multi_detail

// The child: starts n GPUs' contexts at once, prints the milliseconds.
inline int context_child_main(const char* n_text) {
    const int n = std::atoi(n_text);
    const auto t0 = std::chrono::steady_clock::now();
    bool ok = true;
    multi_detail::on_gpus(n, [&](int) { ok = ok && cudaFree(nullptr) == cudaSuccess; });
    std::printf("%.3f\n", multi_detail::ms_since(t0));
    std::fflush(stdout);  // the parent times the exit from here
    return ok ? 0 : 3;
}

// The child: after n GPUs' contexts are up, makes NCCL's communicators
// for them, as a program's first multi-GPU region does; prints the ms.
inline int nccl_child_main(const char* n_text) {
    const int n = std::atoi(n_text);
    multi_detail::on_gpus(n, [&](int) { cudaFree(nullptr); });
    try {
        const auto t0 = std::chrono::steady_clock::now();
        recipe::detail::Nccl::get().comms(n);
        std::printf("%.3f\n", multi_detail::ms_since(t0));
        std::fflush(stdout);  // the parent times the exit from here
    } catch (const recipe::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 3;
    }
    return 0;
}

// Runs the profiler again as `--MODE-child N`: the ms it prints, and how
// long it then takes to exit (its contexts' and communicators' teardown, as
// an emitted program's exit pays it); both -1 when the child failed.
struct ChildTimes {
    double ms = -1, exit_ms = -1;
};
inline ChildTimes child_times(const char* self, const char* mode, int n) {
    const bool cold = std::string(mode) == "context";
    if (cold) wait_for_idle_gpus();
    const std::string command = std::string("'") + self + "' --" + mode + "-child " + std::to_string(n);
    FILE* p = popen(command.c_str(), "r");
    if (!p) return {};
    ChildTimes t;
    if (std::fscanf(p, "%lf", &t.ms) != 1) t.ms = -1;
    const auto printed = std::chrono::steady_clock::now();
    const bool ok = pclose(p) == 0;
    if (cold) cold_child_ended();
    t.exit_ms = multi_detail::ms_since(printed);
    return ok && t.ms >= 0 ? t : ChildTimes{};
}

// Three children: the medians of their figures and of their exits into
// `ms` and `exit_ms`; false when one failed.
inline bool three_children(const char* self, const char* mode, int n, std::vector<double>* ms, std::vector<double>* exit_ms) {
    std::vector<double> figures, exits;
    for (int r = 0; r < 3; ++r) {
        const ChildTimes t = child_times(self, mode, n);
        if (t.ms < 0) return false;
        figures.push_back(t.ms);
        exits.push_back(t.exit_ms);
    }
    ms->push_back(multi_detail::median(figures));
    exit_ms->push_back(multi_detail::median(exits));
    return true;
}

inline MultiGpu measure_multi_gpu(const char* self, int gpus, bool quick) {
    using namespace multi_detail;
    MultiGpu m;
    m.gpus = gpus;
    // Cold starts first, while no process of ours holds a GPU.
    child_times(self, "context", gpus);  // discarded: a machine just started is slower at its first
    for (int n = 1; n <= gpus; ++n)
        if (!three_children(self, "context", n, &m.context_ms, &m.exit_ms)) {
            m.error = "a --context-child process failed";
            return m;
        }
    const std::size_t bytes = (quick ? 64u : 256u) << 20;
    // Page-locked copies, every GPU its own host and device buffer.
    std::vector<char*> host(static_cast<std::size_t>(gpus)), dev(static_cast<std::size_t>(gpus));
    std::vector<char*> pageable(static_cast<std::size_t>(gpus));
    on_gpus(gpus, [&](int d) {
        cudaMallocHost(&host[static_cast<std::size_t>(d)], bytes);
        cudaMalloc(&dev[static_cast<std::size_t>(d)], bytes);
        pageable[static_cast<std::size_t>(d)] = static_cast<char*>(std::malloc(bytes));
        std::memset(host[static_cast<std::size_t>(d)], 1, bytes);
        std::memset(pageable[static_cast<std::size_t>(d)], 2, bytes);
    });
    for (int n = 1; n <= gpus; ++n) {
        for (int to_device = 1; to_device >= 0; --to_device) {
            double best = 0;
            for (int r = 0; r < 3; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                on_gpus(n, [&](int d) {
                    const std::size_t i = static_cast<std::size_t>(d);
                    if (to_device)
                        cudaMemcpy(dev[i], host[i], bytes, cudaMemcpyHostToDevice);
                    else
                        cudaMemcpy(host[i], dev[i], bytes, cudaMemcpyDeviceToHost);
                });
                best = std::max(best, static_cast<double>(n) * static_cast<double>(bytes) / (ms_since(t0) * 1e6));
            }
            (to_device ? m.h2d_gbs : m.d2h_gbs).push_back(best);
        }
        // Each GPU's staging threads packing at once (the library's count and copy).
        double best = 0;
        std::vector<std::unique_ptr<recipe::detail::CopyThreads>> threads;
        for (int d = 0; d < n; ++d)
            threads.push_back(std::make_unique<recipe::detail::CopyThreads>(recipe::detail::staging_thread_count(0)));
        for (int r = 0; r < 3; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            on_gpus(n, [&](int d) {
                const std::size_t i = static_cast<std::size_t>(d);
                std::vector<recipe::detail::Segment> segments;
                const std::size_t piece = 4u << 20;
                for (std::size_t at = 0; at < bytes; at += piece)
                    segments.push_back({host[i] + at, pageable[i] + at, std::min(piece, bytes - at)});
                recipe::detail::copy_segments(segments, *threads[i]);
            });
            best = std::max(best, static_cast<double>(n) * static_cast<double>(bytes) / (ms_since(t0) * 1e6));
        }
        m.staging_gbs.push_back(best);
        // The same threads unpacking into fresh pages (a first call's output:
        // malloc'd and never touched), each time new pages.
        // Best of 5: with 3, the 4-GPU figure of one profile came out below
        // the 3-GPU one (20.1 against 21.6 GB/s).
        best = 0;
        for (int r = 0; r < 5; ++r) {
            std::vector<char*> fresh(static_cast<std::size_t>(n), nullptr);
            for (auto& f : fresh) f = static_cast<char*>(std::malloc(bytes));
            const auto t0 = std::chrono::steady_clock::now();
            on_gpus(n, [&](int d) {
                const std::size_t i = static_cast<std::size_t>(d);
                std::vector<recipe::detail::Segment> segments;
                const std::size_t piece = 4u << 20;
                for (std::size_t at = 0; at < bytes; at += piece)
                    segments.push_back({fresh[i] + at, host[i] + at, std::min(piece, bytes - at)});
                recipe::detail::prefault_writable(fresh[i], bytes, *threads[i]);  // as a first run does
                recipe::detail::copy_segments(segments, *threads[i]);
            });
            best = std::max(best, static_cast<double>(n) * static_cast<double>(bytes) / (ms_since(t0) * 1e6));
            for (char* f : fresh) std::free(f);
        }
        m.fresh_gbs.push_back(best);
    }
    on_gpus(gpus, [&](int d) {
        cudaFreeHost(host[static_cast<std::size_t>(d)]);
        cudaFree(dev[static_cast<std::size_t>(d)]);
        std::free(pageable[static_cast<std::size_t>(d)]);
    });
    // NCCL: communicators for 1..gpus GPUs, then halo exchanges between
    // neighbours of all of them (each pair both ways at once).
    try {
        recipe::detail::Nccl& nccl = recipe::detail::Nccl::get();
        // In fresh processes: a program's first communicators pay NCCL's own
        // start-up too.
        m.nccl_init_ms.push_back(0);
        m.nccl_exit_ms.push_back(0);
        for (int n = 2; n <= gpus; ++n)
            if (!three_children(self, "nccl", n, &m.nccl_init_ms, &m.nccl_exit_ms)) {
                m.error = "a --nccl-child process failed";
                return m;
            }
        if (gpus > 1) {
            const std::vector<recipe::detail::Nccl::Comm>& comms = nccl.comms(gpus);
            const std::size_t most = 16u << 20;
            std::vector<char*> buf(static_cast<std::size_t>(gpus));
            std::vector<cudaStream_t> streams(static_cast<std::size_t>(gpus));
            for (int d = 0; d < gpus; ++d) {
                cudaSetDevice(d);
                cudaMalloc(&buf[static_cast<std::size_t>(d)], 4 * most);
                cudaStreamCreateWithFlags(&streams[static_cast<std::size_t>(d)], cudaStreamNonBlocking);
            }
            auto exchange = [&](std::size_t b) {
                nccl.group_start();
                for (int d = 0; d < gpus; ++d) {
                    char* p = buf[static_cast<std::size_t>(d)];
                    const auto c = comms[static_cast<std::size_t>(d)];
                    const cudaStream_t s = streams[static_cast<std::size_t>(d)];
                    if (d > 0) {
                        nccl.send(p, b, d - 1, c, s);
                        nccl.recv(p + most, b, d - 1, c, s);
                    }
                    if (d + 1 < gpus) {
                        nccl.send(p + 2 * most, b, d + 1, c, s);
                        nccl.recv(p + 3 * most, b, d + 1, c, s);
                    }
                }
                nccl.group_end();
            };
            auto sync = [&] {
                for (int d = 0; d < gpus; ++d) {
                    cudaSetDevice(d);
                    cudaStreamSynchronize(streams[static_cast<std::size_t>(d)]);
                }
            };
            for (std::size_t b : {std::size_t(4) << 10, std::size_t(64) << 10, std::size_t(1) << 20, std::size_t(4) << 20,
                                  most}) {
                exchange(b);
                sync();
                std::vector<double> runs;
                const int reps = 20;
                for (int r = 0; r < 5; ++r) {
                    const auto t0 = std::chrono::steady_clock::now();
                    for (int k = 0; k < reps; ++k) exchange(b);
                    sync();
                    runs.push_back(ms_since(t0) * 1e6 / reps);
                }
                m.exchange_bytes.push_back(static_cast<double>(b));
                m.exchange_ns.push_back(median(runs));
            }
            // t = latency + bytes / bandwidth, least squares over the points.
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            const double k = static_cast<double>(m.exchange_bytes.size());
            for (std::size_t i = 0; i < m.exchange_bytes.size(); ++i) {
                sx += m.exchange_bytes[i];
                sy += m.exchange_ns[i];
                sxx += m.exchange_bytes[i] * m.exchange_bytes[i];
                sxy += m.exchange_bytes[i] * m.exchange_ns[i];
            }
            const double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);  // ns per byte
            const double intercept = (sy - slope * sx) / k;
            m.exchange_us = std::max(m.exchange_ns.front(), intercept) / 1e3;
            m.exchange_gbs = slope > 0 ? 1.0 / slope : 0;
            for (int d = 0; d < gpus; ++d) {
                cudaSetDevice(d);
                cudaFree(buf[static_cast<std::size_t>(d)]);
                cudaStreamDestroy(streams[static_cast<std::size_t>(d)]);
            }
            cudaSetDevice(0);
        }
    } catch (const recipe::Error& e) {
        m.error = e.what();
    }
    return m;
}

inline std::string json_numbers(const std::vector<double>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        char b[32];
        std::snprintf(b, sizeof b, "%s%.2f", i ? ", " : "", v[i]);
        s += b;
    }
    return s + "]";
}

// The profile's "multiGpu" object (no trailing comma or newline).
inline std::string multi_gpu_json(const MultiGpu& m, const std::string& how) {
    char head[256];
    std::snprintf(head, sizeof head, "{\"gpus\": %d, \"exchangeUs\": %.2f, \"exchangeGBs\": %.2f", m.gpus, m.exchange_us,
                  m.exchange_gbs);
    return std::string(head) + ", \"h2dGBs\": " + json_numbers(m.h2d_gbs) + ", \"d2hGBs\": " + json_numbers(m.d2h_gbs) +
           ", \"stagingGBs\": " + json_numbers(m.staging_gbs) + ", \"freshGBs\": " + json_numbers(m.fresh_gbs) +
           ", \"contextStartMs\": " + json_numbers(m.context_ms) +
           ", \"ncclInitMs\": " + json_numbers(m.nccl_init_ms) + ", \"exitMs\": " + json_numbers(m.exit_ms) +
           ", \"ncclExitMs\": " + json_numbers(m.nccl_exit_ms) + ", \"exchangeBytes\": " + json_numbers(m.exchange_bytes) +
           ", \"exchangeNs\": " + json_numbers(m.exchange_ns) + ", \"measured\": \"" + how +
           "; entry i: i+1 GPUs at once; h2d/d2h: aggregate of a 256 MiB page-locked cudaMemcpy per GPU, best of 3; "
           "staging: aggregate of each GPU's staging threads packing 256 MiB pageable into pinned, best of 3; "
           "fresh: the same threads making 256 MiB of fresh malloc'd pages writable and unpacking into them, as a first run does, best of 5; "
           "contextStart: cudaFree(0) on every GPU at once as a fresh process's first CUDA call, the host's GPUs visible and "
           "none held by another process of the profiler's, each after " + std::to_string(idle_seconds_before_cold_start) +
           " s with no CUDA process running, median of 3; "
           "ncclInit: ncclCommInitAll in a fresh process once its contexts are up, median of 3; "
           "exit, ncclExit: the same processes' exit (contexts, and contexts with NCCL's communicators, torn down), "
           "from their figure read until reaped, median of 3; exchange: NCCL send+recv between every neighbour pair both ways at once, "
           "4 KiB..16 MiB, least squares\"}";
}

}  // namespace profiler
