// report_level.cuh — what RECIPE_REPORT asks the library to print.
#pragma once

#include <cstdlib>
#include <string>

namespace recipe::detail {

// RECIPE_REPORT: unset or 0, nothing; "time", one line per run with its
// host-clock total (no events, so the run is timed as it runs for users);
// anything else, the table of measured phases beside the predicted ones, and
// the start-up thread's timeline (start.cuh).
enum class ReportLevel { None, Time, Full };
inline ReportLevel report_requested() {
    const char* v = std::getenv("RECIPE_REPORT");
    if (!v || !*v || std::string(v) == "0") return ReportLevel::None;
    return std::string(v) == "time" ? ReportLevel::Time : ReportLevel::Full;
}

}  // namespace recipe::detail
