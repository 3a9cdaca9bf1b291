#include "recipe/scheme.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using recipe::HostMemory;
using recipe::Residence;
using recipe::Scheme;
using recipe::SchemeTraits;
using recipe::TimeLoop;

TEST_CASE("the scheme table has one row per scheme, in the enum's order", "[library]") {
    std::set<std::string> names, enumerators;
    for (std::size_t i = 0; i < recipe::kSchemeCount; ++i) {
        const SchemeTraits& t = recipe::kSchemes[i];
        CHECK(static_cast<std::size_t>(t.scheme) == i);
        CHECK(&recipe::scheme_traits(t.scheme) == &t);
        names.insert(t.name);
        enumerators.insert(t.enumerator);
        Scheme parsed = Scheme::Naive;
        REQUIRE(recipe::parse_scheme(t.name, &parsed));
        CHECK(parsed == t.scheme);
        CHECK(std::string(recipe::to_string(t.scheme)) == t.name);
        CHECK(t.pageable_mode_count >= 1);
        CHECK(t.pageable_mode_count <= 3);
        for (int m = 0; m < t.pageable_mode_count; ++m) CHECK(t.pageable_modes[m] != HostMemory::Pinned);
    }
    CHECK(names.size() == recipe::kSchemeCount);
    CHECK(enumerators.size() == recipe::kSchemeCount);
    Scheme s = Scheme::Basic;
    CHECK_FALSE(recipe::parse_scheme("tiled", &s));
    CHECK(s == Scheme::Basic);
}

TEST_CASE("the rows say what the schemes' papers say", "[library]") {
    // thesis §6.2: naive is the unpipelined baseline; basic keeps whole
    // arrays, scalable and buffered tile buffers; buffered packs on the host.
    CHECK_FALSE(recipe::scheme_traits(Scheme::Naive).pipelined);
    CHECK_FALSE(recipe::scheme_traits(Scheme::Naive).tiled);
    CHECK(recipe::scheme_traits(Scheme::Basic).inputs == Residence::WholeArray);
    CHECK(recipe::scheme_traits(Scheme::Scalable).inputs == Residence::TileBuffers);
    CHECK(recipe::scheme_traits(Scheme::Buffered).packs_tiles);
    CHECK(recipe::scheme_traits(Scheme::Scalable).time_loop == TimeLoop::AsBasic);
    // seed 003 §5.6.1: streams and hybrid give every tile a stream; mapped
    // and hybrid write the host arrays directly; mapped copies nothing.
    CHECK(recipe::scheme_traits(Scheme::Streams).stream_per_tile);
    CHECK(recipe::scheme_traits(Scheme::Hybrid).stream_per_tile);
    CHECK(recipe::maps_host_memory(Scheme::Hybrid));
    CHECK(recipe::maps_host_memory(Scheme::Mapped));
    CHECK_FALSE(recipe::copies_tiles(Scheme::Mapped));
    CHECK(recipe::copies_tiles(Scheme::Hybrid));
    CHECK(recipe::reads_inputs_over_the_bus(Scheme::Mapped));
    CHECK_FALSE(recipe::reads_inputs_over_the_bus(Scheme::Hybrid));
    CHECK_FALSE(recipe::scheme_traits(Scheme::Mapped).tiled);
    CHECK(recipe::scheme_traits(Scheme::Hybrid).time_loop == TimeLoop::Refused);
    // Buffered packs whatever the host memory: staging comes first.
    CHECK(recipe::scheme_traits(Scheme::Buffered).pageable_modes[0] == HostMemory::Staged);
}
