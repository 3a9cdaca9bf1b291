// thesis_appendix_a.h — the numbers of the thesis's Appendix A that the
// advisor reproduces (seeds/000, Tables A.1-A.3, A.6-A.8, A.11-A.13) and the
// kernel times derived from its kernel-repeat tables (A.4, A.5, A.9, A.10,
// A.20, A.21). All times in ms, as printed (rounded to 1 ms).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "advisor/plan.h"

namespace recipe::thesis {

// Column order of a table row: normal (row-by-row) basic, normal scalable,
// contiguous (merged) basic, contiguous scalable.
enum Column { NormalBasic = 0, NormalScalable = 1, ContiguousBasic = 2, ContiguousScalable = 3 };

struct Row {
    std::int64_t size;                 // the varied tile size (elements, or rows for 2D/3D)
    std::array<double, 4> tesla_pred;  // Table A.3 / A.8 / A.13
    std::array<double, 4> gtx_pred;
    std::array<double, 4> tesla_meas;  // Table A.1 / A.6 / A.11 (buffered columns left out)
    std::array<double, 4> gtx_meas;    // Table A.2 / A.7 / A.12
};

struct Program {
    std::string name;          // kernel name in the profiles
    std::string tables;        // e.g. "A.3 (pred), A.1/A.2 (meas)"
    std::string tile_pattern;  // e.g. "8000xY"
    double tesla_naive_meas, gtx_naive_meas;
    std::vector<Row> rows;
};

// Moving average: 64,000,000 floats, radius 4 (thesis §3.3, Tables A.1-A.3).
inline const Program& moving_average() {
    static const Program p{
        "movingAverage", "A.3 (predicted), A.1 and A.2 (measured)", "N elements", 121, 134,
        {
            {5000, {139, 132, 139, 132}, {164, 157, 164, 157}, {298, 287, 305, 286}, {220, 212, 220, 213}},
            {10000, {106, 100, 106, 100}, {127, 121, 127, 121}, {157, 142, 151, 142}, {157, 152, 157, 152}},
            {100000, {78, 71, 78, 71}, {94, 88, 94, 88}, {81, 74, 81, 74}, {96, 90, 96, 90}},
            {250000, {76, 69, 76, 69}, {92, 86, 92, 86}, {78, 71, 78, 71}, {92, 87, 92, 86}},
            {500000, {75, 69, 75, 69}, {91, 85, 91, 85}, {77, 71, 77, 71}, {91, 85, 91, 85}},
            {1000000, {75, 69, 75, 69}, {91, 85, 91, 85}, {77, 71, 77, 71}, {91, 85, 91, 85}},
            {2000000, {76, 70, 76, 70}, {91, 85, 91, 85}, {77, 70, 77, 71}, {90, 85, 90, 85}},
            {4000000, {77, 72, 77, 72}, {91, 86, 91, 86}, {77, 72, 77, 72}, {90, 85, 90, 85}},
            {16000000, {84, 82, 84, 82}, {91, 89, 91, 89}, {81, 80, 81, 80}, {91, 90, 92, 90}},
            {32000000, {93, 96, 93, 96}, {91, 94, 91, 94}, {89, 93, 89, 92}, {92, 93, 93, 93}},
            {64000000, {111, 125, 111, 125}, {91, 104, 91, 104}, {120, 136, 120, 135}, {134, 134, 134, 134}},
        }};
    return p;
}

// Emboss: 8000x8000 floats, tiles of 8000xY, padding 1 (Tables A.6-A.8).
inline const Program& emboss() {
    static const Program p{
        "emboss", "A.8 (predicted), A.6 and A.7 (measured)", "8000xY", 117, 129,
        {
            {1, {251, 245, 201, 194}, {265, 259, 220, 214}, {274, 260, 192, 185}, {298, 292, 259, 251}},
            {2, {183, 176, 137, 131}, {201, 194, 155, 149}, {188, 180, 137, 129}, {214, 209, 175, 168}},
            {5, {142, 135, 100, 93}, {162, 156, 116, 110}, {132, 126, 99, 91}, {168, 162, 124, 117}},
            {10, {128, 122, 87, 80}, {149, 143, 104, 97}, {123, 117, 90, 83}, {161, 154, 107, 100}},
            {25, {120, 113, 80, 73}, {141, 135, 96, 90}, {115, 109, 81, 74}, {148, 142, 96, 90}},
            {50, {118, 111, 77, 71}, {139, 133, 93, 87}, {112, 107, 79, 72}, {137, 132, 93, 87}},
            {100, {117, 110, 76, 70}, {137, 131, 92, 86}, {113, 107, 77, 71}, {134, 128, 91, 85}},
            {200, {117, 110, 76, 70}, {137, 131, 91, 86}, {102, 96, 77, 71}, {133, 128, 91, 85}},
            {400, {118, 112, 77, 71}, {136, 131, 91, 86}, {103, 97, 78, 72}, {133, 128, 90, 85}},
            {800, {120, 116, 78, 74}, {136, 132, 91, 87}, {106, 101, 79, 74}, {133, 129, 90, 86}},
            {2000, {129, 128, 84, 82}, {136, 135, 91, 89}, {113, 111, 82, 80}, {135, 133, 90, 88}},
            {4000, {144, 148, 93, 97}, {136, 140, 91, 94}, {135, 140, 88, 91}, {145, 145, 90, 90}},
            {8000, {173, 187, 111, 125}, {136, 149, 91, 104}, {161, 177, 116, 131}, {171, 172, 129, 129}},
        }};
    return p;
}

// Jacobi: 400x400x400 floats, tiles of 400xYx25, padding 1 (Tables A.11-A.13).
inline const Program& jacobi() {
    static const Program p{
        "jacobi", "A.13 (predicted), A.11 and A.12 (measured)", "400xYx25", 110, 120,
        {
            {1, {2144, 2137, 1028, 1022}, {2127, 2121, 1151, 1145}, {1904, 1902, 920, 907}, {1998, 1994, 1090, 1082}},
            {2, {1541, 1535, 552, 545}, {1594, 1588, 621, 615}, {1390, 1378, 485, 467}, {1485, 1480, 594, 587}},
            {5, {1180, 1174, 266, 259}, {1274, 1268, 303, 297}, {1082, 1074, 239, 236}, {1179, 1173, 300, 293}},
            {10, {1060, 1053, 172, 165}, {1168, 1161, 198, 192}, {980, 973, 160, 152}, {1083, 1077, 204, 198}},
            {25, {989, 982, 115, 109}, {1104, 1098, 135, 129}, {931, 925, 106, 100}, {1024, 1018, 140, 134}},
            {50, {967, 960, 97, 90}, {1082, 1076, 114, 108}, {915, 908, 91, 84}, {1004, 998, 113, 107}},
            {100, {958, 952, 88, 81}, {1072, 1066, 104, 98}, {946, 940, 85, 79}, {994, 988, 103, 97}},
            {200, {960, 954, 84, 78}, {1066, 1061, 99, 94}, {980, 976, 80, 74}, {989, 983, 98, 92}},
            {400, {973, 967, 80, 75}, {1064, 1059, 94, 89}, {999, 994, 79, 74}, {986, 981, 94, 88}},
        }};
    return p;
}

inline std::vector<const Program*> programs() { return {&moving_average(), &emboss(), &jacobi()}; }

// The thesis's setting for one program: all host memory pinned (§7), one
// pass, float arrays, the tile for a row of the table.
inline advisor::Problem problem(const Program& p) {
    advisor::Problem q;
    q.kernel_name = p.name;
    q.pinned_host = true;
    advisor::ArrayUse in, out;
    in.name = "in";
    out.name = "out";
    if (p.name == "movingAverage") {
        q.dims = 1;
        q.extents = {64000000, 1, 1};
        in.halo = {{4, 0, 0}, {4, 0, 0}};
    } else if (p.name == "emboss") {
        q.dims = 2;
        q.extents = {8000, 8000, 1};
        in.halo = {{1, 1, 0}, {1, 1, 0}};
    } else {
        q.dims = 3;
        q.extents = {400, 400, 400};
        in.halo = {{1, 1, 1}, {1, 1, 1}};
    }
    q.space = Box{{0, 0, 0}, q.extents};
    in.extents = out.extents = q.extents;
    q.inputs = {in};
    q.outputs = {out};
    q.reads_twice = true;
    q.bytes_per_point = 8;
    return q;
}

inline Index3 tile(const Program& p, std::int64_t size) {
    if (p.name == "movingAverage") return {size, 1, 1};
    if (p.name == "emboss") return {8000, size, 1};
    return {400, size, 25};
}

inline advisor::Config config(const Program& p, std::int64_t size, int column) {
    advisor::Config c;
    c.scheme = (column == NormalBasic || column == ContiguousBasic) ? advisor::Scheme::Basic : advisor::Scheme::Scalable;
    c.copy = column < ContiguousBasic ? CopyMethod::RowByRow : CopyMethod::Merged;
    c.streams = 3;  // thesis §6.2.2: three tile buffers, one per engine
    c.tile = tile(p, size);
    return c;
}

// One tile for the whole space: the thesis's formula, applied with
// (#tiles - 2) = -1, leaves the kernel out there (docs/model-reproduction.md).
inline bool single_tile(const Program& p, std::int64_t size) {
    const advisor::Problem q = problem(p);
    const Index3 t = tile(p, size);
    return t[0] >= q.extents[0] && t[1] >= q.extents[1] && t[2] >= q.extents[2];
}

}  // namespace recipe::thesis
