/* Scalar C loops of several shapes on one thread, their arrays in the
 * second-level cache (180 x 180 doubles, through pointers that may overlap:
 * gcc -O2 leaves every one scalar), each the best of 200 windows: ns per
 * point, against the price by flops at the five-point stencil's rate (what
 * hostGflops prices a scalar loop by) and against a price by operations
 * (flops + reads + writes) at the same stencil's rate per operation. For
 * judging how the C-side model should price a scalar loop's arithmetic;
 * the model prices by flops. On a 2-core build host: heat-3d's 15 flops a
 * point +45% by flops, +14% by operations (PolyBench's heat-3d on an H200
 * host, its memory traffic hidden, ran at about the operations' ratio); a
 * 7-step Horner polynomial +17% by flops, -39% by operations; the 9-point
 * box -6% and -10%.
 *   gcc -O2 bench/host/scalar_loops.c -o scalar_loops && ./scalar_loops */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 180
#define M 40
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
typedef void (*kern)(double *, double *);
/* 2-D, pointers may overlap (gcc -O2 leaves these scalar) */
__attribute__((noinline)) static void s5(double *a, double *b) {
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            b[i * N + j] =
                0.2 * (a[i * N + j] + a[i * N + j - 1] + a[i * N + j + 1] + a[(i + 1) * N + j] + a[(i - 1) * N + j]);
}
__attribute__((noinline)) static void s9(double *a, double *b) {
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            b[i * N + j] = (a[(i - 1) * N + j - 1] + a[(i - 1) * N + j] + a[(i - 1) * N + j + 1] + a[i * N + j - 1] +
                            a[i * N + j] + a[i * N + j + 1] + a[(i + 1) * N + j - 1] + a[(i + 1) * N + j] +
                            a[(i + 1) * N + j + 1]) /
                           9.0;
}
__attribute__((noinline)) static void fd(double *a, double *b) {
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) b[i * N + j] = b[i * N + j] - 0.5 * (a[i * N + j] - a[(i - 1) * N + j]);
}
/* heat-3d's 15 flops a point, on a 2-D slab: the x and y pairs and a third pair two apart */
__attribute__((noinline)) static void h3(double *a, double *b) {
    for (int i = 1; i < N - 1; i++)
        for (int j = 2; j < N - 2; j++)
            b[i * N + j] = 0.125 * (a[(i + 1) * N + j] - 2.0 * a[i * N + j] + a[(i - 1) * N + j]) +
                           0.125 * (a[i * N + j + 1] - 2.0 * a[i * N + j] + a[i * N + j - 1]) +
                           0.125 * (a[i * N + j + 2] - 2.0 * a[i * N + j] + a[i * N + j - 2]) + a[i * N + j];
}
__attribute__((noinline)) static void poly(double *a, double *b) {
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) {
            double x = a[i * N + j];
            b[i * N + j] = ((((((x * 0.5 + 1.0) * x + 2.0) * x + 3.0) * x + 4.0) * x + 5.0) * x + 6.0) * x + 7.0;
        }
}
__attribute__((noinline)) static void cp(double *a, double *b) {
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) b[i * N + j] = a[i * N + j] + 1.0;
}
struct k {
    const char *name;
    kern f;
    int flops, reads, writes, pts;
};
int main(void) {
    double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N);
    for (int i = 0; i < N * N; i++) {
        a[i] = i % 7 * 0.1;
        b[i] = i % 5 * 0.1;
    }
    int in = (N - 2) * (N - 2);
    struct k ks[] = {{"5-point", s5, 5, 5, 1, in},   {"9-point", s9, 9, 9, 1, in},
                     {"fdtd-like", fd, 3, 3, 1, in}, {"heat-3d-like", h3, 15, 10, 1, (N - 2) * (N - 4)},
                     {"poly-7", poly, 14, 1, 1, in}, {"copy+1", cp, 1, 1, 1, in}};
    double ref = 0;
    int nk = sizeof ks / sizeof ks[0];
    double best[16];
    for (int q = 0; q < nk; q++) {
        best[q] = 1e30;
        for (int r = 0; r < 200; r++) {
            double t = now_ms();
            for (int m = 0; m < M; m++) ks[q].f(a, b);
            t = now_ms() - t;
            if (t < best[q]) best[q] = t;
        }
    }
    ref = best[0] * 1e6 / M / ks[0].pts; /* ns per point of the 5-point */
    double per_flop = ref / 5, per_op = ref / 11;
    printf("%-14s %8s %10s %10s\n", "loop", "ns/pt", "flop price", "op price");
    for (int q = 0; q < nk; q++) {
        double ns = best[q] * 1e6 / M / ks[q].pts;
        int ops = ks[q].flops + ks[q].reads + ks[q].writes;
        printf("%-14s %8.3f %9.3f (%+4.0f%%) %9.3f (%+4.0f%%)\n", ks[q].name, ns, ks[q].flops * per_flop,
               100 * (ks[q].flops * per_flop / ns - 1), ops * per_op, 100 * (ops * per_op / ns - 1));
    }
    return 0;
}
