#include <catch2/catch.hpp>

#include "recipes/byte_spans.h"

using recipe::recipes::ByteSpans;

TEST_CASE("byte spans: a byte lies in a span from its begin up to, not at, its end", "[recipes][spans]") {
    const ByteSpans s({{30, 40}, {10, 20}});
    CHECK_FALSE(s.contains(9));
    CHECK(s.contains(10));
    CHECK(s.contains(19));
    CHECK_FALSE(s.contains(20));
    CHECK_FALSE(s.contains(29));
    CHECK(s.contains(30));
    CHECK(s.contains(39));
    CHECK_FALSE(s.contains(40));
}

TEST_CASE("byte spans: overlapping and nested spans are one, empty spans none", "[recipes][spans]") {
    const ByteSpans s({{10, 20}, {15, 30}, {12, 14}, {50, 50}, {60, 55}});
    for (std::uint32_t at = 10; at < 30; ++at) CHECK(s.contains(at));
    CHECK_FALSE(s.contains(30));
    CHECK_FALSE(s.contains(50));
    CHECK_FALSE(s.contains(57));
    CHECK_FALSE(ByteSpans({}).contains(0));
}
