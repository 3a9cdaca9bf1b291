#include "advisor/region.h"

#include <algorithm>
#include <cstdio>

#include "advisor/copy_costs.h"
#include "advisor/kernel_time.h"
#include "advisor/model.h"
#include "advisor/sizes.h"

namespace recipe::advisor {

namespace {


std::string mb(double bytes) {
    char s[32];
    std::snprintf(s, sizeof s, "%.1f MB", bytes / 1e6);
    return s;
}

// One direction's copies of the region: every chunk of every array that
// moves. Pinned arrays are one DMA per chunk; staged ones are packed on the
// host and sent, the two stages overlapped over the streams (thesis §6.4.4's
// pipeline with two steps). With the profile's regionChunkIn/Out for these
// streams, a chunk costs what a staged region's chunk of its bytes (every
// array's piece together) measured, both stages paced as they meet, and the
// pass adds what a single pass paid beyond its chunks (regionPassIn/Out: the
// fill, the drain, the staging threads' first work; at least the first
// chunk's DMA); without them, the slower stage sets the pace, priced from
// the staged pipeline's tile (stagingTile, half of it: one direction), and
// the other adds its first chunk. A frame of short rows costs the staging
// threads a reach per row besides its bytes: stagingRowNs each.
using Direction = detail::RegionCopies;

Direction copies(const RegionProblem& r, const Platform& pf, const Index3& chunk, std::int64_t streams, bool in, bool staged) {
    const int slow = std::clamp(r.dims - 1, 0, 2);
    return detail::region_copies(r, pf, chunk, streams, in, staged, 0, r.extents[slow]);
}

}  // namespace

// One direction's copies of the rows [row_begin, row_end) of the slowest
// dimension (all of them on one GPU; a GPU's own slab on several).
detail::RegionCopies detail::region_copies(const RegionProblem& r, const Platform& pf, const Index3& chunk, std::int64_t streams,
                                           bool in, bool staged, std::int64_t row_begin, std::int64_t row_end) {
    RegionCopies d;
    const Measurements& table = in ? pf.pinned_host_to_device : pf.device_to_pinned_host;
    const Measurements* paced = staged ? (in ? pf.region_chunk_in : pf.region_chunk_out).at(static_cast<int>(streams)) : nullptr;
    const Measurements* pass = paced ? (in ? pf.region_pass_in : pf.region_pass_out).at(static_cast<int>(streams)) : nullptr;
    // Chunks are whole rows (planes): full in every dimension but the slowest tiled one.
    const int slow = std::clamp(r.dims - 1, 0, 2);
    const std::int64_t rows = row_end - row_begin;
    if (rows <= 0) return d;
    const std::int64_t full = chunk[slow], count = (rows + full - 1) / full, last = rows - (count - 1) * full;
    double first_dma = 0, first_pack = 0, first_packed = 0;
    bool first = true;  // the first chunk copied is yet to come
    for (std::int64_t k = 0; k < count; ++k) {
        double chunk_bytes = 0, chunk_dma = 0, chunk_pack = 0, chunk_packed = 0, chunk_rows_ms = 0;
        Box box{{0, 0, 0}, r.extents};
        box.begin[slow] = row_begin + k * full;
        box.end[slow] = box.begin[slow] + (k + 1 == count ? last : full);
        for (const RegionArray& a : r.arrays) {
            if (in ? !a.copy_in : !a.copy_out) continue;
            // In, only the points outside written_first cross (the library's
            // Engine::copy_in): each part of the chunk one strided copy, packed
            // in place when staged; a chunk wholly inside it is not copied.
            std::int64_t needed = box.count();
            std::vector<Box> parts;
            if (in && !a.written_first.empty()) {
                parts = boxes_outside(box, a.written_first);
                needed = 0;
                for (const Box& b : parts) needed += b.count();
                if (needed == 0) continue;
            }
            const double bytes = static_cast<double>(needed * a.elem_bytes);
            double packed = bytes;
            if (needed < box.count()) {
                TransferStats sent;
                for (const Box& b : parts)
                    chunk_dma += price_copies(copy_groups_for(relative_to(b, box.begin), box.extents(), DeviceLayout{{0, 0, 0}, r.extents},
                                                              a.elem_bytes, CopyMethod::Strided),
                                              table, pf.strided_copy, &sent);
                d.stats.copies += sent.copies;
                // A frame of short rows costs the staging threads a reach per
                // row besides its bytes: the profile's stagingRowNs (on an
                // H200 host stencil7's frame, ~4,000 runs of 8 bytes a chunk,
                // took 0.13-0.19 ms a chunk beyond its grid's; 4,000 x 30.7
                // ns = 0.12 ms), or without it kRowReachBytes at the packing's
                // pace (as the library shares them out).
                const std::int64_t runs = runs_outside(box, a.written_first, r.extents);
                if (runs > 0 && needed * a.elem_bytes / runs < 4096) {
                    if (pf.staging_row_ns > 0) chunk_rows_ms += static_cast<double>(runs) * pf.staging_row_ns * 1e-6;
                    else packed += static_cast<double>(runs * kRowReachBytes);
                }
            } else {
                chunk_dma += table.ms(bytes);
                d.stats.copies += 1;
            }
            chunk_bytes += bytes;
            chunk_packed += packed;
            // Without the region's own figures: the library's staged
            // pipeline per tile (stagingTile: packing and unpacking of one
            // tile of these bytes), one direction.
            if (staged && !paced)
                chunk_pack += !pf.staging_tile.empty()
                                  ? pf.staging_tile.ms(packed) / 2
                                  : pf.pageable_to_pinned_host.ms(packed) / std::max(1.0, pf.host_copy_parallel_speedup);
        }
        if (chunk_bytes <= 0) {
            d.chunk_ms.push_back(0);
            continue;
        }
        // The measured pace of a staged chunk, at the bytes packed.
        if (paced) chunk_pack = paced->ms(chunk_packed);
        if (staged) chunk_pack += chunk_rows_ms;
        d.chunk_ms.push_back(staged ? std::max(chunk_dma, chunk_pack) : chunk_dma);
        d.dma_ms += chunk_dma;
        d.staging_ms += chunk_pack;
        d.stats.bytes += static_cast<std::int64_t>(chunk_bytes);
        if (first) {
            first_dma = chunk_dma;
            first_pack = chunk_pack;
            first_packed = chunk_packed;
            first = false;
        }
    }
    if (d.stats.copies == 0) return d;
    if (!staged) d.total_ms = d.dma_ms;
    else if (paced)
        d.total_ms = std::max(d.dma_ms, d.staging_ms) + std::max(first_dma, pass ? std::max(0.0, pass->ms(first_packed)) : 0.0);
    else d.total_ms = std::max(d.dma_ms, d.staging_ms) + std::min(first_dma, first_pack);
    return d;
}

namespace {

// Every nest: one launch over its space per step (the block with the
// highest occupancy for the space, as the search picks it for a tile).
// *step_ms: one step's launches.
bool price_launches(const RegionProblem& r, const Platform& pf, const ModelOptions& options, RegionPrediction* rp,
                    double* step_ms, std::string* error) {
    Prediction& p = rp->total;
    p.kernel_source = KernelSource::Measured;
    for (const Problem& q : r.nests) {
        RegionLaunch l;
        const Index3 space = q.space.extents();
        l.block = choose_block(q, pf, space, &l.occupancy);
        if (l.occupancy <= 0) {
            if (error) *error = "no thread block of this device runs the nest of kernel " + q.kernel_name;
            return false;
        }
        const KernelModel kernel(q, pf, options);
        // Launches queued back to back on one stream: the host issues the
        // next while the GPU runs this one, so a launch costs the longer of
        // the two, not their sum.
        l.run_ms = kernel.run_ms(volume(space), l.occupancy);
        l.overhead_ms = kernel.launch_overhead_ms();
        l.kernel_ms = std::max(l.run_ms, l.overhead_ms);
        l.source = kernel.source();
        if (l.source == KernelSource::Estimate) p.kernel_source = KernelSource::Estimate;
        else if (l.source == KernelSource::UserGiven && p.kernel_source == KernelSource::Measured)
            p.kernel_source = KernelSource::UserGiven;
        *step_ms += l.kernel_ms;
        rp->launches.push_back(l);
    }
    // The host issues a step's launches through Region::run while the GPU
    // runs the ones before (regionRunNs: 6.7 us a launch of jacobi-1d's on
    // an H200 host, against 3.4 for a bare launch): a step of short kernels
    // takes the host's time, not the GPU's.
    *step_ms = std::max(*step_ms, static_cast<double>(r.nests.size()) * pf.region_run_ns * 1e-6);
    return true;
}

// The library's alloc phase as recipe-profile measured it (one device block
// for every array; the staging block is pooled, first_call_extra_ms).
double alloc_ms(const Platform& pf, const Prediction& p, std::int64_t streams, bool staged) {
    return detail::region_alloc_ms(pf, p.device_bytes, p.host_bytes, streams, staged);
}

}  // namespace

double detail::region_alloc_ms(const Platform& pf, std::int64_t device_bytes, std::int64_t host_bytes, std::int64_t streams,
                               bool staged) {
    double ms = 0;
    if (!pf.library_setup.empty())
        ms = pf.library_setup.ms(std::max(static_cast<double>(device_bytes), pf.library_setup.bytes.front())) +
             static_cast<double>(streams - 1) * pf.stream_setup_ns * 1e-6;
    else
        ms = pf.malloc_free_device.ms(static_cast<double>(device_bytes)) +
             (pf.run_setup_ns + static_cast<double>(streams) * pf.stream_setup_ns) * 1e-6;
    if (staged && pf.staging_setup.empty())
        ms += pf.host_register.ms(static_cast<double>(host_bytes)) + pf.host_unregister.ms(static_cast<double>(host_bytes));
    return ms;
}

std::int64_t region_device_bytes(const RegionProblem& r) {
    std::int64_t bytes = 0;
    for (const RegionArray& a : r.arrays) bytes += aligned(volume(r.extents) * a.elem_bytes);
    return bytes;
}

Index3 region_chunk(const RegionProblem& r) { return region_chunk_of(r, kRegionChunkBytes); }

Index3 region_chunk_of(const RegionProblem& r, std::int64_t widest_bytes) {
    Index3 chunk = r.extents;
    int widest = 1;
    for (const auto& a : r.arrays) widest = std::max(widest, a.elem_bytes);
    const int slow = std::clamp(r.dims - 1, 0, 2);
    const std::int64_t row = volume(r.extents) / std::max<std::int64_t>(1, r.extents[slow]) * widest;
    chunk[slow] = std::clamp<std::int64_t>(widest_bytes / std::max<std::int64_t>(1, row), 1, r.extents[slow]);
    return chunk;
}

RegionProblem copied_whole(RegionProblem r) {
    for (RegionArray& a : r.arrays) a.written_first = Box{{0, 0, 0}, {0, 0, 0}};
    return r;
}

std::int64_t region_staging_bytes(const RegionProblem& r, const Index3& chunk, std::int64_t streams) {
    std::int64_t chunk_bytes = 0;
    for (const RegionArray& a : r.arrays) chunk_bytes += aligned(volume(chunk) * a.elem_bytes);
    return (streams * chunk_bytes + 4095) / 4096 * 4096;
}

std::vector<RegionCopyChoice> region_copy_candidates(const RegionProblem& r, const Platform& pf, bool staged) {
    const int slow = std::clamp(r.dims - 1, 0, 2);
    auto streams_for = [&](const Index3& chunk, std::int64_t wanted) {
        return std::min<std::int64_t>(wanted, (r.extents[slow] + chunk[slow] - 1) / chunk[slow]);
    };
    // Without the tables (or pinned): about 4 MiB chunks over 2 streams.
    RegionCopyChoice fixed;
    fixed.chunk = region_chunk(r);
    fixed.streams = streams_for(fixed.chunk, 2);
    if (!staged || pf.region_chunk_in.empty() || pf.region_chunk_out.empty()) return {fixed};
    // Every chunk of 1 to 64 MiB of the widest array and every stream count
    // both directions were measured over.
    std::vector<RegionCopyChoice> tried;
    for (std::int64_t mib = 1; mib <= 64; mib *= 2) {
        const Index3 chunk = region_chunk_of(r, mib << 20);
        if (!tried.empty() && tried.back().chunk == chunk) continue;
        for (int s : pf.region_chunk_in.streams) {
            if (!pf.region_chunk_out.at(s)) continue;
            RegionCopyChoice c;
            c.chunk = chunk;
            c.priced_streams = s;
            c.streams = streams_for(chunk, s);  // the library runs min(s, chunks) of them
            if (region_staging_bytes(r, chunk, c.streams) > kRegionStagingLimit) continue;
            const std::int64_t rows = r.extents[slow];
            c.copy_ms = detail::region_copies(r, pf, chunk, s, true, true, 0, rows).total_ms +
                        detail::region_copies(r, pf, chunk, s, false, true, 0, rows).total_ms;
            tried.push_back(c);
        }
    }
    if (tried.empty()) return {fixed};
    return tried;
}

RegionCopyChoice choose_region_copies(const RegionProblem& r, const Platform& pf, bool staged) {
    // The least time in and out; within 2% of it, the least page-locked
    // staging (the pool's pinned block).
    const std::vector<RegionCopyChoice> tried = region_copy_candidates(r, pf, staged);
    double best = tried.front().copy_ms;
    for (const RegionCopyChoice& c : tried) best = std::min(best, c.copy_ms);
    const RegionCopyChoice* pick = nullptr;
    for (const RegionCopyChoice& c : tried)
        if (c.copy_ms <= 1.02 * best &&
            (!pick || region_staging_bytes(r, c.chunk, c.streams) < region_staging_bytes(r, pick->chunk, pick->streams)))
            pick = &c;
    return *pick;
}

namespace {

// How many launches the library cuts into pieces (recipe/wavefront.h): the
// count whose timeline is shortest, tried at every step's worth of launches
// doubled up to all of them; kept only where it gains at least 2% on
// running every launch whole, since each piece is one more launch. The
// pieces take stream 0; the copies keep the streams priced for them.
void choose_pipelined_launches(const RegionProblem& r, const Platform& pf, const Index3& chunk, const detail::RegionCopies& in,
                               const detail::RegionCopies& back, RegionPrediction* rp) {
    Prediction& p = rp->total;
    const int slow = std::clamp(r.dims - 1, 0, 2);
    if (rp->chunks < 2 || r.steps < 1 || r.nests.empty()) return;
    const std::vector<LaunchRows> launches = detail::region_launch_rows(r);
    const auto n = static_cast<std::int64_t>(launches.size());
    if (n == 0 || n > kMostPipelinedLaunches) return;
    std::int64_t pieces = 0;
    const double issue_ms = pf.kernel_launch_ns * 1e-6;
    const double whole = detail::pipelined_region_ms(r, launches, rp->launches, chunk[slow], in, back, 0, issue_ms, &pieces);
    double best = whole;
    std::int64_t best_cut = 0, best_pieces = pieces;
    const auto per_step = static_cast<std::int64_t>(r.nests.size());
    for (std::int64_t cut = per_step;; cut = std::min(n, cut * 2)) {
        const double ms = detail::pipelined_region_ms(r, launches, rp->launches, chunk[slow], in, back, cut, issue_ms, &pieces);
        if (ms < best) {
            best = ms;
            best_cut = cut;
            best_pieces = pieces;
        }
        if (cut >= n) break;
    }
    if (best_cut == 0 || best > 0.98 * whole) return;
    rp->pipelined_launches = best_cut;
    rp->pieces = best_pieces;
    p.config.streams = static_cast<int>(std::min<std::int64_t>(p.config.streams + 1, rp->chunks));
    const bool staged = p.host_strategy == HostStrategy::Staged;
    if (staged) p.host_bytes = region_staging_bytes(r, chunk, p.config.streams);
    p.phases.alloc = alloc_ms(pf, p, p.config.streams, staged);
    p.phases.pipeline = best;
    p.total_ms = p.phases.alloc + p.phases.pipeline;
}

}  // namespace

namespace {

// The region priced with its copies in `choice`'s chunks and streams.
bool price_region(const RegionProblem& r, const Platform& pf, const ModelOptions& options, bool staged,
                  const RegionCopyChoice& choice, RegionPrediction* out, std::string* error) {
    RegionPrediction rp;
    Prediction& p = rp.total;
    const Index3 chunk = choice.chunk;
    const int slow = std::clamp(r.dims - 1, 0, 2);
    rp.chunks = (r.extents[slow] + chunk[slow] - 1) / chunk[slow];
    const std::int64_t streams = choice.streams;
    p.config.scheme = Scheme::Basic;
    p.config.tile = chunk;
    p.config.streams = static_cast<int>(streams);
    p.config.copy = CopyMethod::Merged;
    p.host_strategy = staged ? HostStrategy::Staged : HostStrategy::Pinned;
    p.config.host = p.host_strategy;
    p.problem.dims = r.dims;
    p.problem.extents = r.extents;
    p.tiles = rp.chunks;

    p.device_bytes = region_device_bytes(r);
    if (staged) p.host_bytes = region_staging_bytes(r, chunk, streams);
    if (const std::int64_t budget = device_budget(pf, options); budget > 0 && p.device_bytes > budget) {
        if (error)
            *error = "the region's arrays need " + mb(static_cast<double>(p.device_bytes)) + " of device memory; " +
                     (options.gpu_memory_bytes > 0 ? std::string("--gpu-memory allows ") : pf.name + " has ") +
                     mb(static_cast<double>(budget));
        return false;
    }

    double step_ms = 0;
    if (!price_launches(r, pf, options, &rp, &step_ms, error)) return false;
    const double steps = static_cast<double>(std::max<std::int64_t>(0, r.steps));

    const Direction in = copies(r, pf, chunk, choice.priced_streams, true, staged),
                    back = copies(r, pf, chunk, choice.priced_streams, false, staged);
    p.h2d = in.stats;
    p.d2h = back.stats;
    p.phases.h2d = in.dma_ms;
    p.phases.d2h = back.dma_ms;
    p.phases.staging = in.staging_ms + back.staging_ms;
    p.phases.kernel = steps * step_ms;
    p.phases.alloc = alloc_ms(pf, p, streams, staged);
    p.phases.pipeline = in.total_ms + p.phases.kernel + back.total_ms;
    p.total_ms = p.phases.alloc + p.phases.pipeline;
    choose_pipelined_launches(r, pf, chunk, in, back, &rp);

    p.dominant = dominant_operation(p.phases);  // the region's setup is all in alloc
    p.typical_tile = {in.staging_ms / static_cast<double>(rp.chunks), in.dma_ms / static_cast<double>(rp.chunks), step_ms,
                      back.dma_ms / static_cast<double>(rp.chunks), back.staging_ms / static_cast<double>(rp.chunks)};
    p.notes.push_back("region: " + mb(static_cast<double>(in.stats.bytes)) + " copied in once and " +
                      mb(static_cast<double>(back.stats.bytes)) + " out once, in " + std::to_string(rp.chunks) +
                      " chunks over " + std::to_string(streams) + " streams" + (staged ? ", staged" : "") + "; " +
                      std::to_string(r.steps) + " steps of " + std::to_string(r.nests.size()) +
                      " launches on the resident arrays");
    if (rp.pipelined_launches > 0)
        p.notes.push_back("region: the first and last " + std::to_string(rp.pipelined_launches) +
                          " launches cut into pieces of rows that run as the chunks land and ahead of the chunks out (" +
                          std::to_string(rp.pieces) + " launches issued), on a stream of their own");
    *out = std::move(rp);
    return true;
}

}  // namespace

bool predict_region(const RegionProblem& r, const Platform& pf, const ModelOptions& options, RegionPrediction* out,
                    std::string* error) {
    const bool pinned = options.host_memory ? *options.host_memory == HostMemory::Pinned : r.pinned_host;
    const bool staged = !pinned;
    const RegionCopyChoice choice = choose_region_copies(r, pf, staged);
    RegionPrediction best;
    if (!price_region(r, pf, options, staged, choice, &best, error)) return false;
    if (best.pipelined_launches == 0) {
        *out = std::move(best);
        return true;
    }
    // Launches cut into pieces: the host issues each chunk's pieces between
    // its copies, so fewer, larger chunks can pay though their copies alone
    // price higher. Every chunk and stream count whose copies are within 25%
    // of the least is priced whole, the fastest kept (on an H200 host,
    // stencil7's region in 4 MiB chunks over 3 streams, 325 launches, ran
    // 7.70 ms against 6.16 in 8 MiB chunks over 4, 182 launches, where the
    // copies alone priced the former faster).
    const std::vector<RegionCopyChoice> tried = region_copy_candidates(r, pf, staged);
    double least = tried.front().copy_ms;
    for (const RegionCopyChoice& c : tried) least = std::min(least, c.copy_ms);
    for (const RegionCopyChoice& c : tried) {
        if (c.copy_ms > 1.25 * least || (c.chunk == choice.chunk && c.priced_streams == choice.priced_streams)) continue;
        RegionPrediction other;
        if (price_region(r, pf, options, staged, c, &other, nullptr) && other.total.total_ms < 0.98 * best.total.total_ms)
            best = std::move(other);
    }
    *out = std::move(best);
    return true;
}

}  // namespace recipe::advisor
