// detail/nccl.cuh — the few NCCL calls a Region over several GPUs makes to
// exchange halo rows, loaded from libnccl.so.2 when such a region first
// runs. Loading at run time keeps the header-only library free of a build
// dependency: a program that runs on one GPU needs no NCCL at all, and one
// that runs on several needs only the shared library (CUDA toolkit, Debian's
// libnccl2, or the path in RECIPE_NCCL).
//
// The declarations below are NCCL 2's stable C ABI (nccl.h): an opaque
// communicator, int results, ncclInt8 = 0.
#pragma once

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "recipe/error.cuh"

namespace recipe::detail {

class Nccl {
public:
    using Comm = struct ncclComm*;

    // The library, loaded once per process; throws recipe::Error when it is
    // not there.
    static Nccl& get() {
        static Nccl nccl;
        if (!nccl.handle_) throw Error("recipe: a Region over several GPUs exchanges halos with NCCL: " + nccl.error_);
        return nccl;
    }

    // One communicator per GPU for GPUs 0..n-1 (ranks = device numbers),
    // made once per process and count (ncclCommInitAll) and kept until exit.
    const std::vector<Comm>& comms(int n) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (static_cast<int>(comms_.size()) <= n) comms_.resize(static_cast<std::size_t>(n) + 1);
        std::vector<Comm>& c = comms_[static_cast<std::size_t>(n)];
        if (c.empty()) {
            std::vector<Comm> made(static_cast<std::size_t>(n), nullptr);
            std::vector<int> devices(static_cast<std::size_t>(n));
            for (int d = 0; d < n; ++d) devices[static_cast<std::size_t>(d)] = d;
            check_nccl(comm_init_all_(made.data(), n, devices.data()), "ncclCommInitAll");
            connect_neighbours(made);
            c = std::move(made);
        }
        return c;
    }

    void group_start() { check_nccl(group_start_(), "ncclGroupStart"); }
    void group_end() { check_nccl(group_end_(), "ncclGroupEnd"); }
    void send(const void* data, std::size_t bytes, int peer, Comm comm, cudaStream_t stream) {
        check_nccl(send_(data, bytes, kInt8, peer, comm, stream), "ncclSend");
    }
    void recv(void* data, std::size_t bytes, int peer, Comm comm, cudaStream_t stream) {
        check_nccl(recv_(data, bytes, kInt8, peer, comm, stream), "ncclRecv");
    }

    ~Nccl() {
        // The communicators hold device memory: freed at exit, each on its GPU.
        for (std::vector<Comm>& c : comms_)
            for (std::size_t d = 0; d < c.size(); ++d) {
                cudaSetDevice(static_cast<int>(d));
                if (c[d] && comm_destroy_) comm_destroy_(c[d]);
            }
    }

private:
    // NCCL connects two ranks at their first send/recv; on 2 H200s that cost
    // a region's first exchange 40-50 ms. One small exchange between every
    // pair of neighbours (the pairs a region's halos travel between) pays it
    // here, where the start-up thread makes the communicators.
    void connect_neighbours(const std::vector<Comm>& comms) {
        const int n = static_cast<int>(comms.size());
        std::vector<void*> buffers(comms.size(), nullptr);
        std::vector<cudaStream_t> streams(comms.size(), nullptr);
        const auto where = [] { return std::string("recipe: connecting NCCL's neighbours"); };
        int current = 0;
        check(cudaGetDevice(&current), "cudaGetDevice", where);
        for (int d = 0; d < n; ++d) {
            check(cudaSetDevice(d), "cudaSetDevice", where);
            check(cudaMalloc(&buffers[static_cast<std::size_t>(d)], 4 * kProbe), "cudaMalloc", where);
            check(cudaStreamCreateWithFlags(&streams[static_cast<std::size_t>(d)], cudaStreamNonBlocking),
                  "cudaStreamCreateWithFlags", where);
        }
        group_start();
        for (int d = 0; d < n; ++d) {
            char* b = static_cast<char*>(buffers[static_cast<std::size_t>(d)]);
            const Comm c = comms[static_cast<std::size_t>(d)];
            const cudaStream_t s = streams[static_cast<std::size_t>(d)];
            if (d > 0) {
                send(b, kProbe, d - 1, c, s);
                recv(b + kProbe, kProbe, d - 1, c, s);
            }
            if (d + 1 < n) {
                send(b + 2 * kProbe, kProbe, d + 1, c, s);
                recv(b + 3 * kProbe, kProbe, d + 1, c, s);
            }
        }
        group_end();
        for (int d = 0; d < n; ++d) {
            check(cudaSetDevice(d), "cudaSetDevice", where);
            check(cudaStreamSynchronize(streams[static_cast<std::size_t>(d)]), "cudaStreamSynchronize", where);
            cudaStreamDestroy(streams[static_cast<std::size_t>(d)]);
            cudaFree(buffers[static_cast<std::size_t>(d)]);
        }
        check(cudaSetDevice(current), "cudaSetDevice", where);
    }

    static constexpr std::size_t kProbe = 256;
    static constexpr int kInt8 = 0;  // ncclInt8
    Nccl() {
        const char* path = std::getenv("RECIPE_NCCL");
        handle_ = dlopen(path && *path ? path : "libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
        if (!handle_) {
            const char* e = dlerror();
            error_ = std::string("cannot load ") + (path && *path ? path : "libnccl.so.2") + " (" + (e ? e : "?") +
                     "); install NCCL or set RECIPE_NCCL to the library's path";
            return;
        }
        bool ok = load(&comm_init_all_, "ncclCommInitAll") && load(&comm_destroy_, "ncclCommDestroy") &&
                  load(&group_start_, "ncclGroupStart") && load(&group_end_, "ncclGroupEnd") &&
                  load(&send_, "ncclSend") && load(&recv_, "ncclRecv") && load(&error_string_, "ncclGetErrorString");
        if (!ok) {
            dlclose(handle_);
            handle_ = nullptr;
        }
    }

    template <class F>
    bool load(F* f, const char* name) {
        *f = reinterpret_cast<F>(dlsym(handle_, name));
        if (!*f) error_ = std::string("the NCCL library has no ") + name + " (NCCL 2.7 or later is needed)";
        return *f != nullptr;
    }

    void check_nccl(int result, const char* call) const {
        if (result != 0)
            throw Error(std::string("recipe: ") + call + " failed: " + (error_string_ ? error_string_(result) : "?") +
                        " (NCCL error " + std::to_string(result) + ")");
    }

    void* handle_ = nullptr;
    std::string error_;
    std::mutex mutex_;
    std::vector<std::vector<Comm>> comms_;
    int (*comm_init_all_)(Comm*, int, const int*) = nullptr;
    int (*comm_destroy_)(Comm) = nullptr;
    int (*group_start_)() = nullptr;
    int (*group_end_)() = nullptr;
    int (*send_)(const void*, std::size_t, int, int, Comm, cudaStream_t) = nullptr;
    int (*recv_)(void*, std::size_t, int, int, Comm, cudaStream_t) = nullptr;
    const char* (*error_string_)(int) = nullptr;
};

}  // namespace recipe::detail
