// Loading and validating platform profiles (schema: docs/model.md).
#include "advisor/platform.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "advisor/interpolation.h"

namespace recipe::advisor {

namespace {

using nlohmann::json;

// Reads one profile, remembering the first error with the field's path.
class Reader {
public:
    Reader(const json& root, std::string origin) : root_(root), origin_(std::move(origin)) {}

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }

    bool fail(const std::string& field, const std::string& message) {
        if (error_.empty()) error_ = origin_ + ": " + field + ": " + message;
        return false;
    }

    const json* member(const json& obj, const std::string& key, const std::string& path, bool required) {
        const auto it = obj.find(key);
        if (it == obj.end()) {
            if (required) fail(path, "missing");
            return nullptr;
        }
        return &*it;
    }

    bool number(const json& obj, const std::string& key, const std::string& path, bool required, double* out,
                double min_value = 0) {
        const json* v = member(obj, key, path, required);
        if (!v) return !required;
        if (!v->is_number()) return fail(path, "must be a number");
        const double d = v->get<double>();
        if (!std::isfinite(d)) return fail(path, "must be finite");
        if (d < min_value) {
            std::ostringstream os;
            os << (min_value == 0 ? "must not be negative" : "must be at least ") ;
            if (min_value != 0) os << min_value;
            os << " (got " << d << ")";
            return fail(path, os.str());
        }
        *out = d;
        return true;
    }

    bool integer(const json& obj, const std::string& key, const std::string& path, bool required, std::int64_t* out,
                 std::int64_t min_value) {
        const json* v = member(obj, key, path, required);
        if (!v) return !required;
        if (!v->is_number_integer()) return fail(path, "must be an integer");
        const std::int64_t i = v->get<std::int64_t>();
        if (i < min_value) return fail(path, "must be at least " + std::to_string(min_value) + " (got " + std::to_string(i) + ")");
        *out = i;
        return true;
    }

    bool integer(const json& obj, const std::string& key, const std::string& path, bool required, int* out,
                 int min_value) {
        std::int64_t v = *out;
        if (!integer(obj, key, path, required, &v, min_value)) return false;
        *out = static_cast<int>(v);
        return true;
    }

    // A list of non-negative numbers.
    bool numbers(const json& v, const std::string& path, std::vector<double>* out) {
        if (!v.is_array()) return fail(path, "must be an array of numbers");
        out->clear();
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string at = path + "[" + std::to_string(i) + "]";
            if (!v[i].is_number()) return fail(at, "must be a number");
            const double d = v[i].get<double>();
            if (!std::isfinite(d)) return fail(at, "must be finite");
            if (d < 0) return fail(at, "must not be negative (got " + format(d) + ")");
            out->push_back(d);
        }
        return true;
    }

    // thesis §5.2 "measurements": ns at 10, 100, ... bytes, or
    // {"bytes": [...], "ns": [...]} at explicit sizes.
    bool measurements(const std::string& key, bool required, Measurements* m) {
        const json* v = member(root_, key, key, required);
        if (!v) return !required;
        return measurements_of(*v, key, m);
    }

    // {"2": {"bytes": [...], "ns": [...]}, "3": {...}}: one table per stream count.
    bool stream_tables(const std::string& key, StreamTables* t) {
        const json* v = member(root_, key, key, false);
        if (!v) return true;
        if (!v->is_object() || v->empty())
            return fail(key, "must be an object of tables by stream count, {\"2\": {\"bytes\": [...], \"ns\": [...]}, ...}");
        std::vector<std::pair<int, Measurements>> read;
        for (const auto& [k, table] : v->items()) {
            int streams = 0;
            try {
                std::size_t used = 0;
                streams = std::stoi(k, &used);
                if (used != k.size()) streams = 0;
            } catch (const std::exception&) {
                streams = 0;
            }
            if (streams < 1 || streams > 64) return fail(key + "." + k, "a key must be a stream count from 1 to 64");
            Measurements m;
            if (!table.is_object()) return fail(key + "." + k, "must be {\"bytes\": [...], \"ns\": [...]}");
            if (!measurements_of(table, key + "." + k, &m)) return false;
            read.emplace_back(streams, std::move(m));
        }
        std::sort(read.begin(), read.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [streams, m] : read) {
            t->streams.push_back(streams);
            t->tables.push_back(std::move(m));
        }
        return true;
    }

    bool measurements_of(const json& node, const std::string& key, Measurements* m) {
        const json* v = &node;
        if (v->is_array()) {
            if (!numbers(*v, key, &m->ns)) return false;
            if (m->ns.size() < 2 || m->ns.size() > 9)
                return fail(key, "needs 2 to 9 values (10 bytes to 1 GB), got " + std::to_string(m->ns.size()));
            m->bytes.clear();
            double b = 10;
            for (std::size_t i = 0; i < m->ns.size(); ++i, b *= 10) m->bytes.push_back(b);
        } else if (v->is_object()) {
            for (const auto& [k, _] : v->items())
                if (k != "bytes" && k != "ns") return fail(key + "." + k, "unknown field (expected bytes, ns)");
            const json* b = member(*v, "bytes", key + ".bytes", true);
            const json* n = member(*v, "ns", key + ".ns", true);
            if (!b || !n) return false;
            if (!numbers(*b, key + ".bytes", &m->bytes) || !numbers(*n, key + ".ns", &m->ns)) return false;
            if (m->bytes.size() != m->ns.size())
                return fail(key, "bytes has " + std::to_string(m->bytes.size()) + " values but ns has " +
                                     std::to_string(m->ns.size()));
            if (m->ns.size() < 2) return fail(key, "needs at least 2 points");
            for (std::size_t i = 0; i < m->bytes.size(); ++i) {
                if (m->bytes[i] <= 0) return fail(key + ".bytes[" + std::to_string(i) + "]", "must be positive");
                if (m->bytes[i] > 1.1e9) return fail(key + ".bytes[" + std::to_string(i) + "]", "sizes go up to 1 GB");
                if (i > 0 && m->bytes[i] <= m->bytes[i - 1])
                    return fail(key + ".bytes[" + std::to_string(i) + "]", "sizes must ascend");
            }
        } else {
            return fail(key, "must be an array of ns at 10, 100, ... bytes or {\"bytes\": [...], \"ns\": [...]}");
        }
        choose_interpolation(m);
        return true;
    }

    static std::string format(double d) {
        std::ostringstream os;
        os << d;
        return os.str();
    }

private:
    const json& root_;
    std::string origin_;
    std::string error_;
};

const std::set<std::string>& known_fields() {
    static const std::set<std::string> fields = {
        "name", "description", "source", "copyEngines", "pinnedHostToPinnedHost", "pinnedHostToDevice",
        "deviceToPinnedHost", "mallocFreeHost", "mallocFreeDevice", "duplexFactor", "implicitSynchronization",
        "pageableHostToDevice", "deviceToPageableHost", "hostRegister", "hostUnregister",
        "pageableHostToPinnedHost", "stridedCopy", "kernelLaunchNs", "deviceBandwidthGBs", "peakGflops", "smCount",
        "deviceMemoryBytes", "l2CacheBytes", "occupancy", "logGP", "kernels", "viewKernels", "hostCopyParallelSpeedup", "asyncCallNs",
        "runSetupNs", "streamSetupNs", "regionRunNs", "hostCopyRowNs", "librarySetup", "stagingSetup", "stagingTile", "stagingTileStreams", "regionChunkIn", "regionChunkOut", "regionPassIn", "regionPassOut", "stagingThreads",
        "stagingRowNs", "pipelineTile", "cudaStartupNs", "cudaTeardownNs", "cudaReleaseNs", "cudaExitAfterReleaseNs", "firstCall", "firstRun", "hostStreamGBs", "hostStream", "hostGflops", "hostGflopsVector2", "hostGflopsVector4", "hostFirstTouchGBs", "hostMathCallNs", "hostConvertNs", "hostChainedSum", "hostLaneLoadNs", "multiGpu"};
    return fields;
}

// seed 003 §5.4.1: L + o is the time of the smallest copy, G the slope of the
// large copies.
LogGP derive_loggp(const Measurements& m) {
    LogGP p;
    p.latency_ns = m.ns.front();
    const std::size_t n = m.ns.size();
    p.ns_per_byte = std::max(0.0, (m.ns[n - 1] - m.ns[n - 2]) / (m.bytes[n - 1] - m.bytes[n - 2]));
    p.gap_ns = 0.27 * p.latency_ns;  // seed 003 Table 5.1: g / (L + o) = 2.5 / 9.4
    return p;
}

bool read_loggp(Reader& r, const nlohmann::json& obj, const std::string& path, LogGP* p) {
    for (const auto& [k, _] : obj.items())
        if (k != "latencyNs" && k != "gapNs" && k != "nsPerByte") return r.fail(path + "." + k, "unknown field");
    return r.number(obj, "latencyNs", path + ".latencyNs", true, &p->latency_ns) &&
           r.number(obj, "gapNs", path + ".gapNs", true, &p->gap_ns) &&
           r.number(obj, "nsPerByte", path + ".nsPerByte", true, &p->ns_per_byte);
}

bool read_occupancy(Reader& r, const nlohmann::json& root, OccupancyLimits* o) {
    const nlohmann::json* v = r.member(root, "occupancy", "occupancy", true);
    if (!v) return false;
    if (!v->is_object()) return r.fail("occupancy", "must be an object");
    static const std::set<std::string> keys = {"warpSize", "maxThreadsPerBlock", "maxBlockDim", "maxThreadsPerSm",
                                               "maxBlocksPerSm", "registersPerSm", "maxRegistersPerThread",
                                               "sharedMemoryPerSm", "sharedMemoryPerBlock"};
    for (const auto& [k, _] : v->items())
        if (!keys.count(k)) return r.fail("occupancy." + k, "unknown field");
    if (!r.integer(*v, "warpSize", "occupancy.warpSize", true, &o->warp_size, 1) ||
        !r.integer(*v, "maxThreadsPerBlock", "occupancy.maxThreadsPerBlock", true, &o->max_threads_per_block, 1) ||
        !r.integer(*v, "maxThreadsPerSm", "occupancy.maxThreadsPerSm", true, &o->max_threads_per_sm, 1) ||
        !r.integer(*v, "maxBlocksPerSm", "occupancy.maxBlocksPerSm", true, &o->max_blocks_per_sm, 1) ||
        !r.integer(*v, "registersPerSm", "occupancy.registersPerSm", true, &o->registers_per_sm, 1) ||
        !r.integer(*v, "maxRegistersPerThread", "occupancy.maxRegistersPerThread", true, &o->max_registers_per_thread, 1) ||
        !r.integer(*v, "sharedMemoryPerSm", "occupancy.sharedMemoryPerSm", true, &o->shared_memory_per_sm, 0) ||
        !r.integer(*v, "sharedMemoryPerBlock", "occupancy.sharedMemoryPerBlock", true, &o->shared_memory_per_block, 0))
        return false;
    const nlohmann::json* dims = r.member(*v, "maxBlockDim", "occupancy.maxBlockDim", true);
    if (!dims) return false;
    if (!dims->is_array() || dims->size() != 3) return r.fail("occupancy.maxBlockDim", "must be [x, y, z]");
    int* out[3] = {&o->max_block_dim_x, &o->max_block_dim_y, &o->max_block_dim_z};
    for (int d = 0; d < 3; ++d) {
        const auto& e = (*dims)[static_cast<std::size_t>(d)];
        if (!e.is_number_integer() || e.get<int>() < 1)
            return r.fail("occupancy.maxBlockDim[" + std::to_string(d) + "]", "must be a positive integer");
        *out[d] = e.get<int>();
    }
    if (o->max_threads_per_block > o->max_threads_per_sm)
        return r.fail("occupancy.maxThreadsPerBlock", "exceeds maxThreadsPerSm");
    return true;
}

// "multiGpu": several GPUs at once (MultiGpu). Every list has one entry per
// GPU count, 1 to gpus; bandwidths are positive, times not negative. Sizes
// need not ascend (measurements are not monotonic).
bool read_multi_gpu(Reader& r, const nlohmann::json& root, MultiGpu* m) {
    const nlohmann::json* v = r.member(root, "multiGpu", "multiGpu", false);
    if (!v) return true;
    if (!v->is_object())
        return r.fail("multiGpu", "must be {gpus, h2dGBs, d2hGBs, stagingGBs, contextStartMs, ncclInitMs, exchangeUs, exchangeGBs}");
    static const std::set<std::string> keys = {"gpus",        "h2dGBs",        "d2hGBs",       "stagingGBs",
                                               "contextStartMs", "ncclInitMs", "exchangeUs",   "exchangeGBs",
                                               "exchangeBytes", "exchangeNs",  "measured",     "freshGBs",
                                               "exitMs",        "ncclExitMs"};
    for (const auto& [k, _] : v->items())
        if (!keys.count(k)) return r.fail("multiGpu." + k, "unknown field");
    MultiGpu out;
    if (!r.integer(*v, "gpus", "multiGpu.gpus", true, &out.gpus, 1)) return false;
    if (out.gpus > 64) return r.fail("multiGpu.gpus", "must be at most 64 (got " + std::to_string(out.gpus) + ")");
    auto list = [&](const char* key, bool positive, std::vector<double>* into) {
        const std::string path = std::string("multiGpu.") + key;
        const nlohmann::json* a = r.member(*v, key, path, true);
        if (!a || !r.numbers(*a, path, into)) return false;
        if (into->size() != static_cast<std::size_t>(out.gpus))
            return r.fail(path, "needs one value per GPU count, 1 to gpus (" + std::to_string(out.gpus) + "), got " +
                                    std::to_string(into->size()));
        for (std::size_t i = 0; i < into->size(); ++i)
            if (positive && (*into)[i] <= 0) return r.fail(path + "[" + std::to_string(i) + "]", "must be positive");
        return true;
    };
    if (!list("h2dGBs", true, &out.h2d_gbs) || !list("d2hGBs", true, &out.d2h_gbs) ||
        !list("stagingGBs", true, &out.staging_gbs) || !list("contextStartMs", false, &out.context_start_ms) ||
        !list("ncclInitMs", false, &out.nccl_init_ms) ||
        !r.number(*v, "exchangeUs", "multiGpu.exchangeUs", true, &out.exchange_us) ||
        !r.number(*v, "exchangeGBs", "multiGpu.exchangeGBs", true, &out.exchange_gbs))
        return false;
    if (out.exchange_gbs <= 0) return r.fail("multiGpu.exchangeGBs", "must be positive");
    if (r.member(*v, "freshGBs", "multiGpu.freshGBs", false) && !list("freshGBs", true, &out.fresh_gbs)) return false;
    const bool exits = r.member(*v, "exitMs", "multiGpu.exitMs", false) != nullptr;
    if (exits != (r.member(*v, "ncclExitMs", "multiGpu.ncclExitMs", false) != nullptr))
        return r.fail(exits ? "multiGpu.ncclExitMs" : "multiGpu.exitMs", "missing: the exits timed need both");
    if (exits && (!list("exitMs", false, &out.exit_ms) || !list("ncclExitMs", false, &out.nccl_exit_ms))) return false;
    const nlohmann::json* xb = r.member(*v, "exchangeBytes", "multiGpu.exchangeBytes", false);
    const nlohmann::json* xn = r.member(*v, "exchangeNs", "multiGpu.exchangeNs", false);
    if (xb || xn) {
        if (!xb || !xn) return r.fail(xb ? "multiGpu.exchangeNs" : "multiGpu.exchangeBytes", "missing: the exchanges timed need both");
        if (!r.numbers(*xb, "multiGpu.exchangeBytes", &out.exchange_bytes) || !r.numbers(*xn, "multiGpu.exchangeNs", &out.exchange_ns))
            return false;
        if (out.exchange_bytes.size() != out.exchange_ns.size())
            return r.fail("multiGpu.exchangeNs", "has " + std::to_string(out.exchange_ns.size()) + " values but exchangeBytes has " +
                                                     std::to_string(out.exchange_bytes.size()));
        for (std::size_t i = 0; i < out.exchange_bytes.size(); ++i)
            if (out.exchange_bytes[i] <= 0 || (i > 0 && out.exchange_bytes[i] <= out.exchange_bytes[i - 1]))
                return r.fail("multiGpu.exchangeBytes[" + std::to_string(i) + "]", "sizes must be positive and ascend");
    }
    if (const nlohmann::json* s = r.member(*v, "measured", "multiGpu.measured", false)) {
        if (!s->is_string()) return r.fail("multiGpu.measured", "must be a string");
        out.measured = s->get<std::string>();
    }
    *m = std::move(out);
    return true;
}

}  // namespace

nlohmann::json to_json(const MultiGpu& m) {
    nlohmann::json j = {{"gpus", m.gpus},
                        {"h2dGBs", m.h2d_gbs},
                        {"d2hGBs", m.d2h_gbs},
                        {"stagingGBs", m.staging_gbs},
                        {"contextStartMs", m.context_start_ms},
                        {"ncclInitMs", m.nccl_init_ms},
                        {"exchangeUs", m.exchange_us},
                        {"exchangeGBs", m.exchange_gbs}};
    if (!m.fresh_gbs.empty()) j["freshGBs"] = m.fresh_gbs;
    if (!m.exit_ms.empty()) {
        j["exitMs"] = m.exit_ms;
        j["ncclExitMs"] = m.nccl_exit_ms;
    }
    if (!m.exchange_bytes.empty()) {
        j["exchangeBytes"] = m.exchange_bytes;
        j["exchangeNs"] = m.exchange_ns;
    }
    if (!m.measured.empty()) j["measured"] = m.measured;
    return j;
}

std::string to_string(const KernelShape& s) {
    auto list = [&](const std::array<std::int64_t, 3>& a) {
        std::string out;
        for (int d = 0; d < s.dims; ++d) out += (d ? " " : "") + std::to_string(a[static_cast<std::size_t>(d)]);
        return out;
    };
    return std::to_string(s.dims) + "-D, " + std::to_string(s.inputs) + (s.inputs == 1 ? " input" : " inputs") + " of " +
           std::to_string(s.element_bytes) + "-byte elements with reach " + list(s.halo_low) + " | " + list(s.halo_high) +
           ", " + std::to_string(s.outputs) + (s.outputs == 1 ? " output" : " outputs");
}

namespace {

// A kernel table's "shape": the work it times (KernelShape).
bool read_kernel_shape(Reader& r, const nlohmann::json& sh, const std::string& sp, KernelShape* shape) {
    if (!sh.is_object()) return r.fail(sp, "must be {dims, elementBytes, inputs, outputs, haloLow, haloHigh}");
    auto positive = [&](const char* key, int* out) {
        const nlohmann::json* v = r.member(sh, key, sp + "." + key, true);
        if (!v) return false;
        if (!v->is_number_integer() || v->get<long long>() < 1 || v->get<long long>() > 64)
            return r.fail(sp + "." + key, "must be a whole number from 1 to 64");
        *out = v->get<int>();
        return true;
    };
    auto reach = [&](const char* key, std::array<std::int64_t, 3>* out) {
        const nlohmann::json* v = r.member(sh, key, sp + "." + key, true);
        if (!v) return false;
        if (!v->is_array() || v->size() != 3) return r.fail(sp + "." + key, "must be three whole numbers, x first");
        for (std::size_t d = 0; d < 3; ++d) {
            if (!(*v)[d].is_number_integer() || (*v)[d].get<long long>() < 0)
                return r.fail(sp + "." + key + "[" + std::to_string(d) + "]", "must be a whole number, at least 0");
            (*out)[d] = (*v)[d].get<std::int64_t>();
        }
        return true;
    };
    if (!positive("dims", &shape->dims) || !positive("elementBytes", &shape->element_bytes) ||
        !positive("inputs", &shape->inputs) || !positive("outputs", &shape->outputs) ||
        !reach("haloLow", &shape->halo_low) || !reach("haloHigh", &shape->halo_high))
        return false;
    if (shape->dims > 3) return r.fail(sp + ".dims", "must be 1, 2 or 3");
    for (const auto& [k, _] : sh.items())
        if (k != "dims" && k != "elementBytes" && k != "inputs" && k != "outputs" && k != "haloLow" && k != "haloHigh")
            return r.fail(sp + "." + k, "unknown field (expected dims, elementBytes, inputs, outputs, haloLow, haloHigh)");
    return true;
}

bool read_kernels(Reader& r, const nlohmann::json& root, std::map<std::string, KernelTable>* kernels) {
    const nlohmann::json* v = r.member(root, "kernels", "kernels", false);
    if (!v) return true;
    if (!v->is_object()) return r.fail("kernels", "must be an object of name -> {elements, ns}");
    for (const auto& [name, table] : v->items()) {
        const std::string path = "kernels." + name;
        if (!table.is_object()) return r.fail(path, "must be {\"elements\": [...], \"ns\": [...]}");
        for (const auto& [k, _] : table.items())
            if (k != "elements" && k != "ns" && k != "shape")
                return r.fail(path + "." + k, "unknown field (expected elements, ns, shape)");
        KernelTable t;
        t.name = name;
        if (const nlohmann::json* sh = r.member(table, "shape", path + ".shape", false))
            if (!read_kernel_shape(r, *sh, path + ".shape", &t.shape)) return false;
        const nlohmann::json* e = r.member(table, "elements", path + ".elements", true);
        const nlohmann::json* n = r.member(table, "ns", path + ".ns", true);
        if (!e || !n) return false;
        if (!r.numbers(*e, path + ".elements", &t.elements) || !r.numbers(*n, path + ".ns", &t.ns)) return false;
        if (t.elements.size() != t.ns.size())
            return r.fail(path, "elements has " + std::to_string(t.elements.size()) + " values but ns has " +
                                    std::to_string(t.ns.size()));
        if (t.elements.empty()) return r.fail(path, "needs at least one point");
        for (std::size_t i = 0; i < t.elements.size(); ++i) {
            if (t.elements[i] <= 0) return r.fail(path + ".elements[" + std::to_string(i) + "]", "must be positive");
            if (i > 0 && t.elements[i] <= t.elements[i - 1])
                return r.fail(path + ".elements[" + std::to_string(i) + "]", "sizes must ascend");
        }
        const double loo_lin = leave_one_out_error(t.elements, t.ns, Interpolation::Linear);
        const double loo_log = leave_one_out_error(t.elements, t.ns, Interpolation::LogLog);
        t.interpolation = loo_log < loo_lin ? Interpolation::LogLog : Interpolation::Linear;
        (*kernels)[name] = std::move(t);
    }
    return true;
}

// "viewKernels": [{"name", "dims", "reads", "arrays", "points", "ns"[, "elementBytes"]}, ...]
// (elementBytes: 4 when not given, as older profiles timed floats only).
bool read_view_kernels(Reader& r, const nlohmann::json& root, std::vector<ViewKernelTime>* out) {
    const nlohmann::json* v = r.member(root, "viewKernels", "viewKernels", false);
    if (!v) return true;
    if (!v->is_array()) return r.fail("viewKernels", "must be an array of {name, dims, reads, arrays, points, ns}");
    for (std::size_t i = 0; i < v->size(); ++i) {
        const std::string path = "viewKernels[" + std::to_string(i) + "]";
        const nlohmann::json& k = (*v)[i];
        if (!k.is_object()) return r.fail(path, "must be an object {name, dims, reads, arrays, points, ns}");
        for (const auto& [key, _] : k.items())
            if (key != "name" && key != "dims" && key != "reads" && key != "arrays" && key != "points" && key != "ns" &&
                key != "elementBytes")
                return r.fail(path + "." + key, "unknown field (expected name, dims, reads, arrays, points, ns, elementBytes)");
        ViewKernelTime t;
        const nlohmann::json* name = r.member(k, "name", path + ".name", true);
        if (!name) return false;
        if (!name->is_string()) return r.fail(path + ".name", "must be a string");
        t.name = name->get<std::string>();
        if (!r.integer(k, "dims", path + ".dims", true, &t.dims, 1) ||
            !r.integer(k, "reads", path + ".reads", true, &t.reads, 1) ||
            !r.integer(k, "arrays", path + ".arrays", true, &t.arrays, 1) ||
            !r.number(k, "points", path + ".points", true, &t.points) || !r.number(k, "ns", path + ".ns", true, &t.ns) ||
            !r.integer(k, "elementBytes", path + ".elementBytes", false, &t.element_bytes, 1))
            return false;
        if (t.dims > 3) return r.fail(path + ".dims", "must be 1, 2 or 3");
        if (t.points <= 0) return r.fail(path + ".points", "must be positive");
        if (t.ns <= 0) return r.fail(path + ".ns", "must be positive");
        out->push_back(std::move(t));
    }
    return true;
}

bool read_name(Reader& r, const nlohmann::json& root, Platform* p) {
    const nlohmann::json* name = r.member(root, "name", "name", true);
    if (!name) return false;
    if (!name->is_string() || name->get<std::string>().empty()) return r.fail("name", "must be a non-empty string");
    p->name = name->get<std::string>();
    if (const nlohmann::json* d = r.member(root, "description", "description", false)) {
        if (!d->is_string()) return r.fail("description", "must be a string");
        p->description = d->get<std::string>();
    }
    return true;
}

// The measured tables and numbers, one field after the other, then the
// defaults of the optional ones.
bool read_measurements(Reader& r, const nlohmann::json& root, Platform* p) {
    if (!r.integer(root, "copyEngines", "copyEngines", true, &p->copy_engines, 1) ||
        !r.measurements("pinnedHostToPinnedHost", true, &p->pinned_host_to_pinned_host) ||
        !r.measurements("pinnedHostToDevice", true, &p->pinned_host_to_device) ||
        !r.measurements("deviceToPinnedHost", true, &p->device_to_pinned_host) ||
        !r.measurements("mallocFreeHost", true, &p->malloc_free_host) ||
        !r.measurements("mallocFreeDevice", true, &p->malloc_free_device) ||
        !r.number(root, "duplexFactor", "duplexFactor", true, &p->duplex_factor) ||
        !r.measurements("pageableHostToDevice", true, &p->pageable_host_to_device) ||
        !r.measurements("deviceToPageableHost", true, &p->device_to_pageable_host) ||
        !r.measurements("hostRegister", true, &p->host_register) ||
        !r.measurements("hostUnregister", true, &p->host_unregister) ||
        !r.measurements("pageableHostToPinnedHost", false, &p->pageable_to_pinned_host) ||
        !r.number(root, "kernelLaunchNs", "kernelLaunchNs", true, &p->kernel_launch_ns) ||
        !r.number(root, "hostCopyParallelSpeedup", "hostCopyParallelSpeedup", false, &p->host_copy_parallel_speedup, 1) ||
        !r.number(root, "asyncCallNs", "asyncCallNs", false, &p->async_call_ns) ||
        !r.number(root, "runSetupNs", "runSetupNs", false, &p->run_setup_ns) ||
        !r.number(root, "streamSetupNs", "streamSetupNs", false, &p->stream_setup_ns) ||
        !r.number(root, "hostCopyRowNs", "hostCopyRowNs", false, &p->host_copy_row_ns) ||
        !r.measurements("librarySetup", false, &p->library_setup) ||
        !r.measurements("stagingSetup", false, &p->staging_setup) ||
        !r.measurements("stagingTile", false, &p->staging_tile) ||
        !r.stream_tables("stagingTileStreams", &p->staging_tile_streams) ||
        !r.stream_tables("regionChunkIn", &p->region_chunk_in) || !r.stream_tables("regionChunkOut", &p->region_chunk_out) ||
        !r.stream_tables("regionPassIn", &p->region_pass_in) || !r.stream_tables("regionPassOut", &p->region_pass_out) ||
        !r.integer(root, "stagingThreads", "stagingThreads", false, &p->staging_threads, 1) ||
        !r.measurements("pipelineTile", false, &p->pipeline_tile) ||
        !r.number(root, "stagingRowNs", "stagingRowNs", false, &p->staging_row_ns) ||
        !r.number(root, "regionRunNs", "regionRunNs", false, &p->region_run_ns) ||
        !r.number(root, "cudaStartupNs", "cudaStartupNs", false, &p->cuda_startup_ns) ||
        !r.number(root, "cudaTeardownNs", "cudaTeardownNs", false, &p->cuda_teardown_ns) ||
        !r.number(root, "cudaReleaseNs", "cudaReleaseNs", false, &p->cuda_release_ns) ||
        !r.number(root, "cudaExitAfterReleaseNs", "cudaExitAfterReleaseNs", false, &p->cuda_exit_after_release_ns) ||
        !r.measurements("firstCall", false, &p->first_call) ||
        !r.measurements("firstRun", false, &p->first_run) ||
        !r.number(root, "hostStreamGBs", "hostStreamGBs", false, &p->host_stream_gbs) ||
        !r.measurements("hostStream", false, &p->host_stream) ||
        !r.number(root, "hostGflops", "hostGflops", false, &p->host_gflops) ||
        !r.number(root, "hostGflopsVector2", "hostGflopsVector2", false, &p->host_gflops_vector2) ||
        !r.number(root, "hostGflopsVector4", "hostGflopsVector4", false, &p->host_gflops_vector4) ||
        !r.number(root, "hostFirstTouchGBs", "hostFirstTouchGBs", false, &p->host_first_touch_gbs) ||
        !r.number(root, "hostMathCallNs", "hostMathCallNs", false, &p->host_math_call_ns) ||
        !r.number(root, "hostConvertNs", "hostConvertNs", false, &p->host_convert_ns) ||
        !r.measurements("hostChainedSum", false, &p->host_chained_sum) ||
        !r.number(root, "hostLaneLoadNs", "hostLaneLoadNs", false, &p->host_lane_load_ns) ||
        !r.number(root, "deviceBandwidthGBs", "deviceBandwidthGBs", true, &p->device_bandwidth_gbs) ||
        !r.number(root, "peakGflops", "peakGflops", true, &p->peak_gflops) ||
        !r.integer(root, "smCount", "smCount", true, &p->sm_count, 1) ||
        !r.integer(root, "deviceMemoryBytes", "deviceMemoryBytes", true, &p->device_memory_bytes, 1) ||
        !r.integer(root, "l2CacheBytes", "l2CacheBytes", false, &p->l2_cache_bytes, 1) ||
        !read_occupancy(r, root, &p->occupancy) || !read_kernels(r, root, &p->kernels) ||
        !read_view_kernels(r, root, &p->view_kernels) ||
        !read_multi_gpu(r, root, &p->multi_gpu))
        return false;
    if (p->duplex_factor > 1) return r.fail("duplexFactor", "must be between 0 (full duplex) and 1 (no overlap)");
    if (p->device_bandwidth_gbs <= 0) return r.fail("deviceBandwidthGBs", "must be positive");
    if (p->peak_gflops <= 0) return r.fail("peakGflops", "must be positive");
    if ((p->cuda_release_ns > 0) != (p->cuda_exit_after_release_ns > 0))
        return r.fail(p->cuda_release_ns > 0 ? "cudaExitAfterReleaseNs" : "cudaReleaseNs",
                      "must be given with " + std::string(p->cuda_release_ns > 0 ? "cudaReleaseNs" : "cudaExitAfterReleaseNs") +
                          " (both are measured by recipe-profile, in the same processes)");
    if (const nlohmann::json* s = r.member(root, "implicitSynchronization", "implicitSynchronization", false)) {
        if (!s->is_boolean()) return r.fail("implicitSynchronization", "must be true or false");
        p->implicit_synchronization = s->get<bool>();
    }
    if (p->pageable_to_pinned_host.empty()) p->pageable_to_pinned_host = p->pinned_host_to_pinned_host;
    if (!root.contains("asyncCallNs"))
        p->async_call_ns = std::min(p->kernel_launch_ns, p->pinned_host_to_device.ns.front());
    return true;
}

bool read_strided_copy(Reader& r, const nlohmann::json& root, Platform* p) {
    const nlohmann::json* strided = r.member(root, "stridedCopy", "stridedCopy", true);
    if (!strided) return false;
    if (!strided->is_object()) return r.fail("stridedCopy", "must be {\"perRowNs\": ..., \"perCallNs\": ...}");
    for (const auto& [k, _] : strided->items())
        if (k != "perRowNs" && k != "perCallNs" && k != "outPartialLineRowNs" && k != "outPartialLineBesideRowNs")
            return r.fail("stridedCopy." + k, "unknown field");
    StridedCopyCost& c = p->strided_copy;
    if (!r.number(*strided, "perRowNs", "stridedCopy.perRowNs", true, &c.per_row_ns) ||
        !r.number(*strided, "perCallNs", "stridedCopy.perCallNs", true, &c.per_call_ns) ||
        !r.number(*strided, "outPartialLineRowNs", "stridedCopy.outPartialLineRowNs", false, &c.out_partial_line_row_ns) ||
        !r.number(*strided, "outPartialLineBesideRowNs", "stridedCopy.outPartialLineBesideRowNs", false,
                  &c.out_partial_line_beside_row_ns))
        return false;
    if (c.out_partial_line_beside_row_ns > 0 && c.out_partial_line_beside_row_ns < c.out_partial_line_row_ns)
        return r.fail("stridedCopy.outPartialLineBesideRowNs", "must be at least outPartialLineRowNs");
    return true;
}

// seed 003 §5.4: derived from the pinned copy tables unless "logGP" gives them.
bool read_loggp_section(Reader& r, const nlohmann::json& root, Platform* p) {
    p->loggp_host_to_device = derive_loggp(p->pinned_host_to_device);
    p->loggp_device_to_host = derive_loggp(p->device_to_pinned_host);
    const nlohmann::json* lg = r.member(root, "logGP", "logGP", false);
    if (!lg) return true;
    if (!lg->is_object()) return r.fail("logGP", "must be an object");
    for (const auto& [k, v] : lg->items()) {
        if (k == "hostToDevice" || k == "deviceToHost") {
            if (!v.is_object()) return r.fail("logGP." + k, "must be {latencyNs, gapNs, nsPerByte}");
            if (!read_loggp(r, v, "logGP." + k, k == "hostToDevice" ? &p->loggp_host_to_device : &p->loggp_device_to_host))
                return false;
        } else if (k == "mappedNsPerByte") {
            if (!r.number(*lg, k, "logGP." + k, true, &p->mapped_ns_per_byte)) return false;
        } else if (k == "mappedReadNsPerByte") {
            if (!r.number(*lg, k, "logGP." + k, true, &p->mapped_read_ns_per_byte)) return false;
        } else {
            return r.fail("logGP." + k, "unknown field");
        }
    }
    return true;
}

// Where each number came from: every field present needs an entry.
bool read_sources(Reader& r, const nlohmann::json& root, Platform* p) {
    const nlohmann::json* source = r.member(root, "source", "source", true);
    if (!source) return false;
    if (!source->is_object()) return r.fail("source", "must be an object of field -> how it was obtained");
    for (const auto& [k, v] : source->items()) {
        if (!v.is_string()) return r.fail("source." + k, "must be a string");
        if (!known_fields().count(k) && k.rfind("kernels.", 0) != 0)
            return r.fail("source." + k, "names no field of the profile");
        p->source[k] = v.get<std::string>();
    }
    for (const auto& [k, _] : root.items()) {
        if (k == "name" || k == "description" || k == "source" || k.rfind("$", 0) == 0) continue;
        // "multiGpu" may say how it was measured itself, in its "measured" field.
        if (k == "multiGpu" && !p->multi_gpu.measured.empty()) continue;
        if (!p->source.count(k))
            return r.fail("source." + k, "missing: say how " + k + " was obtained" +
                                             (k == "multiGpu" ? " (or in multiGpu.measured)" : ""));
    }
    return true;
}

bool read_platform(const nlohmann::json& root, const std::string& origin, Platform* p, std::string* error) {
    Reader r(root, origin);
    auto read = [&]() {
        if (!root.is_object()) return r.fail("(top level)", "must be a JSON object");
        for (const auto& [k, _] : root.items())
            if (!known_fields().count(k) && k.rfind("$", 0) != 0) return r.fail(k, "unknown field");
        return read_name(r, root, p) && read_measurements(r, root, p) && read_strided_copy(r, root, p) &&
               read_loggp_section(r, root, p) && read_sources(r, root, p);
    };
    read();
    if (!r.ok() && error) *error = r.error();
    return r.ok();
}

std::string read_text(const std::string& path, bool* ok) {
    std::ifstream in(path, std::ios::binary);
    *ok = static_cast<bool>(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool looks_like_path(const std::string& s) {
    return s.find('/') != std::string::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".json");
}

}  // namespace

bool parse_platform(const std::string& json_text, const std::string& origin, Platform* platform, std::string* error) {
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::parse_error& e) {
        if (error) {
            // nlohmann's words without its tag and the bytes it last read
            // (a binary file would put them on the user's terminal).
            std::string what = e.what();
            if (const auto tag = what.find("] "); tag != std::string::npos) what.erase(0, tag + 2);
            if (const auto read = what.find("; last read"); read != std::string::npos) what.erase(read);
            for (char& c : what)
                if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
            *error = origin + ": not valid JSON: " + what;
        }
        return false;
    }
    Platform p;
    if (!read_platform(root, origin, &p, error)) return false;
    *platform = std::move(p);
    return true;
}

const Measurements& Platform::staging_tile_for(int streams) const {
    const Measurements* pick = nullptr;
    for (std::size_t i = 0; i < staging_tile_streams.streams.size(); ++i)
        if (staging_tile_streams.streams[i] <= streams || !pick) pick = &staging_tile_streams.tables[i];
    return pick ? *pick : staging_tile;
}

bool load_platform_file(const std::string& path, Platform* platform, std::string* error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        if (error) *error = path + ": is a directory, not a platform profile";
        return false;
    }
    bool ok = false;
    const std::string text = read_text(path, &ok);
    if (!ok) {
        if (error) *error = path + ": cannot read platform profile";
        return false;
    }
    if (!parse_platform(text, path, platform, error)) return false;
    platform->path = path;
    return true;
}

namespace {

// The user's directory of profiles, if any.
std::string user_platform_dir() {
    const char* env = std::getenv("RECIPE_PLATFORM_DIR");
    return env && *env ? env : "";
}

const detail::EmbeddedProfile* built_in(const std::string& name) {
    for (const detail::EmbeddedProfile* e = detail::kEmbeddedProfiles; e->name; ++e)
        if (name == e->name) return e;
    return nullptr;
}

bool load_built_in(const detail::EmbeddedProfile& e, Platform* platform, std::string* error) {
    const std::string text(reinterpret_cast<const char*>(e.text), e.size);
    if (!parse_platform(text, std::string(e.name) + ".json", platform, error)) return false;
    platform->path = "built in";
    return true;
}

}  // namespace

bool find_platform(const std::string& name_or_path, Platform* platform, std::string* error) {
    if (name_or_path.empty()) {
        if (error) *error = "no platform given";
        return false;
    }
    if (looks_like_path(name_or_path)) return load_platform_file(name_or_path, platform, error);
    if (const std::string dir = user_platform_dir(); !dir.empty()) {
        const std::string path = dir + "/" + name_or_path + ".json";
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) return load_platform_file(path, platform, error);
    }
    if (const detail::EmbeddedProfile* e = built_in(name_or_path)) return load_built_in(*e, platform, error);
    if (error) {
        std::string names;
        for (const auto& e : list_platforms()) names += (names.empty() ? "" : ", ") + e.name;
        *error = "unknown platform '" + name_or_path + "'" + (names.empty() ? "" : " (known: " + names + ")");
    }
    return false;
}

std::vector<PlatformEntry> list_platforms() {
    std::map<std::string, PlatformEntry> found;
    if (const std::string dir = user_platform_dir(); !dir.empty()) {
        std::error_code ec;
        std::vector<std::filesystem::path> files;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".json") files.push_back(it->path());
        for (const auto& f : files) {
            PlatformEntry e;
            e.name = f.stem().string();
            e.path = f.string();
            Platform p;
            if (load_platform_file(e.path, &p, &e.error)) e.description = p.description;
            found[e.name] = e;
        }
    }
    for (const detail::EmbeddedProfile* b = detail::kEmbeddedProfiles; b->name; ++b) {
        if (found.count(b->name)) continue;
        PlatformEntry e;
        e.name = b->name;
        Platform p;
        if (load_built_in(*b, &p, &e.error)) e.description = p.description;
        e.path = "built in";
        found[e.name] = e;
    }
    std::vector<PlatformEntry> out;
    for (auto& [_, e] : found) out.push_back(std::move(e));
    return out;
}

}  // namespace recipe::advisor
