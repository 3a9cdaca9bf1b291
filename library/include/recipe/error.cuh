// error.cuh — the one exception type the library throws.
//
// Every CUDA call the library makes is checked. A failure becomes a
// recipe::Error whose message names the call, the nest, the tile being worked
// on (when there is one) and the CUDA error, e.g.
//   recipe: cudaMemcpy2DAsync failed in emboss (emboss.c:31), tile 3 of 32
//   (core [0,8000)x[750,1000)x[0,1)), input 0: invalid argument [cudaErrorInvalidValue]
// Kernel faults surface at the first checked call after them, so the call and
// tile named are where the fault was noticed, not necessarily where it happened.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace recipe {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message, cudaError_t code = cudaSuccess)
        : std::runtime_error(message), code_(code) {}
    // The CUDA error behind this one; cudaSuccess for errors of usage.
    cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

namespace detail {

inline std::string failure_text(cudaError_t status, const char* call, const std::string& context) {
    std::string message = "recipe: ";
    message += call;
    message += " failed";
    if (!context.empty()) message += " in " + context;
    message += ": ";
    message += cudaGetErrorString(status);
    message += " [";
    message += cudaGetErrorName(status);
    message += "]";
    return message;
}

// `context` is a callable returning the text that says where we are; it is
// called only on failure, so building that text costs nothing normally.
template <class Context>
inline void check(cudaError_t status, const char* call, const Context& context) {
    if (status != cudaSuccess) throw Error(failure_text(status, call, context()), status);
}

inline void check(cudaError_t status, const char* call) {
    if (status != cudaSuccess) throw Error(failure_text(status, call, std::string()), status);
}

}  // namespace detail
}  // namespace recipe
