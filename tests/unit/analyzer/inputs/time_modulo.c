/* Time loop: buffers picked by t % 2. */
#define N 2048
float buf[2][N];
void steps(int T)
{
    for (int t = 0; t < T; t++)
        for (int i = 1; i < N - 1; i++)
            buf[(t + 1) % 2][i] = buf[t % 2][i - 1] + buf[t % 2][i + 1];
}
