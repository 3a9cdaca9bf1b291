// context_probe.cu — how long CUDA's start-up takes in a fresh process, and
// what makes it longer: where the first CUDA call runs (in main, or on a
// thread started before main as recipe::EarlyStart does) and what the
// program does meanwhile (nothing, or faulting in fresh pages as a program
// filling its input does).
//
//   context_probe main  [GPUS]   cudaFree(0) in main (as recipe-profile's --context-child does)
//   context_probe early [GPUS]   cudaFree(0) on a thread started by a static constructor; main joins it
//   context_probe busy  [GPUS]   as early, main meanwhile writes 2 GiB of fresh malloc'd pages
//   context_probe hold  [GPUS]   as main, then holds the contexts until killed (another process
//                                 holding the GPUs while the others start)
//
// GPUS: how many GPUs' contexts to start at once (default 1). Prints
// `mode gpus context_ms` where context_ms runs from the first CUDA call's
// thread start (main's first line for `main`) to the last context up.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// A kernel, so that the binary registers a fatbin as every emitted program does.
__global__ void touch(float* p) { p[threadIdx.x] += 1; }

double start_contexts(int gpus) {
    const auto t0 = Clock::now();
    std::vector<std::thread> threads;
    for (int d = 0; d < gpus; ++d)
        threads.emplace_back([d] {
            cudaSetDevice(d);
            cudaFree(nullptr);
        });
    for (std::thread& t : threads) t.join();
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int gpus_asked() {
    // argv is not known before main: the early modes read the count from the environment.
    const char* g = std::getenv("PROBE_GPUS");
    return g ? std::atoi(g) : 1;
}

struct Early {
    std::thread thread;
    double ms = 0;
    Early() {
        const char* mode = std::getenv("PROBE_MODE");
        if (mode && std::string(mode) != "main" && std::string(mode) != "hold") thread = std::thread([this] { ms = start_contexts(gpus_asked()); });
    }
} early;

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "main";
    const char* env_mode = std::getenv("PROBE_MODE");
    if (!env_mode || mode != env_mode) {
        std::fprintf(stderr, "context_probe: run as PROBE_MODE=MODE PROBE_GPUS=N context_probe MODE N\n");
        return 2;
    }
    const int gpus = argc > 2 ? std::atoi(argv[2]) : 1;
    double ms = 0;
    if (mode == "main" || mode == "hold") {
        ms = start_contexts(gpus);
        if (mode == "hold") {
            std::printf("hold %d %.1f\n", gpus, ms);
            std::fflush(stdout);
            for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    } else {
        if (mode == "busy") {
            const std::size_t bytes = std::size_t(2) << 30;
            char* p = static_cast<char*>(std::malloc(bytes));
            std::memset(p, 1, bytes);
            std::printf("%s", p[bytes / 2] == 7 ? " " : "");
            std::free(p);
        }
        early.thread.join();
        ms = early.ms;
    }
    float* d = nullptr;
    cudaMalloc(&d, 256 * sizeof(float));
    touch<<<1, 256>>>(d);
    const bool ok = cudaDeviceSynchronize() == cudaSuccess;
    std::printf("%s %d %.1f\n", mode.c_str(), gpus, ms);
    return ok ? 0 : 3;
}
