// nest_conversion.h — how one accepted loop nest becomes a __global__ kernel
// and a call into the pipelining library (thesis §6.5, steps 1 and 2), as
// data: names, types, rewritten accesses, halos, the iteration space and the
// span of source the call replaces. Templates turn it into text; a nest the
// generator cannot convert faithfully says why instead.
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <tree_sitter/api.h>

#include "analyzer/program.h"
#include "analyzer/source_map.h"
#include "recipe/tile_geometry.h"

namespace recipe::recipes {

class CTree;

struct IndexVar {
    std::string name;  // the loop counter, e.g. "x"
    std::string type;  // as declared, e.g. "int"
    char axis = 'x';   // tile.x() / y() / z()
};

struct KernelVariable {
    std::string name;
    std::string type;
    std::string argument;  // what the call passes, when not `name` (recipe::whole(...))
};

struct AccessChange {
    analyzer::SourcePos pos;
    std::string before;  // "in[y * W + xp]"
    std::string after;   // "in(xp, y)"
    std::uint32_t begin = 0, end = 0;
};

struct ArrayRole {
    std::string name;
    std::string element_type;
    analyzer::ArrayLayout layout = analyzer::ArrayLayout::Flat;
    std::string host_pointer;  // what the library is given: "in", "&u[0][0]", "src_rows.data()"
    Halo halo;                 // inputs: the stencil's reach
    bool inout = false;        // outputs the kernel also reads, or writes on some points only
    std::string inout_reason;
    bool pinned = false;       // the analyzer saw it allocated page-locked
    bool zero_pages = false;   // an output copied in whose pages still are zero pages (ArrayProperties::zero_pages)
    std::vector<int> written_before_by;  // outputs: nests that write it before this one runs (ArrayProperties::written_before_by)
    bool flatten = false;      // rows reached through pointers: gathered into one block
    bool vla_parameter = false;  // a variable-length array parameter: the .cu passes a pointer to its first element
    std::string flat_name;     // the block holding the rows
    std::string part_of;       // a part picked by constant leading subscripts (`ey[0]`): its array, `ey`
};

struct NestConversion {
    bool ok = false;
    std::string why_not;  // when !ok: one sentence, for the recipe and stderr

    int nest_id = 0;
    std::string function;
    std::string kernel_name;
    int dims = 1;
    std::vector<IndexVar> index_vars;   // x first
    std::vector<KernelVariable> locals;   // declared in the kernel (the body assigns them)
    std::vector<KernelVariable> scalars;  // kernel parameters, passed by the call
    std::vector<ArrayRole> inputs;
    std::vector<ArrayRole> outputs;
    std::vector<AccessChange> accesses;
    std::vector<std::string> wholes;  // inputs read whole (kernel pointers, passed through recipe::whole)
    std::vector<std::string> invariant_reads;  // elements the host reads once per launch (`_fict_[t]`), as written
    std::string body;  // the loop body with accesses rewritten, indented by 4
    bool wraps_continue = false;  // `continue` kept working by a do { } while (0)
    int body_first_line = 0, body_last_line = 0;
    int function_line = 0;
    // Functions of this file the body calls (directly or through each other):
    // the .cu marks them __host__ __device__ so the kernel can call them.
    struct DeviceFunction {
        std::string name;
        int line = 0;
        std::vector<std::uint32_t> insert_at;  // starts of the definition and of its prototypes
    };
    std::vector<DeviceFunction> device_functions;
    // Math functions the body calls whose CUDA versions round differently
    // from the C library's (sinf, expf, ...): converting changes the results.
    std::vector<std::string> inexact_calls;

    std::array<std::string, 3> extents{"1", "1", "1"};  // host expressions, x first
    std::array<std::string, 3> space_begin{"0", "0", "0"};
    std::array<std::string, 3> space_end{"1", "1", "1"};
    // The same as C++ initialisers of std::int64_t: expressions of unsigned
    // or unknown type are cast (a braced list does not narrow implicitly).
    std::array<std::string, 3> extents_code{"1", "1", "1"};
    std::array<std::string, 3> space_begin_code{"0", "0", "0"};
    std::array<std::string, 3> space_end_code{"1", "1", "1"};
    // Sizes the call holds as numbers the preprocessor computed from macros
    // (`1300`, where the user's code names `_PB_N`): the .cu stops with an
    // #error if a macro of that value is compiled with another one.
    std::vector<std::pair<std::string, std::int64_t>> size_guards;

    // An OpenMP pragma right above the loop, replaced with it ("" when none).
    std::string dropped_pragma;
    // Source replaced by the library call, and where the kernel goes.
    std::uint32_t replace_begin = 0, replace_end = 0;
    std::string indent;               // of the replaced statement's first line
    std::uint32_t kernel_at = 0;      // start of the line of the enclosing function
    int first_line = 0, last_line = 0;  // of the replaced statement
    int nest_first_line = 0, nest_last_line = 0;  // of the loop nest itself

    // Iterative stencil (a time loop with a pointer swap): recipe::iterate.
    bool iterative = false;
    // A time loop of another form stays, and calls the library every step.
    bool step_by_step = false;
    std::string steps;           // e.g. "STEPS"
    std::string read_array;      // read in step 1 (ping_pong's a)
    std::string written_array;   // written in step 1 (ping_pong's b)
    std::string time_var;
};

// Why the body of time loop `loop` does more each step than run `nests`,
// count and swap the arrays it exchanges (a statement a library call that
// replaces the loop's work would drop); "" when it does not. `loop_stays`:
// the loop stays in the .cu, its swaps run as written (a region's), rather
// than one call replacing it (recipe::iterate).
std::string time_loop_body_problem(const CTree& file, TSNode loop, const analyzer::TimeLoop& time_loop,
                                   const std::vector<analyzer::SourceSpan>& nests, bool loop_stays);

// The inputs' halos are their arrays' (ArrayProperties::halo, which the
// advisor priced). `taken` holds the names already used (kernel names are
// made unique against it and the file). `map`, when given, leads from
// `file` (the preprocessed text) back to the user's main file: the kernel
// body is then the user's own text (macros, comments) with the accesses
// rewritten, where every access maps; and a nest whose replaced span or
// function does not map is refused.
NestConversion convert_nest(const CTree& file, const analyzer::LoopNest& nest, std::set<std::string>* taken,
                            const analyzer::SourceMap* map = nullptr);

}  // namespace recipe::recipes
