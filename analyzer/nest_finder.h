// nest_finder.h — finds the loop nests of a file: maximal chains of
// perfectly nested `for` loops (declarations of index temporaries may sit
// between them), and the time loops around them. A loop is a time loop when
// it contains loops and its own variable does not index any array (or only
// picks one of several buffers, as in u[t%2][i]); `while` and `do` loops
// that contain `for` loops are time loops too.
#pragma once

#include <vector>

#include "analyzer/definitions.h"

namespace recipe::analyzer {

struct NestCandidate {
    const FunctionInfo* function = nullptr;  // null for loops outside a function (broken code)
    std::vector<TSNode> chain;     // perfectly nested loops, outermost first
    std::vector<TSNode> preludes;  // declarations between them
    TSNode body{};                 // the innermost loop's body
    int time_loop = -1;            // index into NestSearch::time_loops
};

struct TimeLoopCandidate {
    TSNode node{};                // for / while / do statement
    std::vector<int> nests;       // candidates directly inside (indices into NestSearch::nests)
    int outer = -1;               // enclosing time loop, if any
};

struct NestSearch {
    std::vector<NestCandidate> nests;         // in source order
    std::vector<TimeLoopCandidate> time_loops;
};

NestSearch find_nests(const FileDefinitions& defs);

// The variable a `for` header initialises, or "" (shared with time loops).
std::string loop_variable(TSNode for_stmt, const std::string& source);

// Statements of a body: the children of a compound statement, or the
// statement itself.
std::vector<TSNode> statements_of(TSNode body);

}  // namespace recipe::analyzer
