// thesis_library.h — the thesis's 2012 library, priced by our model to
// reproduce its Appendix A (docs/model-reproduction.md, written by
// advisor/tools/reproduction_doc.cpp and checked by
// tests/unit/advisor/reproduction_test.cpp). Set ModelOptions::library to
// &thesis_library() to price it instead of ours.
#pragma once

#include "advisor/library_pricing.h"

namespace recipe::advisor {

// thesis §6.2 and §6.4: basic re-sends the halo shared by neighbouring
// tiles; every buffer is its own cudaMalloc; scalable and buffered always
// allocate `streams` buffer sets; one host thread packs, with no per-row
// cost; the pipeline has no issuing-thread, in-order-stream or engine
// bounds; streams and hybrid (not in that library) are priced with seed
// 003's LogGP formulas.
const LibraryPricing& thesis_library();

}  // namespace recipe::advisor
