// scalar-write — a variable declared outside the nest overwritten in the
// body: its value after the loop depends on which iteration ran last.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_scalar_write(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (const auto& w : f.body.scalar_writes) {
        if (w.accumulates) continue;
        out.push_back(reason("scalar-write", w.node,
                             "writes '" + w.name + "', declared outside the loop nest: iterations would race for it "
                                                   "(declare it inside the loop body if it is a temporary)"));
    }
}

}  // namespace recipe::analyzer
