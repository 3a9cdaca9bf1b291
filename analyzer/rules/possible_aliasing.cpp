// possible-aliasing — an output that may share memory with another array of
// the nest: the copies to and from the GPU would then be wrong. Legal when
// the pointers are `restrict`, when every call in the file passes distinct
// allocations, or under --assume-no-alias.
#include "analyzer/aliasing.h"
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_possible_aliasing(const NestFacts& f, std::vector<Diagnostic>& out) {
    const LoopNest& nest = *f.nest;
    const FunctionInfo* fn = f.candidate->function;
    std::uint32_t at = ts_node_start_byte(f.candidate->chain.front());
    // Base names as written (selectors such as u[iz] pick within one array).
    auto base_of = [&](const std::string& key) {
        for (const auto& a : f.body.accesses)
            if (a.key() == key) return a.base;
        return key;
    };
    std::vector<const ArrayProperties*> all;
    for (const auto& a : nest.output_arrays) all.push_back(&a);
    for (const auto& a : nest.input_arrays) all.push_back(&a);
    for (const auto& o : nest.output_arrays) {
        std::string ob = base_of(o.name);
        for (const ArrayProperties* other : all) {
            if (other == &o) continue;
            std::string b = base_of(other->name);
            if (b == ob) continue;  // u[iz] and u[1-iz]: buffers of one array
            // Each pair once: outputs against later outputs and all inputs.
            bool other_is_output = false;
            for (const auto& x : nest.output_arrays)
                if (&x == other) other_is_output = true;
            if (other_is_output && other < &o) continue;
            AliasVerdict v = may_alias(*f.ctx, fn, ob, b, at);
            if (!v.may_alias) continue;
            const ArrayAccess& w = o.accesses.front();
            out.push_back(reason("possible-aliasing", w.span.begin,
                                 "'" + ob + "' and '" + b + "' may overlap (" + v.why +
                                     "); declare them `restrict`, pass distinct arrays at every call in this file, or "
                                     "pass --assume-no-alias"));
        }
    }
}

}  // namespace recipe::analyzer
