// raw_floor.cuh — the hardware's floor for one experiment: the same tiles
// of the same arrays moved through the GPU by a plain CUDA pipeline, with no
// library around it, so that a plan's time can be set against what the link
// and the kernel allow, fill, drain and the link's duplex behaviour included.
//
// Tiles are slabs of the iteration space along its outermost dimension. Per
// tile, on stream k % S: each input's padded box (the core grown by the
// halo, clipped at the array's edges) in, the kernel on the core, the core
// out. The boxes and their copies are the library's tile geometry
// (recipe/tile_geometry.h, which the model prices too): one cudaMemcpyAsync
// where a box is contiguous, one cudaMemcpy2DAsync/3DAsync where it is not.
// Host arrays are pinned; device buffers (one set per stream, reused
// round-robin) are allocated and every copy descriptor is computed before
// the clock starts. The timed part is issuing every tile and waiting for
// all streams (host clock, as recipe::run's total is taken).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "experiments.cuh"

namespace bench {

struct FloorPoint {
    int dim = 0;                // the dimension the slabs are stacked along
    std::int64_t tile = 0;      // slab thickness along `dim`
    std::int64_t tiles = 0;     // slabs in the run
    int streams = 0;
    double ms = -1, min_ms = -1;  // median and fastest of the timed runs
    bool verified = false;      // the output matched the C loop's, byte for byte
};

class RawPipeline {
public:
    RawPipeline(const Experiment& e, const HostArrays& h, recipe::Index3 tile, int streams)
        : e_(e), grid_(e.extents, tile, e.space), streams_(static_cast<int>(std::min<std::int64_t>(streams, grid_.tile_count()))) {
        const int n_in = e.inputs();
        for (int s = 0; s < streams_; ++s) {
            cudaStream_t st;
            ck(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
            stream_.push_back(st);
            for (int i = 0; i < n_in; ++i) in_buf_.push_back(alloc(grid_.buffer_extents(e.halos[i])));
            out_buf_.push_back(alloc(grid_.tile()));
        }
        host_in_ = h.inputs(true);
        host_out_ = h.pinned_out;
        for (std::int64_t k = 0; k < grid_.tile_count(); ++k) {
            TileWork w;
            w.slot = static_cast<int>(k % streams_);
            const recipe::Box core = grid_.core(k);
            w.tile = make_tile(core, k, grid_.tile_count());
            for (int i = 0; i < n_in; ++i) {
                const recipe::Box box = grid_.padded(k, e.halos[i]);
                DeviceArray d{buffer(in_buf_, w.slot, n_in, i), box.begin, grid_.buffer_extents(e.halos[i])};
                w.in.push_back(d);
                for (const recipe::Copy& c : recipe::copies_for(box, e.extents, recipe::DeviceLayout{d.origin, d.extents},
                                                                 static_cast<std::int64_t>(e.elem),
                                                                 recipe::CopyMethod::Strided))
                    w.copies_in.push_back({c, i});
            }
            w.out = DeviceArray{out_buf_[static_cast<std::size_t>(w.slot)], core.begin, grid_.tile()};
            w.copies_out = recipe::copies_for(core, e.extents, recipe::DeviceLayout{w.out.origin, w.out.extents},
                                              static_cast<std::int64_t>(e.elem), recipe::CopyMethod::Strided);
            work_.push_back(std::move(w));
        }
    }
    ~RawPipeline() {
        for (cudaStream_t s : stream_) cudaStreamDestroy(s);
        for (char* p : in_buf_) cudaFree(p);
        for (char* p : out_buf_) cudaFree(p);
    }
    RawPipeline(const RawPipeline&) = delete;
    RawPipeline& operator=(const RawPipeline&) = delete;

    std::int64_t tiles() const { return grid_.tile_count(); }
    int streams() const { return streams_; }

    // One run: every tile issued, then every stream waited for; host ms.
    double run() {
        const auto t0 = std::chrono::steady_clock::now();
        for (const TileWork& w : work_) {
            cudaStream_t s = stream_[static_cast<std::size_t>(w.slot)];
            for (const InCopy& c : w.copies_in)
                issue(c.copy, const_cast<char*>(host_in_[static_cast<std::size_t>(c.input)]),
                      w.in[static_cast<std::size_t>(c.input)].data, true, s);
            e_.launch(w.tile, w.in, w.out, e_.block, s, 1);
            for (const recipe::Copy& c : w.copies_out) issue(c, host_out_, w.out.data, false, s);
        }
        for (cudaStream_t s : stream_) ck(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ck(cudaGetLastError(), "kernel launch");
        return ms;
    }

private:
    struct InCopy {
        recipe::Copy copy;
        int input;
    };
    struct TileWork {
        int slot = 0;
        recipe::Tile tile{};
        std::vector<DeviceArray> in;
        DeviceArray out;
        std::vector<InCopy> copies_in;
        std::vector<recipe::Copy> copies_out;
    };

    char* alloc(const recipe::Index3& ext) {
        char* p = nullptr;
        ck(cudaMalloc(&p, static_cast<std::size_t>(ext[0] * ext[1] * ext[2]) * e_.elem), "cudaMalloc");
        return p;
    }
    static char* buffer(const std::vector<char*>& v, int slot, int per_slot, int i) {
        return v[static_cast<std::size_t>(slot * per_slot + i)];
    }

    // One copy descriptor of tile_geometry.h as the one CUDA call it is.
    static void issue(const recipe::Copy& c, char* host, char* dev, bool to_device, cudaStream_t s) {
        const cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
        char* h = host + c.host_offset;
        char* d = dev + c.device_offset;
        char* dst = to_device ? d : h;
        char* src = to_device ? h : d;
        const std::size_t dpitch = static_cast<std::size_t>(to_device ? c.device_pitch : c.host_pitch);
        const std::size_t spitch = static_cast<std::size_t>(to_device ? c.host_pitch : c.device_pitch);
        const std::size_t dslice = static_cast<std::size_t>(to_device ? c.device_slice_pitch : c.host_slice_pitch);
        const std::size_t sslice = static_cast<std::size_t>(to_device ? c.host_slice_pitch : c.device_slice_pitch);
        const std::size_t width = static_cast<std::size_t>(c.width_bytes);
        if (c.rank() == 1) {
            ck(cudaMemcpyAsync(dst, src, width, kind, s), "cudaMemcpyAsync");
        } else if (c.rank() == 2) {
            ck(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, static_cast<std::size_t>(c.height), kind, s),
               "cudaMemcpy2DAsync");
        } else {
            cudaMemcpy3DParms p{};
            p.srcPtr = make_cudaPitchedPtr(src, spitch, width, sslice / spitch);
            p.dstPtr = make_cudaPitchedPtr(dst, dpitch, width, dslice / dpitch);
            p.extent = make_cudaExtent(width, static_cast<std::size_t>(c.height), static_cast<std::size_t>(c.depth));
            p.kind = kind;
            ck(cudaMemcpy3DAsync(&p, s), "cudaMemcpy3DAsync");
        }
    }

    const Experiment& e_;
    recipe::TileGrid grid_;
    int streams_;
    std::vector<cudaStream_t> stream_;
    std::vector<char*> in_buf_, out_buf_;  // in: slot-major, one per input
    Pointers host_in_;
    char* host_out_ = nullptr;
    std::vector<TileWork> work_;
};

// The floor's search: slab counts x stream counts, each run once to warm up
// and `reps` times timed; the output is poisoned before the warm-up and
// compared with the reference after the last run.
inline std::vector<FloorPoint> floor_search(const Experiment& e, const HostArrays& h, const std::vector<int>& counts,
                                            const std::vector<int>& streams, int reps) {
    int dim = 0;
    for (int d = 0; d < 3; ++d)
        if (e.space.extent(d) > 1) dim = d;
    std::vector<FloorPoint> out;
    std::int64_t last_tile = -1;
    for (int count : counts) {
        const std::int64_t extent = e.space.extent(dim);
        const std::int64_t t = std::max<std::int64_t>(1, (extent + count - 1) / count);
        if (t == last_tile) continue;  // the same slabs as the count before
        last_tile = t;
        for (int s : streams) {
            recipe::Index3 tile = e.space.extents();
            tile[dim] = t;
            RawPipeline p(e, h, tile, s);
            std::memset(h.pinned_out, 0xff, h.bytes);
            p.run();
            std::vector<double> ms;
            for (int r = 0; r < reps; ++r) ms.push_back(p.run());
            std::sort(ms.begin(), ms.end());
            FloorPoint f;
            f.dim = dim;
            f.tile = t;
            f.tiles = p.tiles();
            f.streams = p.streams();
            f.ms = ms[ms.size() / 2];
            f.min_ms = ms.front();
            f.verified = h.matches(h.pinned_out);
            out.push_back(f);
        }
    }
    return out;
}

}  // namespace bench
