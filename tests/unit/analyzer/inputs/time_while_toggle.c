/* Time loop: while with an index toggle iz = 1 - iz. */
#define NX 256
#define NY 256
double u[2][NY][NX];
void run(int steps)
{
    int iz = 0, step = 0;
    while (step < steps) {
        for (int y = 1; y < NY - 1; y++)
            for (int x = 1; x < NX - 1; x++)
                u[1 - iz][y][x] = 0.25 * (u[iz][y][x - 1] + u[iz][y][x + 1] + u[iz][y - 1][x] + u[iz][y + 1][x]);
        iz = 1 - iz;
        step++;
    }
}
