/* Pointer parameters that may overlap. */
#include <stdlib.h>

void never_called(const float *in, float *out, int n)
{
    for (int i = 1; i < n - 1; i++)
        out[i] = in[i - 1] + in[i + 1]; // expect-warning[possible-aliasing]: 'out' and 'in' may overlap ('never_called' is not called in this file); declare them `restrict`, pass distinct arrays at every call in this file, or pass --assume-no-alias
}

void called_with_overlap(const float *in, float *out, int n)
{
    for (int i = 1; i < n - 1; i++)
        out[i] = in[i - 1] + in[i + 1]; // expect-warning[possible-aliasing]: 'out' and 'in' may overlap (the call at line 25 may pass overlapping arrays)
}

void restricted(const float *restrict in, float *restrict out, int n)
{
    for (int i = 1; i < n - 1; i++)
        out[i] = in[i - 1] + in[i + 1];
}

int main(void)
{
    float *a = malloc(100 * sizeof *a);
    called_with_overlap(a, a + 1, 99);
    restricted(a, a + 1, 99);
    free(a);
    return 0;
}
