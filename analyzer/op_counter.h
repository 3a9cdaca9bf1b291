// op_counter.h — what one operator or call costs in the per-iteration
// counts (thesis §5.3 left kernel analysis out; the roofline estimate uses
// these). Index arithmetic is not counted: the body collector skips
// subscripts and index temporaries.
#pragma once

#include <cstdint>
#include <string_view>

#include "analyzer/program.h"

namespace recipe::analyzer {

// A binary or compound-assignment operator ("+", "*=", "<", ...) executed
// `times` times per iteration.
void count_operator(std::string_view op, std::int64_t times, OpCounts& ops);
// A call to a math function or min/max: one "other" operation.
void count_call(std::int64_t times, OpCounts& ops);
// A call of a C math library function (sinf, exp, ...): also counted by
// count_call among `other`; kept apart because on a CPU it costs tens of flops.
void count_math_call(std::int64_t times, OpCounts& ops);
// `?:` choices.
void count_choice(std::int64_t times, OpCounts& ops);
// Conversions of 64-bit integers to floating types (analyzer/conversions.h).
void count_conversions(int n, std::int64_t times, OpCounts& ops);
void count_reads(std::int64_t times, OpCounts& ops);
void count_writes(std::int64_t times, OpCounts& ops);

}  // namespace recipe::analyzer
