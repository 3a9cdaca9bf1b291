// first_copy.cu — what a process's first copies and launch cost after CUDA's
// start-up, by how the start-up was done: the context created on this
// thread or on another one (as recipe::EarlyStart does), the pinned block
// allocated and touched there, and a pause between start-up and the copies.
// Prints one line per copy: its kind, its index in the process, its ms.
// usage: first_copy MODE PAUSE_MS    MODE: here | thread
//   nvcc -O2 -std=c++17 -arch=native bench/device/first_copy.cu -o first_copy
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

__global__ void scale(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 1.5f;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "here";
    const double pause_ms = argc > 2 ? std::atof(argv[2]) : 0;
    const std::size_t bytes = std::size_t(8) << 20;
    char* h = nullptr;
    char* d = nullptr;
    cudaStream_t s{};
    const auto t0 = std::chrono::steady_clock::now();
    auto start = [&] {
        cudaFree(nullptr);
        cudaMallocHost(&h, 2 * bytes);
        std::memset(h, 1, 2 * bytes);
        cudaMalloc(&d, 2 * bytes);
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    };
    if (mode == "thread") {
        std::thread t(start);
        t.join();
    } else {
        start();
    }
    std::printf("startup %.3f\n", ms_since(t0));
    if (pause_ms > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(pause_ms));
    for (int k = 0; k < 3; ++k) {
        auto t = std::chrono::steady_clock::now();
        cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s);
        cudaStreamSynchronize(s);
        std::printf("h2d %d %.3f\n", k, ms_since(t));
        t = std::chrono::steady_clock::now();
        scale<<<(bytes / 4 + 255) / 256, 256, 0, s>>>(reinterpret_cast<float*>(d), static_cast<int>(bytes / 4));
        cudaStreamSynchronize(s);
        std::printf("kernel %d %.3f\n", k, ms_since(t));
        t = std::chrono::steady_clock::now();
        cudaMemcpyAsync(h + bytes, d, bytes, cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s);
        std::printf("d2h %d %.3f\n", k, ms_since(t));
    }
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) std::printf("error %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
