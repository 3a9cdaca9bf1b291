// `recipe advise` on code written the way real suites write it: headers of
// its own, macros in indices and bounds, PolyBench's array parameters and
// allocation, time loops that run nests in turn, 1-D arrays in 2-D nests,
// index temporaries and OpenMP pragmas.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "recipes/advise.h"
#include "recipes/recipe_view.h"
#include "recipes/template_store.h"

using namespace recipe::recipes;

namespace {

struct Project {
    std::filesystem::path root;
    Project() {
        root = std::filesystem::temp_directory_path() / ("recipe-real-code-" + std::to_string(::getpid()) + "-" +
                                                         std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        std::filesystem::create_directories(root);
    }
    ~Project() { std::filesystem::remove_all(root); }
    std::string put(const std::string& name, const std::string& text) const {
        const auto p = root / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
};

// `recipe advise` on a file on disk, for h200, with the options given. These
// tests are about reading real code and converting it: every convertible
// nest is converted (--convert-all), whatever the comparison with the CPU
// says of these small files (cpu_decision_test.cpp tests that).
AdviseResult advise_file(const std::string& path, AdviseOptions o = {}) {
    RealFileSystem fs;
    o.input = path;
    o.platform = "h200";
    o.convert_all = true;
    AdviseResult r;
    std::string error;
    INFO(error);
    REQUIRE(advise(fs, o, &r, &error));
    return r;
}

const std::string& cu_of(const AdviseResult& r) {
    for (const auto& f : r.files)
        if (f.name == r.stem + ".cu") return f.content;
    FAIL("no .cu was written");
    static const std::string none;
    return none;
}

const NestOutcome* outcome(const AdviseResult& r, int first_line) {
    for (const auto& n : r.nests)
        if (n.nest->span.begin.line == first_line) return &n;
    return nullptr;
}

// A PolyBench-style kernel: its own header with sizes and an index-free
// element type macro, array parameters through a macro, a bound macro, a
// scalar macro, arrays from a library allocator, and a Jacobi time loop that
// runs B = f(A) then A = f(B) on fixed arrays.
const char* kHeader = R"(#ifndef STENCIL_H
#define STENCIL_H
#include <stdlib.h>
#ifdef SMALL
#define N 64
#else
#define N 1000
#endif
#define TSTEPS 20
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define ARRAY_2D(var, d1, d2) var[d1][d2]
#define _PB_N n
extern void *bench_alloc(unsigned long n, int size);
#endif
)";

const char* kKernel = R"(#include <stdio.h>
#include "stencil.h"

static void init(int n, DATA_TYPE ARRAY_2D(A, N, N), DATA_TYPE ARRAY_2D(B, N, N), DATA_TYPE mean[N])
{
    int i, j;
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_N; j++) {
            A[i][j] = ((DATA_TYPE) i * (j + 2) + 2) / n;
            B[i][j] = ((DATA_TYPE) i * (j + 3) + 3) / n;
        }
    for (j = 0; j < _PB_N; j++)
        mean[j] = j * SCALAR_VAL(0.5);
}

static void center(int n, DATA_TYPE ARRAY_2D(A, N, N), DATA_TYPE mean[N])
{
    int i, j;
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_N; j++)
            A[i][j] -= mean[j];
}

static void jacobi(int tsteps, int n, DATA_TYPE ARRAY_2D(A, N, N), DATA_TYPE ARRAY_2D(B, N, N))
{
    int t, i, j;
    for (t = 0; t < tsteps; t++) {
        for (i = 1; i < _PB_N - 1; i++)
            for (j = 1; j < _PB_N - 1; j++)
                B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
        for (i = 1; i < _PB_N - 1; i++)
            for (j = 1; j < _PB_N - 1; j++)
                A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
    }
}

int main(void)
{
    int n = N;
    DATA_TYPE (*A)[N][N] = (DATA_TYPE (*)[N][N]) bench_alloc(N * N, sizeof(DATA_TYPE));
    DATA_TYPE (*B)[N][N] = (DATA_TYPE (*)[N][N]) bench_alloc(N * N, sizeof(DATA_TYPE));
    DATA_TYPE *mean = (DATA_TYPE *) bench_alloc(N, sizeof(DATA_TYPE));
    init(n, *A, *B, mean);
    center(n, *A, mean);
    jacobi(TSTEPS, n, *A, *B);
    printf("%f\n", (*A)[1][1]);
    return 0;
}
)";

}  // namespace

TEST_CASE("a kernel with its own header: flags, macros, time loops, whole 1-D arrays, C linkage", "[recipes]") {
    Project p;
    p.put("include/stencil.h", kHeader);
    const std::string file = p.put("src/kernel.c", kKernel);
    // bench_alloc is no allocator the analyzer knows, so the arrays may
    // alias: the nests are planned with --assume-no-alias.
    AdviseOptions o;
    o.build.args = {"-I", (p.root / "include").string(), "-DSMALL"};
    o.assume_no_alias = true;
    const AdviseResult a = advise_file(file, o);
    const NestOutcome* centre = outcome(a, 19);
    REQUIRE(centre);
    INFO(centre->why);
    CHECK(centre->verdict == Verdict::Converted);  // mean[j] is read whole
    const NestOutcome* step1 = outcome(a, 28);
    const NestOutcome* step2 = outcome(a, 31);
    REQUIRE(step1);
    REQUIRE(step2);
    INFO(step1->why);
    CHECK(step1->verdict == Verdict::Converted);  // step by step: the time loop stays
    CHECK(step2->verdict == Verdict::Converted);
    CHECK(step1->plan.ranked.front().problem.extents[0] == 64);  // -DSMALL reached the preprocessor

    const std::string& cu = cu_of(a);
    // The user's file, macros and includes intact; the kernels keep the macros too.
    CHECK(cu.find("static void center(int n, DATA_TYPE ARRAY_2D(A, N, N), DATA_TYPE mean[N])") != std::string::npos);
    CHECK(cu.find("A(j, i) -= mean[j];") != std::string::npos);
    CHECK(cu.find("const double* mean") != std::string::npos);
    CHECK(cu.find("recipe::whole(mean, static_cast<std::size_t>(_PB_N))") != std::string::npos);
    CHECK(cu.find("B(j, i) = SCALAR_VAL(0.2) * (A(j, i) + A(j - 1, i)") != std::string::npos);
    CHECK(cu.find("    for (t = 0; t < tsteps; t++) {") != std::string::npos);
    // The header declares C functions defined elsewhere: C linkage.
    CHECK(cu.find("#include <stdlib.h>\nextern \"C\" {\n#include \"stencil.h\"\n}") != std::string::npos);
    // The numbers the plan holds are guarded against other flags.
    CHECK(cu.find("#if defined(N) && (N) != 64") != std::string::npos);
    // The compile command carries the user's flags and finds the file's headers.
    CHECK(a.compile_command.find(" -I " + (p.root / "include").string() + " -DSMALL") != std::string::npos);
    // Whatever defines what the header declares is another file of the
    // user's build: the recipe says to link it (it cannot know which).
    const std::string md = render_recipe(TemplateStore::embedded(), a, o);
    CHECK(md.find("headers of your own (`\"stencil.h\"`)") != std::string::npos);
}

TEST_CASE("index temporaries, index macros in a header, restrict and an OpenMP pragma", "[recipes]") {
    Project p;
    p.put("grid.h", "#define IDX(x, y, n) ((x) + (n) * (y))\n");
    const std::string file = p.put("heat.c", R"(#include <stdlib.h>
#include "grid.h"

static void smooth(int nx, int ny, const double *restrict in, double *restrict out)
{
#pragma omp parallel for
    for (int y = 1; y < ny - 1; y++)
        for (int x = 1; x < nx - 1; x++) {
            int c = IDX(x, y, nx);
            out[c] = 0.25 * (in[IDX(x - 1, y, nx)] + in[IDX(x + 1, y, nx)] + in[c - nx] + in[c + nx]);
        }
}

int main(int argc, char **argv)
{
    int nx = argc > 1 ? atoi(argv[1]) : 2048, ny = nx;
    double *a = calloc((size_t)nx * ny, sizeof *a), *b = calloc((size_t)nx * ny, sizeof *b);
    smooth(nx, ny, a, b);
    free(a);
    free(b);
    return 0;
}
)");
    {
        // Sizes held in variables: the message names the flag to add.
        const AdviseResult r = advise_file(file);
        REQUIRE(r.nests.size() == 1);
        CHECK(r.nests[0].verdict == Verdict::NotPlanned);
        CHECK(r.nests[0].why.find("--assume nx=VALUE") != std::string::npos);
    }
    AdviseOptions o;
    o.assumptions = {{"nx", "4096"}, {"ny", "4096"}};
    const AdviseResult r = advise_file(file, o);
    REQUIRE(r.nests.size() == 1);
    INFO(r.nests[0].why);
    REQUIRE(r.nests[0].verdict == Verdict::Converted);
    const std::string& cu = cu_of(r);
    CHECK(cu.find("out(x, y) = 0.25 * (in(x - 1, y) + in(x + 1, y) + in(x, y - 1) + in(x, y + 1));") != std::string::npos);
    // Every use of the index temporary became coordinates: the kernel does not declare it.
    CHECK(cu.find("int c = IDX(x, y, nx);") == std::string::npos);
    CHECK(cu.find("#pragma omp") == std::string::npos);  // went with the loop
    CHECK(cu.find("cfg.extents = {nx, ny, 1};") != std::string::npos);  // the program's own variables
    CHECK(cu.find("const double *__restrict__ in") != std::string::npos);
    const std::string& recipe = r.files.front().content;
    CHECK(recipe.find("**OpenMP.** `#pragma omp parallel for`") != std::string::npos);
}

TEST_CASE("restrict written by a macro in an array parameter is defined away for C++", "[recipes]") {
    Project p;
    const std::string file = p.put("r.c", R"(#define RESTRICT restrict
#define N 512
void scale(double A[RESTRICT N][N], double B[RESTRICT N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 2.0 * A[i][j];
}
int main(void) { static double a[N][N], b[N][N]; scale(a, b); return 0; }
)");
    const AdviseResult r = advise_file(file);
    REQUIRE(r.wrote_cu);
    const std::string& cu = cu_of(r);
    CHECK(cu.find("#define restrict  // C99 `restrict` written by a macro: C++ has none\n") != std::string::npos);
}

TEST_CASE("a variable-length array parameter handed on whole keeps every nest of the file on the CPU", "[recipes]") {
    Project p;
    const std::string file = p.put("vla.c", R"(#include <stdlib.h>
void keep(float *row);
void blur(int ni, int nj, float A[ni][nj], float B[restrict ni][nj])
{
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++)
            B[i][j] = (A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]) * 0.25f;
}
void mark(int ni, int nj, float B[ni][nj])
{
    keep(B[1]);
}
int main(void)
{
    int ni = 2000, nj = 3000;
    float *A = malloc(sizeof(float) * ni * nj), *B = malloc(sizeof(float) * ni * nj);
    blur(ni, nj, (float (*)[nj])A, (float (*)[nj])B);
    mark(ni, nj, (float (*)[nj])B);
    free(A);
    free(B);
    return 0;
}
)");
    AdviseOptions o;
    o.assumptions = {{"ni", "2000"}, {"nj", "3000"}};
    const AdviseResult r = advise_file(file, o);
    REQUIRE(r.nests.size() == 1);
    CHECK(r.nests[0].verdict == Verdict::NotConverted);
    CHECK(r.nests[0].why.find("the file's parameter `B` is a variable-length array that C++ cannot express") != std::string::npos);
    CHECK_FALSE(r.wrote_cu);
}

TEST_CASE("a variable-length array parameter used outside the converted loops is indexed through its pointer", "[recipes]") {
    Project p;
    const std::string file = p.put("vla2.c", R"(#include <stdlib.h>
void scale(int ni, int nj, double A[ni][nj], double B[ni][nj])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            B[i][j] = 2.0 * A[i][j];
    B[0][nj - 1] = A[ni - 1][0];
}
int main(void)
{
    int ni = 1000, nj = 1000;
    double (*A)[nj] = malloc(sizeof(double) * ni * nj), (*B)[nj] = malloc(sizeof(double) * ni * nj);
    scale(ni, nj, A, B);
    return 0;
}
)");
    AdviseOptions o;
    o.assumptions = {{"ni", "1000"}, {"nj", "1000"}};
    const AdviseResult r = advise_file(file, o);
    REQUIRE(r.nests.size() == 1);
    INFO(r.nests[0].why);
    CHECK(r.nests[0].verdict == Verdict::Converted);
    const std::string& cu = cu_of(r);
    CHECK(cu.find("void scale(int ni, int nj, double *A, double *B)") != std::string::npos);
    CHECK(cu.find("B[((0) * (nj) + (nj - 1))] = A[((ni - 1) * (nj) + (0))];") != std::string::npos);
}

TEST_CASE("a flat index past what its int holds is warned about, naming the access", "[recipes]") {
    Project p;
    const std::string file = p.put("big.c", R"(#define W 70000
#define H 40000
void f(const float *restrict in, float *restrict out)
{
    int x, y;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            out[y * W + x] = 2.0f * in[y * W + x];
}
void g(const float *restrict in, float *restrict out)
{
    for (long y = 0; y < H; y++)
        for (long x = 0; x < W; x++)
            out[y * W + x] = 2.0f * in[y * W + x];
}
)");
    const AdviseResult r = advise_file(file);
    int warnings = 0;
    for (const auto& d : r.diagnostics) warnings += d.find("[index-overflow]") != std::string::npos;
    CHECK(warnings == 2);  // in and out of f; g's indices are long
    CHECK(std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const std::string& d) {
        return d.find("big.c:8:37: warning: 'in[y * W + x]' computes its index in `int`, but `in` has 2.8e+09 elements") != std::string::npos;
    }));
}

TEST_CASE("a 30,000-deep expression beside a converted nest does not overflow the generator's stack", "[recipes]") {
    Project p;
    std::string deep = "int g(int x) { return " + std::string(30000, '(') + "x" + std::string(30000, ')') + "; }\n";
    const std::string file = p.put("deep.c", "#include <stdlib.h>\n"
                                             "void f(float *restrict a, float *restrict b) { for (int i = 0; i < 1000000; i++) b[i] = 2.0f * a[i]; }\n" +
                                                 deep + "int main(void) { float *a = malloc(4000000), *b = malloc(4000000); f(a, b); return g(1); }\n");
    const AdviseResult r = advise_file(file);
    REQUIRE_FALSE(r.nests.empty());
    CHECK(r.nests[0].verdict == Verdict::Converted);
    CHECK(r.wrote_cu);
}
