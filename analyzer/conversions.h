// conversions.h — the integer-to-floating conversions a loop body makes per
// iteration from 64-bit integers (`(float)(i % 1000)` with `long i`, `i *
// dx` with `size_t i` and `double dx`). x86-64 has no vector instruction for
// them below AVX-512, so gcc and clang leave the loop that makes them
// scalar, at ~0.75 ns a conversion on a 2-core Xeon build host (in the
// first-level cache) where the rest of such a loop's arithmetic cost 0.4
// ns a point: the C side prices them apart (hostConvertNs, docs/model.md).
// Conversions of loop-invariant values (hoisted by the compiler) and of
// 32-bit integers (vectorised where the loop is) are not counted.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "analyzer/syntax_tree.h"

namespace recipe::analyzer {

class FileDefinitions;

enum class ValueKind { Unknown, Int32, Int64, Floating };

// What the walk of a body knows about the names it meets.
struct NameTypes {
    // The declared type of a scalar variable, or the element type of an
    // array or pointer (`element` true); nullopt when unknown.
    std::function<std::optional<std::string>(const std::string& name, bool element)> declared;
    // True for names whose value changes from one iteration to the next:
    // loop variables and the body's own locals.
    std::function<bool(const std::string& name)> varies;
    const FileDefinitions* defs = nullptr;
};

// The kind of a C type ("const long" → Int64, "float" → Floating),
// following typedefs and object-like macros that name a type.
ValueKind kind_of_type(const std::string& type, const FileDefinitions* defs);

// The conversions the node `n` itself makes (its operands' own are counted
// where the walk meets them): a cast to a floating type of a varying 64-bit
// integer, an arithmetic operator or an assignment joining a floating
// operand (or target) with a varying 64-bit integer one. 0 or 1.
int conversions_at(TSNode n, const std::string& src, const NameTypes& names);
// The same for a cast to `type` of `value` (`(real)(i)` with `real` a
// typedef, which the parser reads as a call).
int cast_conversions(const std::string& type, TSNode value, const std::string& src, const NameTypes& names);

}  // namespace recipe::analyzer
