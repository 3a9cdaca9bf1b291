#include "advisor/host_record.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace recipe::advisor {

HostCpu best_of_readings(const std::vector<HostReading>& readings) {
    HostCpu best;
    for (const auto& r : readings) {
        const HostCpu& c = r.cpu;
        if (c.stream_gbs > best.stream_gbs) {
            // The working-set curve goes with the stream it was measured with.
            best.stream_gbs = c.stream_gbs;
            best.stream_bytes = c.stream_bytes;
            best.stream_ns = c.stream_ns;
        }
        best.gflops = std::max(best.gflops, c.gflops);
        best.gflops_vector2 = std::max(best.gflops_vector2, c.gflops_vector2);
        best.gflops_vector4 = std::max(best.gflops_vector4, c.gflops_vector4);
        best.first_touch_gbs = std::max(best.first_touch_gbs, c.first_touch_gbs);
        if (c.math_call_ns > 0 && (best.math_call_ns <= 0 || c.math_call_ns < best.math_call_ns))
            best.math_call_ns = c.math_call_ns;
        if (c.convert_ns > 0 && (best.convert_ns <= 0 || c.convert_ns < best.convert_ns)) best.convert_ns = c.convert_ns;
        if (c.lane_load_ns > 0 && (best.lane_load_ns <= 0 || c.lane_load_ns < best.lane_load_ns)) best.lane_load_ns = c.lane_load_ns;
    }
    // The chained sum of the reading that ran it fastest over main memory,
    // among those measured over the working sets of the stream kept above
    // (chain_ns goes with stream_bytes).
    for (const auto& r : readings) {
        const HostCpu& c = r.cpu;
        if (c.chain_ns.size() == c.stream_bytes.size() && !c.chain_ns.empty() && c.stream_bytes == best.stream_bytes &&
            (best.chain_ns.empty() || c.chain_ns.back() < best.chain_ns.back()))
            best.chain_ns = c.chain_ns;
    }
    return best;
}

std::vector<HostReading> recent_readings(std::vector<HostReading> readings, std::int64_t now) {
    readings.erase(std::remove_if(readings.begin(), readings.end(),
                                  [&](const HostReading& r) { return r.unix_s > now || now - r.unix_s > kHostReadingLifetimeS; }),
                   readings.end());
    std::stable_sort(readings.begin(), readings.end(), [](const HostReading& a, const HostReading& b) { return a.unix_s < b.unix_s; });
    if (readings.size() > kHostReadingsKept) readings.erase(readings.begin(), readings.end() - kHostReadingsKept);
    return readings;
}

std::string host_record_json(const std::string& identity, const std::vector<HostReading>& readings) {
    nlohmann::json j;
    j["identity"] = identity;
    j["readings"] = nlohmann::json::array();
    for (const auto& r : readings)
        j["readings"].push_back({{"unix_s", r.unix_s},
                                 {"stream_gbs", r.cpu.stream_gbs},
                                 {"stream_bytes", r.cpu.stream_bytes},
                                 {"stream_ns", r.cpu.stream_ns},
                                 {"gflops", r.cpu.gflops},
                                 {"gflops_vector2", r.cpu.gflops_vector2},
                                 {"gflops_vector4", r.cpu.gflops_vector4},
                                 {"first_touch_gbs", r.cpu.first_touch_gbs},
                                 {"math_call_ns", r.cpu.math_call_ns},
                                 {"convert_ns", r.cpu.convert_ns},
                                 {"chain_ns", r.cpu.chain_ns},
                                 {"lane_load_ns", r.cpu.lane_load_ns}});
    return j.dump(1) + "\n";
}

bool parse_host_record(const std::string& text, const std::string& identity, std::vector<HostReading>* readings,
                       std::string* error) {
    readings->clear();
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        if (j.at("identity").get<std::string>() != identity) return true;
        for (const auto& e : j.at("readings")) {
            HostReading r;
            r.unix_s = e.at("unix_s").get<std::int64_t>();
            r.cpu.stream_gbs = e.at("stream_gbs").get<double>();
            r.cpu.stream_bytes = e.at("stream_bytes").get<std::vector<double>>();
            r.cpu.stream_ns = e.at("stream_ns").get<std::vector<double>>();
            r.cpu.gflops = e.at("gflops").get<double>();
            r.cpu.first_touch_gbs = e.at("first_touch_gbs").get<double>();
            r.cpu.math_call_ns = e.at("math_call_ns").get<double>();
            // Absent from records of earlier versions.
            r.cpu.convert_ns = e.value("convert_ns", 0.0);
            r.cpu.chain_ns = e.value("chain_ns", std::vector<double>{});
            r.cpu.lane_load_ns = e.value("lane_load_ns", 0.0);
            r.cpu.gflops_vector2 = e.value("gflops_vector2", 0.0);
            r.cpu.gflops_vector4 = e.value("gflops_vector4", 0.0);
            if (r.cpu.stream_bytes.size() != r.cpu.stream_ns.size() || !(r.cpu.stream_gbs > 0) || !(r.cpu.gflops > 0) ||
                !(r.cpu.first_touch_gbs > 0) || !(r.cpu.math_call_ns > 0))
                throw std::runtime_error("a reading with a missing or non-positive figure");
            readings->push_back(std::move(r));
        }
    } catch (const std::exception& e) {
        readings->clear();
        *error = e.what();
        return false;
    }
    return true;
}

std::string utc_time(std::int64_t unix_s, const char* format) {
    const std::time_t t = static_cast<std::time_t>(unix_s);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[64];
    return std::strftime(text, sizeof text, format, &tm) ? std::string(text) : std::string();
}

std::string host_identity() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) name[0] = '\0';
    std::string model;
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.rfind("model name", 0) == 0) {
            model = line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 1);
            model.erase(0, model.find_first_not_of(' '));
            break;
        }
    cpu_set_t set;
    CPU_ZERO(&set);
    const int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    return std::string(name) + " | " + model + " | " + std::to_string(cpus) + " CPUs";
}

std::string host_record_path(const std::string& identity) {
    std::string dir;
    if (const char* d = std::getenv("RECIPE_CACHE_DIR"); d && *d) {
        dir = d;
    } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
        dir = std::string(x) + "/recipe";
    } else if (const char* h = std::getenv("HOME"); h && *h) {
        dir = std::string(h) + "/.cache/recipe";
    } else {
        return "";
    }
    std::uint64_t hash = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : identity) hash = (hash ^ c) * 1099511628211ull;
    char name[32];
    std::snprintf(name, sizeof name, "host-%016llx.json", static_cast<unsigned long long>(hash));
    return dir + "/" + name;
}

RememberedHost remember_host_reading(const HostCpu& measured) {
    RememberedHost out;
    out.measured = measured;
    out.best = measured;
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    out.since_unix_s = now;
    const std::string identity = host_identity();
    out.path = host_record_path(identity);
    if (out.path.empty()) {
        out.warning = "no HOME, XDG_CACHE_HOME or RECIPE_CACHE_DIR to remember the host's figures in: this run's alone are used";
        return out;
    }
    std::vector<HostReading> readings;
    std::error_code ec;
    if (std::filesystem::exists(out.path, ec)) {
        std::ifstream in(out.path);
        std::stringstream text;
        text << in.rdbuf();
        std::string error;
        if (!in || !parse_host_record(text.str(), identity, &readings, &error))
            out.warning = out.path + ": not a host record (" + (error.empty() ? "unreadable" : error) +
                          "); it is replaced by this run's reading";
    }
    readings.push_back({now, measured});
    readings = recent_readings(std::move(readings), now);
    out.best = best_of_readings(readings);
    out.readings = static_cast<int>(readings.size());
    out.since_unix_s = readings.front().unix_s;
    // Written whole to a file of its own, then renamed over the record: a
    // concurrent run sees the old record or the new, never half of one (two
    // runs at once may each keep only their own reading).
    const std::filesystem::path path(out.path);
    std::filesystem::create_directories(path.parent_path(), ec);
    const std::string tmp = out.path + ".tmp." + std::to_string(getpid());
    bool written = false;
    {
        std::ofstream f(tmp, std::ios::trunc);
        f << host_record_json(identity, readings);
        f.flush();
        written = static_cast<bool>(f);
    }
    if (written) {
        std::filesystem::rename(tmp, path, ec);
        written = !ec;
    }
    if (!written) {
        std::filesystem::remove(tmp, ec);
        out.warning = "could not write " + out.path + ": this run's host reading is used but not remembered";
    }
    return out;
}

}  // namespace recipe::advisor
