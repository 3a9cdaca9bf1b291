// scheme.h — the pipelining schemes and what each one is, in one table.
//
// The advisor prices a scheme, the generator writes it into the .cu and the
// library runs it. Whenever one of them needs to know which schemes have
// some property (is it tiled? are whole arrays on the device? does every
// tile get a stream?) it asks this table instead of listing schemes, so a
// new scheme is a new row here (then its pipeline formula in
// advisor/model.cpp, its case in detail/engine.cuh and its paragraph in
// templates/explain_scheme.md.mustache; docs/architecture.md). Pure C++17,
// no CUDA: included by the advisor (g++) and the library (nvcc).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace recipe {

// thesis §6.2 (naive, basic, scalable, buffered) and seed 003 §5.6.1
// (streams, mapped, hybrid).
enum class Scheme {
    Naive,     // copy all inputs in, one kernel over the space, copy all out
    Basic,     // full-size device arrays, tiles pipelined over the streams
    Scalable,  // tile-sized device buffers, one set per stream, reused
    Buffered,  // scalable, with each tile packed into pinned host buffers so
               // every host<->device transfer is one contiguous copy
    Streams,   // basic, with every tile in a stream of its own
    Mapped,    // no copies: kernels read and write the (pinned) host arrays
               // directly over the bus
    Hybrid,    // inputs copied in as in basic, outputs written straight into
               // the (pinned) host arrays
};

// What the host arrays are and how the library makes them fit for
// asynchronous copies.
enum class HostMemory {
    Pinned,    // already page-locked (cudaMallocHost/cudaHostAlloc/registered)
    Register,  // pageable; cudaHostRegister for the run, unregistered after
    Staged,    // pageable; copied through pinned tile buffers by host threads,
               // overlapping the host copies of one tile with the GPU work of others
    Pageable,  // pageable; plain cudaMemcpy*Async from it (the driver stages)
};

inline const char* to_string(HostMemory m) {
    switch (m) {
        case HostMemory::Pinned: return "pinned";
        case HostMemory::Register: return "register";
        case HostMemory::Staged: return "staged";
        case HostMemory::Pageable: return "pageable";
    }
    return "?";
}

// The enumerator's name, for generated code (`recipe::HostMemory::Staged`).
inline const char* enumerator(HostMemory m) {
    switch (m) {
        case HostMemory::Pinned: return "Pinned";
        case HostMemory::Register: return "Register";
        case HostMemory::Staged: return "Staged";
        case HostMemory::Pageable: return "Pageable";
    }
    return "?";
}

// Where the kernel finds one kind of array (the inputs, or the outputs).
enum class Residence {
    WholeArray,   // a full-size device copy of the host array
    TileBuffers,  // a tile-sized device buffer per stream, reused round-robin
    HostMapped,   // no device copy: the kernel reaches the pinned host array over the bus
};

// What a scheme may do inside a time loop (recipe::iterate keeps the
// arrays on the device between the steps).
enum class TimeLoop {
    Runs,     // as it is
    AsBasic,  // its tile buffers give way to whole arrays: it runs as basic
    Refused,  // not in a time loop
};

struct SchemeTraits {
    Scheme scheme;
    const char* name;        // as the command line, the JSON and the recipe spell it
    const char* enumerator;  // as C++ spells it: recipe::Scheme::<enumerator>
    // Tiles overlap copies with kernels. False for the baseline the others
    // are measured against: one tile over the whole space, one stream,
    // whatever the Config's tile and streams say.
    bool pipelined;
    // The advisor chooses a tile size. False: the model prices one tile, the
    // whole space (the library still tiles a mapped run given a tile).
    bool tiled;
    Residence inputs;
    Residence outputs;
    // Every tile is packed on the host into a pinned buffer, whatever the
    // host memory, and crosses the bus as one contiguous copy into a device
    // buffer laid out as the packed box (thesis §6.2.3).
    bool packs_tiles;
    // Every tile gets a CUDA stream of its own (Config::streams is ignored).
    bool stream_per_tile;
    TimeLoop time_loop;
    // The ways pageable host arrays may be handled, in the order the
    // advisor tries them (of equal predictions the first wins).
    HostMemory pageable_modes[3];
    int pageable_mode_count;
    // One of the 2012 library's schemes (thesis §6.2); the others come from
    // seed 003.
    bool in_thesis_library;
};

// One row per scheme, in the enum's order.
inline constexpr SchemeTraits kSchemes[] = {
    // scheme, name, enumerator, pipelined, tiled, inputs, outputs, packs_tiles, stream_per_tile, time_loop,
    //   pageable modes (count), in the thesis's library
    {Scheme::Naive, "naive", "Naive", false, false, Residence::WholeArray, Residence::WholeArray, false, false,
     TimeLoop::Runs, {HostMemory::Register, HostMemory::Staged, HostMemory::Pageable}, 3, true},
    {Scheme::Basic, "basic", "Basic", true, true, Residence::WholeArray, Residence::WholeArray, false, false,
     TimeLoop::Runs, {HostMemory::Register, HostMemory::Staged, HostMemory::Pageable}, 3, true},
    {Scheme::Scalable, "scalable", "Scalable", true, true, Residence::TileBuffers, Residence::TileBuffers, false, false,
     TimeLoop::AsBasic, {HostMemory::Register, HostMemory::Staged, HostMemory::Pageable}, 3, true},
    {Scheme::Buffered, "buffered", "Buffered", true, true, Residence::TileBuffers, Residence::TileBuffers, true, false,
     TimeLoop::AsBasic, {HostMemory::Staged, HostMemory::Register, HostMemory::Pinned}, 2, true},
    {Scheme::Streams, "streams", "Streams", true, true, Residence::WholeArray, Residence::WholeArray, false, true,
     TimeLoop::Refused, {HostMemory::Register, HostMemory::Pinned, HostMemory::Pinned}, 1, false},
    {Scheme::Mapped, "mapped", "Mapped", true, false, Residence::HostMapped, Residence::HostMapped, false, false,
     TimeLoop::Refused, {HostMemory::Register, HostMemory::Pinned, HostMemory::Pinned}, 1, false},
    {Scheme::Hybrid, "hybrid", "Hybrid", true, true, Residence::WholeArray, Residence::HostMapped, false, true,
     TimeLoop::Refused, {HostMemory::Register, HostMemory::Pinned, HostMemory::Pinned}, 1, false},
};

inline constexpr std::size_t kSchemeCount = sizeof(kSchemes) / sizeof(kSchemes[0]);

inline const SchemeTraits& scheme_traits(Scheme s) {
    const auto i = static_cast<std::size_t>(s);
    if (i >= kSchemeCount || kSchemes[i].scheme != s) throw std::logic_error("recipe: scheme without a row in kSchemes");
    return kSchemes[i];
}

inline const char* to_string(Scheme s) {
    const auto i = static_cast<std::size_t>(s);
    return i < kSchemeCount ? kSchemes[i].name : "?";
}

// "basic" -> Scheme::Basic; false for a name no row has.
inline bool parse_scheme(const std::string& text, Scheme* scheme) {
    for (const SchemeTraits& t : kSchemes)
        if (text == t.name) {
            *scheme = t.scheme;
            return true;
        }
    return false;
}

// The kernel reads every input element over the bus each time it reads it:
// no use for a nest that reads an element twice.
inline bool reads_inputs_over_the_bus(Scheme s) { return scheme_traits(s).inputs == Residence::HostMapped; }
// Writes its outputs into pinned host memory: the host arrays must be page-locked.
inline bool maps_host_memory(Scheme s) { return scheme_traits(s).outputs == Residence::HostMapped; }
// Copies tiles between host and device (a copy method applies).
inline bool copies_tiles(Scheme s) { return scheme_traits(s).inputs != Residence::HostMapped; }

}  // namespace recipe
