// copy_costs.h — what one batch of copies, of host memcpys or of bytes over
// the link costs. The model asks recipe/tile_geometry.h which copies a tile
// makes (copy_groups_for, the decisions the library's copies_for makes) and
// prices them here, tile class by tile class (Model::class_costs).
#pragma once

#include <vector>

#include "advisor/pipeline.h"
#include "advisor/plan.h"
#include "advisor/platform.h"
#include "recipe/tile_geometry.h"

namespace recipe::advisor {

// Copy groups priced with one table: rank-1 copies straight from the table,
// rank-2/3 copies as a contiguous copy of the same bytes plus the
// profile's per-row and per-call extra (MEASURED.md: one cudaMemcpy2DAsync
// of 10,000 rows costs what one contiguous copy does, plus 0.8 ns a row).
// `stats` (optional) counts the bytes and calls.
double price_copies(const std::vector<CopyGroup>& groups, const Measurements& table, const StridedCopyCost& strided,
                    TransferStats* stats);

// Whether the rows a strided copy moves begin or end inside a 64-byte line
// of the host array (the array itself starting on one). The model places a
// box at the array's origin and does not know where it begins, so every
// row narrower than the host's counts as split (interiors begin an element
// in, and tiles of them a tile further); runs of whole rows split lines
// when a row is not a whole number of lines. Copies out of such rows pay
// StridedCopyCost's out_partial_line costs.
bool host_rows_split_lines(const Index3& box, const Index3& host_extents, std::int64_t elem_bytes);

// Host-side packing: every row is a memcpy (a strided descriptor is split
// into its rows), at the staging table's rate times the threads' speed-up,
// plus `row_ns` per row (each row starts cold in a new page of the user's
// array).
double host_copy_ms(const std::vector<CopyGroup>& groups, const Measurements& table, double speedup, double row_ns,
                    TransferStats* stats);

// seed 003 §5.4: one direction of the link. `contention` > 1 slows the bytes
// when both directions run at once; `mapped_ns_per_byte` > 0 replaces the
// copy rate by the rate of a kernel reaching mapped host memory.
LinkCost link_cost(const LogGP& p, double contention = 1, double mapped_ns_per_byte = 0);

}  // namespace recipe::advisor
