// time_loop.h — the loop around a nest that repeats it (an iterative
// stencil loop, seed 002): its form (for / while / do-while), how many times
// it runs, and how the steps hand data to each other: a pointer swap, an
// index toggle (`iz = 1 - iz`, u[t%2]), two mirrored nests (a->b, b->a) or a
// copy-back nest (b copied into a).
#pragma once

#include <vector>

#include "analyzer/context.h"
#include "analyzer/nest_finder.h"
#include "analyzer/program.h"

namespace recipe::analyzer {

// Sets LoopNest::time_loop on the nests directly inside time loop `t`.
void attach_time_loop(AnalysisContext& ctx, const TimeLoopCandidate& t, const std::vector<LoopNest*>& inside);

}  // namespace recipe::analyzer
