// main_work.h — what main() does around its GPU work, as far as this file
// shows it: the CPU work before its first converted call (CUDA's start-up
// runs meanwhile, recipe/start.cuh) and where its last GPU work ends, with
// the CPU work after it (CUDA's release runs meanwhile, recipe::release_async).
#pragma once

#include <cstdint>
#include <optional>

#include "advisor/platform.h"
#include "recipes/advise.h"
#include "recipes/c_tree.h"

namespace recipe::recipes {

// The CPU work main() does before its first converted nest runs: the nests
// that stay on the CPU in main() before main's first call of a function that
// leads to a converted nest (or a converted nest of main itself), and those
// of the functions main calls before it (an init_array(), once per call), at
// their predicted CPU time; nests the model could not plan (rejected) from
// their loops and counted work (advisor::cpu_problem_from), a lower bound.
// 0 when the file has no main().
double work_before_first_call(const CTree& tree, const AdviseResult& r, const advisor::Platform& platform);

// Where main's last GPU work ends: the end of the statement of main's body
// that holds its last converted nest or its last call of a function that
// leads to one (called by plain name in this file, directly or through
// other functions of the file), and main's CPU work after it, priced as
// above. Nothing when the file has no main(), main leads to no converted
// nest, that statement is a return (nothing of main runs after it), main
// has a goto (it may go back before its GPU work), or the
// file uses CUDA itself (an identifier beginning with `cuda` or `cu` and a
// capital: its own allocations would not outlive the GPU's reset).
// Calls through function pointers are not seen: a converted nest reached
// only so, after this point, finds CUDA released and starts it again
// (correct, and priced by nothing).
struct LastGpuWork {
    std::uint32_t end_byte = 0;  // in the analyzed text
    int line = 0;                // the user's line the statement begins on
    double after_ms = 0;         // main's CPU work after it
};
std::optional<LastGpuWork> last_gpu_work(const CTree& tree, const AdviseResult& r, const advisor::Platform& platform);

}  // namespace recipe::recipes
