// library_start_probe.cu — the library's own start-up (recipe::EarlyStart,
// as every emitted program declares it) in a program that does nothing else:
// run with RECIPE_REPORT=1 it prints the start-up thread's timeline, to be
// set beside context_probe.cu's bare cudaFree(0) and an emitted program's.
//   PROBE_DEVICE_BYTES=N PROBE_PINNED_BYTES=N library_start_probe
#include <cstdio>
#include <cstdlib>

#include <recipe/recipe.cuh>

namespace {

std::int64_t env_bytes(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::atoll(v) : 0;
}

recipe::PoolSize pool_size() {
    recipe::PoolSize size;
    size.device_bytes = env_bytes("PROBE_DEVICE_BYTES");
    size.pinned_bytes = env_bytes("PROBE_PINNED_BYTES");
    size.streams = size.device_bytes > 0 ? 2 : 0;
    return size;
}

recipe::EarlyStart early(pool_size());

}  // namespace

int main() {
    cudaError_t error = cudaSuccess;
    const double waited = recipe::detail::Startup::get().wait(&error);
    std::printf("library-start device %lld pinned %lld: waited %.1f ms, %s\n",
                static_cast<long long>(env_bytes("PROBE_DEVICE_BYTES")),
                static_cast<long long>(env_bytes("PROBE_PINNED_BYTES")), waited, cudaGetErrorString(error));
    return error == cudaSuccess ? 0 : 3;
}
