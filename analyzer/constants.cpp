#include "analyzer/constants.h"

#include <cctype>

#include "analyzer/c_types.h"

namespace recipe::analyzer {

namespace {

constexpr int kMaxDepth = 64;  // macro chains and nested parentheses

struct DepthGuard {
    int& depth;
    explicit DepthGuard(int& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
};

}  // namespace

std::optional<std::int64_t> parse_integer_literal(std::string_view s) {
    // tree-sitter folds a leading sign into the literal: "-1".
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        bool negative = s[0] == '-';
        auto v = parse_integer_literal(s.substr(1));
        if (!v) return std::nullopt;
        return negative ? -*v : *v;
    }
    std::size_t end = s.size();
    while (end > 0 && (s[end - 1] == 'u' || s[end - 1] == 'U' || s[end - 1] == 'l' || s[end - 1] == 'L')) --end;
    s = s.substr(0, end);
    if (s.empty()) return std::nullopt;
    int base = 10;
    std::size_t i = 0;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        i = 2;
    } else if (s.size() > 1 && s[0] == '0') {
        base = 8;
        i = 1;
    }
    std::uint64_t v = 0;
    for (; i < s.size(); ++i) {
        int d;
        char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else return std::nullopt;
        if (d >= base) return std::nullopt;
        if (v > (static_cast<std::uint64_t>(INT64_MAX) - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base))
            return std::nullopt;
        v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
    }
    return static_cast<std::int64_t>(v);
}

std::optional<std::int64_t> ConstantEvaluator::value_of(const std::string& name, std::uint32_t at) const {
    if (depth_ > kMaxDepth) return std::nullopt;
    DepthGuard guard(depth_);
    // -D and #define are global: cache them.
    if (defs_.overridden(name) || defs_.macro(name)) {
        auto c = cache_.find(name);
        if (c != cache_.end()) return c->second;
        cache_[name] = std::nullopt;  // a macro that refers to itself stays unknown
        std::optional<std::int64_t> v;
        const Macro* m = defs_.macro(name);
        if (defs_.overridden(name) || (m && !m->function_like)) {
            Expr e = defs_.macro_expression(name);
            if (e.source) v = eval(e.node, *e.source, at, nullptr);
        }
        cache_[name] = v;
        return v;
    }
    if (const Enumerator* en = defs_.enumerator(name)) {
        auto c = cache_.find(name);
        if (c != cache_.end()) return c->second;
        cache_[name] = std::nullopt;
        std::optional<std::int64_t> v;
        if (!is_null(en->value)) {
            v = eval(en->value, defs_.source(), at, nullptr);
        } else if (en->previous.empty()) {
            v = 0;
        } else if (auto p = value_of(en->previous, at)) {
            if (*p < INT64_MAX) v = *p + 1;
        }
        cache_[name] = v;
        return v;
    }
    if (const ConstVariable* cv = defs_.const_variable(name, at)) {
        if (!is_integer_type(cv->type, &defs_)) return std::nullopt;
        return eval(cv->value, defs_.source(), cv->scope_begin, nullptr);
    }
    return std::nullopt;
}

std::optional<std::int64_t> ConstantEvaluator::evaluate(Expr e, std::uint32_t at, const Lookup& params) const {
    if (!e.source || is_null(e.node)) return std::nullopt;
    return eval(e.node, *e.source, at, params);
}

std::optional<std::int64_t> ConstantEvaluator::eval(TSNode n, const std::string& src, std::uint32_t at,
                                                    const Lookup& params) const {
    if (depth_ > kMaxDepth || is_null(n)) return std::nullopt;
    DepthGuard guard(depth_);
    const TSSymbol kind = symbol(n);
    if (kind == SYM("parenthesized_expression")) {
        if (ts_node_named_child_count(n) != 1) return std::nullopt;
        return eval(ts_node_named_child(n, 0), src, at, params);
    }
    if (kind == SYM("number_literal")) return parse_integer_literal(text(n, src));
    if (kind == SYM("char_literal")) {
        std::string_view t = text(n, src);
        if (t.size() == 3) return static_cast<unsigned char>(t[1]);
        return std::nullopt;
    }
    if (kind == SYM("true")) return 1;
    if (kind == SYM("false")) return 0;
    if (kind == SYM("identifier")) {
        std::string name(text(n, src));
        if (params) {
            if (auto v = params(name)) return v;
        }
        return value_of(name, at);
    }
    if (kind == SYM("field_expression")) {
        // A size held in a struct (`g->nx`, `grid.ny`): known when planned
        // for with --assume g->nx=VALUE.
        const std::string path = squeeze(text(n, src));
        std::string compact;
        for (char c : path)
            if (c != ' ') compact += c;
        if (defs_.overridden(compact)) return value_of(compact, at);
        return std::nullopt;
    }
    if (kind == SYM("cast_expression")) {
        std::string type = squeeze(text(field(n, "type"), src));
        if (!is_integer_type(type, &defs_)) return std::nullopt;
        return eval(field(n, "value"), src, at, params);
    }
    if (kind == SYM("sizeof_expression")) {
        TSNode t = field(n, "type");
        if (is_null(t)) return std::nullopt;
        auto b = bytes_of_type(squeeze(text(t, src)), &defs_);
        if (!b) return std::nullopt;
        return *b;
    }
    if (kind == SYM("unary_expression")) {
        auto v = eval(field(n, "argument"), src, at, params);
        if (!v) return std::nullopt;
        std::string_view op = text(field(n, "operator"), src);
        if (op == "-") return *v == INT64_MIN ? std::nullopt : std::optional<std::int64_t>(-*v);
        if (op == "+") return v;
        if (op == "!") return !*v;
        if (op == "~") return ~*v;
        return std::nullopt;
    }
    if (kind == SYM("conditional_expression")) {
        auto c = eval(field(n, "condition"), src, at, params);
        if (!c) return std::nullopt;
        return eval(field(n, *c ? "consequence" : "alternative"), src, at, params);
    }
    if (kind == SYM("call_expression")) {
        // A function-like macro over constants, e.g. SQR(4).
        std::string callee(text(field(n, "function"), src));
        const Macro* m = defs_.macro(callee);
        if (!m || !m->function_like) return std::nullopt;
        std::vector<TSNode> args = named_children(field(n, "arguments"));
        if (args.size() != m->params.size()) return std::nullopt;
        std::map<std::string, std::int64_t> bound;
        for (std::size_t i = 0; i < args.size(); ++i) {
            auto v = eval(args[i], src, at, params);
            if (!v) return std::nullopt;
            bound[m->params[i]] = *v;
        }
        Expr body = defs_.macro_expression(callee);
        if (!body.source) return std::nullopt;
        Lookup inner = [&bound](const std::string& s) -> std::optional<std::int64_t> {
            auto it = bound.find(s);
            if (it == bound.end()) return std::nullopt;
            return it->second;
        };
        return eval(body.node, *body.source, at, inner);
    }
    if (kind == SYM("binary_expression")) {
        auto a = eval(field(n, "left"), src, at, params);
        if (!a) return std::nullopt;
        auto b = eval(field(n, "right"), src, at, params);
        if (!b) return std::nullopt;
        std::string_view op = text(field(n, "operator"), src);
        std::int64_t r = 0;
        if (op == "+") return __builtin_add_overflow(*a, *b, &r) ? std::nullopt : std::optional<std::int64_t>(r);
        if (op == "-") return __builtin_sub_overflow(*a, *b, &r) ? std::nullopt : std::optional<std::int64_t>(r);
        if (op == "*") return __builtin_mul_overflow(*a, *b, &r) ? std::nullopt : std::optional<std::int64_t>(r);
        if (op == "/" || op == "%") {
            if (*b == 0 || (*a == INT64_MIN && *b == -1)) return std::nullopt;
            return op == "/" ? *a / *b : *a % *b;
        }
        if (op == "<<") return (*b < 0 || *b > 62 || *a < 0 || *a > (INT64_MAX >> *b)) ? std::nullopt : std::optional<std::int64_t>(*a << *b);
        if (op == ">>") return (*b < 0 || *b > 63) ? std::nullopt : std::optional<std::int64_t>(*a >> *b);
        if (op == "&") return *a & *b;
        if (op == "|") return *a | *b;
        if (op == "^") return *a ^ *b;
        if (op == "<") return *a < *b;
        if (op == "<=") return *a <= *b;
        if (op == ">") return *a > *b;
        if (op == ">=") return *a >= *b;
        if (op == "==") return *a == *b;
        if (op == "!=") return *a != *b;
        if (op == "&&") return *a && *b;
        if (op == "||") return *a || *b;
        return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace recipe::analyzer
