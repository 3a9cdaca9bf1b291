/* Pointer arithmetic instead of subscripts: *(u + ix*ny + iy). */
void smooth(const float *restrict u, float *restrict v, int nx, int ny)
{
    for (int ix = 1; ix < nx - 1; ix++)
        for (int iy = 1; iy < ny - 1; iy++)
            *(v + ix * ny + iy) = 0.25f * (*(u + (ix - 1) * ny + iy) + *(u + (ix + 1) * ny + iy)
                                           + *(u + ix * ny + iy - 1) + *(u + ix * ny + iy + 1));
}
