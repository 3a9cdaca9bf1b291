/* Time loop: for with a pointer swap. */
#include <stdlib.h>
#define N 4096
#define STEPS 50
int main(void)
{
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int t = 0; t < STEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0f;
        float *tmp = a;
        a = b;
        b = tmp;
    }
    free(a);
    free(b);
    return 0;
}
