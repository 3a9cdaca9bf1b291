#include "analyzer/aliasing.h"

#include <vector>

namespace recipe::analyzer {

namespace {

constexpr int kMaxDepth = 4;

using Objects = std::optional<std::set<std::string>>;  // nullopt: unknown

const std::set<std::string>& allocators() {
    // The C library's, and those of libraries whose arrays benchmarks use
    // (PolyBench's polybench_alloc_data, MKL, GLib, libnuma).
    static const std::set<std::string> names = {"malloc", "calloc", "realloc", "aligned_alloc", "valloc", "memalign",
                                                "pvalloc", "_mm_malloc", "_aligned_malloc", "polybench_alloc_data",
                                                "mkl_malloc", "mkl_calloc", "g_malloc", "g_malloc0", "numa_alloc_onnode",
                                                "numa_alloc_local"};
    return names;
}

// Allocators that hand the pointer back through their first argument.
const std::set<std::string>& out_allocators() {
    static const std::set<std::string> names = {"cudaMallocHost", "cudaHostAlloc", "cudaMallocManaged", "posix_memalign"};
    return names;
}

bool is_pinned_allocator(const std::string& n) { return n == "cudaMallocHost" || n == "cudaHostAlloc"; }

// Allocators whose memory reads as zeros until written: fresh pages the
// kernel maps to the shared zero page, so each first write faults.
bool is_zeroing_allocator(const std::string& n) { return n == "calloc" || n == "mkl_calloc" || n == "g_malloc0"; }

class Resolver {
public:
    explicit Resolver(AnalysisContext& ctx) : ctx_(ctx), src_(ctx.source()) {}

    bool allocating_function(const std::string& name, int depth) {
        const FunctionInfo* f = ctx_.defs().function(name);
        if (!f || depth > kMaxDepth) return false;
        bool any = false, all = true;
        walk(f->body, [&](TSNode n) {
            if (!all) return false;
            if (!IS(n, "return_statement")) return true;
            TSNode v = ts_node_named_child_count(n) ? strip_parens_and_casts(ts_node_named_child(n, 0)) : TSNode{};
            if (is_null(v)) { all = false; return false; }
            std::string_view t = text(v, src_);
            if (t == "NULL" || t == "0" || t == "nullptr") return false;
            if (is_allocation(f, v, depth + 1)) { any = true; return false; }
            if (IS(v, "identifier")) {
                auto o = sources_allocated(f, std::string(t), ts_node_start_byte(v), depth + 1);
                if (o) { any = true; return false; }
            }
            all = false;
            return false;
        });
        return any && all;
    }

    bool is_allocation(const FunctionInfo*, TSNode v, int depth) {
        v = strip_parens_and_casts(v);
        if (!IS(v, "call_expression")) return false;
        std::string callee(text(field(v, "function"), src_));
        return allocators().count(callee) || allocating_function(callee, depth + 1);
    }

    // The objects a name refers to: nullopt when the file does not tell.
    Objects objects(const FunctionInfo* f, const std::string& name, std::uint32_t at, int depth) {
        if (depth > kMaxDepth) return std::nullopt;
        const VarDecl* d = ctx_.scope(f).find(name, at);
        if (!d) return std::nullopt;
        bool array = !d->levels.empty() && d->levels[0].kind == DeclLevel::Kind::Array && !d->is_param;
        if (array) return std::set<std::string>{(d->is_global ? "global:" : "local:") + name + "@" + std::to_string(d->at)};
        if (d->is_global) return global_allocated(name, *d, depth);
        if (!d->is_param) return sources_allocated(f, name, at, depth);
        // A parameter: changed in the function other than by a swap, or
        // called from nowhere in the file, means unknown.
        for (const Assignment& a : ctx_.assignments(f))
            if (a.name == name && !ctx_.in_swap(f, a.node)) return std::nullopt;
        std::size_t index = 0;
        while (index < f->param_names.size() && f->param_names[index] != name) ++index;
        const auto& calls = ctx_.defs().calls_to(f->name);
        if (calls.empty()) return std::nullopt;
        std::set<std::string> all;
        for (TSNode call : calls) {
            auto o = objects_of_argument(call, index, depth + 1);
            if (!o) return std::nullopt;
            all.insert(o->begin(), o->end());
        }
        return all;
    }

    Objects objects_of_argument(TSNode call, std::size_t index, int depth) {
        std::vector<TSNode> args = named_children(field(call, "arguments"));
        if (index >= args.size()) return std::nullopt;
        const FunctionInfo* caller = ctx_.defs().function_at(ts_node_start_byte(call));
        return objects_of_expression(caller, args[index], depth);
    }

    Objects objects_of_expression(const FunctionInfo* f, TSNode e, int depth) {
        e = strip_parens_and_casts(e);
        if (IS(e, "identifier")) return objects(f, std::string(text(e, src_)), ts_node_start_byte(e), depth);
        if (IS(e, "binary_expression")) {
            std::string_view op = text(field(e, "operator"), src_);
            if (op == "+" || op == "-") {
                // Pointer arithmetic stays inside the object it starts from.
                TSNode l = strip_parens_and_casts(field(e, "left"));
                return objects_of_expression(f, l, depth);
            }
            return std::nullopt;
        }
        if (IS(e, "pointer_expression") && text(field(e, "operator"), src_) == "*") {
            // `*A` of a pointer to an array (PolyBench's POLYBENCH_ARRAY(A)):
            // the array A points to.
            TSNode a = strip_parens_and_casts(field(e, "argument"));
            if (IS(a, "identifier")) return objects(f, std::string(text(a, src_)), ts_node_start_byte(a), depth);
            return std::nullopt;
        }
        if (IS(e, "pointer_expression") && text(field(e, "operator"), src_) == "&") {
            TSNode a = strip_parens(field(e, "argument"));
            for (int g = 0; g < 64 && IS(a, "subscript_expression"); ++g) a = strip_parens(field(a, "argument"));
            if (IS(a, "identifier")) return objects(f, std::string(text(a, src_)), ts_node_start_byte(a), depth);
            return std::nullopt;
        }
        if (is_allocation(f, e, depth)) return std::set<std::string>{"allocation@" + std::to_string(ts_node_start_byte(e))};
        return std::nullopt;
    }

    // A local pointer whose initialiser and assignments are all allocations
    // (swaps between such pointers aside) is its own object.
    Objects sources_allocated(const FunctionInfo* f, const std::string& name, std::uint32_t at, int depth) {
        const VarDecl* d = ctx_.scope(f).find(name, at);
        if (!d || d->is_param || d->is_global) return std::nullopt;
        bool allocated = !is_null(d->value) && is_allocation(f, d->value, depth);
        if (!is_null(d->value) && !allocated) return std::nullopt;
        for (const Assignment& a : ctx_.assignments(f)) {
            if (a.name != name) continue;
            if (ctx_.in_swap(f, a.node)) continue;
            if (IS(a.node, "pointer_expression")) {
                // &p handed to cudaMallocHost(&p, n) and the like.
                if (out_allocated(a.node)) { allocated = true; continue; }
                return std::nullopt;
            }
            if (is_null(a.value) || !is_allocation(f, a.value, depth)) return std::nullopt;
            allocated = true;
        }
        if (!allocated) return std::nullopt;
        return std::set<std::string>{"allocation:" + name + "@" + std::to_string(d->at)};
    }

    // A global pointer that every function of the file only ever sets to an
    // allocation (or NULL) is its own object.
    Objects global_allocated(const std::string& name, const VarDecl& d, int depth) {
        if (d.levels.empty() || d.levels[0].kind != DeclLevel::Kind::Pointer) return std::nullopt;
        if (!is_null(d.value)) {
            std::string_view v = text(strip_parens_and_casts(d.value), src_);
            if (v != "NULL" && v != "0" && v != "nullptr" && !is_allocation(nullptr, d.value, depth)) return std::nullopt;
        }
        bool allocated = !is_null(d.value) && is_allocation(nullptr, d.value, depth);
        for (const FunctionInfo& g : ctx_.defs().functions()) {
            for (const Assignment& a : ctx_.assignments(&g)) {
                if (a.name != name) continue;
                // A local of the same name shadows the global.
                const VarDecl* seen = ctx_.scope(&g).find(name, ts_node_start_byte(a.node));
                if (seen && !seen->is_global) continue;
                if (ctx_.in_swap(&g, a.node)) continue;
                if (IS(a.node, "pointer_expression")) {
                    if (out_allocated(a.node)) { allocated = true; continue; }
                    return std::nullopt;
                }
                if (is_null(a.value) || !is_allocation(&g, a.value, depth)) return std::nullopt;
                allocated = true;
            }
        }
        if (!allocated) return std::nullopt;
        return std::set<std::string>{"global-allocation:" + name};
    }

    // `&p` as the first argument of cudaMallocHost / posix_memalign.
    bool out_allocated(TSNode address_of, bool* pinned = nullptr) {
        TSNode args = ts_node_parent(address_of);
        if (!IS(args, "argument_list")) return false;
        TSNode call = ts_node_parent(args);
        std::string callee(text(field(call, "function"), src_));
        if (!out_allocators().count(callee)) return false;
        if (ts_node_named_child_count(args) == 0 || !ts_node_eq(ts_node_named_child(args, 0), address_of)) return false;
        if (pinned) *pinned = is_pinned_allocator(callee);
        return true;
    }

    // Whether `holds` is true of the variable every call in the file passes
    // for the parameter `name` of `f` (false when no call passes a plain
    // name; `deref`: `*A`, PolyBench's pointer to an array, names A).
    template <class Holds>
    bool every_argument(const FunctionInfo* f, const std::string& name, bool deref, const Holds& holds) {
        std::size_t index = 0;
        while (index < f->param_names.size() && f->param_names[index] != name) ++index;
        const auto& calls = ctx_.defs().calls_to(f->name);
        if (calls.empty()) return false;
        for (TSNode call : calls) {
            std::vector<TSNode> args = named_children(field(call, "arguments"));
            if (index >= args.size()) return false;
            TSNode a = strip_parens_and_casts(args[index]);
            if (deref && IS(a, "pointer_expression") && text(field(a, "operator"), src_) == "*")
                a = strip_parens_and_casts(field(a, "argument"));
            if (!IS(a, "identifier")) return false;
            if (!holds(ctx_.defs().function_at(ts_node_start_byte(call)), std::string(text(a, src_)), ts_node_start_byte(a)))
                return false;
        }
        return true;
    }

    bool pinned(const FunctionInfo* f, const std::string& name, std::uint32_t at, int depth) {
        if (depth > kMaxDepth) return false;
        const VarDecl* d = ctx_.scope(f).find(name, at);
        if (!d) return false;
        if (d->is_param) return every_argument(f, name, false, [&](const FunctionInfo* caller, const std::string& arg, std::uint32_t where) {
            return pinned(caller, arg, where, depth + 1);
        });
        bool any = false;
        for (const Assignment& a : ctx_.assignments(f)) {
            if (a.name != name || !IS(a.node, "pointer_expression")) continue;
            bool p = false;
            if (out_allocated(a.node, &p) && p) any = true;
        }
        return any;
    }

    // Zero-filled memory nothing has written at load or allocation: an array
    // of static storage without an initialiser (the loader maps it to zero
    // pages), or a pointer every assignment of which is a calloc (at every
    // call, for a parameter).
    bool zeroed(const FunctionInfo* f, const std::string& name, std::uint32_t at, int depth) {
        if (depth > kMaxDepth) return false;
        const VarDecl* d = ctx_.scope(f).find(name, at);
        if (!d || d->levels.empty()) return false;
        if (d->levels[0].kind == DeclLevel::Kind::Array && !d->is_param) {
            if (!is_null(d->value)) return false;
            if (d->is_global) return true;
            const std::string_view decl = text(d->declaration, src_);
            return decl.rfind("static", 0) == 0 || decl.find(" static ") != std::string_view::npos;
        }
        if (d->is_param) {
            for (const Assignment& a : ctx_.assignments(f))
                if (a.name == name && !ctx_.in_swap(f, a.node)) return false;
            return every_argument(f, name, true, [&](const FunctionInfo* caller, const std::string& arg, std::uint32_t where) {
                return zeroed(caller, arg, where, depth + 1);
            });
        }
        auto zeroing_call = [&](TSNode v) {
            v = strip_parens_and_casts(v);
            return IS(v, "call_expression") && is_zeroing_allocator(std::string(text(field(v, "function"), src_)));
        };
        bool any = false;
        if (!is_null(d->value)) {
            if (!zeroing_call(d->value)) return false;
            any = true;
        }
        const FunctionInfo* owner = d->is_global ? nullptr : f;
        const std::vector<const FunctionInfo*> scopes = [&] {
            std::vector<const FunctionInfo*> out;
            if (owner) out.push_back(owner);
            else
                for (const FunctionInfo& g : ctx_.defs().functions()) out.push_back(&g);
            return out;
        }();
        for (const FunctionInfo* g : scopes)
            for (const Assignment& a : ctx_.assignments(g)) {
                if (a.name != name || ctx_.in_swap(g, a.node)) continue;
                if (d->is_global) {
                    const VarDecl* seen = ctx_.scope(g).find(name, ts_node_start_byte(a.node));
                    if (seen && !seen->is_global) continue;
                }
                if (is_null(a.value) || !zeroing_call(a.value)) return false;
                any = true;
            }
        return any;
    }

private:
    AnalysisContext& ctx_;
    const std::string& src_;
};

bool disjoint(const std::set<std::string>& a, const std::set<std::string>& b) {
    for (const auto& x : a)
        if (b.count(x)) return false;
    return true;
}

}  // namespace

AliasVerdict may_alias(AnalysisContext& ctx, const FunctionInfo* f, const std::string& a, const std::string& b, std::uint32_t at) {
    if (a == b) return {true, "'" + a + "' is both read and written"};
    if (ctx.options().assume_no_alias) return {};  // --assume-no-alias: the user vouches for every pair
    const VarDecl* da = ctx.scope(f).find(a, at);
    const VarDecl* db = ctx.scope(f).find(b, at);
    if (!da || !db) return {true, "the declaration of '" + (da ? b : a) + "' is not in this file"};
    if (da->restrict_qualified || db->restrict_qualified) return {};
    Resolver r(ctx);
    if (da->is_param && db->is_param && f) {
        // Both parameters: every call must pass two different objects.
        std::size_t ia = 0, ib = 0;
        while (ia < f->param_names.size() && f->param_names[ia] != a) ++ia;
        while (ib < f->param_names.size() && f->param_names[ib] != b) ++ib;
        for (const Assignment& as : ctx.assignments(f))
            if ((as.name == a || as.name == b) && !ctx.in_swap(f, as.node))
                return {true, "'" + as.name + "' is reassigned in '" + f->name + "'"};
        const auto& calls = ctx.defs().calls_to(f->name);
        if (calls.empty()) return {true, "'" + f->name + "' is not called in this file"};
        for (TSNode call : calls) {
            auto oa = r.objects_of_argument(call, ia, 1);
            auto ob = r.objects_of_argument(call, ib, 1);
            if (!oa || !ob || !disjoint(*oa, *ob)) {
                SourcePos p = pos_of(call);
                return {true, "the call at line " + std::to_string(p.line) + " may pass overlapping arrays"};
            }
        }
        return {};
    }
    auto oa = r.objects(f, a, at, 0);
    auto ob = r.objects(f, b, at, 0);
    if (!oa) return {true, "the file does not show what '" + a + "' points to"};
    if (!ob) return {true, "the file does not show what '" + b + "' points to"};
    if (!disjoint(*oa, *ob)) return {true, "'" + a + "' and '" + b + "' may point to the same allocation"};
    return {};
}

bool is_pinned_allocation(AnalysisContext& ctx, const FunctionInfo* f, const std::string& name, std::uint32_t at) {
    return Resolver(ctx).pinned(f, name, at, 0);
}

bool is_zeroed_memory(AnalysisContext& ctx, const FunctionInfo* f, const std::string& name, std::uint32_t at) {
    return Resolver(ctx).zeroed(f, name, at, 0);
}

std::optional<std::set<std::string>> memory_objects(AnalysisContext& ctx, const FunctionInfo* f, const std::string& name,
                                                    std::uint32_t at) {
    return Resolver(ctx).objects(f, name, at, 0);
}

}  // namespace recipe::analyzer
