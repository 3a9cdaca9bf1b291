/* In-place updates: loop-carried dependences (DOACROSS, seed 001). */
#define N 1000
float A[N], G[N][N];

void sor(void)
{
    for (int i2 = 1; i2 < N - 1; i2++)
        A[i2] = (A[i2 - 1] + A[i2] + A[i2 + 1]) / 3; // expect-warning[doacross]: loop-carried dependence on 'A' (distance 1 in i2): 'A[i2 - 1]' reads what an earlier iteration writes (flow); 'A[i2 + 1]' is overwritten by a later iteration (anti)
}

void gauss_seidel(void)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            G[i][j] = 0.25f * (G[i - 1][j] + G[i][j - 1] + G[i][j + 1] + G[i + 1][j]); // expect-warning[doacross]: loop-carried dependence on 'G' (distances 1 in i, 1 in j): 'G[i - 1][j]' reads what an earlier iteration writes (flow); 'G[i][j - 1]' reads what an earlier iteration writes (flow); 'G[i][j + 1]' is overwritten by a later iteration (anti); 'G[i + 1][j]' is overwritten by a later iteration (anti)
}

void two_writes(void)
{
    for (int i = 0; i < N - 1; i++) {
        A[i] = 1.0f;
        A[i + 1] = 2.0f; // expect-warning[doacross]: loop-carried dependence on 'A' (distance 1 in i): 'A[i + 1]' writes an element another iteration also writes (output)
    }
}
