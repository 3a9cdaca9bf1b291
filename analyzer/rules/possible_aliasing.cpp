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
            // Each pair once: outputs against later outputs and all inputs.
            bool other_is_output = false;
            for (const auto& x : nest.output_arrays)
                if (&x == other) other_is_output = true;
            if (other_is_output && other < &o) continue;
            std::string b = base_of(other->name);
            if (b == ob) {
                // u[iz] and u[1-iz] are buffers of one array; u[0] is a part of u.
                const std::string so = o.name.substr(ob.size()), sb = other->name.substr(b.size());
                if (so.rfind(sb, 0) != 0 && sb.rfind(so, 0) != 0) continue;
                const bool o_whole = so.size() < sb.size();
                const std::string& part = o_whole ? other->name : o.name;
                const std::string& whole = o_whole ? o.name : other->name;
                out.push_back(reason("possible-aliasing", o.accesses.front().span.begin,
                                     "'" + part + "' is a part of '" + whole +
                                         "' and the nest writes one of them: iterations would read what others write"));
                continue;
            }
            AliasVerdict v = may_alias(*f.ctx, fn, ob, b, at);
            if (!v.may_alias) continue;
            const ArrayAccess& w = o.accesses.front();
            out.push_back(reason("possible-aliasing", w.span.begin,
                                 "'" + ob + "' and '" + b + "' may overlap (" + v.why +
                                     "); declare them `restrict`, pass distinct arrays at every call in this file, or "
                                     "pass --assume-no-alias"));
        }
        // An element read once per launch must not be one the nest writes.
        for (const auto& r : nest.invariant_reads) {
            if (r.array == ob) continue;  // the analyzer keeps such a read an access of the array
            AliasVerdict v = may_alias(*f.ctx, fn, ob, r.array, at);
            if (!v.may_alias) continue;
            out.push_back(reason("possible-aliasing", r.span.begin,
                                 "'" + r.array + "' and '" + ob + "' may overlap (" + v.why + "), and '" + r.text +
                                     "' is read once for the whole nest; declare them `restrict`, pass distinct arrays "
                                     "at every call in this file, or pass --assume-no-alias"));
        }
    }
}

}  // namespace recipe::analyzer
