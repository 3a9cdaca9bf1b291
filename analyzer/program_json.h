// program_json.h — Program <-> JSON, the schema documented in
// docs/analyze-json.md (field names are stable; "schema_version" changes
// when they do).
#pragma once

#include <iosfwd>

#include <nlohmann/json.hpp>

#include "analyzer/program.h"

namespace recipe::analyzer {

inline constexpr int kProgramSchemaVersion = 1;

nlohmann::json to_json(const Program& p);
// Writes to_json(p).dump(2) (no newline after it); text that is not UTF-8
// is written as U+FFFD instead of throwing.
void write_json(std::ostream& out, const Program& p);
// Reads what to_json wrote. Throws nlohmann::json::exception on a document
// that does not follow the schema.
Program program_from_json(const nlohmann::json& j);

}  // namespace recipe::analyzer
