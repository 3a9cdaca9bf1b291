// detail/region_impl.cuh — recipe::Region: the arrays of several nests kept
// whole on the device (the engine's full layout), copied in once in chunks
// pipelined over the streams, every nest one launch in order on stream 0,
// copied out once. The engine issues the copies (directly or through its
// staging buffers) and measures, as it does for recipe::run. A region is
// active on its thread from its constructor to finish(): recipe::run calls
// made meanwhile on its arrays (in functions the region's loop calls)
// launch on them instead of copying. A run may name a part of a held array
// (`ey[0]`, its first row): its view starts at that offset in the device
// copy, with the array's layout.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <exception>
#include <cstdint>
#include <thread>
#include <tuple>
#include <type_traits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/devices.cuh"
#include "recipe/detail/engine.cuh"
#include "recipe/detail/nccl.cuh"
#include "recipe/detail/part_worker.cuh"
#include "recipe/detail/pipeline.cuh"
#include "recipe/device_split.h"
#include "recipe/wavefront.h"

namespace recipe::detail {

class RegionImpl;

// The regions active on this thread, innermost last.
inline std::vector<RegionImpl*>& active_regions() {
    thread_local std::vector<RegionImpl*> regions;
    return regions;
}

inline RegionImpl* active_region() { return active_regions().empty() ? nullptr : active_regions().back(); }

// How many of a run's arrays a region holds.
enum class Holds { None, Some, All };

// One GPU's share of a region: the rows it owns (computes and copies out)
// and holds (owned plus its neighbours' halo rows), its engine over the held
// rows as arrays of their own (they are one contiguous range of each host
// array), and, over several GPUs, the stream and events of its exchanges and
// the host thread that issues its work (detail/part_worker.cuh).
struct RegionPart {
    int device = 0;
    Box owned, held;  // rows of the region's arrays, in the arrays' coordinates
    Config cfg;       // the engine's: extents of the held rows; before engine, which keeps a reference to it
    std::vector<ArrayDesc> descs;  // the held rows of each array, until the engine takes them
    std::unique_ptr<Engine> engine;
    std::vector<Placement> local;   // per array, in held-row coordinates (the copies)
    std::vector<Placement> global;  // per array, in the arrays' coordinates (the kernels)
    std::int64_t entry = 0;
    std::int64_t kernel_entry = 0;
    bool kernels_marked = false;
    cudaStream_t exchange = nullptr;  // several GPUs: the halo exchanges, high priority
    cudaEvent_t written = nullptr, exchanged = nullptr;
    std::unique_ptr<PartWorker> worker;  // several GPUs
    Measured measured{};

    RegionPart() = default;
    RegionPart(const RegionPart&) = delete;
    RegionPart& operator=(const RegionPart&) = delete;
    ~RegionPart() {
        // Several GPUs: torn down on the worker's thread, which made it all
        // on this GPU (and holds the pool's lock until the engine finishes).
        if (worker) worker->stop([this] { release(); });
        worker.reset();
        release();  // one GPU, or what the worker could not
    }

private:
    void release() noexcept {
        engine.reset();
        if (!exchange) return;
        cudaEventDestroy(written);
        cudaEventDestroy(exchanged);
        cudaStreamDestroy(exchange);
        exchange = nullptr;
    }
};

// One GPU's sends and receives of one halo exchange: rows it owns to a
// neighbour, and the neighbour's rows it holds.
struct HaloSwap {
    const char* send = nullptr;
    char* recv = nullptr;
    std::size_t send_bytes = 0, recv_bytes = 0;
    int peer = 0;
};

class RegionImpl {
public:
    explicit RegionImpl(const Config& cfg) : cfg_(cfg), ghost_(cfg.ghost_launches > 0) {
        cfg_.scheme = Scheme::Basic;  // full-size device arrays
        cfg_.space = Box{{0, 0, 0}, {-1, -1, -1}};  // the copies cover the whole arrays
    }
    RegionImpl(const RegionImpl&) = delete;
    RegionImpl& operator=(const RegionImpl&) = delete;
    ~RegionImpl() { deactivate(); }

    // Whether the region holds the arrays a run names (by host pointer).
    template <class... I, class... O>
    Holds holds(const Inputs<I...>& ins, const Outputs<O...>& outs) const {
        std::vector<ArrayDesc> named;
        describe_inputs(ins, std::index_sequence_for<I...>{}, &named);
        describe_outputs(outs, std::index_sequence_for<O...>{}, &named);
        std::size_t held = 0;
        for (const ArrayDesc& a : named)
            if (holding(a.host) >= 0) ++held;
        return held == 0 ? Holds::None : held == named.size() ? Holds::All : Holds::Some;
    }

    std::string region_name() const { return cfg_.name.empty() ? std::string("recipe::Region") : cfg_.name; }

    void add(char* host, std::int64_t elem, bool copy_in, bool copy_out, const Box& written_first) {
        ArrayDesc a;
        a.host = host;
        a.elem = elem;
        a.role = Role::InOut;  // staging buffers of one chunk, no halo
        a.written_back = copy_out;
        a.kind = "resident array";
        a.index = static_cast<int>(descs_.size());
        descs_.push_back(a);
        copy_in_.push_back(copy_in);
        copy_out_.push_back(copy_out);
        written_first_.push_back(written_first);
        first_named_.push_back(false);
        late_.push_back(false);
    }

    // Allocates, then queues the copies in, chunk by chunk over the streams
    // (over several GPUs: each GPU its rows, all at once, each set up by its
    // own worker).
    void start() {
        const auto t0 = Clock::now();
        t_start_ = t0;
        const std::string name = region_name();
        std::vector<Box> owned{Box{{0, 0, 0}, cfg_.extents}};
        if (cfg_.devices > 1) {
            // CUDA's start-up first, on this thread (as recipe::run over several
            // GPUs does): the parts' cudaSetDevice would wait for it uncounted.
            startup_ = wait_for_startup([&] { return name; });
            require_devices(cfg_, name);
            owned = region_slabs(cfg_.extents, cfg_.devices);
            split_ = split_dimension(cfg_.extents);
            for (const Box& b : owned)
                if (b.extent(split_) < cfg_.halo_rows)
                    throw Error("recipe: " + name + ": " + std::to_string(owned.size()) + " GPUs own " +
                                std::to_string(b.extent(split_)) + " rows each, fewer than the " +
                                std::to_string(cfg_.halo_rows) + " halo rows they exchange; use fewer GPUs");
        }
        const bool several = owned.size() > 1;
        if (several) first_ = first_call_over_devices(name);
        row_elements_ = 1;
        for (int d = 0; d < split_; ++d) row_elements_ *= cfg_.extents[d];
        if (ghost_) {
            // Nothing is held: every pass copies its tiles in and out.
            if (cfg_.devices > 1)
                throw Error("recipe: " + name + ": a region with ghost zones (Config::ghost_launches) runs on one GPU");
            split_ = split_dimension(cfg_.extents);
            row_elements_ = 1;
            for (int d = 0; d < split_; ++d) row_elements_ *= cfg_.extents[d];
            first_ = first_call_over_devices(name);
            written_.assign(descs_.size(), false);
            ghost_measured_ = Measured{};
            ghost_measured_.alloc = ghost_measured_.h2d = ghost_measured_.kernel = ghost_measured_.d2h =
                ghost_measured_.staging = -1;
            t_start_ = t0;
            active_regions().push_back(this);
            return;
        }
        // Pipelined: stream 0 runs the pieces, the others copy (so two at least).
        pipelined_ = !several && cfg_.pipelined_launches > 0 && cfg_.streams >= 2 && chunked_dimension(&chunked_);
        // One GPU: CUDA's start-up before cudaGetDevice, which would wait for
        // it uncounted (a region that was a program's first call reported 129
        // ms of start-up on an H200 host, having waited 190 ms in there first).
        if (!several) startup_ += wait_for_startup([&] { return name; });
        int current = 0;
        check(cudaGetDevice(&current), "cudaGetDevice", [&] { return name; });
        for (std::size_t d = 0; d < owned.size(); ++d) {
            auto part = std::make_unique<RegionPart>();
            part->device = several ? static_cast<int>(d) : current;  // one GPU: the caller's, as ever
            part->owned = owned[d];
            part->held = several ? region_held(owned[d], cfg_.extents, cfg_.halo_rows) : owned[d];
            part->cfg = cfg_;
            part->cfg.devices = 1;
            part->cfg.extents = part->held.extents();
            if (several) part->cfg.name = name + " (GPU " + std::to_string(d) + ")";
            part->descs = descs_;
            const std::int64_t first_row = part->held.begin[split_] * row_elements_;
            for (ArrayDesc& a : part->descs) a.host += first_row * a.elem;
            // On one GPU, what the first launch writes before reading is left
            // out of the copies in; over several every held row is copied (a
            // GPU's halo rows are its neighbours' to write), and with ghost
            // zones (above) every tile.
            if (!several)
                for (std::size_t i = 0; i < part->descs.size(); ++i) part->descs[i].written_first = written_first_[i];
            if (several) part->worker = std::make_unique<PartWorker>(part->device);
            parts_.push_back(std::move(part));
        }
        if (several) Nccl::get().comms(static_cast<int>(parts_.size()));
        written_.assign(descs_.size(), false);
        dirty_.assign(descs_.size(), false);
        each_part([this, several](RegionPart& part) {
            engines_quiet() = several;
            part.engine = std::make_unique<Engine>(part.cfg, std::move(part.descs), true);
            engines_quiet() = false;
            Engine& e = *part.engine;
            if (!several) e.count_from(CallStart{t_start_, startup_});
            e.setup(2 * e.grid().tile_count() + 1);  // timing entries: the chunks in, the kernels, the chunks out
            for (const ArrayDesc& a : e.arrays()) {
                Placement p = e.place(a, 0, 0);
                part.local.push_back(p);
                p.layout.origin[split_] = part.held.begin[split_];
                part.global.push_back(p);
            }
            if (several) {
                const auto where = [&] { return region_name(); };
                int lowest = 0, highest = 0;
                check(cudaDeviceGetStreamPriorityRange(&lowest, &highest), "cudaDeviceGetStreamPriorityRange", where);
                check(cudaStreamCreateWithPriority(&part.exchange, cudaStreamNonBlocking, highest),
                      "cudaStreamCreateWithPriority", where);
                check(cudaEventCreateWithFlags(&part.written, cudaEventDisableTiming), "cudaEventCreateWithFlags", where);
                check(cudaEventCreateWithFlags(&part.exchanged, cudaEventDisableTiming), "cudaEventCreateWithFlags",
                      where);
            }
            if (pipelined_) {
                // Copied in at finish(), with the runs recorded meanwhile.
                part.kernel_entry = e.grid().tile_count();
                return;
            }
            copy_in(part);
            // The kernels (stream 0) wait for every chunk.
            e.join_streams();
            part.kernel_entry = part.entry++;
        });
        t_start_ = t0;
        active_regions().push_back(this);
    }

    template <class... KP, class... I, class... O, class... A>
    void launch(const Config& nest, void (*kernel)(KP...), const Inputs<I...>& ins, const Outputs<O...>& outs,
                A&&... args) {
        static_assert(sizeof...(KP) == 1 + sizeof...(I) + sizeof...(O) + sizeof...(A),
                      "recipe::Region::run: the kernel must take a recipe::Tile, one InView per input, one OutView per "
                      "output, then exactly the extra arguments given to run");
        const std::string name = nest.name.empty() ? std::string("a nest") : nest.name;
        const auto where = [&] { return region_name() + ", " + name; };
        if (finished_) throw Error("recipe: " + where() + ": run() after the region's finish()");
        for (int d = 0; d < 3; ++d)
            if (nest.extents[d] != cfg_.extents[d])
                throw Error("recipe: " + where() + ": its arrays are " + shape_text(nest.extents) + ", the region's " +
                            shape_text(cfg_.extents));
        const Box space = nest.iteration_space();
        for (int d = 0; d < 3; ++d)
            if (space.begin[d] < 0 || space.end[d] > cfg_.extents[d])
                throw Error("recipe: " + where() + ": iteration space " + box_text(space) + " is not inside the arrays (" +
                            shape_text(cfg_.extents) + ")");
        if (nest.block.x < 1 || nest.block.y < 1 || nest.block.z < 1)
            throw Error("recipe: " + where() + ": every block dimension must be at least 1");
        const bool several = parts_.size() > 1;
        std::vector<ArrayDesc> named;
        describe_inputs(ins, std::index_sequence_for<I...>{}, &named);
        describe_outputs(outs, std::index_sequence_for<O...>{}, &named);
        std::vector<std::size_t> index;      // the region's array each named one is
        std::vector<std::int64_t> offset;    // bytes into it (a part such as `ey[0]`)
        std::vector<std::size_t> exchange;   // arrays whose halo rows this launch needs fresh
        std::int64_t need_lo = 0, need_hi = 0;
        for (const ArrayDesc& a : named) {
            const std::size_t i = resident(a, where);
            index.push_back(i);
            offset.push_back(a.host - descs_[i].host);
            if (several && offset.back() != 0)
                throw Error("recipe: " + where() + ": " + a.kind + " " + std::to_string(a.index) +
                            " is a part of a region's array; a region over several GPUs runs whole arrays only");
            if (!several || a.role != Role::In) continue;
            const std::int64_t lo = a.halo.lo[split_], hi = a.halo.hi[split_];
            if (lo > cfg_.halo_rows || hi > cfg_.halo_rows)
                throw Error("recipe: " + where() + ": " + a.kind + " " + std::to_string(a.index) + " reads " +
                            std::to_string(std::max(lo, hi)) + " rows beyond its own; the region's GPUs hold " +
                            std::to_string(cfg_.halo_rows) + " (Config::halo_rows)");
            if ((lo > 0 || hi > 0) && dirty_[i]) {
                if (std::find(exchange.begin(), exchange.end(), i) == exchange.end()) exchange.push_back(i);
                need_lo = std::max(need_lo, lo);
                need_hi = std::max(need_hi, hi);
            }
        }
        const auto packed = std::make_tuple(std::decay_t<A>(args)...);
        const dim3 block = nest.block;
        const std::string place_text = where();
        if (ghost_) {
            record_ghost(named, index, offset, space,
                         [=](Engine& e, const std::vector<Placement>& p, const Box& box) {
                             launch_box(kernel, block, packed, place_text, e, p, box, TypeList<I...>{}, TypeList<O...>{});
                         });
            return;
        }
        if (pipelined_) {
            record_pipelined(named, index, offset, sizeof...(I), space,
                             [=](Engine& e, const std::vector<Placement>& p, const Box& box) {
                                 launch_box(kernel, block, packed, place_text, e, p, box, TypeList<I...>{}, TypeList<O...>{});
                             });
            return;
        }
        if (!several) keep_promises(index, offset, sizeof...(I), space);
        // An output whose halo is being exchanged: the launch waits for the
        // exchange instead of overlapping it.
        bool overlap = true;
        for (std::size_t j = sizeof...(I); j < named.size(); ++j)
            if (std::find(exchange.begin(), exchange.end(), index[j]) != exchange.end()) overlap = false;
        // Each GPU's share, issued on its worker (one GPU: here, now); what
        // the host passes is copied, as a kernel launch copies it.
        for (std::size_t d = 0; d < parts_.size(); ++d) {
            RegionPart& part = *parts_[d];
            if (part.worker) part.worker->rethrow_if_failed();
            std::vector<Placement> p;
            for (std::size_t j = 0; j < named.size(); ++j) {
                // A part of the array (`ey[0]`, one row) is at its own offset in
                // the device copy, which mirrors the host array.
                Placement place = part.global[index[j]];
                place.device += offset[j];
                p.push_back(place);
            }
            Box mine = space;
            if (several) {
                mine.begin[split_] = std::max(space.begin[split_], part.owned.begin[split_]);
                mine.end[split_] = std::min(space.end[split_], part.owned.end[split_]);
            }
            // Rows that read no halo row run while the halos travel; the rows
            // at the cuts run once they have arrived.
            const bool below = d > 0, above = d + 1 < parts_.size();
            Box inner = mine;
            if (below) inner.begin[split_] = std::max(mine.begin[split_], part.owned.begin[split_] + need_lo);
            if (above) inner.end[split_] = std::min(mine.end[split_], part.owned.end[split_] - need_hi);
            if (inner.end[split_] < inner.begin[split_]) inner.end[split_] = inner.begin[split_];
            Box low = mine, high = mine;
            low.end[split_] = std::max(mine.begin[split_], inner.begin[split_]);
            high.begin[split_] = std::min(mine.end[split_], std::max(inner.end[split_], low.end[split_]));
            std::vector<HaloSwap> swaps;
            if (!exchange.empty()) swaps = halo_swaps(d, exchange);
            const Nccl::Comm comm = swaps.empty() ? Nccl::Comm{} : Nccl::get().comms(static_cast<int>(parts_.size()))[d];
            on_part(part, [=, &part] {
                Engine& e = *part.engine;
                const auto at = [&] { return place_text; };
                open_kernels(part);
                const auto launch = [&](const Box& box) {
                    launch_box(kernel, block, packed, place_text, e, p, box, TypeList<I...>{}, TypeList<O...>{});
                };
                if (swaps.empty()) {
                    launch(mine);
                    return;
                }
                swap_halos(part, swaps, comm);
                if (overlap) launch(inner);
                check(cudaStreamWaitEvent(e.stream(0), part.exchanged, 0), "cudaStreamWaitEvent", at);
                if (!overlap) launch(inner);
                launch(low);
                launch(high);
            });
        }
        for (std::size_t i : exchange) dirty_[i] = false;
        for (std::size_t i : index) first_named_[i] = true;
        for (std::size_t j = sizeof...(I); j < named.size(); ++j) {
            written_[index[j]] = true;
            dirty_[index[j]] = true;
        }
    }

    Measured finish() {
        if (finished_) throw Error("recipe: " + region_name() + ": finish() called twice");
        finished_ = true;
        deactivate();
        if (ghost_) return finish_ghost();
        if (pipelined_) run_pipelined(*parts_.front());
        each_part([this](RegionPart& part) {
            Engine& e = *part.engine;
            if (!pipelined_) {  // pipelined, run_pipelined has issued the copies out
                close_kernels(part);
                // The copies out (every stream) wait for the kernels.
                e.join_streams();
                trace("launched", -1);
                copy_out(part);
            }
            trace("issued", -1);
            // On the part's GPU: its resources go back to that GPU's pool.
            e.finish(part.entry);
            trace("done", -1);
            part.measured = e.measured();
        });
        print_trace();
        if (parts_.size() == 1) {
            const Measured m = parts_[0]->measured;
            parts_.clear();
            return m;
        }
        Measured m{};
        m.alloc = m.h2d = m.kernel = m.d2h = m.staging = -1;
        for (auto& part : parts_) add_measured(&m, part->measured);
        parts_.clear();
        m.startup = std::max(m.startup, startup_);
        m.total = ms_since(t_start_);
        const ReportLevel level = report_requested();
        if (level == ReportLevel::Time) print_time_line(region_name(), m, cfg_.predicted, first_);
        if (level == ReportLevel::Full)
            print_phase_table(region_name() + ": region over " + std::to_string(cfg_.devices) + " GPUs, " +
                                  std::to_string(cfg_.halo_rows) + " halo rows, " + to_string(cfg_.host),
                              m, cfg_.predicted, cfg_.host == HostMemory::Staged, first_);
        return m;
    }

private:
    // Issues `work` for `part`: here and now for one GPU, queued on the
    // part's worker for several.
    template <class Work>
    void on_part(RegionPart& part, Work&& work) {
        if (part.worker) part.worker->post(std::forward<Work>(work));
        else work();
    }

    // Runs `work` for every part and waits for all (each GPU's allocation and
    // host packing at once over several); rethrows the first failure.
    template <class Work>
    void each_part(const Work& work) {
        for (auto& part_ptr : parts_) {
            RegionPart* part = part_ptr.get();
            on_part(*part, [&work, part] { work(*part); });
        }
        std::exception_ptr failed;
        for (auto& part : parts_)
            if (part->worker) try {
                    part->worker->drain();
                } catch (...) {
                    if (!failed) failed = std::current_exception();
                }
        if (failed) std::rethrow_exception(failed);
    }

    // The first launch naming an array with a written_first box must write
    // all of the box without reading the array (Resident::written_first):
    // named as an output only, whole, over a space that holds the box. Where
    // it does not (a box the program computed otherwise, a first use the
    // generator did not foresee), the box is copied in now, before the
    // launch, as it would have been with the rest: slower, never wrong.
    void keep_promises(const std::vector<std::size_t>& index, const std::vector<std::int64_t>& offset, std::size_t inputs,
                       const Box& space) {
        const std::vector<std::size_t> late = broken_promises(index, offset, inputs, space);
        if (late.empty()) return;
        RegionPart& part = *parts_.front();
        Engine& e = *part.engine;
        const auto where = [&] { return region_name() + ", copying in a box its first launch does not write"; };
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", where);  // the staging slots are free
        for (std::size_t i : late)
            for (std::int64_t k = 0; k < e.grid().tile_count(); ++k) {
                const Box box = intersect(e.grid().core(k), written_first_[i]);
                if (box.empty()) continue;
                e.copy_in(i, box, part.local[i], 0, k, true);
                check(cudaStreamSynchronize(e.stream(0)), "cudaStreamSynchronize", where);
            }
    }

    // The arrays with a written_first box that this launch, the first naming
    // them, does not write whole without reading them.
    std::vector<std::size_t> broken_promises(const std::vector<std::size_t>& index, const std::vector<std::int64_t>& offset,
                                             std::size_t inputs, const Box& space) const {
        std::vector<std::size_t> late;
        for (std::size_t j = 0; j < index.size(); ++j) {
            const std::size_t i = index[j];
            if (first_named_[i] || written_first_[i].empty() || !copy_in_[i]) continue;
            if (std::find(late.begin(), late.end(), i) != late.end()) continue;
            bool kept = true;
            for (std::size_t m = 0; m < index.size(); ++m)
                if (index[m] == i && (m < inputs || offset[m] != 0)) kept = false;
            const Box& w = written_first_[i];
            for (int d = 0; d < 3; ++d) kept = kept && space.begin[d] <= w.begin[d] && w.end[d] <= space.end[d];
            if (!kept) late.push_back(i);
        }
        return late;
    }

    // The stream chunk k is copied on: any, or (pipelined) any but stream 0,
    // which runs the pieces.
    int copy_stream(const Engine& e, std::int64_t k) const {
        return pipelined_ ? 1 + static_cast<int>(k % (e.stream_count() - 1)) : static_cast<int>(k % e.stream_count());
    }
    int copy_streams(const Engine& e) const { return pipelined_ ? e.stream_count() - 1 : e.stream_count(); }

    void copy_in(RegionPart& part) { copy_in(part, copy_in_); }
    // `landed(k)`: after chunk k's copies are issued.
    template <class Landed = void (*)(std::int64_t)>
    void copy_in(RegionPart& part, const std::vector<bool>& which, Landed landed = [](std::int64_t) {}) {
        Engine& e = *part.engine;
        const std::int64_t chunks = e.grid().tile_count();
        for (std::int64_t k = 0; k < chunks; ++k, ++part.entry) {
            const int s = copy_stream(e, k);
            e.wait_slot_free(s, k);
            trace("in-slot", k);
            e.mark(part.entry, PhaseEvents::kStart, s);
            for (std::size_t i = 0; i < part.local.size(); ++i)
                if (which[i]) e.copy_in(i, e.grid().core(k), part.local[i], s, k, late_[i]);
            trace("in-issued", k);
            e.mark(part.entry, PhaseEvents::kInDone, s);
            e.mark(part.entry, PhaseEvents::kKernelStart, s);
            e.mark(part.entry, PhaseEvents::kKernelDone, s);
            e.mark(part.entry, PhaseEvents::kOutDone, s);
            if (e.staging()) e.mark_done(s, k);
            landed(k);
            trace("in-after", k);
        }
    }

    // The rows the part owns, chunk by chunk (its neighbours copy out theirs).
    void copy_out(RegionPart& part) {
        std::vector<bool> which(descs_.size());
        for (std::size_t i = 0; i < which.size(); ++i) which[i] = copy_out_[i] && written_[i];
        copy_out(part, which);
    }
    // `ready(k, s)`: before chunk k is copied out on stream s.
    template <class Ready = void (*)(std::int64_t, int)>
    void copy_out(RegionPart& part, const std::vector<bool>& which, Ready ready = [](std::int64_t, int) {}) {
        Engine& e = *part.engine;
        const std::int64_t chunks = e.grid().tile_count();
        Box owned = part.owned;  // in held-row coordinates
        owned.begin[split_] -= part.held.begin[split_];
        owned.end[split_] -= part.held.begin[split_];
        for (std::int64_t k = 0; k < chunks; ++k, ++part.entry) {
            const int s = copy_stream(e, k);
            ready(k, s);
            trace("out-ready", k);
            e.wait_slot_free(s, k);
            trace("out-slot", k);
            e.mark(part.entry, PhaseEvents::kStart, s);
            e.mark(part.entry, PhaseEvents::kInDone, s);
            e.mark(part.entry, PhaseEvents::kKernelStart, s);
            e.mark(part.entry, PhaseEvents::kKernelDone, s);
            Box box = e.grid().core(k);
            box.begin[split_] = std::max(box.begin[split_], owned.begin[split_]);
            box.end[split_] = std::min(box.end[split_], owned.end[split_]);
            if (box.end[split_] < box.begin[split_]) box.end[split_] = box.begin[split_];
            for (std::size_t i = 0; i < part.local.size(); ++i)
                if (which[i]) e.copy_out(i, box, part.local[i], s, k);
            e.mark(part.entry, PhaseEvents::kOutDone, s);
            if (e.staging()) {
                e.mark_done(s, k);
                if (k + 1 >= copy_streams(e)) e.unpack_slot_if_done(copy_stream(e, k + 1));
            }
        }
    }

    // One launch over `box` (the arrays' coordinates) on the engine's stream
    // 0, with the placements `p`; slabs along z (then y) where it needs more
    // blocks than CUDA allows in one grid.
    template <class... KP, class Packed, class... I, class... O>
    static void launch_box(void (*kernel)(KP...), dim3 block, const Packed& packed, const std::string& where, Engine& e,
                           const std::vector<Placement>& p, const Box& box, TypeList<I...>, TypeList<O...>) {
        for (int k = 0; k < 3; ++k)
            if (box.extent(k) <= 0) return;
        const std::int64_t gx = ceil_div(box.extent(0), block.x);
        if (gx > INT_MAX)
            throw Error("recipe: " + where + ": the space needs " + std::to_string(gx) +
                        " blocks in x, more than CUDA allows; use a wider block");
        const std::int64_t rows_y = 65535LL * block.y, rows_z = 65535LL * block.z;
        for (std::int64_t z0 = box.begin[2]; z0 < box.end[2]; z0 += rows_z)
            for (std::int64_t y0 = box.begin[1]; y0 < box.end[1]; y0 += rows_y) {
                Box slab = box;
                slab.begin[1] = y0;
                slab.end[1] = std::min(box.end[1], y0 + rows_y);
                slab.begin[2] = z0;
                slab.end[2] = std::min(box.end[2], z0 + rows_z);
                const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(ceil_div(slab.extent(1), block.y)),
                                static_cast<unsigned>(ceil_div(slab.extent(2), block.z)));
                std::apply(
                    [&](const auto&... values) {
                        launch_pass(kernel, grid, block, e.stream(0), make_tile(slab, 0, 1), p, TypeList<I...>{},
                                    TypeList<O...>{}, std::index_sequence_for<I...>{}, std::index_sequence_for<O...>{},
                                    values...);
                    },
                    packed);
                e.check_launch([&] { return where; });
            }
    }

    // The kernels' timing entry (stream 0): opened before the first launch,
    // closed after the last.
    static void open_kernels(RegionPart& part) {
        if (part.kernels_marked) return;
        Engine& e = *part.engine;
        e.mark(part.kernel_entry, PhaseEvents::kStart, 0);
        e.mark(part.kernel_entry, PhaseEvents::kInDone, 0);
        e.mark(part.kernel_entry, PhaseEvents::kKernelStart, 0);
        part.kernels_marked = true;
    }
    static void close_kernels(RegionPart& part) {
        open_kernels(part);
        part.engine->mark(part.kernel_entry, PhaseEvents::kKernelDone, 0);
        part.engine->mark(part.kernel_entry, PhaseEvents::kOutDone, 0);
    }

    // RECIPE_TRACE=1: the host's timeline of a region on one GPU, chunk by
    // chunk (when it had a free slot, had packed and issued a chunk, had
    // issued the pieces the chunk let run), printed by finish(): where a
    // region's time goes.
    void trace(const char* what, std::int64_t chunk) {
        if (tracing_ && parts_.size() <= 1) trace_.push_back({what, chunk, ms_since(t_start_)});
    }
    void print_trace() const {
        for (const TraceMark& m : trace_)
            std::fprintf(stderr, "recipe: trace %s %s %lld %.3f\n", region_name().c_str(), m.what,
                         static_cast<long long>(m.chunk), m.ms);
    }

    // ---- Pipelined launches (Config::pipelined_launches; recipe/wavefront.h).
    struct PipelinedLaunch {
        std::function<void(Engine&, const std::vector<Placement>&, const Box&)> issue;
        std::vector<Placement> placements;
        Box space;
        LaunchRows rows;
    };

    // Whether the region's chunks cut exactly one dimension (*d): the rows
    // the launches are cut along. Otherwise the launches are not pipelined.
    bool chunked_dimension(int* d) const {
        int cut = -1;
        for (int k = 0; k < 3; ++k)
            if (cfg_.tile[k] > 0 && cfg_.tile[k] < cfg_.extents[k]) {
                if (cut >= 0) return false;
                cut = k;
            }
        if (cut < 0) return false;
        *d = cut;
        return true;
    }

    // Records a run: its rows, what it reads and writes (detail/region_pipelined.cuh).
    void record_pipelined(const std::vector<ArrayDesc>& named, const std::vector<std::size_t>& index,
                          const std::vector<std::int64_t>& offset, std::size_t inputs, const Box& space,
                          std::function<void(Engine&, const std::vector<Placement>&, const Box&)> issue);
    // The recorded runs and the copies, interleaved: as each chunk lands,
    // every one of the first pipelined_launches runs the rows it can; then
    // the runs not cut, whole; then before each chunk out, the pieces of the
    // last pipelined_launches that it needs (recipe/wavefront.h). Pieces run
    // in that order on stream 0; the copies on the others, each chunk in
    // waited for by stream 0, each chunk out waiting for stream 0.
    void run_pipelined(RegionPart& part);

    // ---- Ghost zones (Config::ghost_launches; seed 002, Meng & Skadron,
    // Figure 1(b)): the runs of a pass are kept, then replayed tile by tile
    // (the member functions in detail/region_ghost.cuh).
    struct GhostLaunch {
        std::function<void(Engine&, const std::vector<Placement>&, const Box&)> issue;
        std::vector<std::size_t> index;  // the region's arrays it names, inputs first
        std::size_t inputs = 0;
        Box space;
        std::int64_t lo = 0, hi = 0;  // rows it reads below and above its own, along the split dimension
    };

    void record_ghost(const std::vector<ArrayDesc>& named, const std::vector<std::size_t>& index,
                      const std::vector<std::int64_t>& offset, const Box& space,
                      std::function<void(Engine&, const std::vector<Placement>&, const Box&)> issue);
    // One pass of the runs kept (detail/region_ghost.cuh).
    void ghost_pass();
    Measured finish_ghost();

    // Several GPUs: what part `d` sends to and receives from each neighbour
    // to swap the halo rows of `arrays` (its held rows beyond its own are
    // the neighbours' owned rows next to the cut).
    std::vector<HaloSwap> halo_swaps(std::size_t d, const std::vector<std::size_t>& arrays) const {
        std::vector<HaloSwap> swaps;
        const RegionPart& part = *parts_[d];
        const int s = split_;
        for (std::size_t i : arrays) {
            const std::int64_t row_bytes = row_elements_ * descs_[i].elem;
            char* base = part.local[i].device;  // row held.begin[s]
            auto at = [&](std::int64_t row) { return base + (row - part.held.begin[s]) * row_bytes; };
            if (d > 0) {  // rows shared with the GPU below
                const RegionPart& low = *parts_[d - 1];
                const std::int64_t mine = low.held.end[s] - part.owned.begin[s];  // it holds of mine
                const std::int64_t its = part.owned.begin[s] - part.held.begin[s];  // I hold of its
                swaps.push_back({at(part.owned.begin[s]), at(part.held.begin[s]),
                                 static_cast<std::size_t>(mine * row_bytes), static_cast<std::size_t>(its * row_bytes),
                                 static_cast<int>(d - 1)});
            }
            if (d + 1 < parts_.size()) {  // rows shared with the GPU above
                const RegionPart& high = *parts_[d + 1];
                const std::int64_t mine = part.owned.end[s] - high.held.begin[s];
                const std::int64_t its = part.held.end[s] - part.owned.end[s];
                swaps.push_back({at(part.owned.end[s] - mine), at(part.owned.end[s]),
                                 static_cast<std::size_t>(mine * row_bytes), static_cast<std::size_t>(its * row_bytes),
                                 static_cast<int>(d + 1)});
            }
        }
        return swaps;
    }

    // On the part's worker: its sends and receives of one exchange (NCCL,
    // one group on its own communicator) on its exchange stream, after the
    // kernels issued so far on it; `exchanged` marks the end. Every GPU's
    // worker does the same with its own communicator, at once.
    void swap_halos(RegionPart& part, const std::vector<HaloSwap>& swaps, Nccl::Comm comm) const {
        const auto where = [&] { return region_name() + ", halo exchange"; };
        check(cudaEventRecord(part.written, part.engine->stream(0)), "cudaEventRecord", where);
        check(cudaStreamWaitEvent(part.exchange, part.written, 0), "cudaStreamWaitEvent", where);
        Nccl& nccl = Nccl::get();
        nccl.group_start();
        for (const HaloSwap& h : swaps) {
            nccl.send(h.send, h.send_bytes, h.peer, comm, part.exchange);
            nccl.recv(h.recv, h.recv_bytes, h.peer, comm, part.exchange);
        }
        nccl.group_end();
        check(cudaEventRecord(part.exchanged, part.exchange), "cudaEventRecord", where);
    }

    void deactivate() {
        auto& regions = active_regions();
        for (auto it = regions.begin(); it != regions.end(); ++it)
            if (*it == this) {
                regions.erase(it);
                break;
            }
    }

    // The index of the array holding the host address `host` (its start, or
    // inside it: a part such as one row), or -1.
    std::ptrdiff_t holding(const char* host) const {
        const std::int64_t elements = cfg_.extents[0] * cfg_.extents[1] * cfg_.extents[2];
        for (std::size_t i = 0; i < descs_.size(); ++i)
            if (host >= descs_[i].host && host < descs_[i].host + elements * descs_[i].elem)
                return static_cast<std::ptrdiff_t>(i);
        return -1;
    }

    // The index of the array holding the one `a` names: the same array, or
    // a part of it that starts on an element.
    template <class Where>
    std::size_t resident(const ArrayDesc& a, const Where& where) const {
        const std::ptrdiff_t found = holding(a.host);
        if (found < 0)
            throw Error("recipe: " + where() + ": " + a.kind + " " + std::to_string(a.index) +
                        " is not one of the region's arrays (give every array the nests use to the Region)");
        const auto i = static_cast<std::size_t>(found);
        const ArrayDesc& r = descs_[i];
        if (r.elem != a.elem)
            throw Error("recipe: " + where() + ": " + a.kind + " " + std::to_string(a.index) + " has elements of " +
                        std::to_string(a.elem) + " bytes; the region holds that array with " + std::to_string(r.elem));
        if ((a.host - r.host) % r.elem != 0)
            throw Error("recipe: " + where() + ": " + a.kind + " " + std::to_string(a.index) +
                        " starts inside an element of a region's array");
        return i;
    }

    Config cfg_;
    std::vector<ArrayDesc> descs_;  // the whole host arrays
    std::vector<bool> copy_in_, copy_out_;
    std::vector<Box> written_first_;  // per array: Resident::written_first
    // Per array: its written_first box is copied in after all, its first
    // launch not writing it whole (pipelined: known before the copies in).
    std::vector<bool> late_;
    std::vector<bool> first_named_;   // per array: a launch has named it
    // Written by some run: only those are copied out (a loop that ran no
    // step leaves every host array as it was, as the C loop does, even one
    // the region never copied in).
    std::vector<bool> written_;
    // Written since their halo rows were last exchanged (several GPUs).
    std::vector<bool> dirty_;
    std::vector<std::unique_ptr<RegionPart>> parts_;  // one per GPU
    int split_ = 0;                 // the dimension the GPUs' rows are cut along
    std::int64_t row_elements_ = 1; // elements of one row along it
    bool first_ = false;            // several GPUs: the region's first run in the process
    double startup_ = 0;            // CUDA's start-up waited for before the parts (the engine counts it on one GPU)
    Clock::time_point t_start_;
    bool finished_ = false;
    struct TraceMark {
        const char* what;
        std::int64_t chunk;
        double ms;  // since the region began
    };
    bool tracing_ = [] {
        const char* v = std::getenv("RECIPE_TRACE");
        return v && *v && std::string(v) != "0";
    }();
    std::vector<TraceMark> trace_;
    // Pipelined (Config::pipelined_launches > 0): the runs, kept until finish().
    bool pipelined_ = false;
    int chunked_ = 0;  // the dimension the chunks cut
    std::vector<PipelinedLaunch> recorded_;
    // Ghost zones (Config::ghost_launches > 0): the runs of the pass under way.
    bool ghost_ = false;
    std::vector<GhostLaunch> pending_;
    Measured ghost_measured_{};
    std::int64_t ghost_tiles_ = 0, ghost_passes_ = 0;
};

}  // namespace recipe::detail

#include "recipe/detail/region_ghost.cuh"
#include "recipe/detail/region_pipelined.cuh"
