#include "analyzer/context.h"

#include "analyzer/c_types.h"

namespace recipe::analyzer {

namespace {
constexpr int kMaxCallDepth = 4;
const void* key(const FunctionInfo* f) { return f ? f->node.id : nullptr; }
}  // namespace

AnalysisContext::AnalysisContext(std::string file, const FileDefinitions& defs, const AnalyzeOptions& options)
    : file_(std::move(file)), defs_(defs), constants_(defs), options_(options), globals_(global_declarations(defs)) {}

AnalysisContext::FunctionFacts& AnalysisContext::facts(const FunctionInfo* f) {
    auto it = functions_.find(key(f));
    if (it != functions_.end()) return it->second;
    FunctionFacts facts;
    facts.scope = std::make_unique<Scope>(defs_, f, &globals_, f ? f->declarations : std::vector<TSNode>{});
    return functions_.emplace(key(f), std::move(facts)).first->second;
}

const Scope& AnalysisContext::scope(const FunctionInfo* f) { return *facts(f).scope; }

void AnalysisContext::forget(const FunctionInfo* f) {
    functions_.erase(key(f));
    for (auto it = values_.begin(); it != values_.end();) {
        if (it->first.first == key(f)) it = values_.erase(it);
        else ++it;
    }
}

const std::vector<Assignment>& AnalysisContext::assignments(const FunctionInfo* f) {
    FunctionFacts& ff = facts(f);
    if (ff.have_assignments || !f) return ff.assignments;
    ff.have_assignments = true;
    const std::string& src = source();
    for (TSNode n : f->assignments) {
        if (IS(n, "assignment_expression")) {
            bool plain = text(field(n, "operator"), src) == "=";
            ff.assignments.push_back({std::string(text(strip_parens(field(n, "left")), src)), n, plain ? field(n, "right") : TSNode{}});
        } else if (IS(n, "update_expression")) {
            ff.assignments.push_back({std::string(text(strip_parens(field(n, "argument")), src)), n, TSNode{}});
        } else {
            // &x handed to a call may change x (scanf, cudaMallocHost).
            ff.assignments.push_back({std::string(text(strip_parens(field(n, "argument")), src)), n, TSNode{}});
        }
    }
    return ff.assignments;
}

const std::vector<Swap>& AnalysisContext::swaps(const FunctionInfo* f) {
    FunctionFacts& ff = facts(f);
    if (!ff.have_swaps && f) ff.swaps = swaps_under(f->body, source());
    ff.have_swaps = true;
    return ff.swaps;
}

bool AnalysisContext::in_swap(const FunctionInfo* f, TSNode node) {
    std::uint32_t b = ts_node_start_byte(node);
    for (const Swap& s : swaps(f))
        if (b >= ts_node_start_byte(s.first) && b < ts_node_end_byte(s.last)) return true;
    return false;
}

std::optional<std::int64_t> AnalysisContext::value_of(const FunctionInfo* f, const std::string& name, std::uint32_t at,
                                                       int depth) {
    if (auto v = constants_.value_of(name, at)) return v;
    if (!f || depth > kMaxCallDepth) return std::nullopt;
    auto cache_key = std::make_pair(key(f), name);
    if (auto it = values_.find(cache_key); it != values_.end()) return it->second;
    values_[cache_key] = std::nullopt;  // recursion guard
    std::optional<std::int64_t> result;
    const VarDecl* d = scope(f).find(name, at);
    if (d && d->levels.empty() && is_integer_type(d->type, &defs_)) {
        if (d->is_param) {
            // Every call in the file passes the same constant.
            std::size_t index = 0;
            while (index < f->param_names.size() && f->param_names[index] != name) ++index;
            const auto& calls = defs_.calls_to(f->name);
            std::optional<std::int64_t> common;
            bool same = !calls.empty();
            for (TSNode call : calls) {
                std::vector<TSNode> args = named_children(field(call, "arguments"));
                if (index >= args.size()) { same = false; break; }
                const FunctionInfo* caller = defs_.function_at(ts_node_start_byte(call));
                ConstantEvaluator::Lookup names = [&](const std::string& n) {
                    return value_of(caller, n, ts_node_start_byte(call), depth + 1);
                };
                auto v = constants_.evaluate(Expr{args[index], &source()}, ts_node_start_byte(call), names);
                if (!v || (common && *common != *v)) { same = false; break; }
                common = v;
            }
            if (same) result = common;
        } else if (!d->is_global && !is_null(d->value)) {
            bool reassigned = false;
            for (const Assignment& a : assignments(f))
                if (a.name == name) reassigned = true;
            if (!reassigned) {
                ConstantEvaluator::Lookup names = [&](const std::string& n) { return value_of(f, n, d->at, depth + 1); };
                result = constants_.evaluate(Expr{d->value, &source()}, d->at, names);
            }
        }
    }
    values_[cache_key] = result;
    return result;
}

}  // namespace recipe::analyzer
