// host_cpu.h — what one thread of the user's C program sustains on this
// host (docs/model.md, "The program's run"): streaming bandwidth for arrays
// far larger than the caches, and the arithmetic rate of a stencil loop on
// data in the second-level cache. The C loop's predicted time is the
// larger of its bytes over the first and its flops over the second.
// Measured by recipe-profile into a platform profile, and by `recipe
// advise|predict|sweep --measure-host` on the machine they run on (no GPU
// needed): hosts of one GPU kind differ (two H100 hosts streamed at 19.5
// and 7.8 GB/s on one thread).
#pragma once

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace recipe::advisor {

struct HostCpu {
    double stream_gbs = 0;  // bytes read + written per ns, one thread: a[i] = b[i] + s * c[i] over 768 MiB
    // The same loop over smaller working sets (bytes of the three arrays),
    // repeated: a time loop's arrays may stay in the caches between steps.
    std::vector<double> stream_bytes, stream_ns;  // ns of one pass
    // One thread, a 2-D five-point stencil in the second-level cache, as gcc
    // -O2 compiles it (sizes known): on doubles through two pointers that may
    // overlap (not vectorised: a C loop the compiler leaves scalar), and
    // through restrict pointers, vectorised two doubles and four floats wide
    // (a C loop its compiler reports vectorised, analyzer/vectorization.h).
    double gflops = 0;
    double gflops_vector2 = 0;
    double gflops_vector4 = 0;
    double first_touch_gbs = 0;  // one thread writing freshly malloc'd memory (its pages faulted in), a[i] = i
    double math_call_ns = 0;     // one C math library call (sinf, cosf, expf, logf, sin, exp, in turn), one thread
    double convert_ns = 0;       // one conversion of a 64-bit integer to float in a loop, one thread (analyzer/conversions.h)
    // One pass of a chained sum, s += b[i] over the stream's working sets of
    // doubles (stream_bytes), ns: a reduction's pace (OpCounts::serial_adds).
    std::vector<double> chain_ns;
    // One element loaded into a vector lane by itself, one thread: the
    // stencil on floats with its contiguous neighbours clamped (`j > 0 ? j -
    // 1 : 0`, as emboss and hotspot write them; gcc -O2 vectorises the loop
    // and loads those two elements lane by lane), less the same stencil
    // unclamped, per point, over its two clamped reads.
    double lane_load_ns = 0;
};

namespace detail {

inline double seconds_of(const std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Keeps the compiler from dropping the loops whose results are not used.
inline void keep(const double* p) { asm volatile("" : : "r"(p) : "memory"); }

// A 2-D five-point stencil on 180 x 180 doubles, compiled as `gcc -O2`
// compiles a C loop whose trip count is a compile-time constant (sizes from
// #define, as in PolyBench and most kernels). Through pointers that may
// overlap gcc -O2 leaves it scalar (it would need a run-time overlap check,
// which -O2's cost model does not allow); through restrict pointers it
// vectorises it, two doubles wide, and on 182 x 182 floats (180 points a
// row: no remainder loop) four floats wide. Their flops per second are what
// such C loops sustain on one thread.
constexpr std::size_t kStencilN = 180;
constexpr std::size_t kStencilFloatN = 182;

// C math library calls as a C loop makes them (gcc -O2, no -ffast-math: one
// libm call each); six functions in turn over 4096 arguments.
__attribute__((noinline, optimize("O2"))) inline double math_calls(const float* x, double* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        y[i] = static_cast<double>(sinf(v) + cosf(v) + expf(v) + logf(v + 2.0f)) + std::sin(static_cast<double>(v)) +
               std::exp(static_cast<double>(v));
    }
    keep(y);
    return y[n / 2];
}
// Two conversions of 64-bit integers to float per element, as a C loop
// over a `long` index makes them (gcc -O2: scalar, cvtsi2ss from a 64-bit
// register; no vector form below AVX-512).
__attribute__((noinline, optimize("O2"))) inline void int64_to_float(float* f, long n, long k) {
    for (long i = 0; i < n; ++i) f[i] = static_cast<float>(i + k) + static_cast<float>(i ^ k);
    asm volatile("" : : "r"(f) : "memory");
}
// A sum as a C loop writes it, `s += x[i]`: gcc -O2 may not reorder
// floating adds (no -ffast-math), so each waits for the one before. In the
// caches the loop runs at the add's latency; from main memory slower still,
// the chain limiting how many loads are in flight (on a 2-core Xeon build
// host 0.55 ns an element over 16 KiB and 1.05 over 256 MiB of doubles,
// where the triad streamed 13 GB/s).
__attribute__((noinline, optimize("O2"))) inline double chained_sum(const double* x, std::size_t n, double s) {
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return s;
}
__attribute__((noinline, optimize("O2"))) inline void stencil_2d(const double* a, double* b, double s) {
    constexpr std::size_t n = kStencilN;
    for (std::size_t i = 1; i < n - 1; ++i)
        for (std::size_t j = 1; j < n - 1; ++j)
            b[i * n + j] = s * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + a[(i + 1) * n + j] + a[(i - 1) * n + j]);
    keep(b);
}
// The same stencil over every point, its neighbours clamped to the array
// as a C loop over a whole image writes them, with int indices as emboss's
// and hotspot's (with size_t ones gcc's code ran 5.8 GFLOP/s where int's
// ran 4.1-4.4, on a 2-core Xeon build host).
template <typename T, std::size_t n>
__attribute__((noinline, optimize("O2"))) inline void stencil_2d_clamped(const T* __restrict__ a, T* __restrict__ b, T s) {
    constexpr int m = static_cast<int>(n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            const int jm = j > 0 ? j - 1 : 0, jp = j < m - 1 ? j + 1 : m - 1;
            const int im = i > 0 ? i - 1 : 0, ip = i < m - 1 ? i + 1 : m - 1;
            b[i * m + j] = s * (a[i * m + j] + a[i * m + jm] + a[i * m + jp] + a[ip * m + j] + a[im * m + j]);
        }
    asm volatile("" : : "r"(b) : "memory");
}
template <typename T, std::size_t n>
__attribute__((noinline, optimize("O2"))) inline void stencil_2d_restrict(const T* __restrict__ a, T* __restrict__ b, T s) {
    for (std::size_t i = 1; i < n - 1; ++i)
        for (std::size_t j = 1; j < n - 1; ++j)
            b[i * n + j] = s * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + a[(i + 1) * n + j] + a[(i - 1) * n + j]);
    asm volatile("" : : "r"(b) : "memory");
}

// One pass of the triad a[i] = b[i] + s * c[i] over three arrays of n
// doubles, the best of `passes`, in s; and of a chained sum over the same
// bytes (the three arrays in turn), the best of `chain_passes`, in
// *chain_s.
inline double triad_seconds(std::size_t n, int passes, int chain_passes, double* chain_s) {
    std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
    double best = 1e30;
    for (int pass = 0; pass < passes; ++pass) {
        const double s = 1.0 + pass * 1e-9;
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
        keep(a.data());
        best = std::min(best, seconds_of(t0));
    }
    double chain = 1e30, sum = 0;
    for (int pass = 0; pass < chain_passes; ++pass) {
        const auto t0 = std::chrono::steady_clock::now();
        for (const auto* v : {&a, &b, &c}) sum = chained_sum(v->data(), n, sum);
        chain = std::min(chain, seconds_of(t0));
    }
    keep(&sum);
    *chain_s = chain;
    return best;
}

// The stencil's two arrays sit in one block, the second 2 KiB + 64 B past a
// page boundary from the first, so that the layout is the same in every
// process (at one page offset a load of a[k - 1] can wait on the store to
// b[k - 1]: 4K aliasing). What that layout is worth was measured later on a
// 2-core build host (bench/device/stencil_windows.cpp layout, 200
// alternating windows of each, three runs): 2-7% (medians 3.04-5.73 against
// 3.10-6.00 GFLOP/s; in one run the whole host read ~3).
enum class StencilForm { Scalar, Restrict, Clamped };

template <typename T, std::size_t n, StencilForm form>
class StencilArrays {
public:
    StencilArrays() {
        constexpr std::size_t kPage = 4096, kSkew = 2048 + 64;
        const std::size_t a_bytes = (n * n * sizeof(T) + kPage - 1) / kPage * kPage;
        block_.assign((a_bytes + kSkew + n * n * sizeof(T) + kPage) / sizeof(T), T(0));
        // The first page boundary in the block: a starts there.
        const auto base = reinterpret_cast<std::uintptr_t>(block_.data());
        a_ = reinterpret_cast<T*>((base + kPage - 1) / kPage * kPage);
        b_ = reinterpret_cast<T*>(reinterpret_cast<char*>(a_) + a_bytes + kSkew);
        std::fill(a_, a_ + n * n, T(1));
    }
    // GFLOP/s of `reps` sweeps, timed together.
    double gflops(int reps) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; ++r) {
            const T s = static_cast<T>(0.2 + r * 1e-7);
            if constexpr (form == StencilForm::Restrict) stencil_2d_restrict<T, n>(a_, b_, s);
            else if constexpr (form == StencilForm::Clamped) stencil_2d_clamped<T, n>(a_, b_, s);
            else stencil_2d(a_, b_, s);
        }
        const std::size_t points = form == StencilForm::Clamped ? n * n : (n - 2) * (n - 2);
        return 5.0 * static_cast<double>(points) * reps / seconds_of(t0) / 1e9;
    }

private:
    std::vector<T> block_;
    T* a_ = nullptr;
    T* b_ = nullptr;
};
using ScalarStencil = StencilArrays<double, kStencilN, StencilForm::Scalar>;

// The stencil's rate in GFLOP/s: `reps` sweeps, the best of `passes`.
inline double stencil_gflops(int reps, int passes) {
    ScalarStencil arrays;
    double best = 0;
    for (int pass = 0; pass < passes; ++pass) best = std::max(best, arrays.gflops(reps));
    return best;
}

// The arithmetic rates, sampled in short windows spread over the whole
// measurement, the best of each kept. On shared hosts one thread's rate
// flips between its own and 0.55-0.6 of it, in 5 ms windows, and stays low
// for up to a second at a time (another tenant's work on the core,
// presumably): on one H100 host, twelve `--measure-host` runs (six
// samples' advise in each of two end-to-end runs),
// each taking the best of 7 passes in two bursts under a second apart, read
// 2.8-5.5 GFLOP/s and 3.9-7.5 ns a math call, while diffuse1d's C nests
// (its initialisation and its time loop's two), timed between them, ran in
// 1183 and 1222 ms in two runs: 1939 and 1203 ms predicted from 3.2 and
// 5.4 GFLOP/s, the fast reading's right. Windows a few ms long, spread over
// seconds, catch the core's own rate; a host slowed as a whole for longer
// than the span still reads low (an H200 host: 2.95-4.17 GFLOP/s in 10 of
// 28 windowed runs, 5.3-6.0 in the others).
class ArithmeticWindows {
public:
    ArithmeticWindows() : x_(kMathN), y_(kMathN), f_(kMathN) {
        for (std::size_t i = 0; i < kMathN; ++i) x_[i] = static_cast<float>(i % 97) * 0.01f;
    }
    // One window of each: ~5 ms of stencil sweeps, ~2 ms of math calls.
    void sample() {
        gflops_ = std::max(gflops_, stencil_.gflops(kStencilReps));
        gflops_vector2_ = std::max(gflops_vector2_, vector2_.gflops(kStencilReps));
        gflops_vector4_ = std::max(gflops_vector4_, vector4_.gflops(kStencilReps));
        gflops_clamped_ = std::max(gflops_clamped_, clamped_.gflops(kStencilReps));
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < kMathReps; ++r) math_calls(x_.data(), y_.data(), kMathN);
        math_call_ns_ = std::min(math_call_ns_, seconds_of(t0) * 1e9 / (6.0 * static_cast<double>(kMathN) * kMathReps));
        const auto t1 = std::chrono::steady_clock::now();
        for (int r = 0; r < kConvertReps; ++r) int64_to_float(f_.data(), static_cast<long>(kMathN), r);
        convert_ns_ = std::min(convert_ns_, seconds_of(t1) * 1e9 / (2.0 * static_cast<double>(kMathN) * kConvertReps));
        ++windows_;
    }
    double gflops() const { return gflops_; }
    double gflops_vector2() const { return gflops_vector2_; }
    double gflops_vector4() const { return gflops_vector4_; }
    double math_call_ns() const { return math_call_ns_; }
    double convert_ns() const { return convert_ns_; }
    // A lane loaded by itself: the clamped stencil's time a point beyond
    // the unclamped one's (both on floats, vectorised), over its two clamped
    // reads.
    double lane_load_ns() const {
        if (gflops_clamped_ <= 0 || gflops_vector4_ <= 0) return 0;
        return std::max(0.0, 5.0 / gflops_clamped_ - 5.0 / gflops_vector4_) / 2;
    }
    int windows() const { return windows_; }

private:
    static constexpr std::size_t kMathN = 4096;
    static constexpr int kStencilReps = 150;  // 32 us a sweep at 5 GFLOP/s
    static constexpr int kMathReps = 15;      // 0.1 ms each at 4 ns a call
    static constexpr int kConvertReps = 100;  // 6 us each at 0.75 ns a conversion
    ScalarStencil stencil_;
    StencilArrays<double, kStencilN, StencilForm::Restrict> vector2_;
    StencilArrays<float, kStencilFloatN, StencilForm::Restrict> vector4_;
    StencilArrays<float, kStencilFloatN, StencilForm::Clamped> clamped_;
    std::vector<float> x_;
    std::vector<double> y_;
    std::vector<float> f_;
    double gflops_ = 0, gflops_vector2_ = 0, gflops_vector4_ = 0, gflops_clamped_ = 0, math_call_ns_ = 1e30, convert_ns_ = 1e30;
    int windows_ = 0;
};

}  // namespace detail

// `quick` (recipe-profile --quick): the main-memory stream, the first
// touches and the arithmetic windows' span shortened.
inline HostCpu measure_host_cpu(bool quick) {
    const auto t0 = std::chrono::steady_clock::now();
    HostCpu h;
    detail::ArithmeticWindows windows;
    windows.sample();
    for (std::size_t bytes : {std::size_t(3) << 20, std::size_t(12) << 20, std::size_t(48) << 20, std::size_t(192) << 20,
                              std::size_t(768) << 20}) {
        if (quick && bytes > (std::size_t(192) << 20)) break;
        const std::size_t n = bytes / 3 / sizeof(double);
        double chain_s = 0;
        const bool small = bytes < (std::size_t(100) << 20);
        const double s = detail::triad_seconds(n, small ? 20 : 5, small ? 5 : 1, &chain_s);
        h.stream_bytes.push_back(static_cast<double>(3 * n * sizeof(double)));
        h.stream_ns.push_back(s * 1e9);
        h.chain_ns.push_back(chain_s * 1e9);
        h.stream_gbs = h.stream_bytes.back() / s / 1e9;  // the largest: main memory
        windows.sample();
    }
    {
        const std::size_t n = std::size_t(quick ? 8 : 32) << 20;  // 256 MiB of doubles, fresh each pass
        double best = 1e30;
        for (int pass = 0; pass < 3; ++pass) {
            double* a = static_cast<double*>(std::malloc(n * sizeof(double)));
            if (!a) break;
            const auto t1 = std::chrono::steady_clock::now();
            for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<double>(i);
            detail::keep(a);
            best = std::min(best, detail::seconds_of(t1));
            std::free(a);
            windows.sample();
        }
        h.first_touch_gbs = static_cast<double>(n) * sizeof(double) / best / 1e9;
    }
    // Windows until the measurement has spanned the time a slow phase lasts.
    const double span_s = quick ? 0.6 : 2.0;
    while (detail::seconds_of(t0) < span_s || windows.windows() < 20) windows.sample();
    h.gflops = windows.gflops();
    h.gflops_vector2 = windows.gflops_vector2();
    h.gflops_vector4 = windows.gflops_vector4();
    h.math_call_ns = windows.math_call_ns();
    h.convert_ns = windows.convert_ns();
    h.lane_load_ns = windows.lane_load_ns();
    return h;
}

}  // namespace recipe::advisor
