/* Nests whose shape cannot be tiled. */
#define N 64
float a[N][N], b[N][N], c[N];

void imperfect(void)
{
    for (int i = 0; i < N; i++) {
        c[i] = 0.0f;
        for (int j = 0; j < N; j++) // expect-warning[not-perfectly-nested]: loop inside the nest body is not a fixed-size window (its trip count is not a compile-time constant); only perfectly nested loops, with all statements in the innermost one, can be tiled
            b[i][j] = a[i][j];
    }
}

void inner_while(int n)
{
    for (int i = 0; i < N; i++) {
        int k = 0;
        while (k < n) // expect-warning[not-perfectly-nested]: while loop inside the nest body is not a fixed-size window (its trip count is not a compile-time constant); only perfectly nested loops, with all statements in the innermost one, can be tiled
            k++;
        c[i] = (float)k;
    }
}

void exits(void)
{
    for (int i = 0; i < N; i++) {
        if (c[i] < 0.0f)
            break; // expect-warning[early-exit]: 'break' leaves the loop early; every iteration must run to its end
        c[i] = c[i] * 2.0f;
    }
}

void triangle(void)
{
    for (int i = 0; i < N; i++)
        for (int j = i; j < N; j++) // expect-warning[non-canonical-loop]: bound of 'j' depends on loop variable 'i' (the iteration space is not a rectangle)
            b[i][j] = a[i][j];
}

void odd_condition(int ok)
{
    for (int i = 0; ok && i < N; i++) // expect-warning[non-canonical-loop]: loop condition does not compare 'i' with a bound
        c[i] = 1.0f;
}

void moves_its_variable(void)
{
    for (int i = 0; i < N; i++) {
        c[i] = 1.0f;
        i++; // expect-warning[non-canonical-loop]: loop variable 'i' is changed inside the loop body
    }
}

void shifted(void)
{
    for (int i = 0; i < N - 1; i++)
        c[i + 1] = a[0][i]; // expect-warning[offset-write]: writes 'c[i + 1]' away from the iteration's own element; shift the loop bounds so each iteration writes the element it is at
}

void nothing_written(void)
{
    for (int i = 0; i < N; i++) { // expect-warning[no-output]: loop nest writes no array
        float t = c[i];
        (void)t;
    }
}

void huge_window(const float *restrict in, float *restrict out, int n)
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int d = 0; d < 4000; d++)
            for (int e = 0; e < 4000; e++)
                s += in[i + d + e]; // expect-warning[too-complex]: window loops make 'in[i + d + e]' read more than 4096 offsets
        out[i] = s;
    }
}
