// startup_after_idle.cu — CUDA's start-up in a fresh process (cudaFree(0) as
// its first CUDA call, as recipe-profile's cudaStartupNs times it) against
// how long the GPU sat unused before it. A user runs a program cold, often
// long after the GPU last worked; the profiler's children run back to back.
// Prints `idle_s S startup_ms M` per run: for each idle time in turn, the
// parent sleeps that long with no process of ours holding the GPU, then
// starts a child that times its cudaFree(0) and exits.
//   nvcc -O2 bench/kernel/startup_after_idle.cu -o startup_after_idle
//   ./startup_after_idle [ROUNDS=3] [IDLE_S...=0 0.5 1 2 4 8]
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--child") == 0) {
        const auto t0 = std::chrono::steady_clock::now();
        if (cudaFree(nullptr) != cudaSuccess) return 1;
        std::printf("%.2f\n", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        return 0;
    }
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
    std::vector<double> idle;
    for (int i = 2; i < argc; ++i) idle.push_back(std::atof(argv[i]));
    if (idle.empty()) idle = {0, 0.5, 1, 2, 4, 8};
    for (int r = 0; r < rounds; ++r)
        for (double s : idle) {
            std::this_thread::sleep_for(std::chrono::duration<double>(s));
            std::fflush(stdout);
            int fd[2];
            if (pipe(fd) != 0) return 2;
            const pid_t pid = fork();
            if (pid == 0) {
                dup2(fd[1], 1);
                execl("/proc/self/exe", argv[0], "--child", static_cast<char*>(nullptr));
                _exit(127);
            }
            close(fd[1]);
            char buf[64] = {0};
            const ssize_t n = read(fd[0], buf, sizeof buf - 1);
            close(fd[0]);
            int status = 0;
            waitpid(pid, &status, 0);
            std::printf("idle_s %.1f startup_ms %s", s, n > 0 ? buf : "failed\n");
        }
    return 0;
}
