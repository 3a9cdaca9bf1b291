// whole_test.cu — device tests of recipe/whole.cuh and of the pool that
// keeps a run's buffers for the next (detail/pool.cuh), for float, double
// and int: a 2-D nest that reads a 1-D array whole (`a[y][x] - mean[x] *
// scale[y]`), run for every scheme and host mode, then the same runs again
// in a different order of sizes so that pooled blocks are reused, grown and
// left larger than a run needs. Every element is compared exactly.
#include <array>
#include <cstdio>
#include <iterator>
#include <vector>

#include "test_support.cuh"

template <class T>
__global__ void centre_kernel(recipe::Tile t, recipe::InView<T> a, recipe::OutView<T> out, const T* mean,
                              const T* scale) {
    const std::int64_t x = t.x(), y = t.y();
    if (!t.contains(x, y)) return;
    out(x, y) = a(x, y) - mean[x] * scale[y];
}

template <class T>
void run_once(std::int64_t X, std::int64_t Y, recipe::Scheme scheme, recipe::HostMemory host, int streams) {
    std::vector<T> a(static_cast<std::size_t>(X * Y)), out(a.size(), static_cast<T>(-7)), want(a.size());
    std::vector<T> mean(static_cast<std::size_t>(X)), scale(static_cast<std::size_t>(Y));
    for (std::int64_t x = 0; x < X; ++x) mean[static_cast<std::size_t>(x)] = static_cast<T>(x % 5);
    for (std::int64_t y = 0; y < Y; ++y) scale[static_cast<std::size_t>(y)] = static_cast<T>(1 + y % 3);
    for (std::int64_t y = 0; y < Y; ++y)
        for (std::int64_t x = 0; x < X; ++x) {
            const std::size_t i = static_cast<std::size_t>(x + X * y);
            a[i] = static_cast<T>((x + 2 * y) % 11);
            want[i] = a[i] - mean[static_cast<std::size_t>(x)] * scale[static_cast<std::size_t>(y)];
        }
    recipe::Config cfg;
    cfg.scheme = scheme;
    cfg.extents = {X, Y, 1};
    cfg.tile = {X, std::max<std::int64_t>(1, Y / 3), 1};
    cfg.streams = streams;
    cfg.host = host;
    cfg.block = dim3(32, 4, 1);
    cfg.name = "whole_test";
    recipe::run(cfg, centre_kernel<T>, recipe::inputs(recipe::input(a.data())), recipe::outputs(recipe::output(out.data())),
                recipe::whole(mean.data(), mean.size()), recipe::whole(scale.data(), scale.size()));
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < out.size(); ++i) wrong += out[i] != want[i];
    TEST_CHECK(wrong == 0, "%lld of %lld elements wrong (%lldx%lld, scheme %d, host %d, %d streams)", static_cast<long long>(wrong),
               static_cast<long long>(out.size()), static_cast<long long>(X), static_cast<long long>(Y), static_cast<int>(scheme),
               static_cast<int>(host), streams);
}

template <class T>
void all_cases() {
    const recipe::Scheme schemes[] = {recipe::Scheme::Naive, recipe::Scheme::Basic, recipe::Scheme::Scalable,
                                      recipe::Scheme::Buffered};
    const recipe::HostMemory hosts[] = {recipe::HostMemory::Staged, recipe::HostMemory::Register, recipe::HostMemory::Pageable};
    // Small, large, small again: the pool's blocks are reused, grown, then
    // larger than needed.
    using Size = std::array<std::int64_t, 2>;
    const std::vector<Size> sizes = test::quick() ? std::vector<Size>{{37, 23}, {130, 70}, {37, 23}, {3, 1}}
                                                  : std::vector<Size>{{37, 23}, {1500, 700}, {37, 23}, {3, 1}, {1024, 1024}};
    for (const auto& sz : sizes)
        for (auto s : schemes)
            for (auto h : hosts)
                for (int streams : {1, 3}) run_once<T>(sz[0], sz[1], s, h, streams);
}

int main() {
    all_cases<float>();
    all_cases<double>();
    all_cases<int>();
    return test::finish("whole_test");
}
