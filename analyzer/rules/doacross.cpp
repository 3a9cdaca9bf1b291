// doacross — an output array read at an element that another iteration
// writes: `A[i2] = (A[i2-1] + A[i2] + A[i2+1]) / 3` (seed 001) depends on
// the previous iteration through A[i2-1] (flow) and on the next through
// A[i2+1] (anti). Reported with the distances, as DOACROSS.
#include "analyzer/rules/doacross.h"

#include <algorithm>
#include <map>

#include "analyzer/array_properties.h"

namespace recipe::analyzer {

namespace {

const LoopHeader* header_of(const NestFacts& f, const std::string& var) {
    for (const auto& h : f.headers)
        if (h.var == var) return &h;
    return nullptr;
}

int depth_of(const NestFacts& f, const std::string& var) {
    for (std::size_t i = 0; i < f.headers.size(); ++i)
        if (f.headers[i].var == var) return static_cast<int>(i);
    return 0;
}

}  // namespace

std::vector<Dependence> find_dependences(const NestFacts& f, const std::vector<std::string>& vars) {
    std::vector<Dependence> out;
    ArrayGroups groups = group_arrays(f.body);
    for (const std::string& key : groups.order) {
        if (!groups.written.count(key)) continue;
        const auto& idx = groups.accesses.at(key);
        std::vector<std::vector<std::int64_t>> writes;
        const AccessShape* write_shape = nullptr;
        for (std::size_t i : idx) {
            if (!f.body.accesses[i].write || !f.shapes[i].ok()) continue;
            write_shape = &f.shapes[i];
            for (const auto& o : f.shapes[i].all_offsets())
                if (std::find(writes.begin(), writes.end(), o) == writes.end()) writes.push_back(o);
        }
        if (!write_shape) continue;
        auto add = [&](const std::vector<std::int64_t>& w, const std::vector<std::int64_t>& r, const AccessShape& s,
                       std::size_t access, bool output) {
            // Iteration p reads p+r; iteration q writes q+w: q = p + r - w.
            std::vector<int> dist(vars.size(), 0);
            for (std::size_t d = 0; d < s.dim_var.size() && d < w.size() && d < r.size(); ++d) {
                auto it = std::find(vars.begin(), vars.end(), s.dim_var[d]);
                if (it == vars.end()) continue;
                const LoopHeader* h = header_of(f, s.dim_var[d]);
                std::int64_t p_minus_q = w[d] - r[d];
                if (h && h->descending) p_minus_q = -p_minus_q;
                dist[static_cast<std::size_t>(it - vars.begin())] = static_cast<int>(p_minus_q);
            }
            // The first non-zero component in nesting order decides which
            // iteration comes first.
            int lead = 0, lead_depth = INT32_MAX;
            for (std::size_t l = 0; l < vars.size(); ++l) {
                int dpt = depth_of(f, vars[l]);
                if (dist[l] != 0 && dpt < lead_depth) {
                    lead_depth = dpt;
                    lead = dist[l];
                }
            }
            if (lead == 0) return;
            Dependence dep;
            dep.array = key;
            dep.kind = output ? Dependence::Kind::Output : lead > 0 ? Dependence::Kind::Flow : Dependence::Kind::Anti;
            if (lead < 0)
                for (int& x : dist) x = -x;
            dep.distance = dist;
            dep.span = span_of(f.body.accesses[access].node);
            for (const auto& e : out)
                if (e.array == dep.array && e.kind == dep.kind && e.distance == dep.distance) return;
            out.push_back(dep);
        };
        // The element an iteration writes: its own if any write is there.
        std::vector<std::int64_t> primary = writes.front();
        for (const auto& w : writes)
            if (std::all_of(w.begin(), w.end(), [](std::int64_t x) { return x == 0; })) primary = w;
        for (std::size_t i : idx) {
            const AccessFact& a = f.body.accesses[i];
            const AccessShape& s = f.shapes[i];
            if (!s.ok() || s.dim_var != write_shape->dim_var) continue;
            for (const auto& o : s.all_offsets()) {
                if (a.read && !a.write) {
                    for (const auto& w : writes)
                        if (o != w) add(w, o, s, i, false);
                } else if (a.write && o != primary) {
                    add(primary, o, s, i, true);
                }
            }
        }
    }
    return out;
}

void check_doacross(const NestFacts& f, std::vector<Diagnostic>& out) {
    const LoopNest& nest = *f.nest;
    std::vector<std::string> vars;
    for (const auto& lp : nest.iteration_space) vars.push_back(lp.var);
    std::map<std::string, std::vector<const Dependence*>> by_array;
    std::vector<std::string> order;
    for (const auto& d : nest.dependences) {
        if (!by_array.count(d.array)) order.push_back(d.array);
        by_array[d.array].push_back(&d);
    }
    // Outer loops first when naming distances.
    std::vector<std::size_t> by_depth(vars.size());
    for (std::size_t i = 0; i < vars.size(); ++i) by_depth[i] = i;
    std::sort(by_depth.begin(), by_depth.end(), [&](std::size_t a, std::size_t b) {
        return nest.iteration_space[a].depth < nest.iteration_space[b].depth;
    });
    for (const auto& array : order) {
        const auto& deps = by_array[array];
        const Dependence& first = *deps.front();
        auto describe = [&](const Dependence& d) {
            std::string text;
            for (std::size_t l : by_depth) {
                if (d.distance[l] == 0) continue;
                if (!text.empty()) text += " and ";
                text += std::to_string(d.distance[l]) + " in " + vars[l];
            }
            return text;
        };
        std::vector<std::string> distances;
        for (const Dependence* d : deps) {
            std::string t = describe(*d);
            if (std::find(distances.begin(), distances.end(), t) == distances.end()) distances.push_back(t);
        }
        std::string distance = distances.size() == 1 ? "distance " : "distances ";
        for (std::size_t i = 0; i < distances.size(); ++i) distance += (i ? ", " : "") + distances[i];
        std::string detail;
        for (const Dependence* d : deps) {
            // The access text at the dependence's span.
            std::string access;
            for (const auto& arr : nest.output_arrays)
                for (const auto& acc : arr.accesses)
                    if (arr.name == array && acc.span.begin_byte == d->span.begin_byte) access = acc.text;
            if (!detail.empty()) detail += "; ";
            if (d->kind == Dependence::Kind::Flow) detail += "'" + access + "' reads what an earlier iteration writes (flow)";
            else if (d->kind == Dependence::Kind::Anti) detail += "'" + access + "' is overwritten by a later iteration (anti)";
            else detail += "'" + access + "' writes an element another iteration also writes (output)";
        }
        Diagnostic diag = reason("doacross", first.span.begin,
                                 "loop-carried dependence on '" + array + "' (" + distance + "): " + detail +
                                     "; iterations cannot run independently (DOACROSS)");
        out.push_back(diag);
    }
}

}  // namespace recipe::analyzer
