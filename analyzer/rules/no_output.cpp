// no-output — a nest that writes no array produces nothing a GPU could hand
// back (it prints, or only updates scalars).
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_no_output(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (const auto& a : f.body.accesses)
        if (a.write) return;
    if (!f.body.scalar_writes.empty()) return;  // a reduction or scalar write says what it computes
    out.push_back(reason("no-output", f.candidate->chain.front(), "loop nest writes no array"));
}

}  // namespace recipe::analyzer
