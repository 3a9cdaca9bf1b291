// exit_cost.cu — what a program that uses CUDA pays outside its library
// calls: the process's start and exit around CUDA's start-up, with and
// without buffers left allocated at exit, and whether CUDA starting on a
// thread slows the main thread's own work (page faults of fresh memory).
// usage: exit_cost MODE   (run each mode as its own process and time it
// from outside: bench/device/exit_cost.sh)
//   none       no CUDA at all; the main thread's work only
//   start      cudaFree(0), the work, exit
//   early      cudaFree(0) on a thread begun first, the work meanwhile, join, exit
//   buffers    start, then 256 MiB device and 64 MiB page-locked memory left allocated at exit
//   freed      as buffers, freed before exit
//   reset      as buffers, then cudaDeviceReset() (timed) before the work
//   reset_tail as buffers, then cudaDeviceReset() on a thread while the main
//              thread does the work (the program's tail after its last GPU
//              call), joined before exit: is the exit's cost hidden?
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

static double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The program's own work: filling 256 MiB of fresh memory, as an initialisation does.
static double work() {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t n = std::size_t(64) << 20;
    float* a = static_cast<float*>(std::malloc(n * sizeof(float)));
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<float>(i % 1000);
    volatile float sink = a[n / 2];
    (void)sink;
    std::free(a);
    return ms_since(t0);
}

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "none";
    const auto t0 = std::chrono::steady_clock::now();
    double work_ms = 0, start_ms = 0;
    if (mode == "none") {
        work_ms = work();
    } else if (mode == "early") {
        std::thread t([] { cudaFree(nullptr); });
        work_ms = work();
        const auto j0 = std::chrono::steady_clock::now();
        t.join();
        start_ms = ms_since(j0);
    } else if (mode == "reset" || mode == "reset_tail") {
        const auto s0 = std::chrono::steady_clock::now();
        cudaFree(nullptr);
        void *d = nullptr, *h = nullptr;
        cudaMalloc(&d, std::size_t(256) << 20);
        cudaMallocHost(&h, std::size_t(64) << 20);
        std::memset(h, 0, std::size_t(64) << 20);
        cudaMemcpy(d, h, std::size_t(64) << 20, cudaMemcpyHostToDevice);
        start_ms = ms_since(s0);
        const auto r0 = std::chrono::steady_clock::now();
        double reset_ms = 0;
        if (mode == "reset") {
            cudaDeviceReset();
            reset_ms = ms_since(r0);
            work_ms = work();
        } else {
            // A thread of its own has no current device until it sets one:
            // without cudaSetDevice a reset there returns at once and
            // releases nothing (0.2-0.5 ms on an H200 host, the exit as dear).
            cudaError_t e = cudaSuccess;
            std::thread t([&reset_ms, &e, r0] {
                e = cudaSetDevice(0);
                if (e == cudaSuccess) e = cudaDeviceReset();
                reset_ms = ms_since(r0);
            });
            work_ms = work();
            t.join();
            if (e != cudaSuccess) std::printf("(reset: %s) ", cudaGetErrorString(e));
        }
        std::printf("%s reset_ms %.1f ", mode.c_str(), reset_ms);
    } else {
        const auto s0 = std::chrono::steady_clock::now();
        cudaFree(nullptr);
        start_ms = ms_since(s0);
        work_ms = work();
        if (mode == "buffers" || mode == "freed") {
            void *d = nullptr, *h = nullptr;
            cudaMalloc(&d, std::size_t(256) << 20);
            cudaMallocHost(&h, std::size_t(64) << 20);
            std::memset(h, 0, std::size_t(64) << 20);
            cudaMemcpy(d, h, std::size_t(64) << 20, cudaMemcpyHostToDevice);
            if (mode == "freed") {
                cudaFree(d);
                cudaFreeHost(h);
            }
        }
    }
    std::printf("%s work_ms %.1f start_or_wait_ms %.1f main_ms %.1f\n", mode.c_str(), work_ms, start_ms, ms_since(t0));
    return 0;
}
