// context.h — what the analysis of one file shares between its nests: the
// definitions, constants, globals and options, plus per-function facts that
// are computed once (declarations, assignments, swaps, parameter values
// known from call sites).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/analyzer.h"
#include "analyzer/constants.h"
#include "analyzer/declarations.h"
#include "analyzer/swap.h"

namespace recipe::analyzer {

// Assignments to plain names in one function.
struct Assignment {
    std::string name;
    TSNode node{};   // the assignment (or update) expression
    TSNode value{};  // right-hand side of `=`, null for compound ones
};

class AnalysisContext {
public:
    AnalysisContext(std::string file, const FileDefinitions& defs, const AnalyzeOptions& options);

    const std::string& file() const { return file_; }
    const FileDefinitions& defs() const { return defs_; }
    const ConstantEvaluator& constants() const { return constants_; }
    const AnalyzeOptions& options() const { return options_; }
    const std::string& source() const { return defs_.source(); }

    const Scope& scope(const FunctionInfo* f);
    const std::vector<Assignment>& assignments(const FunctionInfo* f);
    const std::vector<Swap>& swaps(const FunctionInfo* f);
    // Whether `a = ...` at `node` is one of the statements of a swap.
    bool in_swap(const FunctionInfo* f, TSNode node);

    // The value of a size name as seen at byte `at` inside `f`: constants,
    // -D, locals initialised once with a constant, and parameters every call
    // in the file passes the same constant for.
    std::optional<std::int64_t> value_of(const FunctionInfo* f, const std::string& name, std::uint32_t at, int depth = 0);

    // Drops what was computed for `f` (its nests are done): a file of
    // thousands of functions then needs memory for one at a time.
    void forget(const FunctionInfo* f);

private:
    std::string file_;
    const FileDefinitions& defs_;
    ConstantEvaluator constants_;
    const AnalyzeOptions& options_;
    GlobalTable globals_;
    // What one pass over a function's body finds.
    struct FunctionFacts {
        std::unique_ptr<Scope> scope;
        bool have_assignments = false;  // assignments and swaps are found on demand
        bool have_swaps = false;
        std::vector<Assignment> assignments;
        std::vector<Swap> swaps;
    };
    std::unordered_map<const void*, FunctionFacts> functions_;
    FunctionFacts& facts(const FunctionInfo* f);
    struct ValueKeyHash {
        std::size_t operator()(const std::pair<const void*, std::string>& k) const {
            return std::hash<const void*>()(k.first) ^ (std::hash<std::string>()(k.second) * 31);
        }
    };
    std::unordered_map<std::pair<const void*, std::string>, std::optional<std::int64_t>, ValueKeyHash> values_;
};

}  // namespace recipe::analyzer
