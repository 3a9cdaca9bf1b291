#include "advisor/pipeline.h"

#include <algorithm>

namespace recipe::advisor {

using std::max;
using std::min;

double copy_pair(double in, double out, const PipelineShape& s) {
    // thesis §6.4.4, dual copy engines: the overlap runs at (1 + duplex)
    // times one copy's time, the rest of the longer copy at full speed.
    if (s.copy_engines >= 2) return max(in, out) + s.duplex_factor * min(in, out);
    return in + out;  // thesis §6.4.4, single copy engine
}

namespace {

// A steady tile's copies both ways at once: the pair, and what its copy out
// loses beside the copies in where both directions run at once.
double step_copies(const StepTimes& t, const PipelineShape& s) {
    return copy_pair(t.in, t.out, s) + (s.copy_engines >= 2 ? t.out_beside : 0);
}

// One buffer's whole journey: packing, copy in, kernel, copy out,
// unpacking. With streams_in_order the copies meet the other streams'
// opposite copies (thesis §6.4.4's duplex factor applies to them).
double journey(const StepTimes& t, const PipelineShape& s) {
    const bool contended = s.streams_in_order && s.copy_engines >= 2 && s.buffers >= 2;
    const double slow = contended ? 1 + s.duplex_factor : 1;
    return (t.in + t.out) * slow + (contended ? t.out_beside : 0) + t.kernel + t.buffer_in + t.buffer_out;
}

}  // namespace

double steady_step(const StepTimes& t, const PipelineShape& s) {
    return max({step_copies(t, s), t.kernel, journey(t, s) / max(1, s.buffers), t.issue});
}

double steady_step_buffered(const StepTimes& t, const PipelineShape& s) {
    // thesis §6.4.4, buffered: the host stages one tile in and another out;
    // our library's host thread also issues the tile's calls in between.
    const double host = t.buffer_in + t.buffer_out + (s.serial_host ? t.issue : 0);
    return max({host, step_copies(t, s), t.kernel, journey(t, s) / max(1, s.buffers), t.issue});
}

namespace {

std::int64_t tile_count(const std::vector<WeightedSteps>& tiles) {
    std::int64_t n = 0;
    for (const auto& w : tiles) n += w.count;
    return n;
}

template <typename Step>
double steady_sum(const std::vector<WeightedSteps>& tiles, Step step) {
    double sum = 0;
    for (const auto& w : tiles) sum += static_cast<double>(w.count) * step(w.t);
    return sum;
}

}  // namespace

double thesis_pipeline(const std::vector<WeightedSteps>& tiles, const StepTimes& first, const StepTimes& last,
                       const PipelineShape& s) {
    const std::int64_t n = tile_count(tiles);
    if (n <= 0) return 0;
    if (n == 1) return first.buffer_in + first.in + first.kernel + first.out + first.buffer_out;
    auto step = [&](const StepTimes& t) { return steady_step(t, s); };
    // Start-up: the first tile comes in alone, then in and kernel overlap.
    const double startup = first.in + max(first.in, first.kernel);
    // Shutdown: kernel and out overlap, then the last tile goes out alone.
    const double shutdown = max(last.kernel, last.out) + last.out;
    // (n - 2) steady steps: all tiles' steps less the first and last tile's.
    const double formula = startup + steady_sum(tiles, step) - step(first) - step(last) + shutdown;
    if (!s.engine_floors) return formula;
    const double all_in = steady_sum(tiles, [](const StepTimes& t) { return t.in; });
    const double all_kernel = steady_sum(tiles, [](const StepTimes& t) { return t.kernel; });
    const double all_out = steady_sum(tiles, [](const StepTimes& t) { return t.out; });
    return max({formula, all_in + last.kernel + last.out, first.in + all_kernel + last.out,
                first.in + first.kernel + all_out});
}

double busiest_engine(const std::vector<WeightedSteps>& tiles, const PipelineShape& s) {
    double host = 0, h2d = 0, d2h = 0, kernel = 0;
    for (const auto& w : tiles) {
        const double c = static_cast<double>(w.count);
        host += c * (w.t.buffer_in + w.t.buffer_out);
        h2d += c * w.t.in;
        d2h += c * w.t.out;
        kernel += c * w.t.kernel;
    }
    return s.copy_engines < 2 ? max({host, h2d + d2h, kernel}) : max({host, h2d, d2h, kernel});
}

double thesis_buffered_pipeline(const std::vector<WeightedSteps>& tiles, const StepTimes& first, const StepTimes& last,
                                const PipelineShape& s) {
    const std::int64_t n = tile_count(tiles);
    if (n <= 0) return 0;
    auto step = [&](const StepTimes& t) { return steady_step_buffered(t, s); };
    const StepTimes& f = first;
    const StepTimes& l = last;
    if (n < 4) {
        const double journey = f.buffer_in + f.in + f.kernel + f.out + f.buffer_out;
        return journey + steady_sum(tiles, step) - step(f);
    }
    const double startup = f.buffer_in + max(f.buffer_in, f.in) + max({f.buffer_in, f.in, f.kernel}) +
                           max({f.buffer_in, copy_pair(f.in, f.out, s), f.kernel});
    const double shutdown = max({l.buffer_out, copy_pair(l.in, l.out, s), l.kernel}) +
                            max({l.buffer_out, l.out, l.kernel}) + max(l.buffer_out, l.out) + l.buffer_out;
    // (n - 4) steady steps: the start-up and shutdown replace the steps of
    // the first two and the last two tiles. Which class the second and the
    // second-last tile are in is not known here. Taking them for copies of
    // the first and the last (the thesis's uniform tiles) can subtract more
    // than the other tiles hold and go below zero, when the edge tiles cost
    // more than the rest (a 4-tile grid whose edge tiles pack 27 times more).
    // The other n - 2 tiles at their mean step are a floor for it: the
    // middle is never less than (n - 4) of those.
    const double others = steady_sum(tiles, step) - step(f) - step(l);
    const double uniform = others - step(f) - step(l);
    const double mean = others * static_cast<double>(n - 4) / static_cast<double>(n - 2);
    return startup + max(uniform, mean) + shutdown;
}

double two_stage_pipeline(const std::vector<WeightedSteps>& tiles, const StepTimes& first, const StepTimes& last,
                          double StepTimes::*a, double StepTimes::*b) {
    const std::int64_t n = tile_count(tiles);
    if (n <= 0) return 0;
    auto step = [&](const StepTimes& t) { return max(t.*a, t.*b); };
    const double formula = first.*a + steady_sum(tiles, step) - step(first) + last.*b;
    // Tiles of unequal size (a thin last one) can price the formula below
    // either stage's busy time: no pipeline ends before its busiest stage
    // has done all its tiles and the other its one tile before or after.
    const double all_a = steady_sum(tiles, [&](const StepTimes& t) { return t.*a; });
    const double all_b = steady_sum(tiles, [&](const StepTimes& t) { return t.*b; });
    return max({formula, all_a + last.*b, first.*a + all_b});
}

const char* to_string(StreamsEquation e) {
    switch (e) {
        case StreamsEquation::Eq51: return "seed 003 eq. 5.1";
        case StreamsEquation::Eq52: return "seed 003 eq. 5.2";
        case StreamsEquation::Eq53: return "seed 003 eq. 5.3";
        case StreamsEquation::Eq54: return "seed 003 eq. 5.4";
        case StreamsEquation::Eq55: return "seed 003 eq. 5.5";
    }
    return "?";
}

double streams_model(const StreamsInput& in, bool implicit_synchronization, int copy_engines, StreamsEquation* used) {
    const double lo_hd = in.hd.latency, lo_dh = in.dh.latency;
    const double gaps_hd = in.hd.gap * (in.streams - 1);
    const double gaps_dh = in.dh.gap * (in.streams - 1);
    const double all_in = in.bytes_in * in.hd.per_byte;        // Bhd * Ghd
    const double all_out = in.bytes_out * in.dh.per_byte;      // Bdh * Gdh
    const double one_in = in.max_bytes_in * in.hd.per_byte;    // Bhd / n * Ghd
    const double one_out = in.max_bytes_out * in.dh.per_byte;  // Bdh / n * Gdh
    const double tE = in.kernel, one_k = in.max_kernel;
    StreamsEquation eq;
    double t;
    if (implicit_synchronization) {
        if (tE >= all_in + all_out) {
            eq = StreamsEquation::Eq51;  // dominant kernel
            t = lo_hd + one_in + tE + lo_dh + all_out + gaps_dh;
        } else {
            eq = StreamsEquation::Eq52;  // dominant transfers
            t = lo_hd + all_in + gaps_hd + one_k + lo_dh + all_out + gaps_dh;
        }
    } else if (copy_engines < 2) {
        if (tE >= all_in + all_out) {
            eq = StreamsEquation::Eq53;
            t = lo_hd + one_in + tE + lo_dh + one_out;
        } else {
            eq = StreamsEquation::Eq54;
            t = max({lo_hd + all_in + gaps_hd + lo_dh + all_out + gaps_dh,
                     lo_hd + all_in + gaps_hd + one_k + lo_dh + one_out,
                     lo_hd + one_in + one_k + lo_dh + all_out + gaps_dh});
        }
    } else {
        eq = StreamsEquation::Eq55;
        t = max({lo_hd + all_in + gaps_hd + one_k + lo_dh + one_out,  //
                 lo_hd + one_in + tE + lo_dh + one_out,               //
                 lo_hd + one_in + one_k + lo_dh + all_out + gaps_dh});
    }
    if (used) *used = eq;
    return t;
}

double mapped_model(double bytes_in, double bytes_out, double kernel, const LinkCost& hd, const LinkCost& dh) {
    // seed 003 eq. 5.6: the longest of the three, plus the others' latencies.
    const double lat = hd.latency + dh.latency;
    return max({hd.latency + bytes_in * hd.per_byte + dh.latency, lat + kernel,
                lat + bytes_out * dh.per_byte});
}

}  // namespace recipe::advisor
