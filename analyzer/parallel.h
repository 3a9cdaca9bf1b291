// parallel.h — runs the parts of a large file's analysis side by side: one
// thread per part, the first on the calling thread. The analyzer never has
// more than a few parts (two on a two-core machine), so there is no pool.
#pragma once

#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace recipe::analyzer {

// Calls f(0) … f(n-1), each on a thread of its own (f(0) on the calling
// thread), and returns once all are done; the first exception thrown by
// any of them is rethrown then. Where no thread can be had, the parts run
// one after the other.
template <typename F>
void run_in_parallel(std::size_t n, F&& f) {
    if (n == 0) return;
    std::vector<std::exception_ptr> failures(n);
    std::vector<std::thread> workers;
    std::vector<std::size_t> inline_parts;
    for (std::size_t i = 1; i < n; ++i) {
        try {
            workers.emplace_back([&f, &failures, i] {
                try {
                    f(i);
                } catch (...) {
                    failures[i] = std::current_exception();
                }
            });
        } catch (const std::system_error&) {
            inline_parts.push_back(i);
        }
    }
    try {
        f(0);
    } catch (...) {
        failures[0] = std::current_exception();
    }
    for (std::size_t i : inline_parts) {
        try {
            f(i);
        } catch (...) {
            failures[i] = std::current_exception();
        }
    }
    for (auto& w : workers) w.join();
    for (auto& e : failures)
        if (e) std::rethrow_exception(e);
}

}  // namespace recipe::analyzer
