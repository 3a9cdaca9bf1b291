// data-dependent-index — an index read from memory (`in[idx[i]]`, or a
// temporary holding such a value): which elements a tile needs is not known
// before the data is.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_data_dependent_index(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (std::size_t i = 0; i < f.shapes.size(); ++i) {
        const AccessShape& s = f.shapes[i];
        if (s.problem != AccessShape::Problem::DataDependent) continue;
        out.push_back(reason("data-dependent-index", f.body.accesses[i].node,
                             "data-dependent index in '" + shorten(f.body.accesses[i].text) + "': " + s.why));
    }
}

}  // namespace recipe::analyzer
