// detail/engine.cuh — the machinery every scheme shares: the arrays of a
// run and where each tile keeps them on the device, issuing the Copy
// descriptors of tile_geometry.h (directly or through pinned staging
// buffers), launching a tile, events, measuring and the RECIPE_REPORT table.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "recipe/config.cuh"
#include "recipe/detail/host_copy.cuh"
#include "recipe/detail/pool.cuh"
#include "recipe/detail/report_level.cuh"
#include "recipe/detail/resources.cuh"
#include "recipe/start.cuh"
#include "recipe/error.cuh"
#include "recipe/tile.cuh"
#include "recipe/tile_geometry.h"
#include "recipe/view.cuh"

namespace recipe::detail {

inline std::string box_text(const Box& b) {
    std::string s;
    for (int d = 0; d < 3; ++d) {
        if (d) s += "x";
        s += "[" + std::to_string(b.begin[d]) + "," + std::to_string(b.end[d]) + ")";
    }
    return s;
}

inline std::string shape_text(const Index3& e) {
    return std::to_string(e[0]) + "x" + std::to_string(e[1]) + "x" + std::to_string(e[2]);
}

// A call over several GPUs runs one engine per GPU and reports once for
// them all (detail/devices.cuh): engines made on a thread that set this
// measure as asked but print nothing.
inline bool& engines_quiet() {
    thread_local bool quiet = false;
    return quiet;
}

// RECIPE_REPORT=time: `recipe: time NAME MEASURED_MS STARTUP_MS PREDICTED_MS`
// (the prediction for this call: the first call's, or a later one's).
inline void print_time_line(std::string name, const Measured& m, const Predicted& p, bool first_run) {
    const double predicted = first_run && p.first >= 0 ? p.first : p.total;
    for (char& c : name)
        if (c == ' ' || c == '\t' || c == '\n') c = '_';
    std::fprintf(stderr, "recipe: time %s %.3f %.3f %.3f\n", name.c_str(), m.total, m.startup, predicted);
}

// RECIPE_REPORT=1: the measured phases beside the predicted ones, under a
// first line that says how the call ran.
inline void print_phase_table(const std::string& title, const Measured& m, const Predicted& p, bool staging,
                              bool first_run) {
    std::fprintf(stderr, "recipe: %s\n", title.c_str());
    std::fprintf(stderr, "recipe:   %-8s %12s %14s\n", "phase", "measured ms", "predicted ms");
    auto row = [](const char* name, double measured, double predicted) {
        char pred[32] = "-";
        if (predicted >= 0) std::snprintf(pred, sizeof pred, "%.3f", predicted);
        std::fprintf(stderr, "recipe:   %-8s %12.3f %14s\n", name, measured, pred);
    };
    if (m.startup > 0) row("startup", m.startup, -1);
    row("alloc", m.alloc, p.alloc);
    row("h2d", m.h2d, p.h2d);
    row("kernel", m.kernel, p.kernel);
    row("d2h", m.d2h, p.d2h);
    if (staging) row("staging", m.staging, p.staging);
    if (staging && m.pages > 0.05) row("  pages", m.pages, -1);  // of staging: the output's pages made present
    row("total", m.total, first_run && p.first >= 0 ? p.first : p.total);
    std::fprintf(stderr, "recipe:   copies: %lld in (%lld bytes), %lld out (%lld bytes)\n",
                 static_cast<long long>(m.h2d_copies), static_cast<long long>(m.h2d_bytes),
                 static_cast<long long>(m.d2h_copies), static_cast<long long>(m.d2h_bytes));
}

using Clock = std::chrono::steady_clock;
inline double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

enum class Role { In, Out, InOut };

// One host array of the run, its element type erased.
struct ArrayDesc {
    char* host = nullptr;
    std::int64_t elem = 0;
    Halo halo;  // inputs only
    Role role = Role::In;
    const char* kind = "input";  // for messages
    int index = 0;               // among the inputs / outputs, for messages

    bool written_back = false;          // copied out to the host (an output, a region's array copied out)
    bool mapped = false;                // mapped, hybrid: the kernel uses host memory directly
    char* device_full = nullptr;        // naive, basic, iterate; the mapped pointer when mapped
    std::vector<char*> device_tile;     // scalable, buffered: one per stream
    std::vector<char*> stage;           // staging: one pinned buffer per stream
    // A region's array that its first launch writes here before anything
    // reads it (recipe::Resident::written_first): copy_in() leaves these
    // points out (empty: none).
    Box written_first{{0, 0, 0}, {0, 0, 0}};
};

// Where tile k keeps one array on the device.
struct Placement {
    char* device = nullptr;
    DeviceLayout layout;
};

template <class T>
InView<T> in_view(const Placement& p) {
    const std::int64_t origin[3] = {p.layout.origin[0], p.layout.origin[1], p.layout.origin[2]};
    return make_in_view(reinterpret_cast<const T*>(p.device), origin, p.layout.extents[0], p.layout.extents[1],
                        p.layout.extents[2]);
}

template <class T>
OutView<T> out_view(const Placement& p) {
    const std::int64_t origin[3] = {p.layout.origin[0], p.layout.origin[1], p.layout.origin[2]};
    return make_out_view(reinterpret_cast<T*>(p.device), origin, p.layout.extents[0], p.layout.extents[1],
                         p.layout.extents[2]);
}

inline Tile make_tile(const Box& core, std::int64_t index, std::int64_t count) {
    Tile t{};
    for (int d = 0; d < 3; ++d) {
        t.core.begin[d] = core.begin[d];
        t.core.end[d] = core.end[d];
    }
    t.index = index;
    t.count = count;
    return t;
}

// Event pairs around each phase of each tile, read after the run (measuring only).
struct PhaseEvents {
    enum { kStart, kInDone, kKernelStart, kKernelDone, kOutDone, kPerTile };
};

// When a call began, and the part of CUDA's start-up it waited for before
// making its engine (Engine::count_from, wait_for_startup).
struct CallStart {
    Clock::time_point began;
    double startup_ms = 0;
};

// Waits for CUDA's start-up (recipe/start.cuh), or does it when nothing
// began it; throws, naming the call (`where`), when it failed. Returns the
// milliseconds waited: a call counts them as its `startup` phase.
template <class Where>
double wait_for_startup(Where&& where) {
    cudaError_t started = cudaSuccess;
    const double waited = Startup::get().wait(&started);
    check(started, "CUDA start-up (cudaFree(0))", where);
    return waited;
}

class Engine {
public:
    enum class Layout { Full, TileBuffer, Compact };

    Engine(const Config& cfg, std::vector<ArrayDesc> arrays, bool force_full)
        : cfg_(cfg),
          arrays_(std::move(arrays)),
          t_start_(Clock::now()),
          report_level_(report_requested()),
          report_(report_level_ == ReportLevel::Full),
          measure_(cfg.measure || report_),
          quiet_(engines_quiet()) {
        validate();
        space_ = cfg_.iteration_space();
        const SchemeTraits& scheme = scheme_traits(cfg_.scheme);
        naive_ = !scheme.pipelined;
        Index3 tile = cfg_.tile;
        for (int d = 0; d < 3; ++d)
            if (naive_ || tile[d] <= 0 || tile[d] > space_.extent(d)) tile[d] = space_.extent(d);
        grid_ = std::make_unique<TileGrid>(cfg_.extents, tile, space_);
        const std::int64_t want_streams = scheme.stream_per_tile ? grid_->tile_count() : cfg_.streams;
        streams_n_ = naive_ ? 1 : static_cast<int>(std::min<std::int64_t>(want_streams, grid_->tile_count()));
        if (scheme.inputs == Residence::TileBuffers)
            layout_ = force_full ? Layout::Full : (scheme.packs_tiles ? Layout::Compact : Layout::TileBuffer);
        else
            layout_ = Layout::Full;
        if (!force_full)
            for (ArrayDesc& a : arrays_)
                a.mapped = (a.role == Role::In ? scheme.inputs : scheme.outputs) == Residence::HostMapped;
        staging_ = scheme.packs_tiles || cfg_.host == HostMemory::Staged;
        // Buffered packs on the host so that the device side is contiguous
        // whatever the copy method (thesis §6.2.3, buffered scheme).
        device_side_method_ = scheme.packs_tiles ? CopyMethod::Merged : cfg_.copy;
        pending_.resize(static_cast<std::size_t>(streams_n_));
        slot_used_.assign(static_cast<std::size_t>(streams_n_), false);
    }

    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    const TileGrid& grid() const { return *grid_; }
    const Box& space() const { return space_; }
    int stream_count() const { return streams_n_; }
    cudaStream_t stream(int s) const { return streams_[static_cast<std::size_t>(s)]; }
    std::vector<ArrayDesc>& arrays() { return arrays_; }
    bool measuring() const { return measure_; }
    bool staging() const { return staging_; }
    Layout layout() const { return layout_; }
    Measured& measured() { return measured_; }

    // ---- messages
    std::string nest() const { return cfg_.name.empty() ? std::string("recipe::run") : cfg_.name; }
    auto where() const {
        return [this] { return nest(); };
    }
    auto where_tile(std::int64_t k, int array = -1) const {
        return [this, k, array] {
            std::string s = nest() + ", tile " + std::to_string(k) + " of " + std::to_string(grid_->tile_count()) +
                            " (core " + box_text(grid_->core(k)) + ")";
            if (array >= 0) {
                const ArrayDesc& a = arrays_[static_cast<std::size_t>(array)];
                s += std::string(", ") + a.kind + " " + std::to_string(a.index);
            }
            return s;
        };
    }

    // A call that waited for CUDA's start-up before it made its engine (a
    // region, before its cudaGetDevice; a call with whole inputs, before
    // their copies: CUDA calls that would otherwise wait for it inside, where
    // no phase counts it) counts that wait and its time from when it began.
    void count_from(const CallStart& start) {
        t_start_ = start.began;
        startup_before_ = start.startup_ms;
    }

    // ---- setup: registration, allocations, streams, events
    void setup(std::int64_t timing_tiles) {
        // CUDA's start-up (recipe/start.cuh): waited for here, its own phase.
        measured_.startup = startup_before_ + wait_for_startup(where());
        const auto t0 = Clock::now();
        const std::int64_t total = cfg_.extents[0] * cfg_.extents[1] * cfg_.extents[2];
        // An error left by an unrelated earlier call would otherwise be
        // reported by this run's first launch check.
        cudaGetLastError();
        // What the last run left in the pool (detail/pool.cuh): blocks large
        // enough are kept below, smaller ones replaced.
        Pool& pool = Pool::get();
        pool_lock_ = std::unique_lock<std::mutex>(pool.mutex);
        // The nest's first call in the process (by its name; an unnamed run:
        // the process's first): its outputs' pages are fresh, as
        // Predicted::first prices them.
        const bool process_first = pool.runs++ == 0;
        first_run_ = cfg_.name.empty() ? process_first : pool.names.insert(cfg_.name).second;
        pool.trade(device_, pinned_, streams_, in_ready_, done_, join_);
        // Mapped arrays must be page-locked whatever the host mode says; the
        // other arrays then are too, since registration rounds to pages and a
        // copy from a range that is partly registered fails.
        bool any_mapped = false;
        for (const ArrayDesc& a : arrays_) any_mapped = any_mapped || a.mapped;
        if (cfg_.host == HostMemory::Register || (any_mapped && cfg_.host != HostMemory::Pinned))
            for (ArrayDesc& a : arrays_) registrations_.add(a.host, static_cast<std::size_t>(total * a.elem));
        registrations_.register_all(where());
        for (ArrayDesc& a : arrays_)
            if (a.mapped) {
                void* device_pointer = nullptr;
                check(cudaHostGetDevicePointer(&device_pointer, a.host, 0), "cudaHostGetDevicePointer",
                      [this, &a] { return nest() + ", " + a.kind + " " + std::to_string(a.index); });
                a.device_full = static_cast<char*>(device_pointer);
            }

        Carve device, pinned;
        std::vector<std::size_t> full_at(arrays_.size()), stage_at(arrays_.size() * streams_n_),
            tile_at(arrays_.size() * streams_n_);
        for (std::size_t i = 0; i < arrays_.size(); ++i) {
            const ArrayDesc& a = arrays_[i];
            if (a.mapped) continue;
            const std::int64_t tile_elems = buffer_elements(a);
            if (layout_ == Layout::Full) full_at[i] = device.take(static_cast<std::size_t>(total * a.elem));
            for (int s = 0; s < streams_n_; ++s) {
                if (layout_ != Layout::Full) tile_at[i * streams_n_ + s] = device.take(static_cast<std::size_t>(tile_elems * a.elem));
                if (staging_) stage_at[i * streams_n_ + s] = pinned.take(static_cast<std::size_t>(tile_elems * a.elem));
            }
        }
        if (cfg_.device_memory > 0 && device.size() > static_cast<std::size_t>(cfg_.device_memory))
            throw Error("recipe: " + nest() + ": needs " + std::to_string(device.size()) + " bytes of device memory; its Config allows " +
                        std::to_string(cfg_.device_memory) + " (device_memory): choose smaller tiles or a scheme that keeps fewer of them");
        device_.allocate(device.size(), where());
        if (staging_) {
            const int n = staging_thread_count(cfg_.host_threads);
            if (pool.threads && pool.threads->count() == n)
                threads_ = std::move(pool.threads);
            else
                threads_ = std::make_unique<CopyThreads>(n);
            pool.threads.reset();
        }
        pinned_.allocate(pinned.size(), where(), [this](char* block, std::size_t bytes) { touch_pages(block, bytes, *threads_); });
        for (std::size_t i = 0; i < arrays_.size(); ++i) {
            ArrayDesc& a = arrays_[i];
            if (a.mapped) continue;
            if (layout_ == Layout::Full) a.device_full = device_.base() + full_at[i];
            for (int s = 0; s < streams_n_; ++s) {
                if (layout_ != Layout::Full) a.device_tile.push_back(device_.base() + tile_at[i * streams_n_ + s]);
                if (staging_) a.stage.push_back(pinned_.base() + stage_at[i * streams_n_ + s]);
            }
        }
        streams_.create(streams_n_, where());
        for (Events* e : {&in_ready_, &done_, &join_})
            if (e->size() < static_cast<std::size_t>(streams_n_))
                e->create(static_cast<std::size_t>(streams_n_) - e->size(), false, where());
        int device_id = 0;
        check(cudaGetDevice(&device_id), "cudaGetDevice", where());
        check(cudaDeviceGetAttribute(&max_pitch_, cudaDevAttrMaxPitch, device_id), "cudaDeviceGetAttribute", where());
        if (max_pitch_ <= 0) max_pitch_ = INT_MAX;
        setup_ms_ = ms_since(t0);
        prepare_written_back_pages();
        // Timing events are not part of a normal run; keep their creation out
        // of the measured times.
        if (measure_) {
            const auto e0 = Clock::now();
            timing_.create(static_cast<std::size_t>(timing_tiles) * PhaseEvents::kPerTile, true, where());
            excluded_ms_ += ms_since(e0);
        }
    }

    // Staging: the host pages of the arrays written back are made present
    // and writable before the first tile (detail/host_copy.cuh,
    // prefault_writable), in their first run in the process (by range,
    // whichever GPU ran it: writable_spans()).
    // Host work of the staging, timed as such.
    void prepare_written_back_pages() {
        if (!staging_ || !threads_) return;
        const auto t0 = Clock::now();
        const Index3& e = cfg_.extents;
        auto offset = [&e](const Index3& p) { return (p[2] * e[1] + p[1]) * e[0] + p[0]; };
        const std::int64_t first = offset(space_.begin);
        const std::int64_t last = offset({space_.end[0] - 1, space_.end[1] - 1, space_.end[2] - 1});
        for (const ArrayDesc& a : arrays_) {
            if (!a.written_back || a.mapped || space_.empty()) continue;
            char* begin = a.host + first * a.elem;
            const auto bytes = static_cast<std::size_t>((last - first + 1) * a.elem);
            WritableSpans& done = writable_spans();
            if (done.contains(begin, bytes)) continue;
            prefault_writable(begin, bytes, *threads_);
            done.add(begin, bytes);
        }
        measured_.pages = ms_since(t0);
        measured_staging_ += measured_.pages;
    }

    // Elements of one tile buffer (and staging buffer) of an array.
    std::int64_t buffer_elements(const ArrayDesc& a) const {
        const Index3 e = a.role == Role::In ? grid_->buffer_extents(a.halo) : grid_->tile();
        return e[0] * e[1] * e[2];
    }

    // ---- placements
    Placement place(const ArrayDesc& a, std::int64_t k, int slot) const {
        if (layout_ == Layout::Full || a.mapped) return Placement{a.device_full, DeviceLayout{{0, 0, 0}, cfg_.extents}};
        const Box box = a.role == Role::In ? grid_->padded(k, a.halo) : grid_->core(k);
        char* dev = a.device_tile[static_cast<std::size_t>(slot)];
        if (layout_ == Layout::Compact) return Placement{dev, DeviceLayout{box.begin, box.extents()}};
        return Placement{dev, DeviceLayout{box.begin, a.role == Role::In ? grid_->buffer_extents(a.halo) : grid_->tile()}};
    }

    // The box of an array that tile k copies in (empty for pure outputs).
    Box box_in(const ArrayDesc& a, std::int64_t k) const {
        if (a.role == Role::Out || a.mapped) return Box{{0, 0, 0}, {0, 0, 0}};
        if (a.role == Role::InOut) return grid_->core(k);
        if (layout_ == Layout::Full) return grid_->fresh_input(k, a.halo);
        return grid_->padded(k, a.halo);
    }

    // ---- copies
    // Issues one descriptor as cudaMemcpy*Async; `host` and `dev` are the
    // bases its offsets count from.
    template <class Context>
    void issue(const Copy& c, char* host, char* dev, bool to_device, cudaStream_t stream, const Context& where) {
        const cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
        char* h = host + c.host_offset;
        char* d = dev + c.device_offset;
        char* dst = to_device ? d : h;
        char* src = to_device ? h : d;
        const std::int64_t dpitch = to_device ? c.device_pitch : c.host_pitch;
        const std::int64_t spitch = to_device ? c.host_pitch : c.device_pitch;
        const std::int64_t dslice = to_device ? c.device_slice_pitch : c.host_slice_pitch;
        const std::int64_t sslice = to_device ? c.host_slice_pitch : c.device_slice_pitch;
        Measured& m = measured_;
        (to_device ? m.h2d_bytes : m.d2h_bytes) += c.bytes();
        const int rank = c.rank();
        const bool pitch_ok = rank == 1 || (dpitch <= max_pitch_ && spitch <= max_pitch_);
        if (rank == 1) {
            ++(to_device ? m.h2d_copies : m.d2h_copies);
            check(cudaMemcpyAsync(dst, src, static_cast<std::size_t>(c.width_bytes), kind, stream), "cudaMemcpyAsync",
                  where);
        } else if (!pitch_ok) {
            // Pitches beyond what the device takes in one strided copy: row by row.
            for (std::int64_t z = 0; z < c.depth; ++z)
                for (std::int64_t y = 0; y < c.height; ++y) {
                    ++(to_device ? m.h2d_copies : m.d2h_copies);
                    check(cudaMemcpyAsync(dst + z * dslice + y * dpitch, src + z * sslice + y * spitch,
                                          static_cast<std::size_t>(c.width_bytes), kind, stream),
                          "cudaMemcpyAsync", where);
                }
        } else if (rank == 2) {
            ++(to_device ? m.h2d_copies : m.d2h_copies);
            check(cudaMemcpy2DAsync(dst, static_cast<std::size_t>(dpitch), src, static_cast<std::size_t>(spitch),
                                    static_cast<std::size_t>(c.width_bytes), static_cast<std::size_t>(c.height), kind,
                                    stream),
                  "cudaMemcpy2DAsync", where);
        } else {
            ++(to_device ? m.h2d_copies : m.d2h_copies);
            cudaMemcpy3DParms p{};
            p.srcPtr = make_cudaPitchedPtr(src, static_cast<std::size_t>(spitch), static_cast<std::size_t>(c.width_bytes),
                                           static_cast<std::size_t>(sslice / spitch));
            p.dstPtr = make_cudaPitchedPtr(dst, static_cast<std::size_t>(dpitch), static_cast<std::size_t>(c.width_bytes),
                                           static_cast<std::size_t>(dslice / dpitch));
            p.extent = make_cudaExtent(static_cast<std::size_t>(c.width_bytes), static_cast<std::size_t>(c.height),
                                       static_cast<std::size_t>(c.depth));
            p.kind = kind;
            check(cudaMemcpy3DAsync(&p, stream), "cudaMemcpy3DAsync", where);
        }
    }

    // Host side: moves `box` of an array between the user's array and the
    // densely packed staging buffer (thread-parallel memcpy).
    // Packing in, only the points of `box` in `parts` (boxes inside it) are
    // moved, each to its place in the packed box; the rest of the staging
    // buffer keeps what it held.
    void host_pack(const ArrayDesc& a, const Box& box, char* stage, bool to_stage) {
        host_pack(a, box, std::vector<Box>{box}, stage, to_stage);
    }
    void host_pack(const ArrayDesc& a, const Box& box, const std::vector<Box>& parts, char* stage, bool to_stage) {
        const auto t0 = Clock::now();
        segments_.clear();
        const DeviceLayout packed{box.begin, box.extents()};
        runs_.clear();
        for (const Box& part : parts) {
            runs_.push_back(segments_.size());
            for (const Copy& c : copies_for(part, cfg_.extents, packed, a.elem, cfg_.copy))
                append_segments(c, a.host, stage, to_stage, &segments_);
        }
        if (parts.size() > 1) join_segments(&segments_, runs_);
        copy_segments(segments_, *threads_);
        measured_staging_ += ms_since(t0);
    }

    // Copies `box` of array `i` into its placement for tile k (stream slot s).
    // Of an array with a written_first box, only the points outside it are
    // copied (a box wholly inside it not at all): staged, packed in place in
    // the staging buffer, then each part of the box (recipe::boxes_outside)
    // sent as one strided copy from there; page-locked, each part straight
    // from the array. A region's frame makes columns one point wide (the ends
    // of every row): the copy engine takes a strided copy's rows at ~1 ns
    // each (MEASURED.md), where sending the whole box would move the
    // interior the first launch overwrites anyway.
    // `all`: the whole box, written_first or not.
    void copy_in(std::size_t i, const Box& box, const Placement& p, int s, std::int64_t k, bool all = false) {
        if (box.empty()) return;
        ArrayDesc& a = arrays_[i];
        std::vector<Box> needed{box};
        if (!all && !a.written_first.empty()) {
            needed = boxes_outside(box, a.written_first);
            if (needed.empty()) return;
        }
        const bool parts = needed.size() > 1 || needed[0].count() < box.count();
        const auto where = where_tile(k, static_cast<int>(i));
        if (staging_) {
            char* stage = a.stage[static_cast<std::size_t>(s)];
            host_pack(a, box, needed, stage, true);
            const DeviceLayout rebased{{p.layout.origin[0] - box.begin[0], p.layout.origin[1] - box.begin[1],
                                        p.layout.origin[2] - box.begin[2]},
                                       p.layout.extents};
            if (!parts) {
                for (const Copy& c : copies_for(Box{{0, 0, 0}, box.extents()}, box.extents(), rebased, a.elem,
                                                device_side_method_))
                    issue(c, stage, p.device, true, stream(s), where);
                return;
            }
            for (const Box& part : needed)
                for (const Copy& c : copies_for(relative_to(part, box.begin), box.extents(), rebased, a.elem, CopyMethod::Strided))
                    issue(c, stage, p.device, true, stream(s), where);
        } else if (parts && (cfg_.host == HostMemory::Pinned || cfg_.host == HostMemory::Register)) {
            for (const Box& part : needed)
                for (const Copy& c : copies_for(part, cfg_.extents, p.layout, a.elem, CopyMethod::Strided))
                    issue(c, a.host, p.device, true, stream(s), where);
        } else {
            for (const Copy& c : copies_for(box, cfg_.extents, p.layout, a.elem, cfg_.copy))
                issue(c, a.host, p.device, true, stream(s), where);
        }
    }

    // Copies `box` of array `i` back from its placement. With staging, the
    // copy lands in the pinned buffer and unpack_slot() finishes it later.
    void copy_out(std::size_t i, const Box& box, const Placement& p, int s, std::int64_t k) {
        ArrayDesc& a = arrays_[i];
        if (box.empty() || a.mapped) return;
        const auto where = where_tile(k, static_cast<int>(i));
        if (staging_) {
            char* stage = a.stage[static_cast<std::size_t>(s)];
            const DeviceLayout rebased{{p.layout.origin[0] - box.begin[0], p.layout.origin[1] - box.begin[1],
                                        p.layout.origin[2] - box.begin[2]},
                                       p.layout.extents};
            for (const Copy& c : copies_for(Box{{0, 0, 0}, box.extents()}, box.extents(), rebased, a.elem,
                                            device_side_method_))
                issue(c, stage, p.device, false, stream(s), where);
            pending_[static_cast<std::size_t>(s)].push_back(Pending{i, box, k});
        } else {
            for (const Copy& c : copies_for(box, cfg_.extents, p.layout, a.elem, cfg_.copy))
                issue(c, a.host, p.device, false, stream(s), where);
        }
    }

    // Copies `box` of array `i` straight between the user's array and its
    // placement, never through staging (iterate's boundary frame).
    void copy_direct(std::size_t i, const Box& box, const Placement& p, int s, bool to_device) {
        if (box.empty()) return;
        ArrayDesc& a = arrays_[i];
        const auto where = [this, i] {
            return nest() + ", boundary of " + arrays_[i].kind + " " + std::to_string(arrays_[i].index);
        };
        for (const Copy& c : copies_for(box, cfg_.extents, p.layout, a.elem, cfg_.copy))
            issue(c, a.host, p.device, to_device, stream(s), where);
    }

    // Staging: waits for slot s's last tile and moves its outputs from the
    // pinned buffers into the user's arrays.
    void unpack_slot(int s) {
        auto& list = pending_[static_cast<std::size_t>(s)];
        if (list.empty()) return;
        check(cudaEventSynchronize(done_[static_cast<std::size_t>(s)]), "cudaEventSynchronize",
              where_tile(list.front().tile));
        unpack_pending(s);
    }

    // Staging: unpacks slot s's last tile only if the GPU has finished it
    // (a query, never a wait). Waiting here for the tile issued just before
    // the newest one stalled the host, the staged pipeline's bottleneck, for
    // the whole copy-kernel-copy of that tile on every tile (~60 us of each
    // ~260 us on an H200); wait_slot_free() unpacks it anyway, one pack later.
    void unpack_slot_if_done(int s) {
        auto& list = pending_[static_cast<std::size_t>(s)];
        if (list.empty()) return;
        const cudaError_t state = cudaEventQuery(done_[static_cast<std::size_t>(s)]);
        if (state == cudaErrorNotReady) return;
        check(state, "cudaEventQuery", where_tile(list.front().tile));
        unpack_pending(s);
    }

    // Before packing a new tile into slot s: its previous tile's copies from
    // the staging buffers must be done.
    void wait_slot_free(int s, std::int64_t k) {
        if (!staging_ || !slot_used_[static_cast<std::size_t>(s)]) return;
        unpack_slot(s);
        check(cudaEventSynchronize(done_[static_cast<std::size_t>(s)]), "cudaEventSynchronize", where_tile(k));
    }

    void unpack_pending(int s) {
        auto& list = pending_[static_cast<std::size_t>(s)];
        for (const Pending& p : list)
            host_pack(arrays_[p.array], p.box, arrays_[p.array].stage[static_cast<std::size_t>(s)], false);
        list.clear();
    }

    void mark_done(int s, std::int64_t k) {
        check(cudaEventRecord(done_[static_cast<std::size_t>(s)], stream(s)), "cudaEventRecord", where_tile(k));
        slot_used_[static_cast<std::size_t>(s)] = true;
    }

    void mark_inputs_ready(int s, std::int64_t k) {
        check(cudaEventRecord(in_ready_[static_cast<std::size_t>(s)], stream(s)), "cudaEventRecord", where_tile(k));
    }

    // Full-array layouts send halo shared between tiles once (fresh_input):
    // tile k's kernel waits for the copies of tiles first..k-1 in other streams.
    void wait_for_earlier_inputs(int s, std::int64_t k) {
        if (layout_ != Layout::Full || k == 0) return;
        std::int64_t first = k;
        for (const ArrayDesc& a : arrays_)
            if (a.role == Role::In && !a.mapped) first = std::min(first, grid_->first_tile_read(k, a.halo));
        const std::int64_t from = std::max(first, k - streams_n_ + 1);
        for (std::int64_t j = from; j < k; ++j) {
            const int sj = static_cast<int>(j % streams_n_);
            if (sj == s) continue;
            check(cudaStreamWaitEvent(stream(s), in_ready_[static_cast<std::size_t>(sj)], 0), "cudaStreamWaitEvent",
                  where_tile(k));
        }
    }

    // All streams wait for everything issued so far on every stream.
    void join_streams() {
        for (int s = 0; s < streams_n_; ++s)
            check(cudaEventRecord(join_[static_cast<std::size_t>(s)], stream(s)), "cudaEventRecord", where());
        for (int s = 0; s < streams_n_; ++s)
            for (int t = 0; t < streams_n_; ++t)
                if (s != t)
                    check(cudaStreamWaitEvent(stream(s), join_[static_cast<std::size_t>(t)], 0), "cudaStreamWaitEvent",
                          where());
    }

    // Stream s waits for everything issued so far on stream `on`.
    void stream_waits(int s, int on) {
        check(cudaEventRecord(join_[static_cast<std::size_t>(on)], stream(on)), "cudaEventRecord", where());
        check(cudaStreamWaitEvent(stream(s), join_[static_cast<std::size_t>(on)], 0), "cudaStreamWaitEvent", where());
    }

    // ---- timing of one tile's phases (measuring only)
    void mark(std::int64_t timing_index, int phase, int s) {
        if (!measure_) return;
        const std::size_t i = static_cast<std::size_t>(timing_index) * PhaseEvents::kPerTile + phase;
        if (i >= timing_.size()) return;
        check(cudaEventRecord(timing_[i], stream(s)), "cudaEventRecord", where());
    }

    // ---- launching
    template <class Context>
    dim3 grid_for(const Box& core, const Context& where) const {
        const dim3 b = cfg_.block;
        const std::int64_t gx = detail::ceil_div(core.extent(0), b.x), gy = detail::ceil_div(core.extent(1), b.y),
                           gz = detail::ceil_div(core.extent(2), b.z);
        if (gx > INT_MAX || gy > 65535 || gz > 65535)
            throw Error("recipe: a tile needs a grid of " + std::to_string(gx) + "x" + std::to_string(gy) + "x" +
                        std::to_string(gz) + " blocks, more than CUDA allows (2^31-1 x 65535 x 65535) in " + where() +
                        "; use a smaller tile or a taller block");
        return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz));
    }

    template <class Context>
    void check_launch(const Context& where) {
        check(cudaGetLastError(), "kernel launch", where);
    }

    // ---- the end of a run
    void finish(std::int64_t timed_tiles) {
        for (int s = 0; s < streams_n_; ++s) unpack_slot(s);
        for (int s = 0; s < streams_n_; ++s)
            check(cudaStreamSynchronize(stream(s)), "cudaStreamSynchronize", where());
        if (measure_) {
            double h2d = 0, kernel = 0, d2h = 0;
            auto span = [&](std::int64_t t, int a, int b) {
                float ms = 0;
                const std::size_t base = static_cast<std::size_t>(t) * PhaseEvents::kPerTile;
                check(cudaEventElapsedTime(&ms, timing_[base + a], timing_[base + b]), "cudaEventElapsedTime", where());
                return static_cast<double>(ms);
            };
            for (std::int64_t t = 0; t < timed_tiles; ++t) {
                h2d += span(t, PhaseEvents::kStart, PhaseEvents::kInDone);
                kernel += span(t, PhaseEvents::kKernelStart, PhaseEvents::kKernelDone);
                d2h += span(t, PhaseEvents::kKernelDone, PhaseEvents::kOutDone);
            }
            measured_.h2d = h2d;
            measured_.kernel = kernel;
            measured_.d2h = d2h;
            measured_.staging = measured_staging_;
        }
        // Timing events exist only in measured runs: releasing them is kept
        // out of the times, as creating them is (setup).
        if (measure_) {
            const auto e0 = Clock::now();
            timing_.release(where());
            excluded_ms_ += ms_since(e0);
        }
        const auto t0 = Clock::now();
        // Back to the pool for the next run (detail/pool.cuh).
        Pool& pool = Pool::get();
        if (threads_) {
            threads_->park();
            pool.threads = std::move(threads_);
        }
        pool.trade(device_, pinned_, streams_, in_ready_, done_, join_);
        pool_lock_.unlock();
        registrations_.release(where());
        const double teardown = ms_since(t0);
        measured_.total = ms_since(t_start_) - excluded_ms_;
        if (measure_) measured_.alloc = setup_ms_ + teardown;
        measured_.tiles = grid_->tile_count();
        if (quiet_) return;
        if (report_) print_report();
        if (report_level_ == ReportLevel::Time) print_time();
    }

    void print_time() const { print_time_line(nest(), measured_, cfg_.predicted, first_run_); }

    void print_report() const {
        const std::string title = nest() + ": " + to_string(cfg_.scheme) + ", tile " + shape_text(grid_->tile()) + ", " +
                                  std::to_string(grid_->tile_count()) + " tiles, " + std::to_string(streams_n_) +
                                  " streams, " + to_string(cfg_.copy) + ", " + to_string(cfg_.host);
        print_phase_table(title, measured_, cfg_.predicted, staging_, first_run_);
    }

    bool first_run() const { return first_run_; }

private:
    void validate() const {
        for (int d = 0; d < 3; ++d)
            if (cfg_.extents[d] < 1)
                throw Error("recipe: " + nest() + ": array extent " + std::to_string(cfg_.extents[d]) +
                            " in dimension " + std::to_string(d) + " must be at least 1");
        const Box sp = cfg_.iteration_space();
        for (int d = 0; d < 3; ++d)
            if (sp.begin[d] < 0 || sp.end[d] > cfg_.extents[d])
                throw Error("recipe: " + nest() + ": iteration space " + box_text(sp) + " is not inside the arrays (" +
                            shape_text(cfg_.extents) + ")");
        if (cfg_.streams < 1) throw Error("recipe: " + nest() + ": streams must be at least 1");
        if (cfg_.block.x < 1 || cfg_.block.y < 1 || cfg_.block.z < 1)
            throw Error("recipe: " + nest() + ": every block dimension must be at least 1");
        for (const ArrayDesc& a : arrays_)
            if (!a.host)
                throw Error("recipe: " + nest() + ": " + a.kind + " " + std::to_string(a.index) + " is a null pointer");
    }

    struct Pending {
        std::size_t array;
        Box box;
        std::int64_t tile;
    };

    const Config& cfg_;
    std::vector<ArrayDesc> arrays_;
    Clock::time_point t_start_;
    ReportLevel report_level_;
    bool report_, measure_;
    bool quiet_;  // engines_quiet() when made: one engine of a call over several GPUs
    bool first_run_ = false;  // the nest's first run in the process: Predicted::first applies
    Box space_;
    bool naive_ = false;
    std::unique_ptr<TileGrid> grid_;
    int streams_n_ = 1;
    Layout layout_ = Layout::Full;
    bool staging_ = false;
    CopyMethod device_side_method_ = CopyMethod::Strided;
    int max_pitch_ = INT_MAX;

    // Held from setup to finish: one run at a time uses the pool. Declared
    // first, so a failed run frees its resources before letting go.
    std::unique_lock<std::mutex> pool_lock_;
    HostRegistrations registrations_;
    DeviceBlock device_;
    PinnedBlock pinned_;
    Streams streams_;
    Events in_ready_, done_, join_, timing_;
    std::unique_ptr<CopyThreads> threads_;
    std::vector<std::vector<Pending>> pending_;
    std::vector<bool> slot_used_;
    std::vector<Segment> segments_;
    std::vector<std::size_t> runs_;  // host_pack: where each part's segments begin

    Measured measured_;
    double measured_staging_ = 0;
    double setup_ms_ = 0;
    double excluded_ms_ = 0;
    double startup_before_ = 0;  // count_from
};

}  // namespace recipe::detail
