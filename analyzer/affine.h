// affine.h — index expressions as affine forms over the loop variables:
// sum of (coefficient * variable) + constant, coefficients and constant being
// polynomials over size symbols (W, NX*NY). `(y-1)*W + x+1` is
// {y: W, x: 1} + (-W + 1). Understands casts, parentheses, function-like
// index macros and single-return `static inline` helpers defined in the file
// (expanded with their arguments), index temporaries, and clamps written as
// ternaries or min/max/MIN/MAX (the clamped operand is kept, the clamp is
// reported as boundary handling).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/constants.h"
#include "analyzer/poly.h"
#include "analyzer/program.h"
#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

struct Clamp {
    std::string text;  // e.g. "MIN(r + 1, ROWS - 1)" or "x > 0 ? x - 1 : 0"
    SourceSpan span;
};

struct Affine {
    enum class Status { Ok, NonAffine, DataDependent };
    Status status = Status::Ok;
    std::string problem;   // why it is not affine, e.g. "'i * j' multiplies loop variables"
    SourceSpan problem_span;
    std::map<std::string, Poly> vars;  // loop variable -> coefficient (no zero entries)
    Poly constant;
    std::vector<Clamp> clamps;

    bool ok() const { return status == Status::Ok; }
    bool has_vars() const { return !vars.empty(); }
    static Affine constant_of(Poly p);
    static Affine variable(const std::string& name);
    static Affine fail(Status s, std::string why, SourceSpan where);
};

// Taken by value: a temporary on the left is reused rather than copied.
Affine operator+(Affine a, const Affine& b);
Affine operator-(Affine a);
Affine scale(Affine a, const Poly& by);

// A macro or helper parameter bound to its argument's value.
using AffineBindings = std::map<std::string, Affine>;

class AffineEvaluator {
public:
    AffineEvaluator(const FileDefinitions& defs, const ConstantEvaluator& constants);

    // The loop variables an index may follow (nest and window loops).
    std::set<std::string> loop_vars;
    // Integer temporaries declared in the loop body, by name, with their
    // current value (flow-sensitive: the collector updates it in order).
    std::map<std::string, Affine> temporaries;
    // Names whose value comes from data (array reads) or changes inside the
    // body: an index that uses one is data-dependent / not affine.
    std::map<std::string, Affine> opaque_scalars;

    // Evaluates `n` (in `src`); `site` is the node in the file that spans
    // and clamp texts refer to when `n` sits in a macro body.
    Affine evaluate(TSNode n, const std::string& src, const AffineBindings* bindings = nullptr, TSNode site = TSNode{});

    // Values of the opaque symbols made on the way, e.g. "(N/2)".
    const std::map<std::string, std::optional<std::int64_t>>& opaque_values() const { return opaque_values_; }

private:
    const FileDefinitions& defs_;
    const ConstantEvaluator& constants_;
    std::map<std::string, std::optional<std::int64_t>> opaque_values_;
    int depth_ = 0;

    Affine eval(TSNode n, const std::string& src, const AffineBindings* b, TSNode site);
    Affine eval_identifier(TSNode n, const std::string& src, const AffineBindings* b, TSNode site);
    Affine eval_binary(TSNode n, const std::string& src, const AffineBindings* b, TSNode site);
    Affine opaque(TSNode n, const std::string& src, TSNode site);
    Affine clamp(const Affine& a, const Affine& b, TSNode n, const std::string& src, TSNode site);
    Affine expand_call(TSNode n, const std::string& src, const AffineBindings* b, TSNode site);
    SourceSpan where(TSNode n, TSNode site) const;
};

// True for the min/max spellings treated as clamps when not defined as macros.
bool is_min_max_name(const std::string& name);

}  // namespace recipe::analyzer
