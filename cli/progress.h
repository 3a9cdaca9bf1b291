// progress.h — shows how far a slow `recipe advise` has come. Nothing is
// printed during the first second (most files take less); after it, a line
// on stderr per second — or one line rewritten in place on a terminal —
// says which stage runs and how many nests it has done.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace recipe::cli {

class Progress {
public:
    // `terminal`: the stream is a terminal, so the line is rewritten in place.
    Progress(std::ostream& err, bool terminal) : err_(err), terminal_(terminal), start_(Clock::now()) {}
    ~Progress() { finish(); }

    void operator()(const char* stage, std::size_t done, std::size_t total) {
        const auto now = Clock::now();
        if (now - start_ < std::chrono::seconds(1)) return;
        if (shown_ && now - last_ < (terminal_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(1000))) return;
        last_ = now;
        const double s = std::chrono::duration<double>(now - start_).count();
        const std::string line = "recipe: " + std::string(stage) + " " + std::to_string(done) + " of " + std::to_string(total) +
                                 " nests (" + std::to_string(static_cast<long>(s)) + " s)";
        if (terminal_) err_ << "\r" << line << "\x1b[K" << std::flush;
        else err_ << line << "\n";
        shown_ = true;
    }
    // Clears a line left on a terminal.
    void finish() {
        if (shown_ && terminal_) err_ << "\r\x1b[K" << std::flush;
        shown_ = false;
    }

private:
    using Clock = std::chrono::steady_clock;
    std::ostream& err_;
    bool terminal_;
    Clock::time_point start_, last_;
    bool shown_ = false;
};

}  // namespace recipe::cli
