// detail/resources.cuh — owners of the CUDA resources a run uses (device
// memory, pinned host memory, streams, events, host registrations), so that
// an exception half-way through a run releases everything. Destructors never
// throw: a failing free after a failure would hide the first error.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "recipe/error.cuh"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace recipe::detail {

// One cudaMalloc holding several buffers, each 256-byte aligned.
class DeviceBlock {
public:
    DeviceBlock() = default;
    DeviceBlock(const DeviceBlock&) = delete;
    DeviceBlock& operator=(const DeviceBlock&) = delete;
    ~DeviceBlock() {
        if (base_) cudaFree(base_);
    }
    // Holds at least `bytes` after the call: a block already as large is
    // kept (a pooled block reused by the next run), a smaller one replaced.
    template <class Context>
    void allocate(std::size_t bytes, const Context& where) {
        if (bytes == 0 || bytes <= bytes_) return;
        release(where);
        check(cudaMalloc(&base_, bytes), "cudaMalloc", where);
        bytes_ = bytes;
    }
    char* base() const { return static_cast<char*>(base_); }
    std::size_t bytes() const { return bytes_; }
    template <class Context>
    void release(const Context& where) {
        void* p = base_;
        base_ = nullptr;
        bytes_ = 0;
        if (p) check(cudaFree(p), "cudaFree", where);
    }
    void swap(DeviceBlock& other) noexcept {
        std::swap(base_, other.base_);
        std::swap(bytes_, other.bytes_);
    }

private:
    void* base_ = nullptr;
    std::size_t bytes_ = 0;
};

// One page-aligned host block holding every staging buffer, page-locked with
// cudaHostRegister: on an H200 host registering 10 MB costs ~0.4 ms where
// cudaMallocHost costs ~3 ms (recipe-profile's hostRegister / mallocFreeHost).
// Registering fresh memory makes the kernel fault in and zero every page on
// the one calling thread, so the block is first touched by `touch` (the
// staging threads, in parallel); blocks of 4 MiB and more are 2 MiB aligned
// and offered to transparent huge pages, which cuts the faults 512-fold.
class PinnedBlock {
public:
    static constexpr std::size_t kHuge = std::size_t(2) << 20;

    PinnedBlock() = default;
    PinnedBlock(const PinnedBlock&) = delete;
    PinnedBlock& operator=(const PinnedBlock&) = delete;
    ~PinnedBlock() {
        if (registered_) cudaHostUnregister(base_);
        std::free(base_);
    }
    // touch(char* first, std::size_t bytes) writes every page of the block.
    // Holds at least `bytes` after the call (see DeviceBlock::allocate).
    template <class Context, class Touch>
    void allocate(std::size_t bytes, const Context& where, const Touch& touch) {
        if (bytes == 0 || bytes <= bytes_) return;
        release(where);
        const std::size_t align = bytes >= 2 * kHuge ? kHuge : 4096;
        const std::size_t size = (bytes + align - 1) / align * align;
        base_ = std::aligned_alloc(align, size);
        if (!base_) throw Error("recipe: out of host memory for " + std::to_string(size) + " bytes of staging buffers in " + where());
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (align == kHuge) madvise(base_, size, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
        touch(static_cast<char*>(base_), size);
        check(cudaHostRegister(base_, size, cudaHostRegisterDefault), "cudaHostRegister", where);
        registered_ = true;
        bytes_ = size;
    }
    void swap(PinnedBlock& other) noexcept {
        std::swap(base_, other.base_);
        std::swap(registered_, other.registered_);
        std::swap(bytes_, other.bytes_);
    }
    char* base() const { return static_cast<char*>(base_); }
    std::size_t bytes() const { return bytes_; }
    template <class Context>
    void release(const Context& where) {
        void* p = base_;
        const bool registered = registered_;
        base_ = nullptr;
        registered_ = false;
        bytes_ = 0;
        if (registered) {
            const cudaError_t status = cudaHostUnregister(p);
            std::free(p);
            check(status, "cudaHostUnregister", where);
        } else {
            std::free(p);
        }
    }

private:
    void* base_ = nullptr;
    bool registered_ = false;
    std::size_t bytes_ = 0;
};

// Hands out aligned offsets inside a block before it is allocated.
class Carve {
public:
    std::size_t take(std::size_t bytes) {
        const std::size_t at = size_;
        size_ += (bytes + 255) / 256 * 256;
        return at;
    }
    std::size_t size() const { return size_; }

private:
    std::size_t size_ = 0;
};

class Streams {
public:
    Streams() = default;
    Streams(const Streams&) = delete;
    Streams& operator=(const Streams&) = delete;
    ~Streams() {
        for (cudaStream_t s : streams_) cudaStreamDestroy(s);
    }
    // At least n streams after the call (pooled streams are reused).
    template <class Context>
    void create(int n, const Context& where) {
        for (int i = static_cast<int>(streams_.size()); i < n; ++i) {
            cudaStream_t s = nullptr;
            check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", where);
            streams_.push_back(s);
        }
    }
    template <class Context>
    void release(const Context& where) {
        std::vector<cudaStream_t> all;
        all.swap(streams_);
        for (cudaStream_t s : all) check(cudaStreamDestroy(s), "cudaStreamDestroy", where);
    }
    cudaStream_t operator[](std::size_t i) const { return streams_[i]; }
    std::size_t size() const { return streams_.size(); }
    void swap(Streams& other) noexcept { streams_.swap(other.streams_); }

private:
    std::vector<cudaStream_t> streams_;
};

class Events {
public:
    Events() = default;
    Events(const Events&) = delete;
    Events& operator=(const Events&) = delete;
    ~Events() {
        for (cudaEvent_t e : events_) cudaEventDestroy(e);
    }
    // timing: events that can be timed (RECIPE_REPORT); else the cheaper kind.
    template <class Context>
    void create(std::size_t n, bool timing, const Context& where) {
        events_.reserve(events_.size() + n);
        for (std::size_t i = 0; i < n; ++i) {
            cudaEvent_t e = nullptr;
            check(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming),
                  "cudaEventCreateWithFlags", where);
            events_.push_back(e);
        }
    }
    template <class Context>
    void release(const Context& where) {
        std::vector<cudaEvent_t> all;
        all.swap(events_);
        for (cudaEvent_t e : all) check(cudaEventDestroy(e), "cudaEventDestroy", where);
    }
    cudaEvent_t operator[](std::size_t i) const { return events_[i]; }
    std::size_t size() const { return events_.size(); }
    void swap(Events& other) noexcept { events_.swap(other.events_); }

private:
    std::vector<cudaEvent_t> events_;
};

// cudaHostRegister for the run. Memory that is already pinned or registered
// is left alone. Registration works on whole pages, and small arrays from
// malloc often share a page, so the arrays' page ranges are merged first and
// each merged range is registered once (a second registration of a page fails).
class HostRegistrations {
public:
    HostRegistrations() = default;
    HostRegistrations(const HostRegistrations&) = delete;
    HostRegistrations& operator=(const HostRegistrations&) = delete;
    ~HostRegistrations() {
        for (void* p : registered_) cudaHostUnregister(p);
    }

    // Remembers an array to register; register_all() does it.
    void add(void* host, std::size_t bytes) {
        if (!host || bytes == 0) return;
        cudaPointerAttributes attr{};
        if (cudaPointerGetAttributes(&attr, host) == cudaSuccess && attr.type == cudaMemoryTypeHost) return;
        const std::uintptr_t page = 4096;
        const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(host) / page * page;
        const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(host) + bytes + page - 1) / page * page;
        ranges_.push_back({begin, end});
    }

    // flags: cudaHostRegisterPortable where several GPUs' copies use the
    // same registration (a call over several GPUs registers once for all).
    template <class Context>
    void register_all(const Context& where, unsigned flags = cudaHostRegisterDefault) {
        std::sort(ranges_.begin(), ranges_.end());
        std::vector<std::pair<std::uintptr_t, std::uintptr_t>> merged;
        for (const auto& r : ranges_) {
            if (!merged.empty() && r.first <= merged.back().second)
                merged.back().second = std::max(merged.back().second, r.second);
            else
                merged.push_back(r);
        }
        ranges_.clear();
        for (const auto& r : merged) {
            void* p = reinterpret_cast<void*>(r.first);
            check(cudaHostRegister(p, r.second - r.first, flags), "cudaHostRegister", where);
            registered_.push_back(p);
        }
    }

    // Unregisters, checking each call (the normal end of a run).
    template <class Context>
    void release(const Context& where) {
        while (!registered_.empty()) {
            void* p = registered_.back();
            registered_.pop_back();
            check(cudaHostUnregister(p), "cudaHostUnregister", where);
        }
    }

private:
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges_;
    std::vector<void*> registered_;
};

}  // namespace recipe::detail
