// tile.cuh — what a kernel knows about the tile it works on.
//
// A kernel gets one Tile by value: the core box of the tile in GLOBAL
// coordinates (the C program's x, y, z). The grid covers the core with
// Config::block-shaped thread blocks, one thread per point; threads of the
// last block that fall outside the core must return (contains()).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace recipe {

// A box in global coordinates, half-open [begin, end), usable on the device.
struct DeviceBox {
    std::int64_t begin[3];
    std::int64_t end[3];
};

struct Tile {
    DeviceBox core;        // the points this tile computes
    std::int64_t index;    // tile number, x fastest (0 for naive)
    std::int64_t count;    // tiles in the run

    // This thread's point, in global coordinates.
    __device__ std::int64_t x() const {
        return core.begin[0] + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    }
    __device__ std::int64_t y() const {
        return core.begin[1] + static_cast<std::int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    }
    __device__ std::int64_t z() const {
        return core.begin[2] + static_cast<std::int64_t>(blockIdx.z) * blockDim.z + threadIdx.z;
    }

    // Whether a point is this tile's to compute. Omitted coordinates are
    // taken as inside (1- and 2-dimensional nests).
    __host__ __device__ bool contains(std::int64_t x) const { return x >= core.begin[0] && x < core.end[0]; }
    __host__ __device__ bool contains(std::int64_t x, std::int64_t y) const {
        return contains(x) && y >= core.begin[1] && y < core.end[1];
    }
    __host__ __device__ bool contains(std::int64_t x, std::int64_t y, std::int64_t z) const {
        return contains(x, y) && z >= core.begin[2] && z < core.end[2];
    }
};

}  // namespace recipe
