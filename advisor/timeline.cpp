// A picture of the pipeline: the typical tile's steps laid out on the
// engines in the order the schemes issue them (thesis Figures 6.9-6.13).
#include <algorithm>
#include <vector>

#include "advisor/pipeline.h"
#include "advisor/plan.h"

namespace recipe::advisor {

namespace {

// The engines' clocks (when each is next free) while the tiles are laid out.
class Engines {
public:
    Engines(const TileTimes& t, bool one_engine, double stretch, double setup, std::int64_t n,
            std::vector<TimelineEvent>* ev)
        : t_(t), one_engine_(one_engine), stretch_(stretch), ev_(ev), host_free_(setup), h2d_free_(setup),
          d2h_free_(setup), kernel_free_(setup), in_end_(static_cast<std::size_t>(n)),
          k_end_(static_cast<std::size_t>(n)), done_(static_cast<std::size_t>(n)) {}

    // Tile i of n, once its buffer is free: packed on the host, copied in
    // (stretched in the steady state), computed.
    void in_and_kernel(std::int64_t i, std::int64_t n, double free_buffer) {
        const auto u = static_cast<std::size_t>(i);
        double ready = std::max(free_buffer, host_free_);
        if (t_.buffer_in > 0) {
            ev_->push_back({"host", i, ready, ready + t_.buffer_in});
            ready += t_.buffer_in;
            host_free_ = ready;
        }
        const double in_len = t_.transfer_in * ((i > 0 && i + 1 < n) ? stretch_ : 1);
        const double in_start = std::max(ready, h2d_free_);
        in_end_[u] = in_start + in_len;
        if (t_.transfer_in > 0) ev_->push_back({"H2D", i, in_start, in_end_[u]});
        h2d_free_ = in_end_[u];
        if (one_engine_) d2h_free_ = std::max(d2h_free_, h2d_free_);
        const double k_start = std::max(in_end_[u], kernel_free_);
        k_end_[u] = k_start + t_.kernel;
        ev_->push_back({"kernel", i, k_start, k_end_[u]});
        kernel_free_ = k_end_[u];
    }

    // Tile v's output, `len` long, copied out after its kernel, then unpacked.
    void out(std::int64_t v, double len) {
        const auto u = static_cast<std::size_t>(v);
        const double start = std::max(k_end_[u], one_engine_ ? h2d_free_ : d2h_free_);
        const double out_end = start + len;
        if (t_.transfer_out > 0) ev_->push_back({"D2H", v, start, out_end});
        d2h_free_ = out_end;
        if (one_engine_) h2d_free_ = out_end;
        done_[u] = out_end;
        if (t_.buffer_out > 0) {
            const double bs = std::max(out_end, host_free_);
            ev_->push_back({"host", v, bs, bs + t_.buffer_out});
            host_free_ = bs + t_.buffer_out;
            done_[u] = host_free_;
        }
    }

    // When tile v's buffer is free again.
    double done(std::int64_t v) const { return done_[static_cast<std::size_t>(v)]; }

private:
    const TileTimes& t_;
    bool one_engine_;
    double stretch_;
    std::vector<TimelineEvent>* ev_;
    double host_free_, h2d_free_, d2h_free_, kernel_free_;
    std::vector<double> in_end_, k_end_, done_;
};

}  // namespace

std::vector<TimelineEvent> timeline(const Prediction& p, const Platform& platform, std::int64_t max_tiles) {
    std::vector<TimelineEvent> ev;
    const double setup = p.phases.alloc + p.phases.host_register;
    if (setup > 0) ev.push_back({"host", -1, 0, setup});
    const std::int64_t n = max_tiles > 0 ? std::min(p.tiles, max_tiles) : p.tiles;
    const TileTimes& t = p.typical_tile;
    if (!recipe::copies_tiles(p.config.scheme)) {
        // seed 003 eq. 5.6: everything at once.
        ev.push_back({"H2D", 0, setup, setup + t.transfer_in});
        ev.push_back({"kernel", 0, setup, setup + t.kernel});
        ev.push_back({"D2H", 0, setup, setup + t.transfer_out});
        return ev;
    }
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
    Engines engines(t, one_engine, stretch, setup, n, &ev);
    for (std::int64_t i = 0; i < n; ++i) {
        engines.in_and_kernel(i, n, i >= buffers ? engines.done(i - buffers) : setup);
        // The output of the previous tile goes out once this tile's input is
        // issued (the thesis's single-engine order: in i, out i-1).
        if (i > 0) engines.out(i - 1, t.transfer_out * (i - 1 > 0 ? stretch : 1));
    }
    if (n > 0) {
        engines.out(n - 1, t.transfer_out);
        if (p.phases.host_unregister > 0)
            ev.push_back({"host", -1, engines.done(n - 1), engines.done(n - 1) + p.phases.host_unregister});
    }
    std::stable_sort(ev.begin(), ev.end(), [](const TimelineEvent& a, const TimelineEvent& b) { return a.start_ms < b.start_ms; });
    return ev;
}

}  // namespace recipe::advisor
