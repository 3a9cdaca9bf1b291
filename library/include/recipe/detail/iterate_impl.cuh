// detail/iterate_impl.cuh — recipe::iterate: an iterative stencil loop with
// both arrays kept on the device between steps (seed 002's setting, without
// its ghost-zone trapezoids). Step 1 is pipelined with the copies in, the
// last step with the copies out; the steps between are whole-space launches.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "recipe/arrays.cuh"
#include "recipe/config.cuh"
#include "recipe/detail/engine.cuh"
#include "recipe/detail/pipeline.cuh"

namespace recipe::detail {

template <class T, class... KP, class... I, std::size_t... II, class... A>
void launch_step(TypeList<T>, void (*kernel)(KP...), dim3 grid, dim3 block, cudaStream_t stream, const Tile& tile,
                 const Placement& cur, const std::vector<Placement>& more, const Placement& next, TypeList<I...>,
                 std::index_sequence<II...>, A&... args) {
    kernel<<<grid, block, 0, stream>>>(tile, in_view<T>(cur), in_view<I>(more[II])..., out_view<T>(next), args...);
}

template <class... KP, class T, class... I, class... A>
T* run_iterations(const Config& cfg, std::int64_t steps, void (*kernel)(KP...), PingPong<T> pair, Inputs<I...> more,
                  A&&... args) {
    static_assert(sizeof...(KP) == 3 + sizeof...(I) + sizeof...(A),
                  "recipe::iterate: the kernel must take a recipe::Tile, the InView read, one InView per further "
                  "input, the OutView written, then exactly the extra arguments given to iterate");
    T* const result_host = steps % 2 == 1 ? pair.b : pair.a;
    if (steps <= 0 || space_is_empty(cfg)) return steps <= 0 ? pair.a : result_host;

    std::vector<ArrayDesc> arrays(2);
    arrays[0].host = reinterpret_cast<char*>(pair.a);
    arrays[0].halo = pair.halo;
    arrays[0].role = Role::In;
    arrays[0].kind = "array a";
    arrays[1].host = reinterpret_cast<char*>(pair.b);
    arrays[1].halo = pair.halo;
    arrays[1].role = Role::Out;
    arrays[1].kind = "array b";
    arrays[0].written_back = arrays[1].written_back = true;  // the result is copied out into one of them
    arrays[0].elem = arrays[1].elem = static_cast<std::int64_t>(sizeof(T));
    describe_inputs(more, std::index_sequence_for<I...>{}, &arrays);

    Engine e(cfg, std::move(arrays), true);
    const TileGrid& g = e.grid();
    const std::int64_t tiles = g.tile_count();
    const int streams = e.stream_count();
    const std::int64_t middle = steps > 2 ? steps - 2 : 0;
    const std::int64_t timed = tiles * (steps == 1 ? 1 : 2) + middle;
    e.setup(timed);
    const std::vector<ArrayDesc>& a = e.arrays();
    std::vector<Placement> place(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) place[i] = e.place(a[i], 0, 0);  // full arrays: same for every tile
    const std::vector<Placement> more_place(place.begin() + 2, place.end());
    const Box space = e.space();
    const std::size_t result = steps % 2 == 1 ? 1 : 0;
    auto cur_of = [&](std::int64_t step) -> const Placement& { return place[step % 2 == 1 ? 0 : 1]; };
    auto next_of = [&](std::int64_t step) -> const Placement& { return place[step % 2 == 1 ? 1 : 0]; };
    auto launch = [&](std::int64_t step, const Box& core, std::int64_t k, std::int64_t count, int s) {
        const auto where = [&e, step, k, count] {
            return e.nest() + ", step " + std::to_string(step) + ", tile " + std::to_string(k) + " of " +
                   std::to_string(count);
        };
        launch_step(TypeList<T>{}, kernel, e.grid_for(core, where), cfg.block, e.stream(s), make_tile(core, k, count),
                              cur_of(step), more_place, next_of(step), TypeList<I...>{},
                              std::index_sequence_for<I...>{}, args...);
        e.check_launch(where);
    };

    // The written array's boundary (inside the halo, outside the space) is
    // read from step 2 on: it must hold the host's values, as in the C program.
    if (steps >= 2) {
        Box reach = space;
        for (int d = 0; d < 3; ++d) {
            reach.begin[d] = std::max<std::int64_t>(0, space.begin[d] - pair.halo.lo[d]);
            reach.end[d] = std::min(cfg.extents[d], space.end[d] + pair.halo.hi[d]);
        }
        for (const Box& b : frame_boxes(reach, space)) e.copy_direct(1, b, place[1], 0, true);
    }

    // Step 1, pipelined with the copies in (and out, when it is the only step).
    std::int64_t entry = 0;
    for (std::int64_t k = 0; k < tiles; ++k, ++entry) {
        const int s = static_cast<int>(k % streams);
        e.wait_slot_free(s, k);
        e.mark(entry, PhaseEvents::kStart, s);
        for (std::size_t i = 0; i < a.size(); ++i)
            if (i != 1) e.copy_in(i, g.fresh_input(k, a[i].halo), place[i], s, k);
        e.mark(entry, PhaseEvents::kInDone, s);
        if (tiles > 1 && streams > 1) {
            e.mark_inputs_ready(s, k);
            e.wait_for_earlier_inputs(s, k);
        }
        e.mark(entry, PhaseEvents::kKernelStart, s);
        launch(1, g.core(k), k, tiles, s);
        e.mark(entry, PhaseEvents::kKernelDone, s);
        if (steps == 1) e.copy_out(result, g.core(k), place[result], s, k);
        e.mark(entry, PhaseEvents::kOutDone, s);
        if (e.staging()) {
            e.mark_done(s, k);
            if (k + 1 >= streams) e.unpack_slot_if_done(static_cast<int>((k + 1) % streams));
        }
    }
    if (steps >= 2) {
        e.join_streams();
        // Middle steps: one launch over the space when the grid allows, else tile by tile.
        bool whole = true;
        try {
            (void)e.grid_for(space, [] { return std::string(); });
        } catch (const Error&) {
            whole = false;
        }
        for (std::int64_t step = 2; step < steps; ++step, ++entry) {
            e.mark(entry, PhaseEvents::kStart, 0);
            e.mark(entry, PhaseEvents::kInDone, 0);
            e.mark(entry, PhaseEvents::kKernelStart, 0);
            if (whole)
                launch(step, space, 0, 1, 0);
            else
                for (std::int64_t k = 0; k < tiles; ++k) launch(step, g.core(k), k, tiles, 0);
            e.mark(entry, PhaseEvents::kKernelDone, 0);
            e.mark(entry, PhaseEvents::kOutDone, 0);
        }
        e.join_streams();
        // The last step, pipelined with the copies out.
        for (std::int64_t k = 0; k < tiles; ++k, ++entry) {
            const int s = static_cast<int>(k % streams);
            e.wait_slot_free(s, k);
            e.mark(entry, PhaseEvents::kStart, s);
            e.mark(entry, PhaseEvents::kInDone, s);
            e.mark(entry, PhaseEvents::kKernelStart, s);
            launch(steps, g.core(k), k, tiles, s);
            e.mark(entry, PhaseEvents::kKernelDone, s);
            e.copy_out(result, g.core(k), place[result], s, k);
            e.mark(entry, PhaseEvents::kOutDone, s);
            if (e.staging()) {
                e.mark_done(s, k);
                if (k + 1 >= streams) e.unpack_slot_if_done(static_cast<int>((k + 1) % streams));
            }
        }
    }
    e.finish(entry);
    return result_host;
}

}  // namespace recipe::detail
