// nest_builder.h — turns one candidate nest into a LoopNest: reads its loop
// headers, demotes innermost loops that only slide a window over the inputs,
// collects the body's facts, extracts the thesis's properties (iteration
// space x first, arrays with sizes, mapping and stencil) and what a recipe
// needs (names, spans, layout, boundaries, scalars, op counts), then runs
// the rules. The time loop is filled in afterwards (time_loop.h).
#pragma once

#include "analyzer/context.h"
#include "analyzer/nest_finder.h"
#include "analyzer/program.h"

namespace recipe::analyzer {

LoopNest analyze_nest(AnalysisContext& ctx, const NestCandidate& candidate, int id);

}  // namespace recipe::analyzer
