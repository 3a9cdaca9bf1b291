// doacross.h — loop-carried dependences through the nest's output arrays
// (seed 001): an output read at an element another iteration writes.
#pragma once

#include <string>
#include <vector>

#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

// Dependences per output array, distances in iteration_space order (x
// first), each made positive in the direction the loops run.
std::vector<Dependence> find_dependences(const NestFacts& facts, const std::vector<std::string>& iteration_vars);

}  // namespace recipe::analyzer
