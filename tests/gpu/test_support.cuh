// test_support.cuh — what the device tests share: host arrays in each host
// memory mode, poisoning, exact comparison with a CPU reference, and a tiny
// check/report harness (no GPU test framework is available on the device).
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include <recipe/recipe.cuh>

namespace test {

inline int g_failures = 0;
inline int g_checks = 0;

#define TEST_CHECK(cond, ...)                                                   \
    do {                                                                        \
        ++test::g_checks;                                                       \
        if (!(cond)) {                                                          \
            ++test::g_failures;                                                 \
            std::fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, __VA_ARGS__);                                  \
            std::fprintf(stderr, "\n");                                         \
        }                                                                       \
    } while (0)

inline int finish(const char* name) {
    std::printf("%s: %d checks, %d failures\n", name, g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}

inline bool quick() {
    const char* q = std::getenv("RECIPE_TEST_QUICK");
    return q && *q && std::string(q) != "0";
}

// A host array allocated the way a HostMemory mode expects: pinned for
// Pinned, malloc'd (pageable) for the others.
template <class T>
class HostArray {
public:
    HostArray(std::int64_t n, recipe::HostMemory mode) : n_(n), pinned_(mode == recipe::HostMemory::Pinned) {
        const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
        if (pinned_) {
            if (cudaMallocHost(&p_, bytes) != cudaSuccess) {
                std::fprintf(stderr, "cudaMallocHost failed\n");
                std::exit(2);
            }
        } else {
            p_ = static_cast<T*>(std::malloc(bytes));
            if (!p_) std::exit(2);
        }
    }
    HostArray(const HostArray&) = delete;
    HostArray& operator=(const HostArray&) = delete;
    ~HostArray() {
        if (pinned_)
            cudaFreeHost(p_);
        else
            std::free(p_);
    }
    T* data() { return p_; }
    T& operator[](std::int64_t i) { return p_[i]; }
    std::int64_t size() const { return n_; }

private:
    T* p_ = nullptr;
    std::int64_t n_;
    bool pinned_;
};

// Small integers: every sum the tests make stays exact in float.
template <class T>
void fill(T* p, std::int64_t n, unsigned seed) {
    unsigned s = seed * 2654435761u + 1;
    for (std::int64_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        p[i] = static_cast<T>((s >> 16) % 16);
    }
}

// A byte pattern no computed value has.
template <class T>
void poison(T* p, std::int64_t n) {
    std::memset(static_cast<void*>(p), 0xA5, static_cast<std::size_t>(n) * sizeof(T));
}

// Exact, element by element; reports the first few differences with coordinates.
template <class T>
bool same(const T* got, const T* want, const recipe::Index3& ext, const std::string& what) {
    const std::int64_t n = ext[0] * ext[1] * ext[2];
    int shown = 0;
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < n; ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
            ++bad;
            if (shown++ < 3)
                std::fprintf(stderr, "  %s: element (%lld,%lld,%lld): got %g, want %g\n", what.c_str(),
                             static_cast<long long>(i % ext[0]), static_cast<long long>(i / ext[0] % ext[1]),
                             static_cast<long long>(i / (ext[0] * ext[1])), static_cast<double>(got[i]),
                             static_cast<double>(want[i]));
        }
    if (bad) std::fprintf(stderr, "  %s: %lld of %lld elements differ\n", what.c_str(), static_cast<long long>(bad),
                          static_cast<long long>(n));
    return bad == 0;
}

template <class T>
const char* type_name();
template <>
inline const char* type_name<float>() { return "float"; }
template <>
inline const char* type_name<double>() { return "double"; }
template <>
inline const char* type_name<int>() { return "int"; }

inline std::string describe(const recipe::Config& c) {
    return std::string(recipe::to_string(c.scheme)) + "/" + recipe::to_string(c.copy) + "/" +
           recipe::to_string(c.host) + "/s" + std::to_string(c.streams) + " extents " +
           std::to_string(c.extents[0]) + "x" + std::to_string(c.extents[1]) + "x" + std::to_string(c.extents[2]) +
           " tile " + std::to_string(c.tile[0]) + "x" + std::to_string(c.tile[1]) + "x" + std::to_string(c.tile[2]);
}

// Runs f with stderr sent to a file and returns what it wrote.
template <class F>
inline std::string captured_stderr(F&& f) {
    std::fflush(stderr);
    char path[] = "/tmp/recipe_report_XXXXXX";
    const int fd = mkstemp(path);
    const int saved = dup(2);
    dup2(fd, 2);
    f();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string text;
    if (FILE* in = std::fopen(path, "r")) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) text.append(buf, n);
        std::fclose(in);
    }
    close(fd);
    unlink(path);
    return text;
}

inline std::int64_t clampi(std::int64_t v, std::int64_t lo, std::int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Every scheme of the table (recipe/scheme.h): a new row is run by these tests as it is.
constexpr std::array<recipe::Scheme, recipe::kSchemeCount> kSchemes = [] {
    std::array<recipe::Scheme, recipe::kSchemeCount> all{};
    for (std::size_t i = 0; i < recipe::kSchemeCount; ++i) all[i] = recipe::kSchemes[i].scheme;
    return all;
}();
constexpr recipe::CopyMethod kCopies[] = {recipe::CopyMethod::RowByRow, recipe::CopyMethod::Merged,
                                          recipe::CopyMethod::Strided};
constexpr recipe::HostMemory kHosts[] = {recipe::HostMemory::Pinned, recipe::HostMemory::Register,
                                         recipe::HostMemory::Staged, recipe::HostMemory::Pageable};

}  // namespace test
