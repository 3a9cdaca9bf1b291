// strided-access — an affine index that does not map each iteration onto
// its own element with unit stride (`a[2*i]`, `a[n-1-i]`): thesis §5.1 asks
// each iteration to map to a single element of every array.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_strided_access(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (std::size_t i = 0; i < f.shapes.size(); ++i) {
        const AccessShape& s = f.shapes[i];
        if (s.problem != AccessShape::Problem::Strided) continue;
        out.push_back(reason("strided-access", f.body.accesses[i].node, s.why));
    }
}

}  // namespace recipe::analyzer
