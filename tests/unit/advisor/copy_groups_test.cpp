// copy_groups_for() must describe exactly the copies copies_for() lists:
// the advisor prices the one, the library issues the other.
#include <catch2/catch.hpp>
#include <map>

#include "recipe/tile_geometry.h"

using namespace recipe;

TEST_CASE("copy_groups_for summarises copies_for box by box", "[advisor]") {
    const Index3 host{12, 7, 5};
    const std::vector<Index3> devices = {{12, 7, 5}, {12, 4, 3}, {6, 7, 5}, {12, 7, 2}};
    int checked = 0;
    for (const Index3& dev_ext : devices)
        for (CopyMethod m : {CopyMethod::RowByRow, CopyMethod::Merged, CopyMethod::Strided})
            for (std::int64_t x0 = 0; x0 < 12; x0 += 5)
                for (std::int64_t nx : {1, 6, 12})
                    for (std::int64_t ny : {1, 3, 4, 7})
                        for (std::int64_t nz : {1, 2, 5}) {
                            if (x0 + nx > 12) continue;
                            Box b{{x0, 7 - ny, 5 - nz}, {x0 + nx, 7, 5}};
                            const DeviceLayout dev{{0, 0, 0}, dev_ext};
                            const auto copies = copies_for(b, host, dev, 4, m);
                            const auto groups = copy_groups_for(b, host, dev, 4, m);
                            std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::int64_t> a, g;
                            for (const Copy& c : copies) ++a[{c.width_bytes, c.height, c.depth}];
                            for (const CopyGroup& c : groups) g[{c.width_bytes, c.height, c.depth}] += c.count;
                            INFO("box " << nx << "x" << ny << "x" << nz << " method " << to_string(m));
                            CHECK(a == g);
                            ++checked;
                        }
    CHECK(checked > 300);
}
