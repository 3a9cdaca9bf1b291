/* Time loop: do-while with two mirrored nests (a -> b, then b -> a). */
#define N 10000
float a[N], b[N];
void relax(void)
{
    int it = 0;
    do {
        for (int i = 1; i < N - 1; i++)
            b[i] = 0.5f * (a[i - 1] + a[i + 1]);
        for (int i = 1; i < N - 1; i++)
            a[i] = 0.5f * (b[i - 1] + b[i + 1]);
        it++;
    } while (it < 20);
}
