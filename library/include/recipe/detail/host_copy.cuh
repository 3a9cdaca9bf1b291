// detail/host_copy.cuh — host-side memcpy of tile boxes into and out of
// pinned staging buffers (HostMemory::Staged, Scheme::Buffered), spread over
// a few threads with streaming stores: one thread copies pageable memory at
// ~12 GB/s on an H200's host, eight at ~41 GB/s (MEASURED.md), while the PCIe
// link runs at ~55.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "recipe/tile_geometry.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace recipe::detail {

// Workers that run one job at a time, the calling thread taking part. They
// spin between the jobs of a run rather than sleep: a tile's packing takes
// tens of microseconds, about what waking sleeping threads costs. Between
// runs they are parked (asleep on a condition variable, costing the
// program's own threads nothing) and kept in the pool (detail/pool.cuh), so
// a later run does not create them again. They are born parked: the
// start-up thread (recipe/start.cuh) makes them long before the first run,
// and spinning meanwhile took a core each from the program's own work (on a
// 16-core H100 host, 15 spinning workers stalled the first run's staging by
// 14-40 ms).
class CopyThreads {
public:
    explicit CopyThreads(int threads) {
        for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
    }
    CopyThreads(const CopyThreads&) = delete;
    CopyThreads& operator=(const CopyThreads&) = delete;
    ~CopyThreads() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_.store(true, std::memory_order_release);
        }
        wake_.notify_all();
        for (auto& w : workers_) w.join();
    }
    // The run is over: the workers sleep until the next job.
    void park() { parked_.store(true, std::memory_order_release); }
    int count() const { return static_cast<int>(workers_.size()) + 1; }

    // Runs job(i, n) for i in [0, n) with n = count(), and returns when all did.
    void run(const std::function<void(int, int)>& job) {
        const int n = count();
        if (n == 1) {
            job(0, 1);
            return;
        }
        if (parked_.load(std::memory_order_acquire)) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                parked_.store(false, std::memory_order_release);
            }
            wake_.notify_all();
        }
        job_ = &job;
        pending_.store(n - 1, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
        job(0, n);
        while (pending_.load(std::memory_order_acquire) != 0) pause();
        job_ = nullptr;
    }

private:
    static void pause() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#else
        std::this_thread::yield();
#endif
    }
    void work(int index) {
        std::uint64_t seen = 0;
        for (;;) {
            std::uint64_t g;
            while ((g = generation_.load(std::memory_order_acquire)) == seen) {
                if (stop_.load(std::memory_order_acquire)) return;
                if (parked_.load(std::memory_order_acquire)) {
                    std::unique_lock<std::mutex> lock(mutex_);
                    wake_.wait(lock, [this] {
                        return stop_.load(std::memory_order_acquire) || !parked_.load(std::memory_order_acquire);
                    });
                    continue;
                }
                pause();
            }
            seen = g;
            (*job_)(index, count());
            pending_.fetch_sub(1, std::memory_order_acq_rel);
        }
    }

    std::vector<std::thread> workers_;
    const std::function<void(int, int)>* job_ = nullptr;
    std::atomic<int> pending_{0};
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<bool> stop_{false};
    std::atomic<bool> parked_{true};
    std::mutex mutex_;
    std::condition_variable wake_;
};

// One contiguous run of bytes to move.
struct Segment {
    char* dst;
    const char* src;
    std::size_t bytes;
};

// The rows of a Copy as segments; to_stage: host array -> staging buffer
// (the Copy's device side is the staging buffer).
inline void append_segments(const Copy& c, char* host, char* stage, bool to_stage, std::vector<Segment>* out) {
    for (std::int64_t z = 0; z < c.depth; ++z)
        for (std::int64_t y = 0; y < c.height; ++y) {
            char* h = host + c.host_offset + z * c.host_slice_pitch + y * c.host_pitch;
            char* s = stage + c.device_offset + z * c.device_slice_pitch + y * c.device_pitch;
            out->push_back(to_stage ? Segment{s, h, static_cast<std::size_t>(c.width_bytes)}
                                    : Segment{h, s, static_cast<std::size_t>(c.width_bytes)});
        }
}

// Segments that runs of segments in source order (each run sorted, as a
// box's rows are) interleave into: merged into one source order, and those
// that continue each other in both memories joined. A region's frame (the
// boxes around what its first launch writes: recipe::boxes_outside) ends
// every row with its last point and starts the next with its first; joined,
// the two are one segment. `runs` holds where each run begins.
inline void join_segments(std::vector<Segment>* segments, const std::vector<std::size_t>& runs) {
    auto by_src = [](const Segment& a, const Segment& b) { return a.src < b.src; };
    for (std::size_t r = 1; r < runs.size(); ++r)
        std::inplace_merge(segments->begin(), segments->begin() + static_cast<std::ptrdiff_t>(runs[r]),
                           r + 1 < runs.size() ? segments->begin() + static_cast<std::ptrdiff_t>(runs[r + 1])
                                               : segments->end(),
                           by_src);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < segments->size(); ++i) {
        const Segment& s = (*segments)[i];
        if (kept > 0) {
            Segment& last = (*segments)[kept - 1];
            if (last.src + last.bytes == s.src && last.dst + last.bytes == s.dst) {
                last.bytes += s.bytes;
                continue;
            }
        }
        (*segments)[kept++] = s;
    }
    segments->resize(kept);
}

// memcpy with non-temporal (streaming) stores: the destination's lines are
// written without being read into the cache first. A staged tile's
// destination is either the staging buffer, which the copy engine reads
// next, or the user's array, far larger than any cache: neither is read
// again by the host soon. On an H200's host, packing 4 MiB tiles on 8
// threads while both copy directions run went from 16.8 to 23.2 GB/s
// (bench/gpu/link_bench.cu). Only whole 64-byte lines are streamed: a line
// written partly by streaming stores and partly by ordinary ones (the end of
// the previous row, packed right before it) is flushed in pieces, and with
// 1.6 KB rows that made packing twice as slow. The caller fences (sfence)
// before it hands the bytes on. Without SSE2 it is memcpy.
inline void stream_copy(char* dst, const char* src, std::size_t n) {
#if defined(__SSE2__)
    std::size_t head = (64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64;
    if (head > n) head = n;
    std::memcpy(dst, src, head);
    dst += head;
    src += head;
    n -= head;
    std::size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
        const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
        _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
    }
    std::memcpy(dst + i, src + i, n - i);
#else
    std::memcpy(dst, src, n);
#endif
}

// Orders a thread's streaming stores before what it does next (here: telling
// the issuing thread that its share is copied).
inline void stream_fence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

// Makes the pages of [begin, end) present and writable without changing a
// byte (Linux 5.14's MADV_POPULATE_WRITE), on the calling thread; the range
// is rounded out to whole pages. False where the kernel cannot (older than
// 5.14, not Linux, memory it refuses): the writes then fault as before.
inline bool populate_write(const char* begin, const char* end) {
#if defined(__linux__)
    constexpr std::uintptr_t kPage = 4096;
#if defined(MADV_POPULATE_WRITE)
    constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
    constexpr int kPopulateWrite = 23;  // <linux/mman.h> since 5.14
#endif
    if (begin >= end) return true;
    const std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(begin) / kPage * kPage;
    const std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(end) + kPage - 1) / kPage * kPage;
    return madvise(reinterpret_cast<void*>(lo), hi - lo, kPopulateWrite) == 0;
#else
    (void)begin;
    (void)end;
    return false;
#endif
}

// Copies the segments, splitting the work evenly over the threads (a single
// large row is split too): where rows are short, each segment weighs its
// bytes plus kRowReachBytes (tile_geometry.h), so
// that many short rows (a region's frame: a few bytes at the ends of every
// row) are shared out as widely as few long ones. Small jobs stay on the
// calling thread. Jobs of a MiB or more stream their rows of 4 KiB and
// more: they would only push the cache's contents out. Shorter rows are
// copied with memcpy: their partial lines at both ends would be a large
// share of what they stream.
inline void copy_segments(const std::vector<Segment>& segments, CopyThreads& threads) {
    std::size_t bytes = 0;
    for (const Segment& s : segments) bytes += s.bytes;
    if (bytes == 0) return;
    // Rows of 4 KiB and more on average: the bytes alone, split at whole
    // pages of the packed side as before.
    const std::size_t kSegmentWeight = bytes / segments.size() < 4096 ? static_cast<std::size_t>(kRowReachBytes) : 0;
    const std::size_t total = bytes + kSegmentWeight * segments.size();
    constexpr std::size_t kStreamFrom = std::size_t(1) << 20, kStreamRowsFrom = 4096;
    const bool streaming = bytes >= kStreamFrom;
    // The bytes whose weight lies in [from, to): a segment's own weight
    // precedes its bytes, so each byte is copied by exactly one range.
    auto copy_range = [&](std::size_t from, std::size_t to) {
        std::size_t at = 0;
        for (const Segment& s : segments) {
            const std::size_t first = at + kSegmentWeight;  // where its bytes begin
            const std::size_t lo = std::max(from, first), hi = std::min(to, first + s.bytes);
            if (lo < hi) {
                if (streaming && s.bytes >= kStreamRowsFrom)
                    stream_copy(s.dst + (lo - first), s.src + (lo - first), hi - lo);
                else std::memcpy(s.dst + (lo - first), s.src + (lo - first), hi - lo);
            }
            at = first + s.bytes;
            if (at >= to) break;
        }
        if (streaming) stream_fence();
    };
    // Below ~32 KB a thread's share costs more to hand out than to copy.
    constexpr std::size_t kMinPerThread = 32 * 1024;
    const std::size_t parts = std::min<std::size_t>(static_cast<std::size_t>(threads.count()),
                                                    std::max<std::size_t>(1, total / kMinPerThread));
    if (parts == 1) {
        copy_range(0, total);
        return;
    }
    threads.run([&](int i, int) {
        if (static_cast<std::size_t>(i) >= parts) return;
        const std::size_t chunk = (total + parts - 1) / parts;
        // page-aligned chunk edges keep threads off each other's cache lines
        const std::size_t step = (chunk + 4095) / 4096 * 4096;
        const std::size_t from = std::min(total, step * static_cast<std::size_t>(i));
        const std::size_t to = std::min(total, from + step);
        if (from < to) copy_range(from, to);
    });
}

// Writes one byte in every page of [block, block + bytes), the pages split
// evenly over the threads, so that the kernel faults them in (and zeroes
// them) on all threads at once rather than inside cudaHostRegister.
inline void touch_pages(char* block, std::size_t bytes, CopyThreads& threads) {
    constexpr std::size_t kPage = 4096;
    const std::size_t pages = (bytes + kPage - 1) / kPage;
    threads.run([&](int i, int n) {
        const std::size_t from = pages * static_cast<std::size_t>(i) / static_cast<std::size_t>(n);
        const std::size_t to = pages * static_cast<std::size_t>(i + 1) / static_cast<std::size_t>(n);
        for (std::size_t p = from; p < to; ++p) block[p * kPage] = 0;
    });
}

// Makes the pages of [begin, begin + bytes) present and writable without
// changing a byte (populate_write), the pages split over the threads. For
// the arrays a staged run writes back, before its first tile:
// - pages the program never touched (a malloc'd output) are otherwise
//   faulted in by the unpacking, one write at a time: on an H200's host, 6
//   threads filled 1 GiB of fresh pages tile by tile at 7.4 GB/s, and at 14.9
//   populating them first, pages present 98 (bench/device/fresh_pages.cpp,
//   4 MiB tiles; populating each tile's share just before copying it gained
//   nothing: 7.8);
// - pages read before they are written (an inout output, a region's array
//   copied in and out, calloc'd or initialised on some points only) map the
//   shared zero page when read, and each later write then replaces that
//   mapping, a copy-on-write fault that must flush every other core's TLB
//   entry while the staging threads run on a dozen cores: poisson2d's first
//   call (25 MB staged) staged for 17.0 ms on an H200 without this and 2.1
//   ms with it, medians of 5 processes each.
// Returns false where the kernel cannot (older than 5.14, not Linux, memory
// it refuses): the copies then fault as before.
inline bool prefault_writable(char* begin, std::size_t bytes, CopyThreads& threads) {
    constexpr std::size_t kPage = 4096;
    if (bytes == 0) return true;
    const std::size_t pages = (bytes + kPage - 1) / kPage;
    std::atomic<bool> ok{true};
    threads.run([&](int i, int n) {
        const std::size_t from = pages * static_cast<std::size_t>(i) / static_cast<std::size_t>(n) * kPage;
        const std::size_t to = std::min(bytes, pages * static_cast<std::size_t>(i + 1) / static_cast<std::size_t>(n) * kPage);
        if (from < to && !populate_write(begin + from, begin + to)) ok.store(false, std::memory_order_relaxed);
    });
    return ok.load();
}

// The host byte ranges a process's runs have already made writable
// (prefault_writable), so that only an array's first run pays the page walk
// (walking pages already present cost as much as populating fresh ones: on
// a host of 4 H200s, 7 ms for each GPU's 68 MB of a region's arrays that the
// nest before it had just written). One registry for the process, since the
// pages are the process's whatever GPU a run uses, and ranges that overlap
// or touch are merged: a nest over 4 GPUs leaves its arrays as 4 slabs, and
// the region after it holds each GPU's slab plus its neighbours' halo rows,
// which no one slab contains. A range freed and allocated again at the same
// address is taken as done: its pages then fault as they would without
// this, a cost in time, never in results. Keeps at most kMax disjoint
// ranges (dropping the lowest first).
class WritableSpans {
public:
    bool contains(const char* begin, std::size_t bytes) const {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto lo = reinterpret_cast<std::uintptr_t>(begin), hi = lo + bytes;
        for (const auto& s : spans_)
            if (s.first <= lo && hi <= s.second) return true;
        return false;
    }
    void add(const char* begin, std::size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto lo = reinterpret_cast<std::uintptr_t>(begin), hi = lo + bytes;
        // spans_ stays sorted and disjoint: absorb every span that overlaps or touches.
        auto it = spans_.begin();
        while (it != spans_.end() && it->second < lo) ++it;
        while (it != spans_.end() && it->first <= hi) {
            lo = std::min(lo, it->first);
            hi = std::max(hi, it->second);
            it = spans_.erase(it);
        }
        spans_.insert(it, {lo, hi});
        if (spans_.size() > kMax) spans_.erase(spans_.begin());
    }
    std::size_t size() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return spans_.size();
    }

private:
    static constexpr std::size_t kMax = 64;
    mutable std::mutex mutex_;
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> spans_;
};

// The process's registry (one for every GPU's runs).
inline WritableSpans& writable_spans() {
    static WritableSpans spans;
    return spans;
}

}  // namespace recipe::detail
