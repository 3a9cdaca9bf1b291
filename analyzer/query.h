// query.h — running a named tree-sitter query over a subtree. Queries are
// compiled once per process and shared (a TSQuery is read-only once built).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

// One match: the captured nodes by capture name (`m["name"]` for `@name`;
// a null node when that capture did not take part).
class QueryMatch {
public:
    QueryMatch(const std::vector<std::string>* names, std::vector<TSNode> nodes) : names_(names), nodes_(std::move(nodes)) {}
    TSNode operator[](std::string_view capture) const;

private:
    const std::vector<std::string>* names_;
    std::vector<TSNode> nodes_;
};

// Calls `on_match` for every match of `query` (a query source constant)
// under `root`, in source order. Throws if the query does not compile: the
// query strings are part of the program, so that is a bug.
void for_each_match(const char* query, TSNode root, const std::function<void(const QueryMatch&)>& on_match);

}  // namespace recipe::analyzer
