// swap.h — the three-statement pointer swap `t = a; a = b; b = t;` (the
// first may be a declaration `float *t = a;`), as time loops exchange their
// buffers with it.
#pragma once

#include <string>
#include <vector>

#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

struct Swap {
    std::string a, b, temp;
    TSNode first{}, last{};  // first and last statement of the three
};

// Swaps among the statements directly inside `block` (a compound statement).
std::vector<Swap> swaps_in_block(TSNode block, const std::string& source);

// Swaps anywhere under `root`.
std::vector<Swap> swaps_under(TSNode root, const std::string& source);

}  // namespace recipe::analyzer
