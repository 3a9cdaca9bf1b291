// copy_floor.cu — the hardware's floor for a region's copies on this GPU:
// one cudaMemcpy of N bytes host to device and one device to host, between
// page-locked host memory and the device (the fastest either direction
// goes), the median of 7 after one discarded. Prints "h2d_ms d2h_ms".
//   copy_floor BYTES_IN BYTES_OUT
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

static double median_ms(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    std::vector<double> t;
    for (int i = 0; i < 8; ++i) {
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        cudaEventRecord(a);
        cudaMemcpy(dst, src, bytes, kind);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        if (i > 0) t.push_back(ms);
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: copy_floor BYTES_IN BYTES_OUT\n");
        return 2;
    }
    const std::size_t in = std::strtoull(argv[1], nullptr, 10), out = std::strtoull(argv[2], nullptr, 10);
    const std::size_t n = std::max<std::size_t>(1, std::max(in, out));
    void *host = nullptr, *dev = nullptr;
    if (cudaMallocHost(&host, n) != cudaSuccess || cudaMalloc(&dev, n) != cudaSuccess) {
        std::fprintf(stderr, "copy_floor: allocation of %zu bytes failed\n", n);
        return 1;
    }
    std::fill(static_cast<char*>(host), static_cast<char*>(host) + n, 1);
    const double h2d = in ? median_ms(dev, host, in, cudaMemcpyHostToDevice) : 0;
    const double d2h = out ? median_ms(host, dev, out, cudaMemcpyDeviceToHost) : 0;
    std::printf("%.4f %.4f\n", h2d, d2h);
    return 0;
}
