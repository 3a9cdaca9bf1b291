#include "analyzer/op_counter.h"

#include <climits>

namespace recipe::analyzer {

namespace {

void bump(int& counter, std::int64_t times) {
    std::int64_t v = static_cast<std::int64_t>(counter) + times;
    counter = v > INT_MAX ? INT_MAX : static_cast<int>(v);
}

}  // namespace

void count_operator(std::string_view op, std::int64_t times, OpCounts& ops) {
    if (op.size() > 1 && op.back() == '=' && op != "==" && op != "<=" && op != ">=" && op != "!=") op.remove_suffix(1);
    if (op == "+" || op == "-") bump(ops.adds, times);
    else if (op == "*") bump(ops.muls, times);
    else if (op == "/" || op == "%") bump(ops.divs, times);
    else if (!op.empty()) bump(ops.other, times);
}

void count_call(std::int64_t times, OpCounts& ops) { bump(ops.other, times); }
void count_math_call(std::int64_t times, OpCounts& ops) { bump(ops.math_calls, times); }
void count_choice(std::int64_t times, OpCounts& ops) { bump(ops.other, times); }
void count_conversions(int n, std::int64_t times, OpCounts& ops) {
    if (n > 0) bump(ops.conversions, times * n);
}
void count_reads(std::int64_t times, OpCounts& ops) { bump(ops.reads, times); }
void count_writes(std::int64_t times, OpCounts& ops) { bump(ops.writes, times); }

}  // namespace recipe::analyzer
