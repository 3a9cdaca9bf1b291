/* Values accumulated across iterations. */
#define N 100
float a[N][N], row[N];

float total(const float *a1, int n)
{
    float sum = 0.0f;
    for (int i = 0; i < n; i++)
        sum += a1[i]; // expect-warning[reduction]: reduction into 'sum' across iterations: every iteration updates the same variable
    return sum;
}

void row_sums(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            row[i] += a[i][j]; // expect-warning[reduction]: reduction into 'row[i]': its index does not follow loop 'j', so every iteration of it writes the same element
}

float last_value(const float *a1, int n)
{
    float last = 0.0f;
    for (int i = 0; i < n; i++)
        last = a1[i]; // expect-warning[scalar-write]: writes 'last', declared outside the loop nest, and reads its last value after the loop (line 25): which iteration ran last decides it
    return last;
}
