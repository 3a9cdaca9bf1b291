// platform.h — what the advisor knows about one GPU and its host: the
// thesis's platformProperties (§5.2: copy engines and run times of copies and
// allocations measured at 10, 100, ... bytes) plus what today's hardware
// needs (duplex factor, pageable copies, host registration, strided copies,
// launch overhead, roofline numbers, occupancy limits, measured kernels).
// JSON schema: docs/model.md ("Platform profiles").
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace recipe::advisor {

// How a table is read between its measured points (docs/model.md).
enum class Interpolation { Linear, LogLog };
const char* to_string(Interpolation i);

// Run times in ns of one operation on 10^1, 10^2, ... 10^n bytes (thesis §5.2
// "measurements"), or on explicit sizes when `bytes` is given in the JSON.
// `interpolation` is chosen when the profile is loaded: the method with the
// smaller leave-one-out error on this table's own points (docs/model.md).
struct Measurements {
    std::vector<double> bytes;  // ascending, > 0
    std::vector<double> ns;     // same length, >= 0
    Interpolation interpolation = Interpolation::Linear;
    double loo_error_linear = 0;  // mean relative leave-one-out error
    double loo_error_loglog = 0;

    bool empty() const { return ns.empty(); }
    // Time of one operation on `bytes` bytes, in ms. 0 bytes cost nothing.
    // Beyond the last point the last two points are extrapolated linearly
    // (throughput stays constant); below the first, the first point's time.
    double ms(double bytes) const;
};

// One table per stream count (ascending), e.g. a staged region's chunk
// times over 2, 3 and 4 streams.
struct StreamTables {
    std::vector<int> streams;
    std::vector<Measurements> tables;  // tables[i]: over streams[i] streams

    bool empty() const { return tables.empty(); }
    // The table measured over `count` streams; nullptr when there is none.
    const Measurements* at(int count) const;
};

// thesis §6.2.3 / MEASURED.md: a cudaMemcpy2DAsync/3DAsync costs what a
// contiguous copy of the same bytes does, plus a little per row.
struct StridedCopyCost {
    double per_row_ns = 0;   // extra per row beyond the contiguous time
    double per_call_ns = 0;  // extra per call beyond one contiguous copy
    // A copy out whose rows begin or end inside a 64-byte line of host
    // memory (an interior box's rows): its extra per row alone, and beside
    // copies in running the other way (measured on H200 hosts: up to
    // ~10 ns a row beside, where copies in of the same rows cost <1).
    // 0 where the profile has no measurement: priced as per_row_ns.
    double out_partial_line_row_ns = 0;
    double out_partial_line_beside_row_ns = 0;
};

// seed 001 Table 1 style occupancy limits of one streaming multiprocessor.
struct OccupancyLimits {
    int warp_size = 32;
    int max_threads_per_block = 1024;
    int max_block_dim_x = 1024;
    int max_block_dim_y = 1024;
    int max_block_dim_z = 64;
    int max_threads_per_sm = 2048;
    int max_blocks_per_sm = 32;
    int registers_per_sm = 65536;
    int max_registers_per_thread = 255;
    std::int64_t shared_memory_per_sm = 0;     // bytes
    std::int64_t shared_memory_per_block = 0;  // bytes
};

// A kernel measured on this device (thesis §6.3): ns for one pass over
// `elements` elements, at several element counts.
// The work a kernel table times, so that a nest is priced from a table only
// when its kernel does the same work (a function that happens to share the
// table's name is not enough). Halo: the inputs' reach below and above the
// point, x first. dims 0: the table records no shape and prices nothing.
struct KernelShape {
    int dims = 0;
    int element_bytes = 4;
    int inputs = 1;
    int outputs = 1;
    std::array<std::int64_t, 3> halo_low{}, halo_high{};
    bool operator==(const KernelShape& o) const {
        return dims == o.dims && element_bytes == o.element_bytes && inputs == o.inputs && outputs == o.outputs &&
               halo_low == o.halo_low && halo_high == o.halo_high;
    }
};
// "2-D, 1 input of 4-byte elements with reach 1 1 | 1 1, 1 output".
std::string to_string(const KernelShape& s);

struct KernelTable {
    std::string name;
    KernelShape shape;
    std::vector<double> elements;  // ascending
    std::vector<double> ns;
    Interpolation interpolation = Interpolation::Linear;
    // Time in ms of one pass over `elements` elements (linear beyond the ends).
    double ms(double elements) const;
};

// A kernel written as recipe emits them (every array through the library's
// views) timed on this device, one launch over `points` points: the
// profile's viewKernels, kernels that differ in how many elements each point
// reads (tools/profiler/view_kernels.cuh). The estimate of a kernel without a
// table of its own is read off them (advisor/kernel_time.cpp).
struct ViewKernelTime {
    std::string name;
    int dims = 0;
    int reads = 0;   // distinct elements each point reads
    int arrays = 0;  // arrays it touches, the output included
    double points = 0;
    double ns = 0;
    int element_bytes = 4;  // float (older profiles timed floats only) or double
};

// seed 003 §5.4: a copy of k bytes takes L + o + k*G; consecutive copies in
// n streams add a gap g each. Per direction.
struct LogGP {
    double latency_ns = 0;   // L + o
    double gap_ns = 0;       // g
    double ns_per_byte = 0;  // G
};

// Several GPUs of one host working at once (the profile's optional
// "multiGpu" object; docs/model.md, "Several GPUs"), measured by
// recipe-profile. Entry i of each list is for i + 1 GPUs working at once.
// gpus 0: not measured, and plans use one GPU.
struct MultiGpu {
    int gpus = 0;
    std::vector<double> h2d_gbs;           // aggregate page-locked copy bandwidth, each GPU copying in at once
    std::vector<double> d2h_gbs;           // the same, out
    std::vector<double> staging_gbs;       // aggregate host memcpy (pageable to pinned), each GPU's staging threads at once
    // Optional: the same threads unpacking pinned into fresh pageable pages
    // (a first call's outputs: page faults, not copies, set the rate).
    std::vector<double> fresh_gbs;
    std::vector<double> context_start_ms;  // cold start-up of i + 1 contexts started in parallel
    std::vector<double> nccl_init_ms;      // creating the NCCL communicators of i + 1 GPUs (once per process)
    // Optional (both or neither): a process's exit holding i + 1 contexts,
    // and holding them and NCCL's communicators (entry 0: 0); the further
    // GPUs' share of the emitted program's exit (advisor/multi_gpu.h).
    std::vector<double> exit_ms, nccl_exit_ms;
    double exchange_us = 0;                // one halo exchange (every neighbour pair sending at once):
    double exchange_gbs = 0;               //   exchange_us + bytes / exchange_gbs
    // Optional: the exchanges timed (bytes each way, ns) that exchange_us and
    // exchange_gbs were fitted to; kept with the profile, not priced.
    std::vector<double> exchange_bytes, exchange_ns;
    std::string measured;                  // when, on what, with which driver (the object's provenance)
};
// The "multiGpu" object as the profile holds it (the fields parse_platform reads).
nlohmann::json to_json(const MultiGpu& multi_gpu);

struct Platform {
    std::string name;         // e.g. "tesla-c2050"
    std::string description;  // e.g. "NVIDIA Tesla C2050, PCIe 2.0, Intel i5"
    std::string path;         // file it was loaded from ("" when built in code)
    std::map<std::string, std::string> source;  // field -> how it was obtained

    // thesis §5.2
    int copy_engines = 1;
    Measurements pinned_host_to_pinned_host;
    Measurements pinned_host_to_device;
    Measurements device_to_pinned_host;
    Measurements malloc_free_host;    // cudaMallocHost + cudaFreeHost
    Measurements malloc_free_device;  // cudaMalloc + cudaFree

    // thesis §6.4.4: two opposite copies at once take
    // max(in, out) + duplex_factor * min(in, out).
    double duplex_factor = 1.0;
    // seed 003 §5.3: does the device serialise a later kernel behind an
    // earlier stream's copy (implicit synchronization)?
    bool implicit_synchronization = false;

    // Today's additions (MEASURED.md).
    Measurements pageable_host_to_device;
    Measurements device_to_pageable_host;
    Measurements host_register;    // cudaHostRegister of n bytes
    Measurements host_unregister;  // cudaHostUnregister of n bytes
    Measurements pageable_to_pinned_host;  // host memcpy into a pinned buffer; falls back to pinnedHostToPinnedHost
    // Host packing (staging) runs on several threads; their speed-up over
    // one thread on large copies (MEASURED.md: 8 threads 41.1 GB/s vs 12.4).
    double host_copy_parallel_speedup = 1;
    StridedCopyCost strided_copy;
    double kernel_launch_ns = 0;
    // Host time to issue one asynchronous call (copy, launch, event): the
    // thread that issues a tile's calls cannot go faster. From
    // "asyncCallNs", else the smaller of kernelLaunchNs and a 10-byte copy.
    double async_call_ns = 0;
    // Measured from the library's behaviour (its alloc phase in
    // docs/results-h200.md, less the cudaMalloc the tables price): host
    // time a run spends setting up and tearing down besides allocation and
    // registration (device queries, the first touches of fresh
    // allocations), and per CUDA stream it creates (the stream and its
    // three events, created and destroyed). 0 when not given.
    double run_setup_ns = 0;
    double stream_setup_ns = 0;
    // Measured from the library's staging phases: each packed row starts
    // its memcpy cold (a new page of the user's array), at this many ns on
    // one thread beyond its bytes. 0 when not given.
    double host_copy_row_ns = 0;
    // The library's own costs, measured by recipe-profile running the
    // library (tools/profiler/library_costs.cuh; docs/model.md, "Library
    // costs"). When present they replace the estimates above. Empty / 0
    // when not measured.
    Measurements library_setup;  // alloc phase of a one-stream pinned run, by device block bytes
    Measurements staging_setup;  // staging threads + pinned staging block, got and released, by bytes
    // The staging thread count a staged run packs fastest with while the
    // copy engines run (recipe-profile tries several; stagingTile and
    // stagingSetup are measured with it). The generated code asks the
    // library for it; 0: not measured (the library's own default).
    int staging_threads = 0;
    Measurements staging_tile;   // a staged run's steady time per tile with one b-byte input and output tile
    // stagingTile measured over 2, 3 and 4 streams (stagingTileStreams): a
    // staged run with more tile buffers in flight packs and waits otherwise
    // (on two H200 hosts 16 MiB tiles took 0.82 and 1.23 ms a tile over 2
    // streams, 1.00 and 1.49 over 3). Empty in older profiles.
    StreamTables staging_tile_streams;
    // The staged run's table for `streams` buffer sets: the one measured
    // over the most streams up to that count, else the smallest count's,
    // else stagingTile.
    const Measurements& staging_tile_for(int streams) const;
    Measurements pipeline_tile;  // a pinned run's steady time per tile with one b-byte input and output tile
    // A staged recipe::Region's time per chunk of b bytes, copied in (as the
    // region starts) and out (as it finishes), each direction alone, over
    // arrays the host has just written (older profiles: a steady pace),
    // one table per stream count (regionChunkIn / regionChunkOut). The
    // region's chunk and streams are chosen from them (advisor/region.cpp);
    // empty: priced from stagingTile, in fixed chunks.
    StreamTables region_chunk_in, region_chunk_out;
    // What a single pass of those paid beyond its chunks (regionPassIn /
    // regionPassOut, by chunk bytes); empty: the first chunk's DMA.
    StreamTables region_pass_in, region_pass_out;
    double staging_row_ns = 0;   // each further row of a packed box, with the library's threads
    // One recipe::Region::run issued back to back on resident arrays
    // ("regionRunNs"): the host's cost of a region's launch, which a short
    // kernel waits for; 0: not measured (kernelLaunchNs alone).
    double region_run_ns = 0;
    // What the user's program pays besides warm runs (docs/model.md, "The
    // program's run"), measured by recipe-profile in fresh processes: CUDA's
    // start-up (the first call's context creation), its teardown when the
    // program exits, and the extra time of a process's first library run
    // over its second, by the bytes of its (fresh) output. 0 / empty when
    // not measured.
    double cuda_startup_ns = 0;
    double cuda_teardown_ns = 0;
    // The same exit when the program released CUDA after its last call
    // (recipe::release_async: the pool freed and the GPU reset on a thread
    // of its own): that release's time, which the program's work after the
    // call hides, and the exit once it is done. 0: not measured (the exit is
    // then priced whole, cudaTeardownNs, and the .cu releases nothing).
    double cuda_release_ns = 0;
    double cuda_exit_after_release_ns = 0;
    // firstCall: the first run made after the library's pool was reserved,
    // as an emitted program's start-up thread reserves it: what that
    // program's first call pays over its second.
    Measurements first_call;
    // firstRun (profiles measured before firstCall): the same with the first
    // run allocating its own pool; only read where firstCall is missing.
    Measurements first_run;
    // One thread of the C program on this host: streaming bandwidth (bytes
    // read + written) and the arithmetic rate of a stencil loop on cached
    // data. 0 when not measured: the C loop's time cannot be predicted.
    double host_stream_gbs = 0;
    Measurements host_stream;  // one pass over n bytes of smaller working sets (the caches); empty: not measured
    double host_gflops = 0;
    // The same stencil vectorised two and four lanes wide (restrict pointers;
    // doubles and floats): the rate of a C loop its compiler reports
    // vectorised that wide (analyzer/vectorization.h). 0: not measured (such
    // loops are then priced at host_gflops).
    double host_gflops_vector2 = 0;
    double host_gflops_vector4 = 0;
    // One thread writing fresh pages (a program initialising a malloc'd
    // array): a lower bound on the time the program spends filling a nest's
    // inputs before its first call, which hides CUDA's start-up. 0: not measured.
    double host_first_touch_gbs = 0;
    // One C math library call (sinf, exp, ...) on one thread, in ns; 0: not
    // measured (such calls are then priced as one flop).
    double host_math_call_ns = 0;
    // One conversion of a 64-bit integer to a floating type in a loop (scalar
    // on x86-64 below AVX-512), in ns; 0: not measured (not priced).
    double host_convert_ns = 0;
    // One pass of a chained sum, `s += x[i]` as gcc -O2 compiles it (no
    // reassociation: each add waits for the one before), over working sets
    // of doubles of these bytes, on one thread: a reduction's pace
    // (hostChainedSum; empty: not measured).
    Measurements host_chained_sum;
    // One element loaded into a vector lane by itself (a read whose
    // contiguous index is clamped, in a loop the compiler vectorises), on
    // one thread, in ns (hostLaneLoadNs; 0: not measured, such a loop is
    // then priced at the scalar rate).
    double host_lane_load_ns = 0;
    // The host figures above are this machine's, measured when advising
    // (--measure-host, advisor/measured_host.h), not the profile's.
    bool host_measured = false;
    // With host_measured: how many of this machine's readings the figures
    // are the best of (advisor/host_record.h), and the oldest one's time.
    int host_readings = 0;
    std::int64_t host_readings_since_unix_s = 0;
    double device_bandwidth_gbs = 0;  // GB/s, read + write
    double peak_gflops = 0;           // single precision
    int sm_count = 0;
    std::int64_t device_memory_bytes = 0;
    // The GPU's L2 cache ("l2CacheBytes", cudaDeviceProp::l2CacheSize); 0:
    // not recorded (profiles before it). A launch whose bytes exceed it is
    // priced no faster than the library's kernels move bytes from DRAM
    // (advisor/kernel_time.cpp, dram_ns_per_byte).
    std::int64_t l2_cache_bytes = 0;
    OccupancyLimits occupancy;
    LogGP loggp_host_to_device;  // from "logGP", else derived from the tables
    LogGP loggp_device_to_host;
    double mapped_ns_per_byte = 0;  // seed 003 Table 5.2: G under mapped access (0: same as explicit)
    // A kernel reading mapped host memory (0: as mapped_ns_per_byte, which
    // recipe-profile measures writing it; on an H200 reading is ~4% slower).
    double mapped_read_ns_per_byte = 0;
    std::map<std::string, KernelTable> kernels;  // by kernel name
    std::vector<ViewKernelTime> view_kernels;  // empty: not measured
    MultiGpu multi_gpu;  // several GPUs at once; gpus 0: one GPU only
};

// Reads and validates a profile. Every field is checked; the first bad one
// is named in `error` ("tesla-c2050.json: pinnedHostToDevice[3]: sizes must
// ascend"). Returns false on error.
bool parse_platform(const std::string& json_text, const std::string& origin, Platform* platform, std::string* error);
bool load_platform_file(const std::string& path, Platform* platform, std::string* error);

namespace detail {
// advisor/platforms/*.json, built into the binary (cmake/embed_files.cmake).
struct EmbeddedProfile {
    const char* name;  // file name without ".json"
    const unsigned char* text;
    std::size_t size;
};
extern const EmbeddedProfile kEmbeddedProfiles[];  // ends with a null name
}  // namespace detail

// `name_or_path` is a file path (contains '/' or ends in .json) or the name
// of a stored profile: one in $RECIPE_PLATFORM_DIR when set, else one of
// advisor/platforms, which the binary carries (so a copied or installed
// `recipe` needs no data files).
bool find_platform(const std::string& name_or_path, Platform* platform, std::string* error);

struct PlatformEntry {
    std::string name;
    std::string description;
    std::string path;   // the file, or "built in"
    std::string error;  // non-empty when the file does not load
};
// Every stored profile ($RECIPE_PLATFORM_DIR's first, then the built-in
// ones of other names), sorted by name.
std::vector<PlatformEntry> list_platforms();

}  // namespace recipe::advisor
