/* Integer-to-floating conversions in loop bodies, each function one case. */
#include <stddef.h>
#define N 4096
typedef double real;
#define DATA_TYPE float

/* Two explicit casts of expressions of the long index: 2. */
void sawtooth(float *a) {
    long i;
    for (i = 0; i < N; i++)
        a[i] = (float)(i % 1000) / 1000.0f + (float)((i * 2654435761L) & 255) / 4096.0f;
}

/* An int index: converted with vector instructions where the loop is; 0. */
void ramp_int(float *a) {
    int i;
    for (i = 0; i < N; i++) a[i] = (float)i / N;
}

/* Implicit: a size_t index times a double, and a typedef'd cast: 2. */
void coords(double *x, double *y, double dx) {
    for (size_t i = 0; i < N; i++) {
        x[i] = i * dx;
        y[i] = (real)(i + 1);
    }
}

/* Assigned to a floating element, and a macro-named type: 2. */
void assign(float *a, DATA_TYPE *b) {
    for (long i = 0; i < N; i++) {
        a[i] = i;
        b[i] = (DATA_TYPE)i;
    }
}

/* Loop-invariant conversions are hoisted by the compiler: 0. */
void invariant(float *a, long n) {
    for (long i = 0; i < N; i++) a[i] = a[i] * (float)n + (float)N;
}

/* A long local computed in the body: 1. */
void local(double *a) {
    for (int i = 0; i < N; i++) {
        long k = (long)i * 7;
        a[i] = (double)k;
    }
}

/* A floating local initialised from the long index: 1. */
void initialised(double *a) {
    for (long i = 0; i < N; i++) {
        double x = i;
        a[i] = x * 0.5;
    }
}
