/* recipe advise flags: --assume row=512 --assume col=768 */
/* One step of a Rodinia-style hotspot: sizes read at run time, every
 * variable declared at the top of the function (C89), the temperature
 * update computed through a temporary declared outside the loops.
 * ./rodinia_hotspot [out.bin] writes the result grid. */
#include <stdio.h>
#include <stdlib.h>

#define AMB_TEMP 80.0f

void single_iteration(float *result, float *temp, float *power, int row, int col,
                      float Cap_1, float Rx_1, float Ry_1, float Rz_1)
{
    float delta;
    int r, c;
    for (r = 1; r < row - 1; ++r) {
        for (c = 1; c < col - 1; ++c) {
            delta = Cap_1 * (power[r * col + c] +
                             (temp[(r + 1) * col + c] + temp[(r - 1) * col + c] - 2.f * temp[r * col + c]) * Ry_1 +
                             (temp[r * col + c + 1] + temp[r * col + c - 1] - 2.f * temp[r * col + c]) * Rx_1 +
                             (AMB_TEMP - temp[r * col + c]) * Rz_1);
            result[r * col + c] = temp[r * col + c] + delta;
        }
    }
}

int main(int argc, char **argv)
{
    int row = 512, col = 768, n;
    float *temp = calloc((size_t)row * col, sizeof(float));
    float *power = calloc((size_t)row * col, sizeof(float));
    float *result = calloc((size_t)row * col, sizeof(float));
    if (!temp || !power || !result) return 1;
    for (n = 0; n < row * col; n++) {
        temp[n] = 300.0f + (float)(n % 13);
        power[n] = (float)(n % 7) * 0.01f;
    }
    single_iteration(result, temp, power, row, col, 0.5f, 0.1f, 0.1f, 0.05f);
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(result, sizeof *result, (size_t)row * col, f) != (size_t)row * col || fclose(f)) return 1;
    }
    free(temp);
    free(power);
    free(result);
    return 0;
}
