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

#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/engine.cuh"
#include "recipe/detail/pipeline.cuh"

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

class RegionImpl {
public:
    explicit RegionImpl(const Config& cfg) : cfg_(cfg) {
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

    void add(char* host, std::int64_t elem, bool copy_in, bool copy_out) {
        ArrayDesc a;
        a.host = host;
        a.elem = elem;
        a.role = Role::InOut;  // staging buffers of one chunk, no halo
        a.kind = "resident array";
        a.index = static_cast<int>(descs_.size());
        descs_.push_back(a);
        copy_in_.push_back(copy_in);
        copy_out_.push_back(copy_out);
    }

    // Allocates, then queues the copies in, chunk by chunk over the streams.
    void start() {
        engine_ = std::make_unique<Engine>(cfg_, std::move(descs_), true);
        Engine& e = *engine_;
        const std::int64_t chunks = e.grid().tile_count();
        e.setup(2 * chunks + 1);  // timing entries: the chunks in, the kernels, the chunks out
        for (const ArrayDesc& a : e.arrays()) place_.push_back(e.place(a, 0, 0));
        written_.assign(place_.size(), false);
        for (std::int64_t k = 0; k < chunks; ++k, ++entry_) {
            const int s = static_cast<int>(k % e.stream_count());
            e.wait_slot_free(s, k);
            e.mark(entry_, PhaseEvents::kStart, s);
            for (std::size_t i = 0; i < place_.size(); ++i)
                if (copy_in_[i]) e.copy_in(i, e.grid().core(k), place_[i], s, k);
            e.mark(entry_, PhaseEvents::kInDone, s);
            e.mark(entry_, PhaseEvents::kKernelStart, s);
            e.mark(entry_, PhaseEvents::kKernelDone, s);
            e.mark(entry_, PhaseEvents::kOutDone, s);
            if (e.staging()) e.mark_done(s, k);
        }
        // The kernels (stream 0) wait for every chunk.
        e.join_streams();
        kernel_entry_ = entry_++;
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
        Engine& e = *engine_;
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
        std::vector<Placement> p;
        std::vector<ArrayDesc> named;
        describe_inputs(ins, std::index_sequence_for<I...>{}, &named);
        describe_outputs(outs, std::index_sequence_for<O...>{}, &named);
        for (std::size_t j = 0; j < named.size(); ++j) {
            const std::size_t i = resident(named[j], where);
            // A part of the array (`ey[0]`, one row) is at its own offset in
            // the device copy, which mirrors the host array.
            Placement part = place_[i];
            part.device += named[j].host - engine_->arrays()[i].host;
            p.push_back(part);
            if (named[j].role != Role::In) written_[i] = true;  // an output
        }
        if (!kernels_marked_) {
            e.mark(kernel_entry_, PhaseEvents::kStart, 0);
            e.mark(kernel_entry_, PhaseEvents::kInDone, 0);
            e.mark(kernel_entry_, PhaseEvents::kKernelStart, 0);
            kernels_marked_ = true;
        }
        for (int d = 0; d < 3; ++d)
            if (space.extent(d) <= 0) return;
        // One launch over the space; slabs along z (then y) where it needs
        // more blocks than CUDA allows in one grid.
        const dim3 b = nest.block;
        const std::int64_t gx = ceil_div(space.extent(0), b.x);
        if (gx > INT_MAX)
            throw Error("recipe: " + where() + ": the space needs " + std::to_string(gx) +
                        " blocks in x, more than CUDA allows; use a wider block");
        const std::int64_t rows_y = 65535LL * b.y, rows_z = 65535LL * b.z;
        for (std::int64_t z0 = space.begin[2]; z0 < space.end[2]; z0 += rows_z)
            for (std::int64_t y0 = space.begin[1]; y0 < space.end[1]; y0 += rows_y) {
                Box slab = space;
                slab.begin[1] = y0;
                slab.end[1] = std::min(space.end[1], y0 + rows_y);
                slab.begin[2] = z0;
                slab.end[2] = std::min(space.end[2], z0 + rows_z);
                const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(ceil_div(slab.extent(1), b.y)),
                                static_cast<unsigned>(ceil_div(slab.extent(2), b.z)));
                launch_pass(kernel, grid, b, e.stream(0), make_tile(slab, 0, 1), p, TypeList<I...>{}, TypeList<O...>{},
                            std::index_sequence_for<I...>{}, std::index_sequence_for<O...>{}, args...);
                e.check_launch(where);
            }
    }

    Measured finish() {
        if (finished_) throw Error("recipe: " + region_name() + ": finish() called twice");
        finished_ = true;
        deactivate();
        Engine& e = *engine_;
        if (!kernels_marked_) {
            e.mark(kernel_entry_, PhaseEvents::kStart, 0);
            e.mark(kernel_entry_, PhaseEvents::kInDone, 0);
            e.mark(kernel_entry_, PhaseEvents::kKernelStart, 0);
        }
        e.mark(kernel_entry_, PhaseEvents::kKernelDone, 0);
        e.mark(kernel_entry_, PhaseEvents::kOutDone, 0);
        // The copies out (every stream) wait for the kernels.
        e.join_streams();
        const std::int64_t chunks = e.grid().tile_count();
        for (std::int64_t k = 0; k < chunks; ++k, ++entry_) {
            const int s = static_cast<int>(k % e.stream_count());
            e.wait_slot_free(s, k);
            e.mark(entry_, PhaseEvents::kStart, s);
            e.mark(entry_, PhaseEvents::kInDone, s);
            e.mark(entry_, PhaseEvents::kKernelStart, s);
            e.mark(entry_, PhaseEvents::kKernelDone, s);
            for (std::size_t i = 0; i < place_.size(); ++i)
                if (copy_out_[i] && written_[i]) e.copy_out(i, e.grid().core(k), place_[i], s, k);
            e.mark(entry_, PhaseEvents::kOutDone, s);
            if (e.staging()) {
                e.mark_done(s, k);
                if (k + 1 >= e.stream_count()) e.unpack_slot_if_done(static_cast<int>((k + 1) % e.stream_count()));
            }
        }
        e.finish(entry_);
        Measured m = e.measured();
        engine_.reset();
        return m;
    }

private:
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
        const auto& arrays = engine_->arrays();
        const std::int64_t elements = cfg_.extents[0] * cfg_.extents[1] * cfg_.extents[2];
        for (std::size_t i = 0; i < arrays.size(); ++i)
            if (host >= arrays[i].host && host < arrays[i].host + elements * arrays[i].elem)
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
        const ArrayDesc& r = engine_->arrays()[i];
        if (r.elem != a.elem)
            throw Error("recipe: " + where() + ": " + a.kind + " " + std::to_string(a.index) + " has elements of " +
                        std::to_string(a.elem) + " bytes; the region holds that array with " + std::to_string(r.elem));
        if ((a.host - r.host) % r.elem != 0)
            throw Error("recipe: " + where() + ": " + a.kind + " " + std::to_string(a.index) +
                        " starts inside an element of a region's array");
        return i;
    }

    Config cfg_;  // before engine_, which keeps a reference to it
    std::vector<ArrayDesc> descs_;
    std::vector<bool> copy_in_, copy_out_;
    // Written by some run: only those are copied out (a loop that ran no
    // step leaves every host array as it was, as the C loop does, even one
    // the region never copied in).
    std::vector<bool> written_;
    std::unique_ptr<Engine> engine_;
    std::vector<Placement> place_;
    std::int64_t entry_ = 0;
    std::int64_t kernel_entry_ = 0;
    bool kernels_marked_ = false;
    bool finished_ = false;
};

}  // namespace recipe::detail
