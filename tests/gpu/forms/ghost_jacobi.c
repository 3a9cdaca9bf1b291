/* recipe advise flags: --gpu-memory 3MiB */
/* PolyBench's jacobi-2d time loop on arrays larger than the device memory
 * the plan may use (two arrays of 4 MB against 3 MiB): recipe advise plans
 * the loop with ghost zones, k steps a pass over tiles of rows, and the
 * library replays the steps tile by tile. ./ghost_jacobi [out.bin] writes A
 * then B. */
#include <stdio.h>

#define N 1000
#define TSTEPS 9

static float A[N][N], B[N][N];

static void kernel_jacobi_2d(void)
{
    int t, i, j;
    for (t = 0; t < TSTEPS; t++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                A[i][j] = 0.2f * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
    }
}

int main(int argc, char **argv)
{
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = ((float)i * (j + 2) + 2) / N;
            B[i][j] = ((float)i * (j + 3) + 3) / N;
        }
    kernel_jacobi_2d();
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(A, sizeof(float), (size_t)N * N, f) != (size_t)N * N ||
            fwrite(B, sizeof(float), (size_t)N * N, f) != (size_t)N * N || fclose(f))
            return 1;
    }
    printf("%f %f\n", A[N / 2][N / 2], B[N / 3][N / 3]);
    return 0;
}
