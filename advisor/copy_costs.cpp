// Copy, host memcpy and link costs (copy_costs.h).
#include "advisor/copy_costs.h"

#include <algorithm>

namespace recipe::advisor {

double price_copies(const std::vector<CopyGroup>& groups, const Measurements& table, const StridedCopyCost& strided,
                    TransferStats* stats) {
    double ms = 0;
    for (const CopyGroup& g : groups) {
        double one = table.ms(static_cast<double>(g.bytes()));
        if (g.rank() > 1)
            one += (strided.per_row_ns * static_cast<double>(g.height * g.depth) + strided.per_call_ns) * 1e-6;
        ms += static_cast<double>(g.count) * one;
        if (stats) {
            stats->bytes += g.count * g.bytes();
            stats->copies += g.count;
        }
    }
    return ms;
}

bool host_rows_split_lines(const Index3& box, const Index3& host_extents, std::int64_t elem_bytes) {
    constexpr std::int64_t line = 64;
    // Rows narrower than the host's: the model places the box at the origin
    // and cannot tell where it begins, and the boxes that are narrower are
    // interiors and tiles of them, which begin an element or a tile in.
    if (box[0] < host_extents[0]) return true;
    // Whole rows merge into runs of a plane, beginning and ending on row
    // boundaries: whole lines when a row is.
    if (box[1] < host_extents[1]) return (host_extents[0] * elem_bytes) % line != 0;
    return false;  // whole planes: one contiguous run
}

// The user's arrays are larger than any cache, so packing streams from
// memory: no faster than the table's largest copies (its last segment's
// ns per byte), whatever a small, cache-warm measurement says.
double host_copy_ms(const std::vector<CopyGroup>& groups, const Measurements& table, double speedup, double row_ns,
                    TransferStats* stats) {
    double ms = 0;
    std::int64_t bytes = 0;
    for (const CopyGroup& g : groups) {
        const std::int64_t rows = g.count * g.height * g.depth;
        ms += static_cast<double>(rows) * table.ms(static_cast<double>(g.width_bytes));
        bytes += rows * g.width_bytes;
        if (stats) {
            stats->bytes += rows * g.width_bytes;
            stats->copies += rows;
        }
    }
    const std::size_t n = table.ns.size();
    const double streaming_ns_per_byte =
        n >= 2 ? std::max(0.0, (table.ns[n - 1] - table.ns[n - 2]) / (table.bytes[n - 1] - table.bytes[n - 2])) : 0;
    ms = std::max(ms, static_cast<double>(bytes) * streaming_ns_per_byte * 1e-6);
    // hostCopyRowNs, measured from the library's staging: 10^6 rows of
    // 512 B packed at half the rate of the same bytes in whole rows.
    std::int64_t rows = 0;
    for (const CopyGroup& g : groups) rows += g.count * g.height * g.depth;
    ms += static_cast<double>(rows) * row_ns * 1e-6;
    return ms / std::max(1.0, speedup);
}

// seed 003 Table 5.2 measured G under opposite traffic (1.4x slower on PCIe
// 2.0); without such a figure the profile's duplex factor gives the
// contention (thesis §6.4.4: two copies at once take (1 + d) times one).
LinkCost link_cost(const LogGP& p, double contention, double mapped_ns_per_byte) {
    LinkCost c;
    c.latency = p.latency_ns * 1e-6;
    c.gap = p.gap_ns * 1e-6;
    c.per_byte = (mapped_ns_per_byte > 0 ? mapped_ns_per_byte : p.ns_per_byte * contention) * 1e-6;
    return c;
}

}  // namespace recipe::advisor
