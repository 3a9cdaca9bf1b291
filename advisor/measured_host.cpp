#include "advisor/measured_host.h"

#include "advisor/interpolation.h"

namespace recipe::advisor {

void use_measured_host(const RememberedHost& remembered, Platform* p) {
    const HostCpu& h = remembered.best;
    p->host_stream_gbs = h.stream_gbs;
    p->host_stream = Measurements{};
    p->host_stream.bytes = h.stream_bytes;
    p->host_stream.ns = h.stream_ns;
    if (p->host_stream.ns.size() >= 2) {
        choose_interpolation(&p->host_stream);
    } else {
        p->host_stream = Measurements{};  // one working set: the streaming rate alone
    }
    p->host_gflops = h.gflops;
    p->host_gflops_vector2 = h.gflops_vector2;
    p->host_gflops_vector4 = h.gflops_vector4;
    p->host_first_touch_gbs = h.first_touch_gbs;
    p->host_math_call_ns = h.math_call_ns;
    p->host_convert_ns = h.convert_ns;
    p->host_lane_load_ns = h.lane_load_ns;
    p->host_chained_sum = Measurements{};
    if (h.chain_ns.size() == h.stream_bytes.size() && h.chain_ns.size() >= 2) {
        p->host_chained_sum.bytes = h.stream_bytes;
        p->host_chained_sum.ns = h.chain_ns;
        choose_interpolation(&p->host_chained_sum);
    }
    p->host_measured = true;
    p->host_readings = remembered.readings;
    p->host_readings_since_unix_s = remembered.since_unix_s;
}

}  // namespace recipe::advisor
