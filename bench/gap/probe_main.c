/* probe_main.c — wraps a program's main (compiled with -Dmain=recipe_probe_main)
 * to print, on stderr, the wall-clock time (CLOCK_REALTIME, ns) at which main
 * began and returned: `probe: main BEGIN_NS END_NS`. The runner
 * (bench/gap/run.py) knows when it spawned the process and when it reaped it,
 * so a process splits into its start (loader, static constructors), main,
 * and its exit (atexit handlers, static destructors, a runtime's teardown).
 * Built as C for the C program and as C++ for the .cu. */
#include <stdio.h>
#include <time.h>

/* C linkage for C, C++ linkage (as the renamed main of a .cu has) for C++. */
int recipe_probe_main(int argc, char **argv);

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
    long long begin = now_ns();
    int status = recipe_probe_main(argc, argv);
    long long end = now_ns();
    fprintf(stderr, "probe: main %lld %lld\n", begin, end);
    return status;
}
