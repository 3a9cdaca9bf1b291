/* How fast one thread writes fresh pages, pass by pass, in one fresh process:
 * each pass mallocs MIB MiB (default 256; glibc maps it anew), writes a[i] = i
 * over it as doubles, and frees it. recipe's hostFirstTouchGBs is the best of
 * three such passes inside the recipe process (advisor/host_cpu.h); a C
 * program pays its first pass. Comparing the passes shows whether the best
 * of several stands for the first. Prints one line per pass: `pass P ms GB/s`.
 *   gcc -O2 bench/host/first_touch_passes.c -o first_touch_passes
 *   ./first_touch_passes [MIB=256] [PASSES=4] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
    int passes = argc > 2 ? atoi(argv[2]) : 4;
    size_t n = (mib << 20) / sizeof(double);
    int p;
    for (p = 0; p < passes; p++) {
        double *a = malloc(n * sizeof *a);
        double t0, ms;
        size_t i;
        if (!a) {
            fprintf(stderr, "first_touch_passes: out of memory\n");
            return 1;
        }
        t0 = now_ms();
        for (i = 0; i < n; i++)
            a[i] = (double)i;
        __asm__ volatile("" : : "r"(a) : "memory");  /* keep the stores */
        ms = now_ms() - t0;
        printf("pass %d %.2f ms %.2f GB/s\n", p, ms, (double)(n * sizeof *a) / ms / 1e6);
        free(a);
    }
    return 0;
}
