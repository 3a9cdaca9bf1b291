// detail/pipeline.cuh — one pass of a loop nest over its tiles (recipe::run):
// per tile, copy in, kernel, copy out, on stream k % streams (thesis §6.2,
// figures 6.2, 6.3 and 6.7).
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/engine.cuh"

namespace recipe::detail {

template <class... T>
struct TypeList {};

template <class... I, std::size_t... II>
void describe_inputs(const Inputs<I...>& ins, std::index_sequence<II...>, std::vector<ArrayDesc>* out) {
    (out->push_back([&] {
        ArrayDesc a;
        const auto& in = std::get<II>(ins.arrays);
        a.host = const_cast<char*>(reinterpret_cast<const char*>(in.host));
        a.elem = static_cast<std::int64_t>(sizeof(I));
        a.halo = in.halo;
        a.role = Role::In;
        a.kind = "input";
        a.index = static_cast<int>(II);
        return a;
    }()),
     ...);
}

template <class... O, std::size_t... OI>
void describe_outputs(const Outputs<O...>& outs, std::index_sequence<OI...>, std::vector<ArrayDesc>* out) {
    (out->push_back([&] {
        ArrayDesc a;
        const auto& o = std::get<OI>(outs.arrays);
        a.host = reinterpret_cast<char*>(o.host);
        a.elem = static_cast<std::int64_t>(sizeof(O));
        a.role = o.copy_in ? Role::InOut : Role::Out;
        a.written_back = true;
        a.kind = "output";
        a.index = static_cast<int>(OI);
        return a;
    }()),
     ...);
}

template <class... KP, class... I, class... O, std::size_t... II, std::size_t... OI, class... A>
void launch_pass(void (*kernel)(KP...), dim3 grid, dim3 block, cudaStream_t stream, const Tile& tile,
                 const std::vector<Placement>& p, TypeList<I...>, TypeList<O...>, std::index_sequence<II...>,
                 std::index_sequence<OI...>, A&... args) {
    kernel<<<grid, block, 0, stream>>>(tile, in_view<I>(p[II])..., out_view<O>(p[sizeof...(I) + OI])..., args...);
}

inline bool space_is_empty(const Config& cfg) {
    const Box sp = cfg.iteration_space();
    return sp.extent(0) < 1 || sp.extent(1) < 1 || sp.extent(2) < 1;
}

template <class... KP, class... I, class... O, class... A>
Measured run_pass(const Config& cfg, const CallStart* start, void (*kernel)(KP...), Inputs<I...> ins, Outputs<O...> outs,
                  A&&... args) {
    static_assert(sizeof...(KP) == 1 + sizeof...(I) + sizeof...(O) + sizeof...(A),
                  "recipe::run: the kernel must take a recipe::Tile, one InView per input, one OutView per output, "
                  "then exactly the extra arguments given to run");
    static_assert((std::is_trivially_copyable<I>::value && ...) && (std::is_trivially_copyable<O>::value && ...),
                  "recipe::run: array elements must be trivially copyable");
    if (space_is_empty(cfg)) return Measured{-1, -1, -1, -1, 0, -1, 0, 0, 0, 0, 0};
    std::vector<ArrayDesc> arrays;
    describe_inputs(ins, std::index_sequence_for<I...>{}, &arrays);
    describe_outputs(outs, std::index_sequence_for<O...>{}, &arrays);

    Engine e(cfg, std::move(arrays), false);
    if (start) e.count_from(*start);
    const TileGrid& g = e.grid();
    const std::int64_t tiles = g.tile_count();
    const int streams = e.stream_count();
    e.setup(tiles);
    const std::vector<ArrayDesc>& a = e.arrays();
    std::vector<Placement> place(a.size());
    for (std::int64_t k = 0; k < tiles; ++k) {
        const int s = static_cast<int>(k % streams);
        e.wait_slot_free(s, k);
        e.mark(k, PhaseEvents::kStart, s);
        for (std::size_t i = 0; i < a.size(); ++i) {
            place[i] = e.place(a[i], k, s);
            e.copy_in(i, e.box_in(a[i], k), place[i], s, k);
        }
        e.mark(k, PhaseEvents::kInDone, s);
        if (e.layout() == Engine::Layout::Full && tiles > 1 && streams > 1) {
            e.mark_inputs_ready(s, k);
            e.wait_for_earlier_inputs(s, k);
        }
        e.mark(k, PhaseEvents::kKernelStart, s);
        const Box core = g.core(k);
        const auto where = e.where_tile(k);
        launch_pass(kernel, e.grid_for(core, where), cfg.block, e.stream(s), make_tile(core, k, tiles), place,
                    TypeList<I...>{}, TypeList<O...>{}, std::index_sequence_for<I...>{},
                    std::index_sequence_for<O...>{}, args...);
        e.check_launch(where);
        e.mark(k, PhaseEvents::kKernelDone, s);
        for (std::size_t i = sizeof...(I); i < a.size(); ++i) e.copy_out(i, core, place[i], s, k);
        e.mark(k, PhaseEvents::kOutDone, s);
        if (e.staging()) {
            e.mark_done(s, k);
            // Move the oldest tile in flight out of its pinned buffers if
            // the GPU is done with it; never wait for it here.
            if (k + 1 >= streams) e.unpack_slot_if_done(static_cast<int>((k + 1) % streams));
        }
    }
    e.finish(tiles);
    return e.measured();
}

}  // namespace recipe::detail
