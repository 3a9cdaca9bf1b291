/* An output that also reads its own element (FDTD ey update): still DOALL. */
#define NX 200
#define NY 300
static double ey[NX][NY], hz[NX][NY];

static void ey_update(double e[NX][NY], double h[NX][NY])
{
    for (int i = 1; i < NX; i++)
        for (int j = 0; j < NY; j++)
            e[i][j] = e[i][j] - 0.5 * (h[i][j] - h[i - 1][j]);
}

int main(void)
{
    ey_update(ey, hz);
    return 0;
}
