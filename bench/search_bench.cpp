// search_bench — times the advisor's full search (every scheme, tile shape,
// copy method and stream count, the tiles within 5%, the curves and the
// break-even size) for the Jacobi 400^3 sample on the h200 profile, and
// reports candidates evaluated per second. Target: under 100 ms.
//
//   bench/search_bench.sh [BUILD_DIR]      (builds and runs this file)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "advisor/plan.h"
#include "advisor/request.h"
#include "recipes/session.h"

using namespace recipe::advisor;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    const std::string root = RECIPE_SOURCE_DIR;
    const std::string file = argc > 1 ? argv[1] : root + "/samples/jacobi3d.c";
    const std::string platform_name = argc > 2 ? argv[2] : "h200";
    const int runs = argc > 3 ? std::stoi(argv[3]) : 15;
    Platform platform;
    std::string error;
    if (!find_platform(platform_name, &platform, &error)) {
        std::fprintf(stderr, "search_bench: %s\n", error.c_str());
        return 2;
    }
    std::vector<NestProblem> nests;
    if (RequestError failure; !recipe::recipes::problems_for_file(recipe::recipes::RealFileSystem(), file, {}, {}, 1, &nests, nullptr, &failure)) {
        std::fprintf(stderr, "search_bench: %s\n", failure.message.c_str());
        return 2;
    }
    const Problem& problem = nests.front().problem;
    SearchOptions options;
    options.keep = 20;
    std::vector<double> ms;
    Plan plan;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = Clock::now();
        if (!advise(problem, platform, options, &plan, &error)) {
            std::fprintf(stderr, "search_bench: %s\n", error.c_str());
            return 3;
        }
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const Prediction& best = plan.ranked.front();
    std::printf("search: %s nest 1 (%lldx%lldx%lld space) on %s\n", file.c_str(),
                static_cast<long long>(problem.space.extent(0)), static_cast<long long>(problem.space.extent(1)),
                static_cast<long long>(problem.space.extent(2)), platform.name.c_str());
    std::printf("runs %d, median %.2f ms (min %.2f, max %.2f), target < 100 ms: %s\n", runs, median, ms.front(),
                ms.back(), median < 100 ? "met" : "MISSED");
    std::printf("candidates evaluated %lld per search, %.0f candidates/s\n",
                static_cast<long long>(plan.candidates_evaluated),
                static_cast<double>(plan.candidates_evaluated) / (median / 1000));
    std::printf("best: %s tile %s copy %s, %d streams, host %s: %.3f ms (naive %.3f ms, %.2fx)\n",
                to_string(best.config.scheme), format_tile(best.config.tile, problem.dims).c_str(),
                recipe::to_string(best.config.copy), best.config.streams, to_string(best.host_strategy), best.total_ms,
                plan.naive.total_ms, plan.speedup);
    return median < 100 ? 0 : 1;
}
