/* What one thread of this host takes for the kinds of C loops the model
 * prices by flops (docs/model.md, "The program's run"): conversions of a
 * 64-bit index to float (scalar below AVX-512) in the first-level cache,
 * blur1d's initialisation loop, and emboss's loop (clamped indices) with
 * its pages present, next to the same loop over the interior without the
 * clamps of its contiguous index. Best of 300 windows (L1 cases) and of 3
 * passes. gcc -O2 vectorises emboss's loop (its clamped loads lane by lane);
 * build it with -fno-tree-vectorize too to compare.
 *   gcc -O2 bench/host/cpu_loops.c -o cpu_loops && ./cpu_loops */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W 8000
#define H 8000

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

__attribute__((noinline)) static void one_convert(float *f, long n, long k)
{
    for (long i = 0; i < n; i++) f[i] = (float)(i + k);
    __asm__ volatile("" : : "r"(f) : "memory");
}
__attribute__((noinline)) static void two_converts(float *f, long n, long k)
{
    for (long i = 0; i < n; i++) f[i] = (float)(i + k) + (float)((i * k) & 255);
    __asm__ volatile("" : : "r"(f) : "memory");
}
__attribute__((noinline)) static void blur1d_init(float *f, long n, long k)
{
    for (long i = 0; i < n; i++)
        f[i] = (float)((i + k) % 1000) / 1000.0f + (float)(((i + k) * 2654435761L) & 255) / 4096.0f;
    __asm__ volatile("" : : "r"(f) : "memory");
}
__attribute__((noinline)) static void emboss(const float *in, float *out)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int xm = x > 0 ? x - 1 : 0, xp = x < W - 1 ? x + 1 : W - 1;
            int ym = y > 0 ? y - 1 : 0, yp = y < H - 1 ? y + 1 : H - 1;
            float lit = in[y * W + xp] + in[yp * W + x] + in[yp * W + xp];
            float shade = in[y * W + xm] + in[ym * W + x] + in[ym * W + xm];
            out[y * W + x] = 0.5f + (lit - shade) / 6.0f;
        }
}

__attribute__((noinline)) static void emboss_unclamped(const float *in, float *out)
{
    for (int y = 0; y < H; y++)
        for (int x = 1; x < W - 1; x++) {
            int ym = y > 0 ? y - 1 : 0, yp = y < H - 1 ? y + 1 : H - 1;
            float lit = in[y * W + x + 1] + in[yp * W + x] + in[yp * W + x + 1];
            float shade = in[y * W + x - 1] + in[ym * W + x] + in[ym * W + x - 1];
            out[y * W + x] = 0.5f + (lit - shade) / 6.0f;
        }
}

int main(void)
{
    static float f[4096];
    void (*loops[3])(float *, long, long) = {one_convert, two_converts, blur1d_init};
    const char *names[3] = {"one 64-bit conversion", "two 64-bit conversions", "blur1d's initialisation"};
    for (int m = 0; m < 3; m++) {
        double best = 1e30;
        for (int w = 0; w < 300; w++) {
            double t = now_ms();
            for (int r = 0; r < 100; r++) loops[m](f, 4096, r);
            double ns = (now_ms() - t) * 1e6 / (4096 * 100.0);
            if (ns < best) best = ns;
        }
        printf("%-26s %.3f ns a point (first-level cache)\n", names[m], best);
    }
    float *in = malloc(sizeof(float) * W * H), *out = malloc(sizeof(float) * W * H);
    if (!in || !out) return 1;
    for (long i = 0; i < (long)W * H; i++) in[i] = (float)(i % 977) * 0.01f;
    memset(out, 0, sizeof(float) * W * H);
    void (*images[2])(const float *, float *) = {emboss, emboss_unclamped};
    const char *image_names[2] = {"emboss", "emboss, x unclamped"};
    for (int m = 0; m < 2; m++) {
        double best = 1e30;
        for (int p = 0; p < 3; p++) {
            double t = now_ms();
            images[m](in, out);
            double ms = now_ms() - t;
            if (ms < best) best = ms;
        }
        printf("%-26s %.3f ns a point (8000 x 8000, pages present)\n", image_names[m], best * 1e6 / ((double)W * H));
    }
    return out[W + 1] > 1e30f;
}
