#include "recipes/host_uses.h"

#include <vector>

#include "recipes/c_declarations.h"
#include "recipes/c_tree.h"

namespace recipe::recipes {

namespace {

bool same(TSNode a, TSNode b) { return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b); }

// Through casts and parentheses, up: the node the value of `n` feeds.
TSNode unwrapped_parent(TSNode n, TSNode* child) {
    TSNode p = ts_node_parent(n);
    while (is(p, "cast_expression") || is(p, "parenthesized_expression")) {
        n = p;
        p = ts_node_parent(p);
    }
    *child = n;
    return p;
}

bool is_loop(TSNode n) { return is(n, "for_statement") || is(n, "while_statement") || is(n, "do_statement"); }

enum class Use { Harmless, ElementBefore, Declared, Live };

// What one mention of the array's name does.
Use classify(const CTree& t, TSNode id) {
    // The declared name: climb the declarators that declare it.
    TSNode n = id, p = ts_node_parent(id);
    while (std::string_view(ts_node_type(p)).find("declarator") != std::string_view::npos && same(field(p, "declarator"), n)) {
        n = p;
        p = ts_node_parent(p);
    }
    if (is(p, "declaration")) {
        for (TSNode c : named_children(p))
            if (is(c, "storage_class_specifier")) return Use::Live;  // static or extern: lives on
        return Use::Declared;
    }
    if (is(p, "parameter_declaration")) return Use::Live;
    for (TSNode a = ts_node_parent(id); a.id && !is(a, "function_definition"); a = ts_node_parent(a))
        if (is(a, "sizeof_expression")) return Use::Harmless;
    TSNode child;
    const TSNode up = unwrapped_parent(id, &child);
    // Pointed at new memory.
    if (is(up, "assignment_expression") && same(field(up, "left"), child)) {
        TSNode r = field(up, "right");
        while (is(r, "cast_expression") || is(r, "parenthesized_expression")) r = is(r, "cast_expression") ? field(r, "value") : ts_node_named_child(r, 0);
        if (is(r, "call_expression")) {
            const std::string f = called_function(t, r);
            if (f == "malloc" || f == "calloc" || f == "aligned_alloc") return Use::Harmless;
        }
        return Use::Live;
    }
    // Freed, or allocated through its address.
    if (is(up, "argument_list")) {
        const std::string f = called_function(t, ts_node_parent(up));
        if (f == "free" || f == "cudaFreeHost") return Use::Harmless;
        return Use::Live;
    }
    if (is(up, "pointer_expression") && t.text(up).substr(0, 1) == "&") {
        TSNode c2;
        const TSNode args = unwrapped_parent(up, &c2);
        if (is(args, "argument_list")) {
            const std::string f = called_function(t, ts_node_parent(args));
            if (f == "posix_memalign" || f == "cudaMallocHost" || f == "cudaHostAlloc") return Use::Harmless;
        }
        return Use::Live;
    }
    // Tested for null: the pointer, not the elements.
    if (is(up, "unary_expression") && t.text(up).substr(0, 1) == "!") return Use::Harmless;
    if (is(up, "binary_expression")) {
        const std::string op(t.text(ts_node_child(up, 1)));
        if (op == "&&" || op == "||") return Use::Harmless;
        if (op == "==" || op == "!=") {
            const TSNode other = same(field(up, "left"), child) ? field(up, "right") : field(up, "left");
            const std::string_view o = t.text(other);
            if (o == "NULL" || o == "0" || o == "nullptr" || o == "((void *)0)" || o == "((void*)0)") return Use::Harmless;
        }
        return Use::Live;
    }
    if (is(up, "parenthesized_expression") || is(up, "condition_clause")) return Use::Harmless;  // if (in)
    if (is(ts_node_parent(id), "subscript_expression") && same(field(ts_node_parent(id), "argument"), id))
        return Use::ElementBefore;
    return Use::Live;
}

}  // namespace

bool dead_after(const CTree& tree, std::uint32_t begin, std::uint32_t end, const std::string& name) {
    const TSNode function = enclosing_function(tree, begin);
    if (ts_node_is_null(function)) return false;
    // Loops around the span: a use before the span inside one of them also
    // comes after it, on the loop's next turn.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> around;
    for (TSNode n = ts_node_descendant_for_byte_range(tree.root(), begin, begin); n.id && !same(n, function); n = ts_node_parent(n))
        if (is_loop(n) && ts_node_start_byte(n) < begin) around.emplace_back(ts_node_start_byte(n), ts_node_end_byte(n));
    // Inside a loop the span itself runs again, and its next run reads the
    // host's copy: the array is live whatever the code around it does.
    if (!around.empty()) return false;
    bool declared = false, live = false;
    walk(field(function, "body"), [&](TSNode n) {
        if (live || !is(n, "identifier") || tree.text(n) != name) return;
        const std::uint32_t at = ts_node_start_byte(n);
        if (at >= begin && at < end) return;
        switch (classify(tree, n)) {
            case Use::Harmless: break;
            case Use::Declared: declared = true; break;
            case Use::ElementBefore: {
                if (at >= end) live = true;
                for (const auto& [b, e] : around)
                    if (at >= b && at < e) live = true;
                break;
            }
            case Use::Live: live = true; break;
        }
    });
    return declared && !live;
}

std::string between_problem(const CTree& tree, TSNode s, const std::set<std::string>& arrays) {
    if (is(s, "declaration")) return "declares a variable";
    std::set<std::string> defined;
    for (TSNode d : named_children(tree.root()))
        if (is(d, "function_definition")) defined.emplace(tree.text(declared_name(field(d, "declarator"))));
    std::string why;
    walk(s, [&](TSNode n) {
        if (!why.empty()) return;
        if (is(n, "identifier") && arrays.count(std::string(tree.text(n))))
            why = "uses `" + std::string(tree.text(n)) + "`";
        else if (is(n, "return_statement") || is(n, "break_statement") || is(n, "continue_statement") || is(n, "goto_statement"))
            why = "may jump out";
        else if (is(n, "call_expression") && defined.count(called_function(tree, n)))
            why = "calls `" + called_function(tree, n) + "()`, defined in this file";
    });
    return why;
}

}  // namespace recipe::recipes
