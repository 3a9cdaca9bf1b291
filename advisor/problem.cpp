// From the analyzer's LoopNest to the numbers the model needs.
#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "advisor/plan.h"

namespace recipe::advisor {

namespace {

// The names an expression reads (`nx - 2` -> nx), for the --assume flags to suggest.
std::vector<std::string> names_in(const std::string& expr) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < expr.size();) {
        if (std::isalpha(static_cast<unsigned char>(expr[i])) || expr[i] == '_') {
            std::size_t j = i;
            while (j < expr.size() && (std::isalnum(static_cast<unsigned char>(expr[j])) || expr[j] == '_')) ++j;
            const std::string n = expr.substr(i, j - i);
            if (n != "sizeof" && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(expr[i]))) {
            while (i < expr.size() && std::isalnum(static_cast<unsigned char>(expr[i]))) ++i;
        } else {
            ++i;
        }
    }
    return names;
}

bool evaluated(const analyzer::Extent& e, const std::string& what, std::int64_t* out, std::string* error) {
    if (!e.value) {
        if (error) {
            std::string flags;
            for (const auto& n : names_in(e.expr)) flags += (flags.empty() ? "" : " ") + ("--assume " + n + "=VALUE");
            *error = what + " '" + e.expr + "' is known only when the program runs; plan for a value with " +
                     (flags.empty() ? std::string("--assume NAME=VALUE") : flags) + " (the .cu reads the program's own variables)";
        }
        return false;
    }
    *out = *e.value;
    return true;
}

bool array_use(const analyzer::ArrayProperties& a, int dims, ArrayUse* use, std::string* error, bool tiled = true) {
    use->name = a.name;
    use->elem_bytes = a.bytes_per_element > 0 ? a.bytes_per_element : 4;
    use->gathered = a.layout == analyzer::ArrayLayout::PointerToPointer;
    if (static_cast<int>(a.size.size()) != dims) {
        if (error)
            *error = "array '" + a.name + "' has " + std::to_string(a.size.size()) +
                     " dimensions but the nest has " + std::to_string(dims);
        return false;
    }
    for (int d = 0; d < dims; ++d) {
        if (!evaluated(a.size[static_cast<std::size_t>(d)], "size of array '" + a.name + "'", &use->extents[d], error))
            return false;
        if (use->extents[d] < 1) {
            if (error) *error = "array '" + a.name + "' has a non-positive size";
            return false;
        }
    }
    if (!tiled) return true;  // read whole: any index the C code uses
    for (std::size_t i = 0; i < a.mapping.size() && i < 3; ++i)
        for (std::size_t l = 0; l < a.mapping[i].size(); ++l)
            if (a.mapping[i][l] != (i == l ? 1 : 0)) {
                if (error)
                    *error = "array '" + a.name +
                             "' is not indexed by the loop variables in order (transposed or scaled mapping): "
                             "the model tiles arrays the way the loops run";
                return false;
            }
    // The stencil's reach on each side (thesis §6.4.3, PX/PY/PZ).
    const analyzer::Reach reach = a.halo();
    use->halo = {reach.lo, reach.hi};
    return true;
}

}  // namespace

bool whole_input(const analyzer::ArrayProperties& array, const analyzer::LoopNest& nest) {
    if (array.size.size() != 1 || nest.dimensionality < 2) return false;
    for (const auto& o : nest.output_arrays)
        if (o.name == array.name) return false;
    return true;
}

namespace {

// The nest's arrays: inputs tiled or read whole, outputs, whether the host
// holds them pinned, and the equal extents the model tiles.
bool read_arrays(const analyzer::LoopNest& nest, Problem* problem, std::string* error) {
    Problem& p = *problem;
    for (const auto& a : nest.input_arrays) {
        ArrayUse use;
        if (whole_input(a, nest)) {
            if (!array_use(a, static_cast<int>(a.size.size()), &use, error, false)) return false;
            p.whole_inputs.push_back(use);
            continue;
        }
        if (!array_use(a, p.dims, &use, error)) return false;
        if (a.stencil.size() > 1) p.reads_twice = true;
        p.inputs.push_back(use);
    }
    for (const auto& a : nest.output_arrays) {
        ArrayUse use;
        if (!array_use(a, p.dims, &use, error)) return false;
        use.halo = {};
        p.outputs.push_back(use);
    }
    if (p.outputs.empty()) {
        if (error) *error = "the nest writes no array";
        return false;
    }
    // Every array must be pinned for the model to treat the host as pinned.
    bool all_pinned = true;
    for (const auto& a : nest.input_arrays) all_pinned = all_pinned && a.pinned_host;
    for (const auto& a : nest.output_arrays) all_pinned = all_pinned && a.pinned_host;
    p.pinned_host = all_pinned;

    // The tiles cover the output array (the thesis's library tiles arrays of
    // equal size; loops that skip the edges still write inside it).
    p.extents = p.outputs.front().extents;
    for (const auto& a : p.outputs)
        if (a.extents != p.extents) {
            if (error) *error = "output arrays of different sizes are not modelled ('" + a.name + "')";
            return false;
        }
    for (const auto& a : p.inputs)
        for (int d = 0; d < 3; ++d)
            if (a.extents[d] != p.extents[d]) {
                if (error)
                    *error = "input '" + a.name + "' differs in size from the output; the model tiles arrays of "
                             "equal size";
                return false;
            }
    return true;
}

// Only a time loop that swaps pointers keeps its arrays on the GPU between
// steps (recipe::iterate); under any other the nest is one call per step,
// priced as one call.
bool read_time_loop(const analyzer::LoopNest& nest, Problem* p, std::string* error) {
    if (!nest.time_loop || nest.time_loop->exchange != analyzer::TimeLoop::Exchange::PointerSwap) return true;
    std::int64_t steps = 0;
    if (!evaluated(nest.time_loop->iterations, "time-step count", &steps, error)) return false;
    p->time_steps = std::max<std::int64_t>(1, steps);
    if (p->time_steps > 1) {
        const std::set<std::string> exchanged(nest.time_loop->arrays.begin(), nest.time_loop->arrays.end());
        for (auto& o : p->outputs) o.exchanged = exchanged.count(o.name) > 0;
    }
    return true;
}

// The iteration space: the loops' bounds, per dimension x first.
bool read_space(const analyzer::LoopNest& nest, Problem* p, std::string* error) {
    p->space = Box{{0, 0, 0}, p->extents};
    for (int d = 0; d < p->dims && d < static_cast<int>(nest.iteration_space.size()); ++d) {
        const auto& loop = nest.iteration_space[static_cast<std::size_t>(d)];
        std::int64_t lo = 0, hi = 0;
        if (!evaluated(loop.lower, "lower bound of loop '" + loop.var + "'", &lo, error) ||
            !evaluated(loop.upper, "upper bound of loop '" + loop.var + "'", &hi, error))
            return false;
        if (loop.stride != 1) {
            if (error) *error = "loop '" + loop.var + "' has stride " + std::to_string(loop.stride) + "; the model tiles unit-stride loops";
            return false;
        }
        if (lo < 0 || hi > p->extents[d] || hi <= lo) {
            if (error)
                *error = "loop '" + loop.var + "' runs from " + std::to_string(lo) + " to " + std::to_string(hi) +
                         ", outside the arrays' extent " + std::to_string(p->extents[d]);
            return false;
        }
        p->space.begin[d] = lo;
        p->space.end[d] = hi;
    }
    return true;
}

// What the analyzer knows of an output's pages and old values.
void output_state(const analyzer::ArrayProperties& a, ArrayUse* o) {
    o->written_before = !a.written_before_by.empty();
    if (a.layout == analyzer::ArrayLayout::PointerToPointer && !a.size.empty() && a.size[0].value) {
        const std::int64_t row = *a.size[0].value * (a.bytes_per_element > 0 ? a.bytes_per_element : 4);
        o->heap_rows = row < kHeapRowBytes;
    }
    if (a.needs_old_values) {
        o->copy_in = true;
        o->zero_pages = a.zero_pages;
    }
}

}  // namespace

bool cpu_problem_from(const analyzer::LoopNest& nest, Problem* out) {
    if (nest.accepted) return problem_from(nest, out, nullptr);
    const std::size_t dims = nest.iteration_space.size();
    if (dims < 1 || dims > 3) return false;
    Problem p;
    p.dims = static_cast<int>(dims);
    for (std::size_t d = 0; d < dims; ++d) {
        const auto& loop = nest.iteration_space[d];
        if (!loop.lower.value || !loop.upper.value || loop.stride < 1 || *loop.upper.value <= *loop.lower.value)
            return false;
        p.extents[d] = (*loop.upper.value - *loop.lower.value + loop.stride - 1) / loop.stride;
    }
    p.space = Box{{0, 0, 0}, p.extents};
    auto use = [&](const analyzer::ArrayProperties& a) {
        ArrayUse u;
        u.name = a.name;
        u.elem_bytes = a.bytes_per_element > 0 ? a.bytes_per_element : 4;
        u.extents = p.extents;
        return u;
    };
    for (const auto& a : nest.input_arrays) p.inputs.push_back(use(a));
    for (const auto& a : nest.output_arrays) {
        ArrayUse u = use(a);
        output_state(a, &u);
        p.outputs.push_back(u);
    }
    p.flops_per_point = nest.ops.flops();
    p.math_calls_per_point = nest.ops.math_calls;
    p.conversions_per_point = nest.ops.conversions;
    p.serial_adds_per_point = nest.ops.serial_adds;
    p.host_vector_lanes = nest.host_vector_lanes;
    p.host_reported_lanes = nest.host_reported_lanes;
    p.lane_loads_per_point = nest.host_lane_loads;
    *out = std::move(p);
    return true;
}

bool problem_from(const analyzer::LoopNest& nest, Problem* out, std::string* error) {
    if (!nest.accepted) {
        if (error) *error = "nest " + std::to_string(nest.id) + " was not accepted by the analyzer";
        return false;
    }
    Problem p;
    p.dims = nest.dimensionality;
    if (p.dims < 1 || p.dims > 3) {
        if (error) *error = "the model covers 1- to 3-dimensional nests, this one has " + std::to_string(p.dims);
        return false;
    }
    p.kernel_name = nest.function;
    if (!read_arrays(nest, &p, error) || !read_time_loop(nest, &p, error)) return false;
    for (const auto& a : nest.output_arrays)
        for (auto& o : p.outputs)
            if (o.name == a.name) output_state(a, &o);

    p.flops_per_point = nest.ops.flops();
    p.math_calls_per_point = nest.ops.math_calls;
    p.conversions_per_point = nest.ops.conversions;
    p.host_vector_lanes = nest.host_vector_lanes;
    p.host_reported_lanes = nest.host_reported_lanes;
    p.lane_loads_per_point = nest.host_lane_loads;
    int bytes = 0;
    for (const auto& a : p.inputs) bytes += a.elem_bytes;
    for (const auto& a : p.outputs) bytes += a.elem_bytes * (a.copy_in ? 2 : 1);
    if (!read_space(nest, &p, error)) return false;
    p.bytes_per_point = bytes;
    int reads = 0;
    for (const auto& a : nest.input_arrays) reads += std::max<int>(1, static_cast<int>(a.stencil.size()));
    for (const auto& a : nest.output_arrays) reads += a.reads_own_element ? 1 : 0;
    p.reads_per_point = reads;
    *out = std::move(p);
    return true;
}

}  // namespace recipe::advisor
