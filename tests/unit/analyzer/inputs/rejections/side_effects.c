/* Calls that may write memory or do I/O. */
#include <stdio.h>
#include <stdlib.h>

static int counter;
static float bump(float x) { counter++; return x; }

void noisy(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++) {
        b[i] = a[i] * (float)rand(); // expect-warning[side-effect-call]: call to 'rand' may have side effects (it is not a pure math function or defined in this file)
        printf("%f\n", b[i]); // expect-warning[side-effect-call]: call to 'printf' may have side effects (it is not a pure math function or defined in this file)
    }
}

void counting(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = bump(a[i]); // expect-warning[side-effect-call]: call to 'bump' may have side effects (it writes memory or calls such a function)
}
