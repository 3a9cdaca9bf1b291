#include "analyzer/query.h"

#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace recipe::analyzer {

namespace {

struct Compiled {
    TSQuery* query = nullptr;
    std::vector<std::string> names;  // capture names by index
};

const Compiled& compiled(const char* source) {
    static std::mutex mutex;
    static std::map<const char*, Compiled> cache;  // lives as long as the process
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(source);
    if (it != cache.end()) return it->second;
    std::uint32_t error_offset = 0;
    TSQueryError error = TSQueryErrorNone;
    TSQuery* q = ts_query_new(tree_sitter_c(), source, static_cast<std::uint32_t>(std::strlen(source)), &error_offset, &error);
    if (!q) throw std::logic_error("tree-sitter query does not compile at offset " + std::to_string(error_offset) + ": " + source);
    Compiled c;
    c.query = q;
    for (std::uint32_t i = 0; i < ts_query_capture_count(q); ++i) {
        std::uint32_t len = 0;
        const char* name = ts_query_capture_name_for_id(q, i, &len);
        c.names.emplace_back(name, len);
    }
    return cache.emplace(source, std::move(c)).first->second;
}

}  // namespace

TSNode QueryMatch::operator[](std::string_view capture) const {
    for (std::size_t i = 0; i < names_->size(); ++i)
        if ((*names_)[i] == capture) return nodes_[i];
    throw std::logic_error("query has no capture @" + std::string(capture));
}

void for_each_match(const char* query, TSNode root, const std::function<void(const QueryMatch&)>& on_match) {
    const Compiled& c = compiled(query);
    TSQuery* q = c.query;
    TSQueryCursor* cursor = ts_query_cursor_new();
    ts_query_cursor_exec(cursor, q, root);
    TSQueryMatch m;
    const std::uint32_t n = ts_query_capture_count(q);
    while (ts_query_cursor_next_match(cursor, &m)) {
        std::vector<TSNode> nodes(n, TSNode{});
        for (std::uint16_t i = 0; i < m.capture_count; ++i) nodes[m.captures[i].index] = m.captures[i].node;
        on_match(QueryMatch(&c.names, std::move(nodes)));
    }
    ts_query_cursor_delete(cursor);
}

}  // namespace recipe::analyzer
