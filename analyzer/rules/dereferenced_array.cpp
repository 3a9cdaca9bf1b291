// dereferenced-array — an array reached through an explicit dereference of
// a pointer to it (`(*B)[r][s]`, which PolyBench's POLYBENCH_ARRAY(B) writes
// for an array allocated inside a function): the analyzer tiles arrays named
// directly (`B[r][s]` on `double (*B)[N]`, or a parameter), so it says so
// rather than reasoning about a name like `*B`.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_dereferenced_array(const NestFacts& f, std::vector<Diagnostic>& out) {
    for (const auto* arrays : {&f.nest->output_arrays, &f.nest->input_arrays})
        for (const auto& a : *arrays) {
            if (a.name.empty() || a.name.front() != '*' || a.accesses.empty()) continue;
            const std::string array = a.name.substr(1);
            out.push_back(reason("dereferenced-array", a.accesses.front().span.begin,
                                 "'" + a.accesses.front().text + "' reaches '" + array +
                                     "' through a dereference of a pointer to it; the analyzer tiles arrays it indexes "
                                     "by name (pass `*" + array + "` to a function that takes it as an array parameter)"));
            return;
        }
}

}  // namespace recipe::analyzer
