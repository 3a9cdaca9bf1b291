// program_time.h — a nest as the user's program runs it: the C loop on one
// CPU thread, and the GPU plan as the emitted program pays it, the
// process's first call cold and the later ones warm, with CUDA's start-up
// once per program. The advisor converts a nest only when the program gets
// faster. Formulas: docs/model.md, "The program's run".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "advisor/plan.h"
#include "advisor/platform.h"

namespace recipe::advisor {

// The C loop's time on one thread of this host: its arrays streamed once
// per step (bytes read + written at hostStreamGBs) and its arithmetic at
// the rate of its vector width (host_gflops_for), the two added. The first call writes its outputs to
// fresh pages (a malloc'd array first written by the nest, the usual
// pattern), at hostFirstTouchGBs.
struct CpuEstimate {
    double ms = 0;          // one later call (every time step of the nest included)
    double first_ms = 0;    // the first call
    double memory_ms = 0;
    double compute_ms = 0;
    double chain_ms = 0;    // a chained floating accumulation's adds at hostChainedSum's pace (ms is at least this)
    double bytes = 0;       // unique bytes read + written per call
    double flops = 0;
    double gflops = 0;      // the arithmetic rate it was priced at (host_gflops_for)
};
// The C loop's arithmetic rate on this host, in GFLOP/s, for a loop its
// compiler vectorises `lanes` wide (Problem::host_vector_lanes; 0 not known
// and 1 scalar: hostGflops, the stencil left scalar; 2 and 4: the stencil
// vectorised that wide, where the profile has it).
double host_gflops_for(const Platform& platform, int lanes);
// Fails (error set) when the profile has no host figures.
bool cpu_time(const Problem& problem, const Platform& platform, CpuEstimate* estimate, std::string* error);

// CUDA's start-up in a fresh process (cudaStartupNs; on a host of
// `host_gpus` > 1 GPUs, the profile's multiGpu.contextStartMs[0], measured
// with all of that host's GPUs visible), and its teardown when the program
// exits (cudaTeardownNs), in ms; 0 when not measured.
double cuda_startup_ms(const Platform& platform, int host_gpus = 1);
double cuda_teardown_ms(const Platform& platform);
// The same exit when the program releases CUDA after its last call
// (recipe::release_async) with `tail_ms` of its own work still to do: the
// release runs on its thread meanwhile and the exit waits for the rest of
// it, then exits (cudaReleaseNs, cudaExitAfterReleaseNs). < 0 when the
// profile has no release figures.
double released_teardown_ms(const Platform& platform, double tail_ms);

// A lower bound on the CPU time the program spends before the nest's first
// call waits for CUDA, filling the nest's inputs (their bytes written to
// fresh pages at hostFirstTouchGBs) and gathering its row-pointer arrays
// (gather_cost's before_ms): CUDA starts meanwhile (recipe/start.cuh), so
// this much of its start-up is hidden. 0 when not measured.
double hidden_startup_ms(const Problem& problem, const Platform& platform);

// The emitted call's own host work on the arrays it reaches through row
// pointers (ArrayUse::gathered), every call: before the library call each
// is gathered into a block of its own (a zero-filled std::vector: fresh
// pages, at hostFirstTouchGBs; then its rows copied in, bytes read and
// written at hostStreamGBs), after it an output's rows are copied back. In
// ms; 0 without such arrays. The part before precedes the call's wait for
// CUDA's start-up, so it hides that much of it (hidden_startup_ms).
struct GatherCost {
    double before_ms = 0;
    double after_ms = 0;
    double ms() const { return before_ms + after_ms; }
};
GatherCost gather_cost(const Problem& problem, const Platform& platform);

// What the emitted program's start-up thread allocates before the first call
// (recipe::PoolSize, recipe/start.cuh), so that its calls do not: the
// largest device block and (staged plans) staging block of the calls, and
// the most streams.
struct PoolReservation {
    std::int64_t device_bytes = 0;
    std::int64_t pinned_bytes = 0;
    int streams = 0;
};
PoolReservation pool_reservation(const std::vector<const Prediction*>& calls);
// What allocating it costs (mallocFreeDevice, stagingSetup), in ms.
double pool_setup_ms(const PoolReservation& pool, const Platform& platform);

// What an older profile's first-run measurement (firstRun) allocated for
// itself on its first run at `out_bytes` out (tools/profiler/cold_start.cuh
// before firstCall).
PoolReservation profiled_first_run_pool(double out_bytes, const Platform& platform);

// The first call's extra over a warm call, in ms: firstCall by the bytes of
// the fresh output pages (measured with the library's pool reserved first,
// as the emitted program's start-up thread reserves it: pool_setup_ms is
// paid there, not here); from an older profile's firstRun, less what its
// run allocated for itself (profiled_first_run_pool); 0 without either.
double first_call_extra_ms(const Prediction& prediction, const Platform& platform, double fresh_bytes = -1,
                           int devices = 1);

// The bytes of the problem's outputs that are fresh on its first call: those
// it writes without reading (not copied in), as cpu_time takes them.
double fresh_output_bytes(const Problem& problem);

struct ProgramTime {
    std::int64_t calls = 1;   // times the program runs the nest
    double cpu_first_ms = 0;  // the first call on the CPU
    double cpu_ms = 0;        // each later call on the CPU
    double gpu_first_ms = 0;  // the first call on the GPU (CUDA's start-up excluded)
    double gpu_warm_ms = 0;   // each later call
    double gather_ms = 0;     // of each GPU call: the emitted code's gathering and scattering (gather_cost), outside the library call
    // The first library call alone, as the library measures it (cfg.predicted's first).
    double library_first_ms() const { return gpu_first_ms - gather_ms; }
    double cpu_total_ms() const { return cpu_first_ms + cpu_ms * static_cast<double>(calls - 1); }
    double gpu_total_ms() const { return gpu_first_ms + gpu_warm_ms * static_cast<double>(calls - 1); }
    // The GPU saves time on this nest (before CUDA's start-up, paid once per program).
    double saving_ms() const { return cpu_total_ms() - gpu_total_ms(); }
};
ProgramTime program_time(const Prediction& best, const CpuEstimate& cpu, const Platform& platform, std::int64_t calls,
                         int devices = 1);

}  // namespace recipe::advisor
