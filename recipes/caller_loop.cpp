#include "recipes/caller_loop.h"

#include <algorithm>
#include <map>
#include <set>

#include "recipes/c_declarations.h"
#include "recipes/c_tree.h"
#include "recipes/nest_source_facts.h"

namespace recipe::recipes {

namespace {

TSNode function_declarator(TSNode function) {
    TSNode d = field(function, "declarator");
    while (is(d, "pointer_declarator")) d = field(d, "declarator");
    return is(d, "function_declarator") ? d : TSNode{};
}

// A constant integer expression of the preprocessed text (literals, + - * /
// % and parentheses), or nothing.
std::optional<std::int64_t> constant(const CTree& t, TSNode e, int depth = 0) {
    if (depth > 32 || ts_node_is_null(e)) return std::nullopt;
    if (is(e, "number_literal")) {
        std::string s(t.text(e));
        while (!s.empty() && (s.back() == 'u' || s.back() == 'U' || s.back() == 'l' || s.back() == 'L')) s.pop_back();
        try {
            std::size_t used = 0;
            const long long v = std::stoll(s, &used, 0);
            if (used == s.size()) return v;
        } catch (const std::exception&) {
        }
        return std::nullopt;
    }
    if (is(e, "parenthesized_expression")) return constant(t, ts_node_named_child(e, 0), depth + 1);
    if (is(e, "binary_expression")) {
        const auto a = constant(t, field(e, "left"), depth + 1), b = constant(t, field(e, "right"), depth + 1);
        if (!a || !b) return std::nullopt;
        const std::string op(t.text(ts_node_child(e, 1)));
        if (op == "+") return *a + *b;
        if (op == "-") return *a - *b;
        if (op == "*") return *a * *b;
        if ((op == "/" || op == "%") && *b != 0) return op == "/" ? *a / *b : *a % *b;
    }
    return std::nullopt;
}

// `for (v = A; v < B; v++)` (or <=, ++v, v += 1, int v = A): the counter and
// the number of turns when A and B are constants.
void read_for(const CTree& t, TSNode loop, CallerLoop* out) {
    const TSNode init = field(loop, "initializer"), cond = field(loop, "condition"), update = field(loop, "update");
    std::optional<std::int64_t> from;
    if (is(init, "assignment_expression") && is(field(init, "left"), "identifier")) {
        out->counter = std::string(t.text(field(init, "left")));
        from = constant(t, field(init, "right"));
    } else if (is(init, "declaration")) {
        for (TSNode c : named_children(init))
            if (is(c, "init_declarator") && is(field(c, "declarator"), "identifier")) {
                out->counter = std::string(t.text(field(c, "declarator")));
                from = constant(t, field(c, "value"));
            }
    }
    if (out->counter.empty()) return;
    bool by_one = false;
    if (is(update, "update_expression")) by_one = t.text(field(update, "argument")) == out->counter && t.text(update).find("++") != std::string_view::npos;
    if (is(update, "assignment_expression") && t.text(field(update, "left")) == out->counter)
        by_one = t.text(ts_node_child(update, 1)) == "+=" && constant(t, field(update, "right")) == 1;
    if (!by_one || !from || !is(cond, "binary_expression") || t.text(field(cond, "left")) != out->counter) return;
    const auto to = constant(t, field(cond, "right"));
    const std::string op(t.text(ts_node_child(cond, 1)));
    if (!to || (op != "<" && op != "<=")) return;
    out->steps = std::max<std::int64_t>(0, *to + (op == "<=" ? 1 : 0) - *from);
}

}  // namespace

std::vector<std::string> parameter_names(const CTree& tree, TSNode function) {
    std::vector<std::string> names;
    const TSNode fd = function_declarator(function);
    for (TSNode p : named_children(field(fd, "parameters"))) {
        if (!is(p, "parameter_declaration")) continue;
        const TSNode id = declared_name(field(p, "declarator"));
        names.push_back(ts_node_is_null(id) ? std::string() : std::string(tree.text(id)));
    }
    return names;
}

std::string callee_body_problem(const CTree& tree, TSNode function, const std::vector<analyzer::SourceSpan>& nests) {
    for (TSNode s : named_children(field(function, "body"))) {
        if (is(s, "comment") || is(s, "preproc_call")) continue;
        const bool nest = std::any_of(nests.begin(), nests.end(), [&](const analyzer::SourceSpan& n) {
            return ts_node_start_byte(s) == n.begin_byte && ts_node_end_byte(s) == n.end_byte;
        });
        if (nest) continue;
        if (is(s, "declaration") && !has_side_effects(s)) continue;
        return "it also runs `" + std::string(tree.text(s)).substr(0, 40) + "` (line " + std::to_string(tree.user_line(s)) + ")";
    }
    return "";
}

std::vector<CallerLoop> loops_calling(const CTree& tree, const std::string& callee, const std::vector<std::size_t>& pointers) {
    std::vector<CallerLoop> out;
    std::set<std::uint32_t> seen;  // loops already read
    for (const TSNode call : tree.calls_to(callee)) {
        // The call is a statement of a loop's body block, or the body itself
        // (`for (t = 0; t < T; t++) step(a, b);`).
        const TSNode statement = ts_node_parent(call);
        const TSNode parent = ts_node_parent(statement);
        const bool braced = is(parent, "compound_statement");
        const TSNode block = braced ? parent : statement;
        const TSNode loop = braced ? ts_node_parent(parent) : parent;
        if (!is(statement, "expression_statement") ||
            !(is(loop, "for_statement") || is(loop, "while_statement") || is(loop, "do_statement")) ||
            !ts_node_eq(field(loop, "body"), block))
            continue;
        if (!seen.insert(ts_node_start_byte(loop)).second) continue;
        const TSNode function = enclosing_function(tree, ts_node_start_byte(loop));
        if (ts_node_is_null(function)) continue;
        CallerLoop c;
        c.loop = loop;
        c.caller = std::string(tree.text(declared_name(field(function, "declarator"))));
        if (c.caller == callee) continue;  // recursion
        if (is(loop, "for_statement")) read_for(tree, loop, &c);
        // The pointers the calls pass, which the body may swap.
        std::set<std::string> movable;
        for (TSNode s : braced ? named_children(block) : std::vector<TSNode>{statement}) {
            const TSNode e = is(s, "expression_statement") ? ts_node_named_child(s, 0) : TSNode{};
            if (!is(e, "call_expression") || called_function(tree, e) != callee) continue;
            c.calls.push_back(e);
            const std::vector<TSNode> args = named_children(field(e, "arguments"));
            for (const std::size_t p : pointers) {
                if (p >= args.size() || !is(args[p], "identifier")) {
                    c.why = "its call at line " + std::to_string(tree.user_line(e)) + " passes an array that is not a plain name";
                    break;
                }
                movable.emplace(tree.text(args[p]));
            }
        }
        // The rest of the body: swaps of those pointers (through temporaries) and counting.
        if (c.why.empty() && braced) {
            const TSNode extra = facts::loop_body_extra(tree, block, c.counter, movable, [&](TSNode s) {
                const TSNode e = is(s, "expression_statement") ? ts_node_named_child(s, 0) : TSNode{};
                return is(e, "call_expression") && called_function(tree, e) == callee;
            }, &c.swaps, true);
            if (!ts_node_is_null(extra))
                c.why = "its loop also runs `" + std::string(tree.text(extra)).substr(0, 40) + "` (line " +
                        std::to_string(tree.user_line(extra)) + ") every turn";
        }
        out.push_back(c);
    }
    return out;
}

std::optional<std::map<std::string, std::vector<std::string>>> holders_after(const CTree& tree, const CallerLoop& loop,
                                                                            const std::vector<std::string>& names) {
    if (!loop.steps) return std::nullopt;
    const TSNode body = field(loop.loop, "body");
    const bool block = is(body, "compound_statement");
    constexpr int kUnknown = -1;
    // What holds a buffer across turns: the names, and the function's own
    // temporaries the body assigns (a swap through `tmp` declared before
    // the loop); the body's block-scoped temporaries start anew each turn.
    std::vector<std::string> tracked = names;
    const std::set<std::string> scoped = block ? facts::declared_in(tree, body) : std::set<std::string>{};
    if (block)
        for (TSNode s : named_children(body)) {
            const TSNode e = is(s, "expression_statement") ? ts_node_named_child(s, 0) : TSNode{};
            if (!is(e, "assignment_expression") || !is(field(e, "left"), "identifier")) continue;
            const std::string left(tree.text(field(e, "left")));
            if (left != loop.counter && !scoped.count(left) && std::find(tracked.begin(), tracked.end(), left) == tracked.end())
                tracked.push_back(left);
        }
    // Which of the buffers the names held when the loop began each tracked
    // identifier holds now (their index in `names`).
    std::vector<int> held(tracked.size(), kUnknown);
    for (std::size_t i = 0; i < names.size(); ++i) held[i] = static_cast<int>(i);
    auto turn = [&](const std::vector<int>& before) {
        std::map<std::string, int> now;
        for (std::size_t i = 0; i < tracked.size(); ++i) now[tracked[i]] = before[i];
        auto value = [&](TSNode e) {
            if (!is(e, "identifier")) return kUnknown;
            const auto it = now.find(std::string(tree.text(e)));
            return it == now.end() ? kUnknown : it->second;
        };
        if (block)
            for (TSNode s : named_children(body)) {
                if (is(s, "declaration")) {
                    for (TSNode d : named_children(s)) {
                        if (is(d, "init_declarator")) now[std::string(tree.text(declared_name(field(d, "declarator"))))] = value(field(d, "value"));
                        else if (!ts_node_is_null(declared_name(d))) now[std::string(tree.text(declared_name(d)))] = kUnknown;
                    }
                    continue;
                }
                // Pointer assignments (loop_body_extra allows no others).
                const TSNode e = is(s, "expression_statement") ? ts_node_named_child(s, 0) : TSNode{};
                if (is(e, "assignment_expression") && is(field(e, "left"), "identifier"))
                    now[std::string(tree.text(field(e, "left")))] = value(field(e, "right"));
            }
        std::vector<int> after(tracked.size());
        for (std::size_t i = 0; i < tracked.size(); ++i) after[i] = now[tracked[i]];
        return after;
    };
    // The state after each turn depends on the turn before alone: it
    // repeats with a short period, found by remembering each state.
    std::map<std::vector<int>, std::int64_t> seen;
    std::vector<std::vector<int>> states;
    for (std::int64_t t = 0; t < *loop.steps; ++t) {
        const auto [at, fresh] = seen.emplace(held, t);
        if (!fresh) {
            const std::int64_t period = t - at->second;
            held = states[static_cast<std::size_t>(at->second + (*loop.steps - t) % period)];
            break;
        }
        states.push_back(held);
        held = turn(held);
    }
    std::map<std::string, std::vector<std::string>> holders;
    for (const std::string& n : names) holders[n];  // a buffer nothing holds any more: an empty list
    for (std::size_t i = 0; i < tracked.size(); ++i) {
        if (held[i] == kUnknown) {
            if (i < names.size()) return std::nullopt;  // a name holding a pointer the loop made otherwise
            continue;  // a temporary assigned on no turn
        }
        holders[names[static_cast<std::size_t>(held[i])]].push_back(tracked[i]);
    }
    return holders;
}

}  // namespace recipe::recipes
