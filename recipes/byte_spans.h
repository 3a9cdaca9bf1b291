// byte_spans.h — spans of a file's bytes (the loops a .cu replaces), kept
// sorted and merged so that "does this byte lie in one?" is a binary search:
// a file of thousands of converted nests asks it of every identifier.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace recipe::recipes {

class ByteSpans {
public:
    using Span = std::pair<std::uint32_t, std::uint32_t>;  // [begin, end)

    explicit ByteSpans(std::vector<Span> spans) {
        std::sort(spans.begin(), spans.end());
        for (const Span& s : spans) {
            if (s.first >= s.second) continue;
            if (!spans_.empty() && s.first <= spans_.back().second) spans_.back().second = std::max(spans_.back().second, s.second);
            else spans_.push_back(s);
        }
    }

    bool contains(std::uint32_t at) const {
        const auto after = std::upper_bound(spans_.begin(), spans_.end(), at,
                                            [](std::uint32_t a, const Span& s) { return a < s.first; });
        return after != spans_.begin() && at < std::prev(after)->second;
    }

private:
    std::vector<Span> spans_;
};

}  // namespace recipe::recipes
