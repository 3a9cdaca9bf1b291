/* Chip temperature simulation in the style of HotSpot: every step, a cell's
 * new temperature follows from its own power dissipation, the heat flowing to
 * or from its four neighbours and leakage to the ambient. Neighbour indices
 * are clamped at the die edge. Two grids are swapped after every step.
 *   gcc -O2 hotspot.c -o hotspot -lm [-DROWS=... -DCOLS=... -DSTEPS=...]
 *   ./hotspot [out.bin]     out.bin gets the final temperatures as raw floats */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef ROWS
#define ROWS 1024
#endif
#ifndef COLS
#define COLS 1024
#endif
#ifndef STEPS
#define STEPS 100
#endif

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static const float AMBIENT = 80.0f;

/* Runs STEPS time steps and returns the grid holding the last one. */
static float *simulate(float *temp, float *next, const float *power,
                       float step_cap, float rx_inv, float ry_inv, float rz_inv)
{
    int t, r, c;
    for (t = 0; t < STEPS; t++) {
        for (r = 0; r < ROWS; r++) {
            for (c = 0; c < COLS; c++) {
                int north = MAX(r - 1, 0), south = MIN(r + 1, ROWS - 1);
                int west = MAX(c - 1, 0), east = MIN(c + 1, COLS - 1);
                float here = temp[r * COLS + c];
                next[r * COLS + c] = here + step_cap * (power[r * COLS + c]
                    + (temp[south * COLS + c] + temp[north * COLS + c] - 2.0f * here) * ry_inv
                    + (temp[r * COLS + east] + temp[r * COLS + west] - 2.0f * here) * rx_inv
                    + (AMBIENT - here) * rz_inv);
            }
        }
        float *swap = temp;
        temp = next;
        next = swap;
    }
    return temp;
}

int main(int argc, char **argv)
{
    const size_t n = (size_t)ROWS * COLS;
    float *temp = malloc(n * sizeof *temp);
    float *next = malloc(n * sizeof *next);
    float *power = malloc(n * sizeof *power);
    float *result;
    double checksum = 0.0;
    unsigned state = 2024u;
    size_t i;

    if (!temp || !next || !power) {
        fprintf(stderr, "hotspot: out of memory\n");
        return 1;
    }
    for (i = 0; i < n; i++) {
        state = state * 1103515245u + 12345u;
        temp[i] = 320.0f + (float)((state >> 16) % 1000) * 0.01f;
        power[i] = (i / COLS) % 64 < 16 ? 0.002f * (float)(i % 37) : 0.0001f;
    }
    result = simulate(temp, next, power, 0.5f, 0.1f, 0.1f, 0.0025f);

    for (i = 0; i < n; i++)
        checksum += result[i];
    printf("hotspot %dx%d steps=%d checksum=%.6e\n", ROWS, COLS, STEPS, checksum);

    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(result, sizeof *result, n, f) != n || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    free(temp);
    free(next);
    free(power);
    return 0;
}
