#include "advisor/platform.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/unit/advisor/unit_platform.h"

using namespace recipe::advisor;
using nlohmann::json;

namespace {

std::string load_error(const json& j) {
    Platform p;
    std::string error;
    if (parse_platform(j.dump(), "p.json", &p, &error)) return "";
    return error;
}

}  // namespace

TEST_CASE("a complete profile loads", "[advisor]") {
    const Platform p = recipe::test::unit_platform();
    CHECK(p.name == "unit");
    CHECK(p.copy_engines == 2);
    CHECK(p.pinned_host_to_device.bytes.size() == 7);
    CHECK(p.pinned_host_to_device.bytes.back() == 1e7);
    CHECK(p.pinned_host_to_device.ms(5e5) == Approx(0.51));
    CHECK(p.duplex_factor == 0.5);
    CHECK(p.kernels.count("k") == 1);
    CHECK(p.loggp_host_to_device.ns_per_byte == 1.0);
    // Without a pageable-to-pinned table the pinned one stands in.
    CHECK(p.pageable_to_pinned_host.ns == p.pinned_host_to_pinned_host.ns);
}

TEST_CASE("the loader names the bad field", "[advisor]") {
    json j = recipe::test::unit_platform_json();
    SECTION("missing") {
        j.erase("mallocFreeDevice");
        j["source"].erase("mallocFreeDevice");
        CHECK(load_error(j) == "p.json: mallocFreeDevice: missing");
    }
    SECTION("negative") {
        j["pinnedHostToDevice"][3] = -5.0;
        CHECK(load_error(j) == "p.json: pinnedHostToDevice[3]: must not be negative (got -5)");
    }
    SECTION("sizes not ascending") {
        j["hostRegister"] = {{"bytes", {100.0, 10.0}}, {"ns", {1.0, 2.0}}};
        CHECK(load_error(j) == "p.json: hostRegister.bytes[1]: sizes must ascend");
    }
    SECTION("wrong lengths") {
        j["hostRegister"] = {{"bytes", {10.0, 100.0, 1000.0}}, {"ns", {1.0, 2.0}}};
        CHECK(load_error(j) == "p.json: hostRegister: bytes has 3 values but ns has 2");
        j["hostRegister"] = json::array({1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0});
        CHECK(load_error(j) == "p.json: hostRegister: needs 2 to 9 values (10 bytes to 1 GB), got 10");
    }
    SECTION("wrong type") {
        j["copyEngines"] = "two";
        CHECK(load_error(j) == "p.json: copyEngines: must be an integer");
    }
    SECTION("duplex factor out of range") {
        j["duplexFactor"] = 1.5;
        CHECK(load_error(j) == "p.json: duplexFactor: must be between 0 (full duplex) and 1 (no overlap)");
    }
    SECTION("strided copies out of partial lines: beside no cheaper than alone") {
        j["stridedCopy"]["outPartialLineRowNs"] = 5.0;
        j["stridedCopy"]["outPartialLineBesideRowNs"] = 2.0;
        CHECK(load_error(j) == "p.json: stridedCopy.outPartialLineBesideRowNs: must be at least outPartialLineRowNs");
        j["stridedCopy"]["outPartialLineRowNz"] = 2.0;
        CHECK(load_error(j) == "p.json: stridedCopy.outPartialLineRowNz: unknown field");
    }
    SECTION("unknown field") {
        j["pinnedHostToDeviec"] = {1.0, 2.0};
        CHECK(load_error(j) == "p.json: pinnedHostToDeviec: unknown field");
    }
    SECTION("a field without its source") {
        j["source"].erase("duplexFactor");
        CHECK(load_error(j) == "p.json: source.duplexFactor: missing: say how duplexFactor was obtained");
    }
    SECTION("occupancy") {
        j["occupancy"]["maxBlockDim"] = {1024, 1024};
        CHECK(load_error(j) == "p.json: occupancy.maxBlockDim: must be [x, y, z]");
    }
    SECTION("kernel table") {
        j["kernels"]["k"]["elements"] = {1000.0, 10.0};
        CHECK(load_error(j) == "p.json: kernels.k.elements[1]: sizes must ascend");
    }
    SECTION("not JSON") {
        Platform p;
        std::string error;
        CHECK_FALSE(parse_platform("{", "p.json", &p, &error));
        CHECK(error.rfind("p.json: not valid JSON", 0) == 0);
    }
}

TEST_CASE("the stored profiles load and are found by name", "[advisor]") {
    for (const char* name : {"tesla-c2050", "gtx-460", "h200"}) {
        Platform p;
        std::string error;
        INFO(name);
        REQUIRE(find_platform(name, &p, &error));
        CHECK(p.name == name);
        CHECK_FALSE(p.source.empty());
    }
    Platform tesla, h200;
    std::string error;
    REQUIRE(find_platform("tesla-c2050", &tesla, &error));
    REQUIRE(find_platform(std::string(RECIPE_SOURCE_DIR) + "/advisor/platforms/h200.json", &h200, &error));
    // thesis §5.2 values kept as printed.
    CHECK(tesla.pinned_host_to_device.ns.front() == Approx(3184.3));
    CHECK(tesla.device_to_pinned_host.ns.back() == Approx(1644188.4));
    CHECK(tesla.duplex_factor == 0.57);
    // h200.json is replaced by measured profiles: check its shape, not its numbers.
    CHECK(h200.duplex_factor < 0.5);
    CHECK(h200.copy_engines >= 2);
    REQUIRE(h200.pinned_host_to_device.bytes.back() == 1e9);
    CHECK(h200.pinned_host_to_device.ms(1e9) == Approx(h200.pinned_host_to_device.ns.back() * 1e-6));
    CHECK(h200.pinned_host_to_device.interpolation == Interpolation::Linear);
    CHECK_FALSE(find_platform("no-such-gpu", &tesla, &error));
    CHECK(error.rfind("unknown platform 'no-such-gpu' (known: ", 0) == 0);
    const auto all = list_platforms();
    REQUIRE(all.size() >= 3);
    for (const auto& e : all) CHECK(e.error.empty());
}

TEST_CASE("the stored profiles are built in; $RECIPE_PLATFORM_DIR's come first", "[advisor]") {
    Platform p;
    std::string error;
    REQUIRE(find_platform("h100", &p, &error));
    CHECK(p.path == "built in");
    // A directory of the user's own: its profiles shadow the built-in ones of the same name.
    const std::string dir = std::string(RECIPE_BINARY) + ".test-platform-dir";
    std::filesystem::create_directories(dir);
    {
        std::ifstream in(std::string(RECIPE_SOURCE_DIR) + "/advisor/platforms/h100.json");
        std::ostringstream text;
        text << in.rdbuf();
        std::ofstream(dir + "/h100.json") << text.str();
        std::ofstream(dir + "/mine.json") << text.str();
    }
    ::setenv("RECIPE_PLATFORM_DIR", dir.c_str(), 1);
    REQUIRE(find_platform("h100", &p, &error));
    CHECK(p.path == dir + "/h100.json");
    REQUIRE(find_platform("mine", &p, &error));
    REQUIRE(find_platform("h200", &p, &error));
    CHECK(p.path == "built in");
    std::set<std::string> names;
    for (const auto& e : list_platforms()) names.insert(e.name + " " + (e.path == "built in" ? "built in" : "dir"));
    CHECK(names.count("h100 dir"));
    CHECK(names.count("mine dir"));
    CHECK(names.count("h200 built in"));
    ::unsetenv("RECIPE_PLATFORM_DIR");
    std::filesystem::remove_all(dir);
}

TEST_CASE("a region's chunk tables load by stream count, and bad ones are named", "[advisor]") {
    json j = recipe::test::unit_platform_json();
    const json table = {{"bytes", {1048576.0, 4194304.0}}, {"ns", {50000.0, 150000.0}}};
    j["regionChunkIn"] = {{"3", table}, {"2", table}};
    j["regionChunkOut"] = {{"2", table}};
    j["source"]["regionChunkIn"] = "test";
    j["source"]["regionChunkOut"] = "test";
    Platform p;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "p.json", &p, &error));
    CHECK(p.region_chunk_in.streams == std::vector<int>{2, 3});
    REQUIRE(p.region_chunk_in.at(3) != nullptr);
    CHECK(p.region_chunk_in.at(3)->ms(4194304.0) == Approx(0.15));
    CHECK(p.region_chunk_out.at(3) == nullptr);
    j["regionChunkOut"] = {{"two", table}};
    CHECK(load_error(j) == "p.json: regionChunkOut.two: a key must be a stream count from 1 to 64");
    j["regionChunkOut"] = {{"2", {{"bytes", {10.0}}, {"ns", {1.0}}}}};
    CHECK(load_error(j) == "p.json: regionChunkOut.2: needs at least 2 points");
    j["regionChunkOut"] = table;
    CHECK(load_error(j) == "p.json: regionChunkOut.bytes: a key must be a stream count from 1 to 64");
    // A pass's own part and a region's run, optional, read the same way.
    j["regionChunkOut"] = {{"2", table}};
    j["regionPassIn"] = {{"2", table}};
    j["regionRunNs"] = 5585;
    j["source"]["regionPassIn"] = "test";
    j["source"]["regionRunNs"] = "test";
    REQUIRE(parse_platform(j.dump(), "p.json", &p, &error));
    REQUIRE(p.region_pass_in.at(2) != nullptr);
    CHECK(p.region_pass_in.at(2)->ms(1048576.0) == Approx(0.05));
    CHECK(p.region_pass_out.empty());
    CHECK(p.region_run_ns == 5585);
    j["regionPassIn"] = {{"2", {{"bytes", {1048576.0, 4194304.0}}, {"ns", {-1.0, 1.0}}}}};
    CHECK(load_error(j) == "p.json: regionPassIn.2.ns[0]: must not be negative (got -1)");
}

TEST_CASE("the kernels by reads per point load, and bad ones are named", "[advisor]") {
    json j = recipe::test::unit_platform_json();
    j["viewKernels"] = json::array({{{"name", "copy2d"}, {"dims", 2}, {"reads", 1}, {"arrays", 2}, {"points", 1e6}, {"ns", 3000.0}},
                                    {{"name", "box9"}, {"dims", 2}, {"reads", 9}, {"arrays", 2}, {"points", 1e6}, {"ns", 7000.0}}});
    j["source"]["viewKernels"] = "test";
    Platform p;
    std::string error;
    REQUIRE(parse_platform(j.dump(), "p.json", &p, &error));
    REQUIRE(p.view_kernels.size() == 2);
    CHECK(p.view_kernels[1].name == "box9");
    CHECK(p.view_kernels[1].reads == 9);
    CHECK(p.view_kernels[1].ns == 7000.0);
    j["viewKernels"][1]["reads"] = 0;
    CHECK(load_error(j) == "p.json: viewKernels[1].reads: must be at least 1 (got 0)");
    j["viewKernels"][1]["reads"] = 9;
    j["viewKernels"][0]["points"] = 0;
    CHECK(load_error(j) == "p.json: viewKernels[0].points: must be positive");
    j["viewKernels"][0]["points"] = 1e6;
    j["viewKernels"][0]["bytes"] = 8;
    CHECK(load_error(j) == "p.json: viewKernels[0].bytes: unknown field (expected name, dims, reads, arrays, points, ns, elementBytes)");
    j["viewKernels"][0].erase("bytes");
    CHECK(p.view_kernels[0].element_bytes == 4);  // not given: floats
    j["viewKernels"][1]["elementBytes"] = 8;
    REQUIRE(parse_platform(j.dump(), "p.json", &p, &error));
    CHECK(p.view_kernels[1].element_bytes == 8);
    j["viewKernels"][1]["elementBytes"] = 0;
    CHECK(load_error(j) == "p.json: viewKernels[1].elementBytes: must be at least 1 (got 0)");
    j["viewKernels"][1].erase("elementBytes");
    // The L2 cache's size: optional, positive, with its source.
    CHECK(p.l2_cache_bytes == 0);
    j["l2CacheBytes"] = 52428800;
    CHECK(load_error(j) == "p.json: source.l2CacheBytes: missing: say how l2CacheBytes was obtained");
    j["source"]["l2CacheBytes"] = "test";
    REQUIRE(parse_platform(j.dump(), "p.json", &p, &error));
    CHECK(p.l2_cache_bytes == 52428800);
    j["l2CacheBytes"] = 0;
    CHECK(load_error(j) == "p.json: l2CacheBytes: must be at least 1 (got 0)");
    j.erase("l2CacheBytes");
    j["source"].erase("l2CacheBytes");
    j["viewKernels"] = json::object();
    CHECK(load_error(j) == "p.json: viewKernels: must be an array of {name, dims, reads, arrays, points, ns}");
    j.erase("viewKernels");
    CHECK(load_error(j).empty());
}
