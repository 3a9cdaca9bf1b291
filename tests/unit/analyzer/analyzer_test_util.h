// analyzer_test_util.h — helpers shared by the analyzer's tests: analyse a
// sample or a test input, pick a nest, compare offsets and extents.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/analyzer.h"

namespace recipe::analyzer::test {

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::string sample_path(const std::string& name) { return std::string(RECIPE_SOURCE_DIR) + "/samples/" + name; }
inline std::string input_path(const std::string& name) {
    return std::string(RECIPE_SOURCE_DIR) + "/tests/unit/analyzer/inputs/" + name;
}

inline Program analyze_path(const std::string& path, const AnalyzeOptions& options = {}) {
    Program p;
    std::string error;
    REQUIRE(analyze_file(path, options, &p, &error));
    CHECK(error.empty());
    return p;
}

inline Program analyze_sample(const std::string& name, const AnalyzeOptions& options = {}) {
    return analyze_path(sample_path(name), options);
}
inline Program analyze_input(const std::string& name, const AnalyzeOptions& options = {}) {
    return analyze_path(input_path(name), options);
}
inline Program analyze_text(const std::string& code, const AnalyzeOptions& options = {}) {
    return analyze_source("test.c", code, options);
}

// The `index`-th nest (0-based) inside `function`.
inline const LoopNest& nest_in(const Program& p, const std::string& function, int index = 0) {
    int seen = 0;
    for (const auto& n : p.nests)
        if (n.function == function && seen++ == index) return n;
    FAIL("no nest " << index << " in function " << function);
    throw std::logic_error("unreachable");
}

inline const ArrayProperties& array_named(const std::vector<ArrayProperties>& arrays, const std::string& name) {
    for (const auto& a : arrays)
        if (a.name == name) return a;
    FAIL("no array " << name);
    throw std::logic_error("unreachable");
}

using Offsets = std::vector<std::vector<int>>;

inline std::vector<std::string> rule_ids(const LoopNest& n, Severity s = Severity::Warning) {
    std::vector<std::string> ids;
    for (const auto& d : n.reasons)
        if (d.severity == s) ids.push_back(d.rule_id);
    return ids;
}

inline bool has_rule(const LoopNest& n, const std::string& id) {
    for (const auto& d : n.reasons)
        if (d.rule_id == id) return true;
    return false;
}

// Checks an extent: value (or none) and expression.
inline void check_extent(const Extent& e, std::optional<std::int64_t> value, const std::string& expr) {
    INFO("extent " << e.expr);
    CHECK(e.value == value);
    CHECK(e.expr == expr);
}

inline void check_loop(const LoopProperties& l, const std::string& var, std::optional<std::int64_t> lower,
                       const std::string& lower_expr, std::optional<std::int64_t> upper, const std::string& upper_expr,
                       int depth) {
    INFO("loop " << l.var);
    CHECK(l.var == var);
    check_extent(l.lower, lower, lower_expr);
    check_extent(l.upper, upper, upper_expr);
    CHECK(l.stride == 1);
    CHECK(l.depth == depth);
}

}  // namespace recipe::analyzer::test
