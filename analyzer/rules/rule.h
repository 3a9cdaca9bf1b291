// rule.h — one rule per file (clang-tidy style): each way a loop nest can be
// rejected is a named check with a kebab-case id that appears in its
// diagnostics. A check reads the facts gathered about a nest and appends
// warnings; a nest with none is accepted. Registered in registry.cpp.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analyzer/access_shape.h"
#include "analyzer/body_facts.h"
#include "analyzer/context.h"
#include "analyzer/loop_header.h"
#include "analyzer/nest_finder.h"
#include "analyzer/program.h"

namespace recipe::analyzer {

// Everything known about one nest when the rules run.
struct NestFacts {
    AnalysisContext* ctx = nullptr;
    const NestCandidate* candidate = nullptr;
    std::vector<LoopHeader> headers;       // the nest's dimensions, outermost first
    std::set<std::string> nest_vars;
    BodyFacts body;
    std::vector<AccessShape> shapes;       // parallel to body.accesses
    const LoopNest* nest = nullptr;        // iteration space and arrays already filled
};

using RuleCheck = void (*)(const NestFacts&, std::vector<Diagnostic>&);

struct Rule {
    const char* id;
    RuleCheck check;
};

// In the order their diagnostics are listed.
const std::vector<Rule>& all_rules();

// A rejection reason at `where`.
Diagnostic reason(const char* rule_id, TSNode where, std::string message);
Diagnostic reason(const char* rule_id, SourcePos where, std::string message);

// Checks, one per file under rules/.
void check_syntax(const NestFacts&, std::vector<Diagnostic>&);
void check_non_canonical_loop(const NestFacts&, std::vector<Diagnostic>&);
void check_non_constant_stride(const NestFacts&, std::vector<Diagnostic>&);
void check_too_many_dimensions(const NestFacts&, std::vector<Diagnostic>&);
void check_not_perfectly_nested(const NestFacts&, std::vector<Diagnostic>&);
void check_too_complex(const NestFacts&, std::vector<Diagnostic>&);
void check_early_exit(const NestFacts&, std::vector<Diagnostic>&);
void check_side_effect_call(const NestFacts&, std::vector<Diagnostic>&);
void check_data_dependent_index(const NestFacts&, std::vector<Diagnostic>&);
void check_non_affine_index(const NestFacts&, std::vector<Diagnostic>&);
void check_strided_access(const NestFacts&, std::vector<Diagnostic>&);
void check_no_output(const NestFacts&, std::vector<Diagnostic>&);
void check_reduction(const NestFacts&, std::vector<Diagnostic>&);
void check_scalar_write(const NestFacts&, std::vector<Diagnostic>&);
void check_doacross(const NestFacts&, std::vector<Diagnostic>&);
void check_dereferenced_array(const NestFacts&, std::vector<Diagnostic>&);
void check_offset_write(const NestFacts&, std::vector<Diagnostic>&);
void check_possible_aliasing(const NestFacts&, std::vector<Diagnostic>&);

}  // namespace recipe::analyzer
