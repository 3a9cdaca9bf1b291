// reduction — a value accumulated across iterations: a scalar declared
// outside the nest (`sum += a[i]`), or an output element that does not
// follow every loop of the nest (`row[i] += a[i][j]` over j).
#include <algorithm>

#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_reduction(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (const auto& w : f.body.scalar_writes) {
        if (!w.accumulates) continue;
        out.push_back(reason("reduction", w.node,
                             "reduction into '" + w.name + "' across iterations: every iteration updates the same variable"));
    }
    for (std::size_t i = 0; i < f.shapes.size(); ++i) {
        const AccessFact& a = f.body.accesses[i];
        const AccessShape& s = f.shapes[i];
        if (!a.write || !s.ok()) continue;
        std::vector<std::string> missing;
        for (const auto& h : f.headers)
            if (!h.var.empty() && std::find(s.dim_var.begin(), s.dim_var.end(), h.var) == s.dim_var.end()) missing.push_back(h.var);
        if (missing.empty()) continue;
        std::string loops;
        for (const auto& m : missing) loops += (loops.empty() ? "'" : ", '") + m + "'";
        out.push_back(reason("reduction", a.node,
                             "reduction into '" + shorten(a.text) + "': its index does not follow loop " + loops +
                                 ", so every iteration of it writes the same element"));
        return;
    }
}

}  // namespace recipe::analyzer
