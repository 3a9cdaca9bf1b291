#include "recipes/main_work.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "advisor/program_time.h"

namespace recipe::recipes {

namespace {

TSNode main_function(const CTree& tree) {
    const auto& defs = tree.function_definitions();
    const auto m = defs.find("main");
    return m == defs.end() ? TSNode{} : m->second;
}

// The file's functions that hold a converted nest, and those that call one
// of them by plain name, to any depth: calling one runs GPU work.
std::set<std::string> functions_leading_to_gpu(const CTree& tree, const AdviseResult& r) {
    std::set<std::string> gpu;
    for (const auto& n : r.nests)
        if (n.verdict == Verdict::Converted && n.nest) gpu.insert(n.nest->function);
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& [name, fn] : tree.function_definitions()) {
            if (gpu.count(name)) continue;
            bool calls = false;
            walk(fn, [&](TSNode k) {
                if (!calls && is(k, "call_expression") && gpu.count(called_function(tree, k))) calls = true;
            });
            if (calls) grew = gpu.insert(name).second || grew;
        }
    }
    return gpu;
}

// main's CPU work in the bytes [from, to) of its body: its own nests that
// stay on the CPU there (once), and the nests of the functions it calls
// there (once per call; none of them leads to a converted nest).
double cpu_work_between(const CTree& tree, TSNode main_fn, const AdviseResult& r, const advisor::Platform& platform,
                        std::uint32_t from, std::uint32_t to) {
    std::map<std::string, int> calls;
    walk(main_fn, [&](TSNode k) {
        if (!is(k, "call_expression") || ts_node_start_byte(k) < from || ts_node_start_byte(k) >= to) return;
        const std::string name = called_function(tree, k);
        if (!name.empty()) ++calls[name];
    });
    double ms = 0;
    for (const auto& n : r.nests) {
        if (n.verdict == Verdict::Converted || !n.nest) continue;
        // A planned nest as planned; one the model could not plan (rejected,
        // a fill with a carried state) from its loops and counted work.
        advisor::Problem problem;
        if (n.chosen()) problem = n.chosen()->problem;
        else if (!advisor::cpu_problem_from(*n.nest, &problem)) continue;
        int times = 0;
        if (n.nest->function == "main") times = n.nest->span.begin_byte >= from && n.nest->span.end_byte <= to ? 1 : 0;
        else if (const auto c = calls.find(n.nest->function); c != calls.end()) times = c->second;
        if (times == 0) continue;
        advisor::CpuEstimate e;
        // The first call's time, then the later calls' (its outputs then present).
        if (advisor::cpu_time(problem, platform, &e, nullptr)) ms += e.first_ms + (times - 1) * e.ms;
    }
    return ms;
}

// Whether `node` holds GPU work: a converted nest of main, or a call of a
// function that leads to one.
bool holds_gpu_work(const CTree& tree, TSNode node, const AdviseResult& r, const std::set<std::string>& gpu) {
    const std::uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
    for (const auto& n : r.nests)
        if (n.verdict == Verdict::Converted && n.nest && n.nest->function == "main" && n.nest->span.begin_byte >= b &&
            n.nest->span.begin_byte < e)
            return true;
    bool found = false;
    walk(node, [&](TSNode k) {
        if (!found && is(k, "call_expression") && gpu.count(called_function(tree, k))) found = true;
    });
    return found;
}

}  // namespace

double work_before_first_call(const CTree& tree, const AdviseResult& r, const advisor::Platform& platform) {
    const TSNode main_fn = main_function(tree);
    if (ts_node_is_null(main_fn)) return 0;
    const std::set<std::string> gpu = functions_leading_to_gpu(tree, r);
    std::uint32_t first = UINT32_MAX;
    for (const auto& n : r.nests)
        if (n.verdict == Verdict::Converted && n.nest && n.nest->function == "main")
            first = std::min(first, n.nest->span.begin_byte);
    walk(main_fn, [&](TSNode k) {
        if (is(k, "call_expression") && gpu.count(called_function(tree, k))) first = std::min(first, ts_node_start_byte(k));
    });
    return cpu_work_between(tree, main_fn, r, platform, 0, first);
}

std::optional<LastGpuWork> last_gpu_work(const CTree& tree, const AdviseResult& r, const advisor::Platform& platform) {
    const TSNode main_fn = main_function(tree);
    if (ts_node_is_null(main_fn)) return std::nullopt;
    if (tree.has_identifier_prefix("cuda")) return std::nullopt;
    for (char c = 'A'; c <= 'Z'; ++c)
        if (tree.has_identifier_prefix(std::string("cu") + c)) return std::nullopt;
    const TSNode body = field(main_fn, "body");
    if (!is(body, "compound_statement")) return std::nullopt;
    // A goto may take main back before its GPU work, which would then find
    // CUDA released.
    bool jumps = false;
    walk(body, [&](TSNode k) { jumps = jumps || is(k, "goto_statement"); });
    if (jumps) return std::nullopt;
    const std::set<std::string> gpu = functions_leading_to_gpu(tree, r);
    TSNode last{};
    for (const TSNode s : named_children(body))
        if (holds_gpu_work(tree, s, r, gpu)) last = s;
    if (ts_node_is_null(last) || is(last, "return_statement")) return std::nullopt;
    LastGpuWork w;
    w.end_byte = ts_node_end_byte(last);
    w.line = tree.user_line(last);
    w.after_ms = cpu_work_between(tree, main_fn, r, platform, w.end_byte, ts_node_end_byte(body));
    return w;
}

}  // namespace recipe::recipes
