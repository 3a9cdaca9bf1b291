/* Index temporaries computed in the body, on a padded grid. */
void heat(const double *restrict p, double *restrict q, int nx, int ny)
{
    for (int i = 1; i <= nx; i++) {
        for (int j = 1; j <= ny; j++) {
            int c = i * (ny + 2) + j;
            int n = c - (ny + 2);
            int s = c + (ny + 2);
            q[c] = p[c] + 0.1 * (p[c - 1] + p[c + 1] + p[n] + p[s] - 4.0 * p[c]);
        }
    }
}
