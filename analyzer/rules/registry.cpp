#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

// check_syntax runs first and alone (nest_builder.cpp): a nest with a
// syntax error gets no other verdict.
const std::vector<Rule>& all_rules() {
    static const std::vector<Rule> rules = {
        {"non-canonical-loop", check_non_canonical_loop},
        {"non-constant-stride", check_non_constant_stride},
        {"too-many-dimensions", check_too_many_dimensions},
        {"not-perfectly-nested", check_not_perfectly_nested},
        {"too-complex", check_too_complex},
        {"early-exit", check_early_exit},
        {"side-effect-call", check_side_effect_call},
        {"data-dependent-index", check_data_dependent_index},
        {"non-affine-index", check_non_affine_index},
        {"strided-access", check_strided_access},
        {"no-output", check_no_output},
        {"reduction", check_reduction},
        {"scalar-write", check_scalar_write},
        {"doacross", check_doacross},
        {"offset-write", check_offset_write},
        {"dereferenced-array", check_dereferenced_array},
        {"possible-aliasing", check_possible_aliasing},
    };
    return rules;
}

Diagnostic reason(const char* rule_id, TSNode where, std::string message) {
    return reason(rule_id, pos_of(where), std::move(message));
}

Diagnostic reason(const char* rule_id, SourcePos where, std::string message) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.pos = where;
    d.rule_id = rule_id;
    d.message = std::move(message);
    return d;
}

}  // namespace recipe::analyzer
