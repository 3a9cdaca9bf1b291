// offset-write — an output written at an offset from the iteration point
// (`b[i+1] = a[i]`): the thesis's class maps every iteration to its own
// element; shift the loop bounds instead.
#include <algorithm>

#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_offset_write(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (const auto& d : f.nest->dependences)
        if (d.kind == Dependence::Kind::Output) return;  // doacross reports it
    for (std::size_t i = 0; i < f.shapes.size(); ++i) {
        const AccessFact& a = f.body.accesses[i];
        const AccessShape& s = f.shapes[i];
        if (!a.write || !s.ok() || s.clamped) continue;
        bool zero = std::all_of(s.offset.begin(), s.offset.end(), [](std::int64_t x) { return x == 0; });
        if (zero && s.window_offsets.empty()) continue;
        out.push_back(reason("offset-write", a.node,
                             "writes '" + shorten(a.text) + "' away from the iteration's own element; shift the loop bounds so "
                                                   "each iteration writes the element it is at"));
        return;
    }
}

}  // namespace recipe::analyzer
