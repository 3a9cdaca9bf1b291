// host_record.h — this machine's earlier `--measure-host` readings,
// remembered between runs, and the figures the model takes from them.
//
// Why: one measurement spans about 2 s, and some hosts run slower as a
// whole for longer than that. On one H200 host, 10 of 28 advise runs of an
// end-to-end benchmark read 2.95-4.17 GFLOP/s and the others 5.3-6.0,
// while the C programs' medians ran at the fast rate (docs/model.md, "The
// host's figures"). A C program measured as the median of several runs
// runs at the host's usual speed, so the model takes the best of each
// figure over the readings this machine gave in the last days: the
// fastest stream (with the working-set curve of the same reading), the
// fastest arithmetic and first touch, the cheapest math call and conversion.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "advisor/host_cpu.h"

namespace recipe::advisor {

struct HostReading {
    std::int64_t unix_s = 0;  // when it was measured
    HostCpu cpu;
};

// Readings older than this are forgotten (a host's software or setting
// may have changed), and at most kHostReadingsKept of the newest are kept.
constexpr std::int64_t kHostReadingLifetimeS = 7 * 24 * 3600;
constexpr std::size_t kHostReadingsKept = 32;

// The best of each figure over `readings` (none empty: the result is all 0).
HostCpu best_of_readings(const std::vector<HostReading>& readings);

// `readings` without those older than the lifetime before `now_unix_s` (or
// from the future: a clock set back), the newest kHostReadingsKept kept.
std::vector<HostReading> recent_readings(std::vector<HostReading> readings, std::int64_t now_unix_s);

// The record's JSON text and back. `identity` names the machine; parsing a
// record of another identity gives no readings (and no error).
std::string host_record_json(const std::string& identity, const std::vector<HostReading>& readings);
bool parse_host_record(const std::string& text, const std::string& identity, std::vector<HostReading>* readings,
                       std::string* error);

// `unix_s` as UTC in strftime's `format` ("%Y-%m-%d %H:%M UTC").
std::string utc_time(std::int64_t unix_s, const char* format);

// This machine: host name, CPU model and the number of CPUs the process
// may run on. Readings of one identity are comparable.
std::string host_identity();
// Where the record lives: $RECIPE_CACHE_DIR, else $XDG_CACHE_HOME/recipe,
// else $HOME/.cache/recipe, then `host-<hash of the identity>.json`; ""
// when none of these is set.
std::string host_record_path(const std::string& identity);

// What `--measure-host` uses: `measured` (this run's reading) added to the
// machine's record and the best of the recent readings. When the record
// cannot be read or written the result is this run's reading alone and
// `warning` says why (the advice goes on: it loses only the memory).
struct RememberedHost {
    HostCpu best;           // the figures the model uses
    HostCpu measured;       // this run's own reading
    int readings = 1;       // how many readings `best` is the best of (this one included)
    std::int64_t since_unix_s = 0;  // the oldest of them
    std::string path;       // the record ("" when there is none)
    std::string warning;
};
RememberedHost remember_host_reading(const HostCpu& measured);

}  // namespace recipe::advisor
