// non-affine-index — an index that is not loop variables plus constant
// offsets: `a[i*j]`, `a[i/2]`, `a[i % n]`, symbolic offsets.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_non_affine_index(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (std::size_t i = 0; i < f.shapes.size(); ++i) {
        const AccessShape& s = f.shapes[i];
        if (s.problem != AccessShape::Problem::NonAffine) continue;
        out.push_back(reason("non-affine-index", f.body.accesses[i].node,
                             "non-affine index in '" + shorten(f.body.accesses[i].text) + "': " + s.why));
    }
}

}  // namespace recipe::analyzer
