#include "advisor/explain.h"

#include <cstdio>
#include <sstream>

namespace recipe::advisor {

std::string format_ms(double ms) {
    char buf[64];
    if (ms >= 1000) std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
    else if (ms >= 1) std::snprintf(buf, sizeof buf, "%.3f ms", ms);
    else std::snprintf(buf, sizeof buf, "%.1f us", ms * 1000);
    return buf;
}

std::string format_bytes(std::int64_t bytes) {
    char buf[64];
    const double b = static_cast<double>(bytes);
    if (b >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
    else if (b >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", b / 1e6);
    else if (b >= 1e3) std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
    else std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
    return buf;
}

namespace {

void phase(std::ostringstream& os, const char* name, double ms) {
    if (ms <= 0) return;
    char buf[96];
    std::snprintf(buf, sizeof buf, "  %-18s %12s\n", name, format_ms(ms).c_str());
    os << buf;
}

}  // namespace

std::string explain(const Prediction& p, const Prediction* naive) {
    std::ostringstream os;
    const int dims = p.problem.dims;
    char buf[256];
    os << "scheme " << to_string(p.config.scheme) << ", tile " << format_tile(p.config.tile, dims) << " (" << p.tiles
       << " tile" << (p.tiles == 1 ? "" : "s") << "), copy " << recipe::to_string(p.config.copy) << ", "
       << p.config.streams << " stream" << (p.config.streams == 1 ? "" : "s") << ", block "
       << format_tile(p.config.block, 3);
    std::snprintf(buf, sizeof buf, " (occupancy %.0f%%)\n", p.occupancy * 100);
    os << buf;
    os << "host arrays: " << to_string(p.host_strategy) << "\n";
    os << "predicted total: " << format_ms(p.total_ms);
    if (naive && naive->total_ms > 0 && naive->config.scheme != p.config.scheme) {
        std::snprintf(buf, sizeof buf, " (naive %s: %.2fx)", format_ms(naive->total_ms).c_str(),
                      naive->total_ms / p.total_ms);
        os << buf;
    }
    os << "\n";
    os << "phases (busy time, summed over all tiles; the pipeline overlaps them):\n";
    phase(os, "alloc+free", p.phases.alloc + p.phases.free);
    phase(os, "cudaHostRegister", p.phases.host_register);
    phase(os, "cudaHostUnregister", p.phases.host_unregister);
    phase(os, "host packing", p.phases.staging);
    phase(os, "copies in (H2D)", p.phases.h2d);
    phase(os, "kernel", p.phases.kernel);
    phase(os, "copies out (D2H)", p.phases.d2h);
    phase(os, "pipeline", p.phases.pipeline);
    os << "dominant operation: " << to_string(p.dominant);
    if (p.startup_steps > 0) os << " (" << p.startup_steps << " start-up and " << p.startup_steps << " shutdown steps)";
    os << "\n";
    os << "in:  " << p.h2d.copies << " copies, " << format_bytes(p.h2d.bytes) << "\n";
    os << "out: " << p.d2h.copies << " copies, " << format_bytes(p.d2h.bytes) << "\n";
    os << "device memory " << format_bytes(p.device_bytes) << ", pinned host buffers " << format_bytes(p.host_bytes)
       << "\n";
    os << "per tile (typical): ";
    std::snprintf(buf, sizeof buf, "in %s, kernel %s, out %s", format_ms(p.typical_tile.transfer_in).c_str(),
                  format_ms(p.typical_tile.kernel).c_str(), format_ms(p.typical_tile.transfer_out).c_str());
    os << buf;
    if (p.typical_tile.buffer_in + p.typical_tile.buffer_out > 0)
        os << ", packing " << format_ms(p.typical_tile.buffer_in) << " / " << format_ms(p.typical_tile.buffer_out);
    os << "\n";
    for (const auto& n : p.notes) os << "note: " << n << "\n";
    return os.str();
}

}  // namespace recipe::advisor
