// The search: every scheme x tile shape x copy method x stream count,
// ranked (thesis §5.5 scheme selection), plus the tiles near the best,
// the break-even problem size and the per-scheme curves for the chart.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

#include "advisor/model.h"
#include "advisor/plan.h"
#include "advisor/tile_shapes.h"

namespace recipe::advisor {

bool predict(const Problem& problem, const Platform& platform, const Config& config, const ModelOptions& options,
             Prediction* prediction, std::string* error) {
    const Model model(problem, platform, options);
    return model.predict(config, prediction, error);
}

bool naive_baseline(const Problem& problem, const Platform& platform, const ModelOptions& options, Prediction* naive,
                    std::string* error) {
    return Model(problem, platform, options).naive_baseline(naive, error);
}

namespace {

// A candidate's result, kept small: full Predictions only for the best.
struct Result {
    Config config;
    double total_ms = 0;
    std::int64_t device_bytes = 0;
    std::int64_t copies = 0;
};

int copy_rank(CopyMethod m) {
    switch (m) {
        case CopyMethod::Merged: return 0;
        case CopyMethod::Strided: return 1;
        case CopyMethod::RowByRow: return 2;
    }
    return 3;
}

// Deterministic order: time, then less device memory, fewer copies, then
// the configuration itself.
bool better(const Result& a, const Result& b) {
    if (a.total_ms != b.total_ms) return a.total_ms < b.total_ms;
    if (a.device_bytes != b.device_bytes) return a.device_bytes < b.device_bytes;
    if (a.copies != b.copies) return a.copies < b.copies;
    const auto key = [](const Config& c) {
        return std::make_tuple(static_cast<int>(c.scheme), c.tile[2], c.tile[1], c.tile[0], copy_rank(c.copy), c.streams,
                               c.host ? static_cast<int>(*c.host) : -1);
    };
    return key(a.config) < key(b.config);
}

bool same_choice(const Config& a, const Config& b) {
    return a.scheme == b.scheme && a.copy == b.copy && a.streams == b.streams && a.host == b.host;
}

std::vector<Scheme> schemes_for(const Problem& p, const SearchOptions& o) {
    std::vector<Scheme> all = o.schemes;
    if (all.empty())
        for (const recipe::SchemeTraits& t : recipe::kSchemes) all.push_back(t.scheme);
    std::vector<Scheme> out;
    for (Scheme s : all) {
        const recipe::SchemeTraits& t = scheme_traits(s);
        if (!t.pipelined) continue;  // the baseline, priced separately
        // In a time loop the others run as basic (or not at all).
        if (p.time_steps > 1 && t.time_loop != recipe::TimeLoop::Runs) continue;
        if (recipe::reads_inputs_over_the_bus(s) && p.reads_twice) continue;
        out.push_back(s);
    }
    return out;
}

class Searcher {
public:
    Searcher(const Problem& p, const Platform& pf, const SearchOptions& o) : model_(p, pf, o.model), opt_(o) {}

    const Model& model() const { return model_; }
    std::int64_t evaluated() const { return evaluated_; }

    void try_config(const Config& c, std::vector<Result>* out) {
        Prediction pr;
        ++evaluated_;
        if (!model_.predict(c, &pr, nullptr, false)) return;
        out->push_back({pr.config, pr.total_ms, pr.device_bytes, pr.h2d.copies + pr.d2h.copies});
    }

    // Every candidate for this problem.
    std::vector<Result> all() {
        const Problem& p = model_.problem();
        std::vector<Result> results;
        const std::vector<CopyMethod> copies =
            opt_.copy_methods.empty() ? std::vector<CopyMethod>{CopyMethod::Merged, CopyMethod::Strided, CopyMethod::RowByRow}
                                      : opt_.copy_methods;
        const std::vector<int> buffers = opt_.stream_counts.empty() ? std::vector<int>{2, 3, 4} : opt_.stream_counts;
        const auto shapes = tile_shapes(p.space.extents(), p.dims);
        std::vector<Scheme> tiled;
        for (Scheme s : schemes_for(p, opt_)) {
            if (!scheme_traits(s).tiled) {
                Config c;
                c.scheme = s;
                try_config(c, &results);
            } else if (scheme_traits(s).stream_per_tile) {
                // seed 003 §5.6.1: the space split into one slab per stream
                // along the outermost dimension.
                const int d = p.dims - 1;
                const std::int64_t n_d = p.space.extent(d);
                std::int64_t previous = 0;
                for (int n : {2, 4, 8, 16, 32, 64, 128}) {
                    Config c;
                    c.scheme = s;
                    c.tile = p.space.extents();
                    c.tile[d] = (n_d + n - 1) / n;
                    if (c.tile[d] == previous || c.tile[d] >= n_d) continue;  // one slab is the naive port
                    previous = c.tile[d];
                    try_config(c, &results);
                }
            } else {
                tiled.push_back(s);
            }
        }
        // Tile shape outermost: the model reuses one shape's tile classes.
        // One tile over the whole space pipelines nothing: it is the naive
        // port, which is priced as such (and must not pass for a pipeline).
        const Index3 space = p.space.extents();
        for (const Index3& t : shapes) {
            if (t[0] >= space[0] && t[1] >= space[1] && t[2] >= space[2]) continue;
            for (Scheme s : tiled)
                for (CopyMethod m : copies) {
                    // Where every copy is contiguous the methods coincide.
                    if (m != CopyMethod::Merged && contiguous(t, p)) continue;
                    for (int b : buffers) {
                        // Whole arrays on the device: beyond three streams the
                        // prediction cannot change (thesis §6.4.4 has three stages).
                        if (scheme_traits(s).inputs == recipe::Residence::WholeArray && b > 3 &&
                            opt_.stream_counts.empty())
                            continue;
                        Config c;
                        c.scheme = s;
                        c.tile = t;
                        c.copy = m;
                        c.streams = b;
                        try_config(c, &results);
                    }
                }
        }
        return results;
    }

private:
    // A tile whose rows (and planes) span the array copies the same way
    // with every method, except row-by-row, which never merges.
    static bool contiguous(const Index3& t, const Problem& p) {
        int full = 0;
        for (int d = 0; d < p.dims - 1; ++d)
            if (t[d] == p.extents[d]) ++full;
            else break;
        return p.dims == 1 || (full == p.dims - 1);
    }

    Model model_;
    const SearchOptions& opt_;
    std::int64_t evaluated_ = 0;
};

Problem scaled(const Problem& p, double scale) {
    // The same nest on a space `scale` times as many points, each
    // dimension scaled alike.
    // The margins between the arrays' edges and the iteration space stay.
    Problem q = p;
    const double f = std::pow(scale, 1.0 / p.dims);
    for (int d = 0; d < p.dims; ++d) {
        const std::int64_t n = p.space.extent(d);
        const std::int64_t m = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::llround(static_cast<double>(n) * f)));
        q.space.end[d] = p.space.begin[d] + m;
        q.extents[d] = p.extents[d] - n + m;
    }
    for (auto& a : q.inputs) a.extents = q.extents;
    for (auto& a : q.outputs) a.extents = q.extents;
    return q;
}

double points(const Index3& e) { return static_cast<double>(e[0] * e[1] * e[2]); }

// Tiles of the best plan's scheme/copy/streams predicted within `tolerance`
// of the best, z slowest.
std::vector<Index3> tiles_within(const std::vector<Result>& results, double tolerance) {
    const Result& best = results.front();
    std::vector<Index3> tiles;
    for (const Result& r : results)
        if (same_choice(r.config, best.config) && r.total_ms <= best.total_ms * (1 + tolerance))
            tiles.push_back(r.config.tile);
    std::sort(tiles.begin(), tiles.end(),
              [](const Index3& a, const Index3& b) { return std::tie(a[2], a[1], a[0]) < std::tie(b[2], b[1], b[0]); });
    tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
    return tiles;
}

// For the chart: each tiled scheme's best choice, its tile varied along one
// dimension (schemes with a stream per tile: their slabs as searched).
std::vector<SchemeCurve> scheme_curves(const std::vector<Result>& results, const Problem& problem, const Model& model) {
    std::vector<SchemeCurve> curves;
    std::map<Scheme, const Result*> best_of;
    for (const Result& r : results)
        if (!best_of.count(r.config.scheme)) best_of[r.config.scheme] = &r;
    for (const auto& [scheme, r] : best_of) {
        if (!scheme_traits(scheme).tiled) continue;
        SchemeCurve curve;
        curve.scheme = scheme;
        curve.copy = r->config.copy;
        curve.streams = r->config.streams;
        if (scheme_traits(scheme).stream_per_tile) {
            curve.dimension = problem.dims - 1;
            for (const Result& x : results)
                if (x.config.scheme == scheme) curve.points.push_back({x.config.tile, x.total_ms});
        } else {
            // The search's own predictions where it tried the tile; the
            // sizes it skipped (narrow shapes step coarsely) priced alike:
            // host strategy and thread block left to the model.
            const int d = varying_dimension(r->config.tile, problem.space.extents(), problem.dims);
            curve.dimension = d;
            std::map<Index3, double> searched;
            for (const Result& x : results)
                if (x.config.scheme == scheme && x.config.copy == r->config.copy && x.config.streams == r->config.streams)
                    searched.emplace(x.config.tile, x.total_ms);
            for (auto size : sizes_along(problem.space.extent(d))) {
                Config c;
                c.scheme = scheme;
                c.tile = r->config.tile;
                c.tile[d] = size;
                c.copy = r->config.copy;
                c.streams = r->config.streams;
                if (const auto hit = searched.find(c.tile); hit != searched.end()) {
                    curve.points.push_back({c.tile, hit->second});
                    continue;
                }
                Prediction pr;
                if (model.predict(c, &pr, nullptr, false)) curve.points.push_back({pr.config.tile, pr.total_ms});
            }
        }
        std::sort(curve.points.begin(), curve.points.end(), [&](const CurvePoint& a, const CurvePoint& b) {
            return a.tile[curve.dimension] < b.tile[curve.dimension];
        });
        curves.push_back(std::move(curve));
    }
    return curves;
}

// How much faster than naive the best choice (its scheme, copies and
// streams, the tile re-chosen along dimension `d`) runs on the problem
// scaled by `scale`; 0 when either cannot run. *extents: the scaled space.
double gain_at(double scale, const Problem& problem, const Platform& platform, const SearchOptions& options,
               const Config& choice, int d, Index3* extents) {
    Problem q = scaled(problem, scale);
    *extents = q.space.extents();
    // A measured kernel time is the whole problem's: the scaled problem's is
    // its share of the points (the nest's own, Problem::kernel_ms, first).
    const double share = points(q.space.extents()) / points(problem.space.extents());
    SearchOptions so = options;
    if (so.model.kernel_ms) so.model.kernel_ms = *so.model.kernel_ms * share;
    if (q.kernel_ms) q.kernel_ms = *q.kernel_ms * share;
    const Model m(q, platform, so.model);
    Prediction naive;
    if (!m.naive_baseline(&naive, nullptr)) return 0.0;
    const double naive_ms = naive.total_ms;
    double best_ms = -1;
    const Index3 qs = q.space.extents();
    // Every tile launches a kernel: tiles so many that their launches alone
    // outlast the naive port cannot win, and are not priced.
    const double launch_ms = platform.kernel_launch_ns * 1e-6;
    for (auto size : sizes_along(qs[d])) {
        Config c = choice;
        for (int k = 0; k < 3; ++k) c.tile[k] = std::min(c.tile[k], qs[k]);
        for (int k = 0; k < problem.dims; ++k)
            if (choice.tile[k] == problem.space.extent(k)) c.tile[k] = qs[k];  // whole rows stay whole
        c.tile[d] = size;
        if (c.tile[0] >= qs[0] && c.tile[1] >= qs[1] && c.tile[2] >= qs[2]) continue;  // one tile: the naive port, as in the search
        double tiles = 1;
        for (int k = 0; k < problem.dims; ++k) tiles *= static_cast<double>((qs[k] + c.tile[k] - 1) / c.tile[k]);
        if (tiles * launch_ms >= naive_ms) continue;
        c.block = {0, 0, 0};
        Prediction pr;
        if (m.predict(c, &pr, nullptr, false) && (best_ms < 0 || pr.total_ms < best_ms)) best_ms = pr.total_ms;
    }
    return best_ms < 0 ? 0.0 : naive_ms / best_ms;
}

// Break-even: the problem scale at which the best pipelined choice stops
// beating naive. The scale is bracketed in steps of 8 (down from this size
// when pipelining wins here, up when it does not), then the bracket is
// narrowed by regula falsi on log(gain) against log(scale) — the gain is
// close to a power law in the scale — kept at least a tenth of the bracket
// away from its ends, so that each step shrinks it even where the gain
// jumps (tile classes change in steps). Stops when the ends are within 5%
// of each other, well inside the model's own error. Sets the plan's
// break_even_* or a note saying why not.
void find_break_even(const Problem& problem, const Platform& platform, const SearchOptions& options,
                     const Config& choice, Plan* out) {
    const int d = varying_dimension(choice.tile, problem.space.extents(), problem.dims);
    // Predictions within 1% of each other are a tie, not a win.
    constexpr double kWin = 1.01, kStep = 8, kPrecision = 1.05;
    struct End {
        double scale, excess;  // excess: log(gain / kWin); > 0 wins
        Index3 extents;
    };
    auto at = [&](double scale) {
        End e{scale, 0, {}};
        const double g = gain_at(scale, problem, platform, options, choice, d, &e.extents);
        // A plan that cannot run counts as a clear loss (gain 0).
        e.excess = g > 0 ? std::log(g / kWin) : -1e9;
        return e;
    };
    // At this size the gain is at least the search's speed-up (the best
    // tile is among the sizes gain_at tries): a plan that wins by that
    // needs no evaluation here.
    End here{1.0, out->speedup > 0 ? std::log(out->speedup / kWin) : -1e9, problem.space.extents()};
    if (here.excess <= 0) here = at(1.0);
    const bool wins_here = here.excess > 0;
    End lo = here, hi = here;  // lo loses, hi wins
    bool found = false;
    if (wins_here) {
        for (double s = 1 / kStep; s > 1e-7 / kStep; s /= kStep) {
            End e = at(std::max(s, 1e-7));
            if (e.excess <= 0) {
                lo = e;
                found = true;
                break;
            }
            hi = e;
        }
    } else {
        for (double s = kStep; s < 1e4 * kStep; s *= kStep) {
            End e = at(std::min(s, 1e4));
            if (e.excess > 0) {
                hi = e;
                found = true;
                break;
            }
            lo = e;
        }
    }
    if (!found) {
        out->notes.push_back(wins_here ? "pipelining beats naive at every problem size down to 1e-7 of this one"
                                       : "pipelining does not beat naive at this size nor up to 10,000 times it");
        return;
    }
    int kept = 0;  // > 0: steps in a row that moved lo; < 0: hi
    for (int i = 0; i < 60 && hi.scale / lo.scale > kPrecision; ++i) {
        const double a = std::log(lo.scale), b = std::log(hi.scale);
        double t = lo.excess > -1e8 ? lo.excess / (lo.excess - hi.excess) : 0.5;  // where the line crosses 0
        // Where the gain is flat on one side the line creeps towards the
        // other end: after two steps from the same end, halve.
        t = std::abs(kept) >= 2 ? 0.5 : std::clamp(t, 0.1, 0.9);
        End mid = at(std::exp(a + t * (b - a)));
        if (mid.excess > 0) {
            hi = mid;
            kept = kept < 0 ? kept - 1 : -1;
        } else {
            lo = mid;
            kept = kept > 0 ? kept + 1 : 1;
        }
    }
    out->break_even_scale = hi.scale;
    out->break_even_extents = hi.extents;
}

}  // namespace

bool advise(const Problem& problem, const Platform& platform, const SearchOptions& options, Plan* plan,
            std::string* error) {
    Plan out;
    out.tolerance = options.tolerance;
    Searcher searcher(problem, platform, options);
    {
        std::string e;
        if (!searcher.model().naive_baseline(&out.naive, &e)) {
            // Arrays larger than the device (or --gpu-memory): only the
            // schemes that keep a few tiles there are candidates (thesis
            // §6.2.2); the search below finds them or fails.
            out.naive_fits = false;
            out.naive_why = e;
        }
    }
    std::vector<Result> results = searcher.all();
    if (results.empty() && out.naive_fits) {
        // Too small to split: the naive port is the plan.
        out.ranked.push_back(out.naive);
        out.speedup = 1;
        out.notes.push_back("the space cannot be split into tiles: the naive port is the plan");
        out.candidates_evaluated = searcher.evaluated();
        *plan = std::move(out);
        return true;
    }
    if (results.empty()) {
        if (error)
            *error = out.naive_fits ? "no pipelined configuration fits this nest on " + platform.name
                                    : "no scheme fits this nest in the device memory: " + out.naive_why;
        return false;
    }
    std::sort(results.begin(), results.end(), better);

    // Ranked list: full predictions, one per distinct configuration.
    const std::size_t keep = options.keep ? options.keep : results.size();
    for (const Result& r : results) {
        if (out.ranked.size() >= keep) break;
        Prediction pr;
        if (!searcher.model().predict(r.config, &pr, nullptr)) continue;
        out.ranked.push_back(std::move(pr));
    }
    const Result& best = results.front();
    out.speedup = out.naive_fits ? out.naive.total_ms / best.total_ms : 0;
    // No pipeline beats the naive port: it is the plan, said as such (a
    // pipelined plan slower than naive, or one tile passing for a pipeline,
    // would be a naive port in disguise).
    if (out.naive_fits && out.naive.total_ms <= best.total_ms) {
        out.ranked.insert(out.ranked.begin(), out.naive);
        if (out.ranked.size() > keep) out.ranked.pop_back();
        out.speedup = 1;
        out.notes.push_back("no pipelined plan beats the naive port at this size: the naive port is the plan");
    }
    out.tiles_within_tolerance = tiles_within(results, options.tolerance);
    out.curves = scheme_curves(results, problem, searcher.model());
    if (!out.naive_fits)
        out.notes.push_back("the naive port does not fit in the device memory (" + out.naive_why +
                            "): only schemes that keep a few tiles on the GPU are candidates");
    if (options.find_break_even && out.naive_fits) find_break_even(problem, platform, options, best.config, &out);

    out.candidates_evaluated = searcher.evaluated();
    *plan = std::move(out);
    return true;
}

bool advise(const analyzer::LoopNest& nest, const Platform& platform, const SearchOptions& options, Plan* plan,
            std::string* error) {
    Problem p;
    if (!problem_from(nest, &p, error)) return false;
    p.kernel_ms = options.model.kernel_ms;  // the nest's own, so that a region of nests prices each with its own
    return advise(p, platform, options, plan, error);
}

}  // namespace recipe::advisor
