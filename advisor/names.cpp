// Names of the advisor's enums and the tile syntax, as the CLI and the
// JSON spell them.
#include <algorithm>
#include <cctype>
#include <sstream>

#include "advisor/plan.h"

namespace recipe::advisor {

bool parse_copy_method(const std::string& text, CopyMethod* method) {
    for (CopyMethod m : {CopyMethod::RowByRow, CopyMethod::Merged, CopyMethod::Strided})
        if (text == recipe::to_string(m)) {
            *method = m;
            return true;
        }
    return false;
}

const char* to_string(HostMemory m) { return m == HostMemory::Pinned ? "pinned" : "pageable"; }

const char* to_string(KernelSource k) {
    switch (k) {
        case KernelSource::Measured: return "measured";
        case KernelSource::UserGiven: return "given";
        case KernelSource::Estimate: return "estimate";
    }
    return "?";
}

const char* to_string(Operation o) {
    switch (o) {
        case Operation::TransferIn: return "transfer-in";
        case Operation::Kernel: return "kernel";
        case Operation::TransferOut: return "transfer-out";
        case Operation::Staging: return "staging";
        case Operation::Setup: return "setup";
    }
    return "?";
}

bool parse_tile(const std::string& text, int dims, Index3* tile, std::string* error) {
    auto fail = [&](const std::string& m) {
        if (error) *error = m;
        return false;
    };
    std::vector<std::int64_t> sizes;
    std::size_t i = 0;
    while (true) {
        std::size_t j = i;
        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
        if (j == i || j - i > 12) return fail("tile '" + text + "': expected sizes like 400x400x25");
        sizes.push_back(std::stoll(text.substr(i, j - i)));
        if (j == text.size()) break;
        if (text[j] != 'x' && text[j] != 'X') return fail("tile '" + text + "': expected sizes like 400x400x25");
        i = j + 1;
    }
    if (static_cast<int>(sizes.size()) != dims)
        return fail("tile '" + text + "' has " + std::to_string(sizes.size()) + " size" +
                    (sizes.size() == 1 ? "" : "s") + " but the nest is " + std::to_string(dims) + "-dimensional");
    *tile = {1, 1, 1};
    for (std::size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] < 1) return fail("tile '" + text + "': sizes must be at least 1");
        (*tile)[d] = sizes[d];
    }
    return true;
}

std::string format_tile(const Index3& tile, int dims) {
    std::ostringstream os;
    for (int d = 0; d < std::max(1, std::min(3, dims)); ++d) os << (d ? "x" : "") << tile[d];
    return os.str();
}

}  // namespace recipe::advisor
