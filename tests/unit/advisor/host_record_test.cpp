#include "advisor/host_record.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace recipe::advisor;

namespace {

HostReading reading(std::int64_t when, double stream, double gflops, double touch, double math) {
    HostReading r;
    r.unix_s = when;
    r.cpu.stream_gbs = stream;
    r.cpu.stream_bytes = {3e6, 8e8};
    r.cpu.stream_ns = {1e5 / stream, 8e8 / stream};
    r.cpu.gflops = gflops;
    r.cpu.first_touch_gbs = touch;
    r.cpu.math_call_ns = math;
    return r;
}

// RECIPE_CACHE_DIR set to a fresh directory for one test, then restored.
struct CacheDir {
    std::filesystem::path dir;
    std::string before;
    bool had = false;
    CacheDir() {
        dir = std::filesystem::temp_directory_path() / ("recipe-host-record-test-" + std::to_string(getpid()));
        std::filesystem::remove_all(dir);
        if (const char* b = std::getenv("RECIPE_CACHE_DIR")) had = true, before = b;
        setenv("RECIPE_CACHE_DIR", dir.c_str(), 1);
    }
    ~CacheDir() {
        std::filesystem::remove_all(dir);
        if (had) setenv("RECIPE_CACHE_DIR", before.c_str(), 1);
        else unsetenv("RECIPE_CACHE_DIR");
    }
};

}  // namespace

TEST_CASE("the best of a host's readings: each figure its best, the stream curve of the fastest stream", "[advisor]") {
    // A slow spell (the second) and two usual readings, each best in something.
    const std::vector<HostReading> r = {reading(100, 12.0, 5.9, 2.2, 3.6), reading(200, 10.0, 3.0, 1.5, 7.3),
                                        reading(300, 13.2, 5.7, 2.3, 3.7)};
    const HostCpu best = best_of_readings(r);
    CHECK(best.stream_gbs == 13.2);
    CHECK(best.stream_ns == r[2].cpu.stream_ns);
    CHECK(best.gflops == 5.9);
    CHECK(best.first_touch_gbs == 2.3);
    CHECK(best.math_call_ns == 3.6);
    CHECK(best_of_readings({}).gflops == 0);
    // The vectorised rates too; readings of earlier versions have none (0).
    std::vector<HostReading> v = r;
    v[0].cpu.gflops_vector4 = 19.0;
    v[2].cpu.gflops_vector4 = 20.0;
    v[2].cpu.gflops_vector2 = 10.5;
    CHECK(best_of_readings(v).gflops_vector4 == 20.0);
    CHECK(best_of_readings(v).gflops_vector2 == 10.5);
    // The cheapest lane load; the chained sum that ran fastest over main
    // memory, only from a reading over the kept stream's working sets.
    v[0].cpu.lane_load_ns = 0.45;
    v[1].cpu.lane_load_ns = 0.42;
    v[0].cpu.chain_ns = {3e3, 9e5};
    v[2].cpu.chain_ns = {4e3, 1e6};
    v[1].cpu.chain_ns = {2e3, 5e5};
    v[1].cpu.stream_bytes = {3e6, 8e8, 9e8};  // another set of working sets: not paired with the kept curve
    v[1].cpu.chain_ns.push_back(6e5);
    v[1].cpu.stream_ns.push_back(1e6);
    const HostCpu b = best_of_readings(v);
    CHECK(b.lane_load_ns == 0.42);
    CHECK(b.stream_bytes == v[2].cpu.stream_bytes);
    CHECK(b.chain_ns == v[0].cpu.chain_ns);
}

TEST_CASE("a host's record forgets readings older than a week, from the future, and beyond the newest kept", "[advisor]") {
    const std::int64_t now = 1800000000;
    std::vector<HostReading> r = {reading(now - kHostReadingLifetimeS - 1, 20, 9, 3, 2), reading(now + 60, 20, 9, 3, 2),
                                  reading(now - 10, 12, 5, 2, 4)};
    const auto kept = recent_readings(r, now);
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].unix_s == now - 10);
    std::vector<HostReading> many;
    for (std::size_t i = 0; i < kHostReadingsKept + 5; ++i) many.push_back(reading(now - 1000 + static_cast<std::int64_t>(i), 12, 5, 2, 4));
    const auto newest = recent_readings(many, now);
    REQUIRE(newest.size() == kHostReadingsKept);
    CHECK(newest.front().unix_s == now - 1000 + 5);
    CHECK(newest.back().unix_s == now - 1000 + static_cast<std::int64_t>(kHostReadingsKept) + 4);
}

TEST_CASE("a host's record reads back what it wrote, and only for the machine it names", "[advisor]") {
    const std::vector<HostReading> r = {reading(100, 12.0, 5.9, 2.2, 3.6), reading(200, 10.0, 3.0, 1.5, 7.3)};
    const std::string text = host_record_json("box | cpu | 16 CPUs", r);
    std::vector<HostReading> back;
    std::string error;
    REQUIRE(parse_host_record(text, "box | cpu | 16 CPUs", &back, &error));
    REQUIRE(back.size() == 2);
    CHECK(back[1].unix_s == 200);
    CHECK(back[1].cpu.gflops == 3.0);
    CHECK(back[0].cpu.stream_ns == r[0].cpu.stream_ns);
    std::vector<HostReading> vector_rates = r;
    vector_rates[0].cpu.gflops_vector2 = 10.9;
    vector_rates[0].cpu.gflops_vector4 = 19.9;
    REQUIRE(parse_host_record(host_record_json("box | cpu | 16 CPUs", vector_rates), "box | cpu | 16 CPUs", &back, &error));
    CHECK(back[0].cpu.gflops_vector2 == 10.9);
    CHECK(back[0].cpu.gflops_vector4 == 19.9);
    vector_rates[1].cpu.chain_ns = {2e3, 5e5};
    vector_rates[1].cpu.lane_load_ns = 0.44;
    REQUIRE(parse_host_record(host_record_json("box | cpu | 16 CPUs", vector_rates), "box | cpu | 16 CPUs", &back, &error));
    CHECK(back[1].cpu.chain_ns == vector_rates[1].cpu.chain_ns);
    CHECK(back[1].cpu.lane_load_ns == 0.44);
    CHECK(back[0].cpu.chain_ns.empty());  // a reading without them, as earlier versions wrote
    // Another machine's record (a shared home directory): no readings, no error.
    REQUIRE(parse_host_record(text, "other | cpu | 16 CPUs", &back, &error));
    CHECK(back.empty());
    // Broken records are errors, and give nothing.
    CHECK_FALSE(parse_host_record("{\"identity\": \"box | cpu | 16 CPUs\", \"readings\": [{\"unix_s\": 1}]}",
                                  "box | cpu | 16 CPUs", &back, &error));
    CHECK(back.empty());
    CHECK_FALSE(parse_host_record("not json", "x", &back, &error));
    std::string zero = host_record_json("box", {reading(100, 12.0, 0.0, 2.2, 3.6)});
    CHECK_FALSE(parse_host_record(zero, "box", &back, &error));
}

TEST_CASE("--measure-host remembers each reading and uses the best of them", "[advisor]") {
    CacheDir cache;
    const std::string path = host_record_path(host_identity());
    REQUIRE(path.rfind(cache.dir.string() + "/host-", 0) == 0);

    const RememberedHost first = remember_host_reading(reading(0, 12.0, 5.9, 2.2, 3.6).cpu);
    CHECK(first.warning.empty());
    CHECK(first.readings == 1);
    CHECK(first.path == path);
    CHECK(std::filesystem::exists(path));
    // A slow spell: the model keeps the earlier, faster figures.
    const RememberedHost second = remember_host_reading(reading(0, 10.0, 3.0, 1.5, 7.3).cpu);
    CHECK(second.warning.empty());
    CHECK(second.readings == 2);
    CHECK(second.measured.gflops == 3.0);
    CHECK(second.best.gflops == 5.9);
    CHECK(second.best.math_call_ns == 3.6);
    CHECK(second.since_unix_s == first.since_unix_s);  // the oldest reading kept

    // A record that is not one is replaced, with a warning, and this reading used.
    { std::ofstream(path, std::ios::trunc) << "garbage"; }
    const RememberedHost third = remember_host_reading(reading(0, 10.0, 3.0, 1.5, 7.3).cpu);
    CHECK(third.warning.find("not a host record") != std::string::npos);
    CHECK(third.readings == 1);
    CHECK(third.best.gflops == 3.0);
    std::vector<HostReading> back;
    std::string error;
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(parse_host_record(text, host_identity(), &back, &error));
    CHECK(back.size() == 1);
}

TEST_CASE("--measure-host where the record cannot be written: this reading is used, and a warning says so", "[advisor]") {
    CacheDir cache;
    // The cache directory is a file: nothing can be created under it.
    { std::ofstream(cache.dir) << "a file"; }
    const RememberedHost r = remember_host_reading(reading(0, 12.0, 5.9, 2.2, 3.6).cpu);
    CHECK(r.warning.find("could not write") != std::string::npos);
    CHECK(r.readings == 1);
    CHECK(r.best.gflops == 5.9);
    std::filesystem::remove(cache.dir);
}
