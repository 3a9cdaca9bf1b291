// ramp_probe.cu — does a fresh process's GPU work run at full pace from its
// first launch? A PolyBench-style Jacobi time loop (a 5-point step on N×N
// doubles, A→B then B→A, as the generator emits it) launched back to back on
// resident arrays, timed in batches with events, next to the SM and memory
// clocks and the performance state the driver reports after each batch
// (NVML, loaded at run time; "-" where it is missing). A tool for
// understanding why one process's region takes twice another's, not a test.
//   nvcc -O3 -std=c++17 -arch=sm_90 bench/kernel/ramp_probe.cu -o /tmp/ramp -ldl && /tmp/ramp [N] [BATCHES] [STEPS_PER_BATCH] [IDLE_MS]
// IDLE_MS: a pause after the first half of the batches, to see whether an
// idle GPU slows again. Prints one line per batch:
//   batch B ms M us_per_step U sm_mhz S mem_mhz M pstate P
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "check.cuh"

namespace {

// The few NVML entry points used, declared by hand so that the probe builds
// where the toolkit ships no nvml.h.
struct Nvml {
    using Init = int (*)();
    using Handle = int (*)(unsigned, void**);
    using Clock = int (*)(void*, int, unsigned*);
    using Pstate = int (*)(void*, int*);
    Clock clock = nullptr;
    Pstate pstate = nullptr;
    void* device = nullptr;

    Nvml() {
        void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
        if (!lib) return;
        auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
        auto handle = reinterpret_cast<Handle>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
        clock = reinterpret_cast<Clock>(dlsym(lib, "nvmlDeviceGetClockInfo"));
        pstate = reinterpret_cast<Pstate>(dlsym(lib, "nvmlDeviceGetPerformanceState"));
        if (!init || !handle || !clock || !pstate || init() != 0 || handle(0, &device) != 0) device = nullptr;
    }
    void print() const {
        unsigned sm = 0, mem = 0;
        int p = -1;
        if (device && clock(device, 1, &sm) == 0 && clock(device, 2, &mem) == 0 && pstate(device, &p) == 0)
            std::printf(" sm_mhz %u mem_mhz %u pstate P%d\n", sm, mem, p);
        else
            std::printf(" sm_mhz - mem_mhz - pstate -\n");
    }
};

__global__ void step(const double* __restrict__ a, double* __restrict__ b, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i < n - 1 && j < n - 1)
        b[i * n + j] = 0.2 * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + a[(i + 1) * n + j] + a[(i - 1) * n + j]);
}

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 1300;
    const int batches = argc > 2 ? std::atoi(argv[2]) : 20;
    const int steps = argc > 3 ? std::atoi(argv[3]) : 50;
    const int idle_ms = argc > 4 ? std::atoi(argv[4]) : 0;
    const auto t0 = std::chrono::steady_clock::now();
    CK(cudaFree(nullptr));
    const double ctx_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    Nvml nvml;
    std::printf("context %.1f ms, before any launch:", ctx_ms);
    nvml.print();
    const size_t bytes = size_t(n) * n * sizeof(double);
    double *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMemset(a, 0, bytes));
    CK(cudaMemset(b, 0, bytes));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
    for (int k = 0; k < batches; ++k) {
        if (idle_ms > 0 && k == batches / 2) {
            std::this_thread::sleep_for(std::chrono::milliseconds(idle_ms));
            std::printf("idle %d ms:", idle_ms);
            nvml.print();
        }
        CK(cudaEventRecord(e0));
        for (int s = 0; s < steps; ++s) {
            step<<<grid, block>>>(a, b, n);
            step<<<grid, block>>>(b, a, n);
        }
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        std::printf("batch %d ms %.3f us_per_step %.2f", k, ms, 1000.0 * ms / (2 * steps));
        nvml.print();
    }
    return 0;
}
