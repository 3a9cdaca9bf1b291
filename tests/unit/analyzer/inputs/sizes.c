/* Sizes from a literal, #define, const, enum, -D and one left symbolic. */
#define WIDTH 64
enum { HEIGHT = 32, DEPTH };
static const int LEN = 128;
#ifndef OVERRIDE
#define OVERRIDE 16
#endif
void sizes(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < 10; i++) b[i] = a[i];
    for (int i = 0; i < WIDTH; i++) b[i] = a[i];
    for (int i = 0; i < DEPTH; i++) b[i] = a[i];
    for (int i = 0; i < LEN; i++) b[i] = a[i];
    for (int i = 0; i < OVERRIDE; i++) b[i] = a[i];
    for (int i = 0; i < n; i++) b[i] = a[i];
}
