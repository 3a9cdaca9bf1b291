// A picture of the pipeline: the typical tile's steps laid out on the
// engines in the order the schemes issue them (thesis Figures 6.9-6.13).
#include <algorithm>
#include <vector>

#include "advisor/pipeline.h"
#include "advisor/plan.h"

namespace recipe::advisor {

std::vector<TimelineEvent> timeline(const Prediction& p, const Platform& platform, std::int64_t max_tiles) {
    std::vector<TimelineEvent> ev;
    const double setup = p.phases.alloc + p.phases.host_register;
    if (setup > 0) ev.push_back({"host", -1, 0, setup});
    const std::int64_t n = max_tiles > 0 ? std::min(p.tiles, max_tiles) : p.tiles;
    const TileTimes& t = p.typical_tile;
    const bool mapped = !recipe::copies_tiles(p.config.scheme);
    const bool one_engine = platform.copy_engines < 2 || p.host_strategy == HostStrategy::PageableCopy;
    const std::int64_t buffers =
        scheme_traits(p.config.scheme).inputs == recipe::Residence::TileBuffers ? std::max(1, p.config.streams) : n;
    // Two copy engines working at once share the link (thesis §6.4.4): the
    // picture stretches both copies of a steady-state step by the factor
    // the duplex formula gives.
    double stretch = 1;
    if (!one_engine && t.transfer_in > 0 && t.transfer_out > 0 && n > 2) {
        PipelineShape s;
        s.copy_engines = 2;
        s.duplex_factor = platform.duplex_factor;
        stretch = copy_pair(t.transfer_in, t.transfer_out, s) / std::max(t.transfer_in, t.transfer_out);
    }

    double host_free = setup, h2d_free = setup, d2h_free = setup, kernel_free = setup;
    std::vector<double> in_end(static_cast<std::size_t>(n)), k_end(static_cast<std::size_t>(n)),
        out_end(static_cast<std::size_t>(n)), done(static_cast<std::size_t>(n));
    if (mapped) {
        // seed 003 eq. 5.6: everything at once.
        ev.push_back({"H2D", 0, setup, setup + t.transfer_in});
        ev.push_back({"kernel", 0, setup, setup + t.kernel});
        ev.push_back({"D2H", 0, setup, setup + t.transfer_out});
        return ev;
    }
    for (std::int64_t i = 0; i < n; ++i) {
        const auto u = static_cast<std::size_t>(i);
        const double free_buffer = i >= buffers ? done[static_cast<std::size_t>(i - buffers)] : setup;
        double ready = std::max(free_buffer, host_free);
        if (t.buffer_in > 0) {
            ev.push_back({"host", i, ready, ready + t.buffer_in});
            ready += t.buffer_in;
            host_free = ready;
        }
        const double in_len = t.transfer_in * ((i > 0 && i + 1 < n) ? stretch : 1);
        double& in_engine = h2d_free;
        const double in_start = std::max(ready, in_engine);
        in_end[u] = in_start + in_len;
        if (t.transfer_in > 0) ev.push_back({"H2D", i, in_start, in_end[u]});
        in_engine = in_end[u];
        if (one_engine) d2h_free = std::max(d2h_free, in_engine);
        const double k_start = std::max(in_end[u], kernel_free);
        k_end[u] = k_start + t.kernel;
        ev.push_back({"kernel", i, k_start, k_end[u]});
        kernel_free = k_end[u];
        // The output of the previous tile goes out once this tile's input is
        // issued (the thesis's single-engine order: in i, out i-1).
        if (i > 0) {
            const auto v = u - 1;
            const double out_len = t.transfer_out * (i - 1 > 0 ? stretch : 1);
            const double start = std::max(k_end[v], one_engine ? h2d_free : d2h_free);
            out_end[v] = start + out_len;
            if (t.transfer_out > 0) ev.push_back({"D2H", i - 1, start, out_end[v]});
            d2h_free = out_end[v];
            if (one_engine) h2d_free = out_end[v];
            done[v] = out_end[v];
            if (t.buffer_out > 0) {
                const double bs = std::max(out_end[v], host_free);
                ev.push_back({"host", i - 1, bs, bs + t.buffer_out});
                host_free = bs + t.buffer_out;
                done[v] = host_free;
            }
        }
    }
    if (n > 0) {
        const auto v = static_cast<std::size_t>(n - 1);
        const double start = std::max(k_end[v], one_engine ? h2d_free : d2h_free);
        out_end[v] = start + t.transfer_out;
        if (t.transfer_out > 0) ev.push_back({"D2H", n - 1, start, out_end[v]});
        done[v] = out_end[v];
        if (t.buffer_out > 0) {
            const double bs = std::max(out_end[v], host_free);
            ev.push_back({"host", n - 1, bs, bs + t.buffer_out});
            done[v] = bs + t.buffer_out;
        }
        if (p.phases.host_unregister > 0) ev.push_back({"host", -1, done[v], done[v] + p.phases.host_unregister});
    }
    std::stable_sort(ev.begin(), ev.end(), [](const TimelineEvent& a, const TimelineEvent& b) { return a.start_ms < b.start_ms; });
    return ev;
}

}  // namespace recipe::advisor
