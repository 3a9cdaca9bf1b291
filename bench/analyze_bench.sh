#!/usr/bin/env bash
# Times `recipe analyze` on a generated 100,000-line C file full of loop nests:
# accepted stencils written in many styles, rejected nests (in-place updates,
# reductions, gathers, calls, four-deep nests, variable strides), time loops
# and plain code. For the text report and for --json, reports the median
# wall time, the median CPU time and the peak resident memory over the runs
# against the targets (3 s on a two-core machine; 256 MB, where one thread
# measured 200 MB, nearly all of it the syntax tree at some 60 bytes per
# byte of source), with the load average before each series (a busy
# machine makes the wall time say little).
#
#   bench/analyze_bench.sh [RECIPE-BINARY] [-- EXTRA-ANALYZE-ARGS...]
#
# RECIPE-BINARY defaults to build/recipe. EXTRA-ANALYZE-ARGS are passed on
# every run (`-- --json` alone times only the JSON). Environment: RUNS (5),
# LINES (100000), OUTPUTS ("text json": which outputs to time), KEEP=1 keeps
# the generated file, TIME_BIN (/usr/bin/time, GNU time; installed when
# missing). Exit status 1 when a target is missed or the analyzer fails
# (exit 2 or 3), 0 otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
recipe=${1:-$root/build/recipe}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
runs=${RUNS:-5}
lines=${LINES:-100000}
target_seconds=3
target_mb=256

if [ ! -x "$recipe" ]; then
  echo "analyze_bench: no recipe binary at $recipe (build it, or pass its path)" >&2
  exit 2
fi
time_bin=${TIME_BIN:-/usr/bin/time}
if [ ! -x "$time_bin" ]; then
  echo "analyze_bench: installing time"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends time >/dev/null
fi

work=$(mktemp -d)
if [ "${KEEP:-0}" = 1 ]; then echo "analyze_bench: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi
input=$work/generated.c

# Templates, separated by %% lines. @K@ becomes the block number, which keeps
# every name and #define unique; @S@ a size that varies from block to block.
cat > "$work/templates" <<'EOF'
/* moving average over a window of 2*R_@K@+1 samples */
#define N_@K@ (1 << 20)
#define R_@K@ 3
void smooth_@K@(const float *in, float *out)
{
    int i, d;
    for (i = R_@K@; i < N_@K@ - R_@K@; i++) {
        float s = 0.0f;
        for (d = -R_@K@; d <= R_@K@; d++)
            s += in[i + d];
        out[i] = s / (2 * R_@K@ + 1);
    }
}
%%
/* emboss with clamped borders on a flat image */
void emboss_@K@(const float *in, float *out, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int xm = x > 0 ? x - 1 : 0, xp = x < w - 1 ? x + 1 : w - 1;
            int ym = y > 0 ? y - 1 : 0, yp = y < h - 1 ? y + 1 : h - 1;
            out[y * w + x] = 0.5f + (in[y * w + xp] + in[yp * w + x] + in[yp * w + xp]
                                     - in[y * w + xm] - in[ym * w + x] - in[ym * w + xm]) / 6.0f;
        }
}
%%
/* 7-point Jacobi sweep through an index macro */
enum { NX_@K@ = @S@, NY_@K@ = 96, NZ_@K@ = 64 };
#define IDX_@K@(x, y, z) ((x) + NX_@K@ * ((y) + NY_@K@ * (z)))
static void jacobi_@K@(const float *a, float *b)
{
    for (int z = 1; z < NZ_@K@ - 1; z++)
        for (int y = 1; y < NY_@K@ - 1; y++)
            for (int x = 1; x < NX_@K@ - 1; x++)
                b[IDX_@K@(x, y, z)] = (a[IDX_@K@(x, y, z)] + a[IDX_@K@(x - 1, y, z)]
                    + a[IDX_@K@(x + 1, y, z)] + a[IDX_@K@(x, y - 1, z)] + a[IDX_@K@(x, y + 1, z)]
                    + a[IDX_@K@(x, y, z - 1)] + a[IDX_@K@(x, y, z + 1)]) / 7.0f;
}
%%
/* relaxation on fixed-size two-dimensional arrays */
static double grid_@K@[@S@][@S@], next_@K@[@S@][@S@];
void relax_@K@(void)
{
    int i, j;
    for (i = 1; i <= @S@ - 2; i++)
        for (j = 1; j <= @S@ - 2; j++)
            next_@K@[i][j] = 0.25 * (grid_@K@[i - 1][j] + grid_@K@[i + 1][j]
                                   + grid_@K@[i][j - 1] + grid_@K@[i][j + 1]);
}
%%
/* diffusion through pointer arithmetic and an index temporary */
void diffuse_@K@(const float *u, float *v, int nx, int ny, float k)
{
    for (int ix = 1; ix < nx - 1; ix++)
        for (int iy = 1; iy < ny - 1; iy++) {
            int c = ix * ny + iy;
            *(v + c) = *(u + c) + k * (*(u + c - 1) + *(u + c + 1) + *(u + c - ny)
                                       + *(u + c + ny) - 4.0f * *(u + c));
        }
}
%%
/* heat steps with clamped neighbours and a pointer swap */
float *heat_@K@(float *t, float *t2, const float *p, int rows, int cols, int steps)
{
    int s = 0;
    while (s < steps) {
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                int n = MAX(r - 1, 0), so = MIN(r + 1, rows - 1);
                int w = MAX(c - 1, 0), e = MIN(c + 1, cols - 1);
                t2[r * cols + c] = t[r * cols + c] + 0.1f * (p[r * cols + c] + t[n * cols + c]
                    + t[so * cols + c] + t[r * cols + w] + t[r * cols + e] - 4.0f * t[r * cols + c]);
            }
        float *tmp = t; t = t2; t2 = tmp;
        s++;
    }
    return t;
}
%%
/* in-place smoothing: each update sees its left neighbour's new value */
void sor_@K@(float *a, int n, int sweeps)
{
    for (int t = 0; t < sweeps; t++)
        for (int i = 1; i < n - 1; i++)
            a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
}
%%
/* dot product: a reduction over the whole array */
double dot_@K@(const double *a, const double *b, int n)
{
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += a[i] * b[i];
    return total;
}
%%
/* gather through an index array */
void gather_@K@(const float *in, const int *idx, float *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = in[idx[i]];
}
%%
/* a loop that prints as it goes */
void dump_@K@(const float *v, float *w, int n)
{
    for (int i = 1; i < n - 1; i++) {
        w[i] = v[i - 1] + v[i + 1];
        printf("%d %f\n", i, w[i]);
    }
}
%%
/* box blur on an image held as separately allocated rows */
void blur_@K@(float **src, float **dst, int w, int h)
{
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++)
            dst[y][x] = (src[y - 1][x] + src[y + 1][x] + src[y][x - 1] + src[y][x + 1]
                         + src[y][x]) * 0.2f;
}
%%
/* zip and unzip */
void saxpy_@K@(float a, const float *x, float *y, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}
void split_@K@(const float *z, float *mag, float *phase, int n)
{
    for (int i = 0; i < n; i++) {
        mag[i] = z[i] * z[i];
        phase[i] = z[i] < 0.0f ? -1.0f : 1.0f;
    }
}
%%
/* plain code without loops */
struct point_@K@ { int x, y; float weight; };
static int classify_@K@(const struct point_@K@ *p)
{
    switch (p->x & 3) {
    case 0: return p->y > 0 ? 1 : 2;
    case 1: return (int)(p->weight * 10.0f);
    default: break;
    }
    if (p->x < p->y && p->weight > 0.5f)
        return -1;
    return 0;
}
%%
/* four nested loops */
void batch_@K@(const float *in, float *out, int b, int d, int h, int w)
{
    for (int n = 0; n < b; n++)
        for (int z = 0; z < d; z++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    out[((n * d + z) * h + y) * w + x] = 2.0f * in[((n * d + z) * h + y) * w + x];
}
%%
/* two mirrored nests in a do-while loop */
void pingpong_@K@(float *u, float *v, int n, int iters)
{
    int it = 0;
    do {
        for (int i = 1; i < n - 1; i++)
            v[i] = 0.5f * u[i] + 0.25f * (u[i - 1] + u[i + 1]);
        for (int i = 1; i < n - 1; i++)
            u[i] = 0.5f * v[i] + 0.25f * (v[i - 1] + v[i + 1]);
        it += 2;
    } while (it < iters);
}
%%
/* a stride that is only known at run time */
void decimate_@K@(const float *in, float *out, int n, int step)
{
    for (int i = 0; i < n; i += step)
        out[i] = in[i] * 0.5f;
}
EOF

awk -v lines="$lines" '
  BEGIN { t = 0 }
  /^%%$/ { t++; next }
  { tpl[t] = tpl[t] $0 "\n"; len[t]++ }
  END {
    ntpl = t + 1
    prelude = "/* generated by bench/analyze_bench.sh */\n#include <stdio.h>\n#include <stdlib.h>\n" \
              "#define MIN(a, b) ((a) < (b) ? (a) : (b))\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n\n"
    tail = "int main(void)\n{\n    return 0;\n}\n"
    printf "%s", prelude; count = 6
    for (k = 0; ; k++) {
      i = k % ntpl
      if (count + len[i] + 1 + 4 > lines) break
      block = tpl[i]
      gsub(/@K@/, k, block)
      gsub(/@S@/, 128 + (k % 7) * 32, block)
      printf "%s\n", block; count += len[i] + 1
    }
    while (count + 4 < lines) { print "/* padding */"; count++ }
    printf "%s", tail
  }' "$work/templates" > "$input"

echo "analyze_bench: $(wc -l < "$input") lines, $(wc -c < "$input") bytes, $(grep -c '^[a-z].*_[0-9]*(.*)$' "$input") functions"
extra=("$@")
outputs=${OUTPUTS:-text json}
for a in "${extra[@]}"; do [ "$a" = --json ] && outputs=json; done

median_of() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ok=1
report=()
for output in $outputs; do
  args=("${extra[@]}")
  if [ "$output" = json ]; then
    has_json=0
    for a in "${args[@]}"; do [ "$a" = --json ] && has_json=1; done
    [ "$has_json" = 1 ] || args+=(--json)
  fi
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "analyze_bench: $recipe analyze <file>${args[*]:+ ${args[*]}} ($runs runs, load average $load)"
  times=()
  cpus=()
  peak_kb=0
  for ((r = 1; r <= runs; r++)); do
    set +e
    "$time_bin" -f '%e %U %S %M' -o "$work/time" "$recipe" analyze "$input" "${args[@]}" > "$work/out" 2> "$work/err"
    status=$?
    set -e
    if [ "$status" -ge 2 ]; then
      echo "analyze_bench: recipe analyze failed (exit $status):" >&2
      tail -n 5 "$work/err" >&2
      exit 1
    fi
    read -r seconds user sys kb < <(tail -n 1 "$work/time")
    times+=("$seconds")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')")
    [ "$kb" -gt "$peak_kb" ] && peak_kb=$kb
    echo "  run $r: ${seconds} s wall, ${cpus[-1]} s CPU, $((kb / 1024)) MB, exit $status"
  done
  if [ "$output" = json ]; then
    echo "analyze_bench: last run printed $(wc -c < "$work/out") bytes of JSON ($(grep -c '"accepted":' "$work/out" || true) nests)"
  else
    summary=$(grep -c -E 'accepted|rejected' "$work/out" || true)
    echo "analyze_bench: last run printed $(wc -l < "$work/out") lines ($summary mention accepted/rejected)"
  fi
  median=$(median_of "${times[@]}")
  median_cpu=$(median_of "${cpus[@]}")
  peak_mb=$(awk -v kb="$peak_kb" 'BEGIN { printf "%.1f", kb / 1024 }')
  verdict_t="ok"; awk -v m="$median" -v t="$target_seconds" 'BEGIN { exit !(m < t) }' || { verdict_t="OVER TARGET"; ok=0; }
  verdict_m="ok"; awk -v m="$peak_mb" -v t="$target_mb" 'BEGIN { exit !(m < t) }' || { verdict_m="OVER TARGET"; ok=0; }
  report+=("$output (load average $load before the runs):")
  report+=("  median wall time: ${median} s   (target < ${target_seconds} s: $verdict_t)")
  report+=("  median CPU time:  ${median_cpu} s   (user + system; wall time above it means the machine was busy)")
  report+=("  peak RSS:         ${peak_mb} MB   (target < ${target_mb} MB: $verdict_m)")
done
printf '%s\n' "${report[@]}"
[ "$ok" = 1 ]
