// The thesis's 2012 library's pricing (thesis_library.h).
#include "advisor/thesis_library.h"

#include <string>

#include "advisor/copy_costs.h"

namespace recipe::advisor {

namespace {

class ThesisLibrary final : public LibraryPricing {
public:
    // Its basic scheme sends every tile's whole padded box (thesis §8.1
    // lists sending shared halo once as future work).
    bool sends_shared_halo_once(Scheme scheme) const override { return !scheme_traits(scheme).in_thesis_library; }

    std::int64_t streams_used(int streams, std::int64_t) const override { return streams; }

    double packing_ms(const std::vector<CopyGroup>& rows, const Measurements& table, const Platform&, int,
                      TransferStats* stats) const override {
        return host_copy_ms(rows, table, 1.0, 0.0, stats);
    }

    // Its model prices hybrid's mapped output in the LogGP formula, not per tile.
    void mapped_writes(std::int64_t, const Platform&, double*, TransferStats*) const override {}

    double issue_ms(std::int64_t, const Platform&) const override { return 0; }

    void shape_pipeline(const Platform&, double, bool, PipelineShape*) const override {}

    // seed 003 §5.5 (eqs. 5.1-5.5) with LogGP copy costs, one stream per tile.
    double stream_per_tile_pipeline(const TilePipeline& tiles, const Platform& pf, Prediction* pred,
                                    bool explain) const override {
        StreamsInput si;
        si.bytes_in = static_cast<double>(pred->h2d.bytes);
        si.max_bytes_in = tiles.totals.max_in_bytes;
        si.kernel = tiles.totals.kernel_sum;
        si.max_kernel = tiles.totals.max_kernel;
        si.streams = static_cast<int>(tiles.tiles);
        // Both directions overlap in eq. 5.5 (two engines, or mapped output).
        const bool mapped_output = maps_host_memory(tiles.scheme);
        const bool both = mapped_output || (!pf.implicit_synchronization && pf.copy_engines >= 2);
        const double contention = both ? 1 + pf.duplex_factor : 1;
        si.hd = link_cost(pf.loggp_host_to_device, contention);
        StreamsEquation eq;
        double pipeline = 0;
        if (!mapped_output) {
            si.bytes_out = static_cast<double>(pred->d2h.bytes);
            si.max_bytes_out = tiles.totals.max_out_bytes;
            si.dh = link_cost(pf.loggp_device_to_host, contention);
            pipeline = streams_model(si, pf.implicit_synchronization, pf.copy_engines, &eq);
        } else {
            // seed 003 §5.6.1: output through mapped memory, modelled
            // with eq. 5.5 on every device.
            const std::int64_t all_out = tiles.totals.all_out_bytes;
            si.bytes_out = static_cast<double>(all_out);
            si.max_bytes_out = static_cast<double>(all_out) / static_cast<double>(tiles.tiles);
            si.dh = link_cost(pf.loggp_device_to_host, contention, pf.mapped_ns_per_byte);
            pipeline = streams_model(si, false, 2, &eq);
            pred->d2h.bytes = all_out;
            pred->phases.d2h = si.bytes_out * si.dh.per_byte;
        }
        if (explain)
            pred->notes.push_back(std::string("pipeline: ") + to_string(eq) + " with " + std::to_string(tiles.tiles) +
                                  " streams (LogGP copy costs)");
        return pipeline;
    }

    // One allocation per buffer (thesis §6.4.1), each priced by the
    // mallocFree tables.
    void price_allocations(const std::vector<std::int64_t>& device_buffers, const std::vector<std::int64_t>& host_buffers,
                           std::int64_t, const Platform& pf, Prediction* pred) const override {
        for (auto b : device_buffers) pred->phases.alloc += pf.malloc_free_device.ms(static_cast<double>(b));
        for (auto b : host_buffers) pred->phases.alloc += pf.malloc_free_host.ms(static_cast<double>(b));
        for (auto b : device_buffers) pred->device_bytes += b;
        for (auto b : host_buffers) pred->host_bytes += b;
    }
};

}  // namespace

const LibraryPricing& thesis_library() {
    static const ThesisLibrary library;
    return library;
}

}  // namespace recipe::advisor
