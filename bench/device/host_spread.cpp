// host_spread.cpp — whether a host's one-thread speed depends on the core a
// process runs on, or on the moment: on one H100 host, twelve processes
// measured 3.1-5.9 GFLOP/s and 12-17.5 GB/s one after the other, and the
// same C program's region ran 1.5x slower in one run than in another. Pins
// itself to each core it may use in turn and measures there the stencil's
// arithmetic rate and the triad's streaming rate as `--measure-host` does
// (advisor/host_cpu.h), SWEEPS times over the cores. Prints one line per
// core and sweep: `sweep S cpu C gflops G stream_gbs B`.
//   g++ -O2 -std=c++17 -I. bench/device/host_spread.cpp -o host_spread && ./host_spread [SWEEPS]
#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "advisor/host_cpu.h"

int main(int argc, char** argv) {
    const int sweeps = argc > 1 ? std::atoi(argv[1]) : 2;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        std::perror("sched_getaffinity");
        return 1;
    }
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
    const std::size_t triad_n = (std::size_t(192) << 20) / 3 / sizeof(double);  // past the caches
    for (int s = 0; s < sweeps; ++s)
        for (int c : cpus) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            if (sched_setaffinity(0, sizeof one, &one) != 0) continue;
            const double gflops = recipe::advisor::detail::stencil_gflops(300, 3);
            double chain_s = 0;
            const double seconds = recipe::advisor::detail::triad_seconds(triad_n, 3, 0, &chain_s);
            std::printf("sweep %d cpu %d gflops %.2f stream_gbs %.2f\n", s, c, gflops,
                        3.0 * static_cast<double>(triad_n) * sizeof(double) / seconds / 1e9);
            std::fflush(stdout);
        }
    sched_setaffinity(0, sizeof allowed, &allowed);
    return 0;
}
