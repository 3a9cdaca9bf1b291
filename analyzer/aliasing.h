// aliasing.h — whether two arrays of a nest may be the same memory. Arrays
// are told apart by the objects they point to: a declared array, or a
// pointer whose every assignment is an allocation (malloc, calloc, an
// allocating function of the file, cudaMallocHost, ...). A pointer parameter
// is resolved at every call in the file; `restrict` settles it at once.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "analyzer/context.h"

namespace recipe::analyzer {

struct AliasVerdict {
    bool may_alias = false;
    std::string why;  // for a possible alias: what could not be told apart
};

// `a` and `b` are names visible in `f` at byte `at` (array bases as written).
AliasVerdict may_alias(AnalysisContext& ctx, const FunctionInfo* f, const std::string& a, const std::string& b, std::uint32_t at);

// True when `name` in `f` is allocated with cudaMallocHost / cudaHostAlloc
// (directly or at every call site).
bool is_pinned_allocation(AnalysisContext& ctx, const FunctionInfo* f, const std::string& name, std::uint32_t at);

// True when `name` in `f` is memory that reads as zeros and nothing has
// written yet where it comes from: calloc'd (directly or at every call
// site), or an array of static storage without an initialiser.
bool is_zeroed_memory(AnalysisContext& ctx, const FunctionInfo* f, const std::string& name, std::uint32_t at);

// The objects (declared arrays, allocations) `name` may point to; nullopt
// when the file does not tell. Two names share memory when these meet.
std::optional<std::set<std::string>> memory_objects(AnalysisContext& ctx, const FunctionInfo* f, const std::string& name,
                                                    std::uint32_t at);

}  // namespace recipe::analyzer
