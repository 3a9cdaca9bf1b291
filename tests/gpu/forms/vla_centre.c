/* recipe advise flags: --assume ni=700 --assume nj=600 */
/* C99 code: variable-length array parameters, a mean per column read in a
 * 2-D nest, an OpenMP pragma on the loop. ./vla_centre [out.bin] writes the
 * centred and scaled data. */
#include <stdio.h>
#include <stdlib.h>

static void centre(int ni, int nj, const float mean[restrict nj], const float scale[restrict ni],
                   float data[restrict ni][nj], float out[restrict ni][nj])
{
#pragma omp parallel for
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            out[i][j] = (data[i][j] - mean[j]) * scale[i];
}

int main(int argc, char **argv)
{
    int ni = 700, nj = 600;
    float *mean = malloc(sizeof(float) * nj), *scale = malloc(sizeof(float) * ni);
    float (*data)[nj] = malloc(sizeof(float) * ni * nj), (*out)[nj] = malloc(sizeof(float) * ni * nj);
    if (!mean || !scale || !data || !out) return 1;
    for (int j = 0; j < nj; j++) mean[j] = (float)(j % 17) * 0.25f;
    for (int i = 0; i < ni; i++) scale[i] = 1.0f + (float)(i % 5);
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) data[i][j] = (float)((i * 31 + j * 7) % 23);
    centre(ni, nj, mean, scale, data, out);
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(out, sizeof(float), (size_t)ni * nj, f) != (size_t)ni * nj || fclose(f)) return 1;
    }
    free(mean);
    free(scale);
    free(data);
    free(out);
    return 0;
}
