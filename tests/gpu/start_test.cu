// start_test.cu — device test of recipe/start.cuh: an EarlyStart given the
// plan's largest needs (recipe::PoolSize) starts CUDA and allocates them on
// its own thread; the first run takes them into the pool and allocates
// nothing of its own (the pool's blocks are still the reserved ones after
// it), and its results are right. A second run reuses them too. With
// RECIPE_REPORT=1 the first run prints the start-up thread's timeline: GPU
// 0's context and the blocks it reserved. Then recipe::release_async(): the
// pool is emptied and the GPU reset on a thread; a run after it waits for the
// release, starts CUDA again and is right; a second release works too, and
// the exit waits for it.
#include <cstdio>

#include "test_support.cuh"

namespace {

constexpr std::int64_t kDevice = 64LL << 20, kPinned = 32LL << 20;
static recipe::EarlyStart early_start(recipe::PoolSize{kDevice, kPinned, 3, 4});

__global__ void blur(recipe::Tile t, recipe::InView<float> in, recipe::OutView<float> out) {
    const auto x = t.x();
    if (!t.contains(x)) return;
    out(x) = in(x - 1) + in(x) + in(x + 1);
}

bool run_once(std::int64_t n, const char* what) {
    test::HostArray<float> in(n, recipe::HostMemory::Staged), out(n, recipe::HostMemory::Staged);
    test::fill(in.data(), n, 5);
    recipe::Config cfg;
    cfg.extents = {n, 1, 1};
    cfg.space = {{1, 0, 0}, {n - 1, 1, 1}};
    cfg.scheme = recipe::Scheme::Scalable;
    cfg.tile = {n / 16, 1, 1};
    cfg.streams = 3;
    cfg.host = recipe::HostMemory::Staged;
    cfg.host_threads = 4;
    try {
        recipe::run(cfg, blur, recipe::inputs(recipe::input(in.data(), recipe::Halo{{1, 0, 0}, {1, 0, 0}})),
                    recipe::outputs(recipe::output(out.data())));
    } catch (const recipe::Error& e) {
        TEST_CHECK(false, "%s threw: %s", what, e.what());
        return false;
    }
    bool ok = true;
    for (std::int64_t i = 1; i < n - 1 && ok; ++i) ok = out[i] == in[i - 1] + in[i] + in[i + 1];
    TEST_CHECK(ok, "%s: wrong output", what);
    return ok;
}

}  // namespace

int main() {
    const std::int64_t n = 1 << 22;  // tiles of 1 MiB: well inside the reservation
    for (const char* what : {"first run", "second run"}) {
        if (what[0] == 'f') {
            setenv("RECIPE_REPORT", "1", 1);
            const std::string text = test::captured_stderr([&] { run_once(n, what); });
            unsetenv("RECIPE_REPORT");
            TEST_CHECK(text.find("recipe: start-up: first call waited from") != std::string::npos &&
                           text.find("recipe:   GPU 0: context at") != std::string::npos &&
                           text.find("staging block") != std::string::npos,
                       "first run with RECIPE_REPORT=1: no start-up timeline in:\n%s", text.c_str());
        } else {
            run_once(n, what);
        }
        // Only now: the pool must come into being after CUDA's runtime, as
        // the library makes it, to be freed before the runtime is at exit.
        auto& pool = recipe::detail::Pool::get();
        std::lock_guard<std::mutex> lock(pool.mutex);
        TEST_CHECK(pool.device.bytes() == static_cast<std::size_t>(kDevice), "%s: device block of %zu bytes, not the reserved %lld",
                   what, pool.device.bytes(), static_cast<long long>(kDevice));
        TEST_CHECK(pool.pinned.bytes() == static_cast<std::size_t>(kPinned), "%s: staging block of %zu bytes, not the reserved %lld",
                   what, pool.pinned.bytes(), static_cast<long long>(kPinned));
        TEST_CHECK(pool.streams.size() == 3, "%s: %zu pooled streams", what, pool.streams.size());
        TEST_CHECK(pool.threads && pool.threads->count() == 4, "%s: the staging threads were not kept", what);
    }
    // The release: the pool emptied on its thread, the GPU reset.
    TEST_CHECK(recipe::release_async(), "release_async after the runs did nothing");
    TEST_CHECK(!recipe::release_async(), "a second release_async while the first is under way did something");
    const double released_ms = recipe::detail::Startup::get().join_release();
    TEST_CHECK(released_ms >= 0, "the release did not finish (%.1f ms)", released_ms);
    {
        auto& pool = recipe::detail::Pool::get();
        std::lock_guard<std::mutex> lock(pool.mutex);
        TEST_CHECK(pool.device.bytes() == 0 && pool.pinned.bytes() == 0 && pool.streams.size() == 0 && !pool.threads,
                   "the pool still holds %zu device bytes, %zu staging bytes, %zu streams after the release",
                   pool.device.bytes(), pool.pinned.bytes(), pool.streams.size());
    }
    // A call after the release (a misplaced release_async) is still right.
    run_once(n, "run after the release");
    TEST_CHECK(recipe::release_async(), "release_async after the later run did nothing");
    // Left under way: the exit waits for it (atexit).
    return test::finish("start_test");
}
