// A picture of the prediction: the typical tile's operations laid out in the
// steps of the scheme's formula (thesis §6.4.4, Figures 6.9-6.13). In each
// step the engines work on consecutive tiles, every operation starting with
// the step, and the step lasts as long as the formula's step for the typical
// tile. A long pipeline, or a time loop's middle steps, is drawn as its first
// and last steps around an explicit break that holds the rest of the model's
// time, so the picture ends where the prediction does; where the drawn steps
// cannot (every tile drawn, or a break that would have to be negative), a
// "total" mark says where the prediction ends and why the bars do not.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "advisor/pipeline.h"
#include "advisor/plan.h"

namespace recipe::advisor {

namespace {

std::string ms_text(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", ms);
    return buf;
}

std::string range_text(const std::string& what, std::int64_t first, std::int64_t last) {
    if (first == last) return what + " " + std::to_string(first);
    return what + "s " + std::to_string(first) + " to " + std::to_string(last);
}

enum Stage { BufferIn, In, Kernel, Out, BufferOut };

struct Op {
    Stage stage;
    std::int64_t tile;
};

// One step of the formula: the operations that run in it and how long it lasts.
struct Slot {
    std::vector<Op> ops;
    double length = 0;
    std::int64_t step = 0;  // the time loop's step (0: none)
};

const char* engine_of(Stage s) {
    switch (s) {
        case BufferIn:
        case BufferOut: return "host";
        case In: return "H2D";
        case Kernel: return "kernel";
        case Out: return "D2H";
    }
    return "?";
}

double duration(const TileTimes& t, Stage s) {
    switch (s) {
        case BufferIn: return t.buffer_in;
        case In: return t.transfer_in;
        case Kernel: return t.kernel;
        case Out: return t.transfer_out;
        case BufferOut: return t.buffer_out;
    }
    return 0;
}

bool has(const Slot& s, Stage stage) {
    return std::any_of(s.ops.begin(), s.ops.end(), [&](const Op& o) { return o.stage == stage; });
}

// A step that holds only some of the stages (start-up, shutdown, a time
// loop's two-stage steps) lasts as long as its longest engine: the host
// packs and unpacks one after the other, the copies share the link
// (copy_pair), the kernel runs alone (thesis §6.4.4's start-up and shutdown
// terms).
double partial_step(const Slot& s, const TileTimes& t, const PipelineShape& shape) {
    const double host = (has(s, BufferIn) ? t.buffer_in : 0) + (has(s, BufferOut) ? t.buffer_out : 0);
    const bool in = has(s, In), out = has(s, Out);
    const double copies = in && out ? copy_pair(t.transfer_in, t.transfer_out, shape)
                          : in      ? t.transfer_in
                          : out     ? t.transfer_out
                                    : 0;
    return std::max({host, copies, has(s, Kernel) ? t.kernel : 0.0});
}

// The pipelined schemes' steps (thesis §6.4.4): tile i's stage s runs in
// step i + s; a step with every stage is a steady step (steady_step or
// steady_step_buffered, which also bound it by the buffers and the host's
// issuing), the others are start-up and shutdown steps.
std::vector<Slot> pipeline_slots(const std::vector<Stage>& stages, std::int64_t n, const TileTimes& t,
                                 const StepTimes& st, const PipelineShape& shape, bool buffered) {
    const auto depth = static_cast<std::int64_t>(stages.size());
    std::vector<Slot> slots(static_cast<std::size_t>(n + depth - 1));
    for (std::int64_t j = 0; j < static_cast<std::int64_t>(slots.size()); ++j) {
        Slot& s = slots[static_cast<std::size_t>(j)];
        for (std::int64_t k = 0; k < depth; ++k)
            if (j - k >= 0 && j - k < n) s.ops.push_back({stages[static_cast<std::size_t>(k)], j - k});
        const bool steady = static_cast<std::int64_t>(s.ops.size()) == depth && n > 1;
        if (!steady) s.length = partial_step(s, t, shape);
        else s.length = buffered ? steady_step_buffered(st, shape) : steady_step(st, shape);
    }
    return slots;
}

// A time loop's first or last step on the device (model: two_stage_pipeline):
// tile i's `a` in step i, its `b` in step i + 1. Packing (first step) and
// unpacking (last step) are not overlapped in the model: each is a step of
// its own, next to the copy it feeds or drains.
std::vector<Slot> two_stage_slots(Stage a, Stage b, std::int64_t n, const TileTimes& t, const PipelineShape& shape,
                                  std::int64_t step) {
    std::vector<Slot> slots;
    for (std::int64_t j = 0; j <= n; ++j) {
        if (a == In && j < n && t.buffer_in > 0) slots.push_back({{{BufferIn, j}}, 0, step});
        Slot s;
        s.step = step;
        if (j < n) s.ops.push_back({a, j});
        if (j > 0) s.ops.push_back({b, j - 1});
        slots.push_back(s);
        if (b == Out && j > 0 && t.buffer_out > 0) slots.push_back({{{BufferOut, j - 1}}, 0, step});
    }
    for (auto& s : slots) s.length = partial_step(s, t, shape);
    return slots;
}

double sum(const std::vector<Slot>& slots, std::size_t from, std::size_t to) {
    double total = 0;
    for (std::size_t i = from; i < to; ++i) total += slots[i].length;
    return total;
}

// The slot after the last one holding an operation of `tile` (or before
// the first one holding one), searching `slots` [from, to).
std::size_t after_last(const std::vector<Slot>& slots, std::size_t from, std::size_t to, std::int64_t tile) {
    std::size_t end = from;
    for (std::size_t i = from; i < to; ++i)
        for (const Op& o : slots[i].ops)
            if (o.tile == tile) end = i + 1;
    return end;
}
std::size_t first_of(const std::vector<Slot>& slots, std::size_t from, std::size_t to, std::int64_t tile) {
    for (std::size_t i = from; i < to; ++i)
        for (const Op& o : slots[i].ops)
            if (o.tile == tile) return i;
    return to;
}

TimelineEvent event(const char* engine, std::int64_t tile, double start, double end, std::int64_t step = 0,
                    std::string note = {}) {
    return {engine, tile, start, end, step, std::move(note)};
}

// The model's steps for one prediction: `all` holds them in order; a time
// loop's middle steps (not slots: whole-space launches) fall between
// all[head_end - 1] and all[head_end].
struct Steps {
    std::vector<Slot> all;
    std::size_t head_end = 0;
    bool loop = false;
    std::int64_t repeated = 0;  // a time loop's middle steps (2 .. steps-1)
    PipelineShape shape;
};

// The shape the model priced the steps with (model.cpp, Model::evaluate).
// Its duplex factor for pinned copies (pipeline_duplex) is the model's
// own; the profile's is used here.
PipelineShape model_shape(const Prediction& p, const Platform& platform) {
    PipelineShape shape;
    // Pageable copies, or tiles copied in while outputs cross the bus
    // mapped (hybrid), share one link.
    const recipe::SchemeTraits& traits = scheme_traits(p.config.scheme);
    const bool one_link = p.host_strategy == HostStrategy::Pageable ||
                          (traits.tiled && traits.outputs == recipe::Residence::HostMapped);
    shape.copy_engines = one_link ? 1 : platform.copy_engines;
    shape.duplex_factor = platform.duplex_factor;
    const std::int64_t tiles = std::max<std::int64_t>(1, p.tiles);
    shape.buffers = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(p.config.streams, tiles)));
    shape.streams_in_order = true;
    shape.serial_host = true;
    return shape;
}

Steps model_steps(const Prediction& p, const Platform& platform) {
    const TileTimes& t = p.typical_tile;
    const Scheme scheme = p.config.scheme;
    const std::int64_t n = std::max<std::int64_t>(1, p.tiles);
    const std::int64_t steps = std::max<std::int64_t>(1, p.problem.time_steps);
    Steps out;
    out.shape = model_shape(p, platform);
    // The model prices a time loop for naive and the schemes of full or
    // tile-sized device buffers (model.cpp); streams, hybrid and mapped
    // are priced as one pass.
    const recipe::SchemeTraits& traits = scheme_traits(scheme);
    out.loop = steps > 1 && traits.time_loop != recipe::TimeLoop::Refused;
    out.repeated = out.loop ? steps - 2 : 0;
    std::vector<Slot> head, tail;
    if (!traits.pipelined) {
        // thesis §6.2.1: one piece, one step after the other; the kernel every time step.
        auto one = [&](Stage s, bool last_step) {
            Slot slot{{{s, 0}}, duration(t, s), out.loop ? (last_step ? steps : 1) : 0};
            if (slot.length > 0 || s == Kernel) (last_step && out.loop ? tail : head).push_back(slot);
        };
        for (Stage s : {BufferIn, In, Kernel}) one(s, false);
        if (out.loop) one(Kernel, true);
        for (Stage s : {Out, BufferOut}) one(s, true);
    } else if (traits.inputs == recipe::Residence::HostMapped) {
        // seed 003 eq. 5.6: everything at once, for as long as the equation says.
        head.push_back({{{In, 0}, {Kernel, 0}, {Out, 0}}, p.phases.pipeline, 0});
    } else if (out.loop) {
        // An iterative stencil (model.cpp): step 1 overlaps its kernels with
        // the copies in, the middle steps are whole-space launches, the last
        // step overlaps its kernels with the copies out.
        head = two_stage_slots(In, Kernel, n, t, out.shape, 1);
        tail = two_stage_slots(Kernel, Out, n, t, out.shape, steps);
    } else {
        const bool staged = traits.packs_tiles || p.host_strategy == HostStrategy::Staged;
        StepTimes st{t.buffer_in, t.transfer_in, t.kernel, t.transfer_out, t.buffer_out, 0};
        const double copies_per_tile = static_cast<double>(p.h2d.copies + p.d2h.copies) / static_cast<double>(n);
        st.issue = (copies_per_tile + 3) * platform.async_call_ns * 1e-6;  // as class_costs prices it
        std::vector<Stage> stages = {In, Kernel, Out};
        if (staged) stages = {BufferIn, In, Kernel, Out, BufferOut};
        head = pipeline_slots(stages, n, t, st, out.shape, staged);
    }
    out.all = head;
    out.head_end = out.all.size();
    out.all.insert(out.all.end(), tail.begin(), tail.end());
    return out;
}

// The slots not drawn, [first, second): every step is drawn when there are
// few tiles; else the steps of the first and the last `keep` tiles.
std::pair<std::size_t, std::size_t> cut(const Steps& s, std::int64_t n, std::int64_t keep) {
    const std::size_t end = s.all.size();
    if (keep >= n) return s.loop ? std::pair{s.head_end, s.head_end} : std::pair{end, end};
    if (s.loop) return {after_last(s.all, 0, s.head_end, keep - 1), first_of(s.all, s.head_end, end, n - keep)};
    const std::size_t from = after_last(s.all, 0, end, keep - 1), to = first_of(s.all, 0, end, n - keep);
    if (to < from + 2) return {end, end};  // too few steps between to be worth a break
    return {from, to};
}

// What a break stands for, in words.
std::string break_parts(const Steps& s, std::pair<std::size_t, std::size_t> gap, std::int64_t n, std::int64_t keep,
                        std::int64_t steps, bool naive) {
    std::vector<std::string> parts;
    if (!s.loop) {
        parts.push_back(std::to_string(gap.second - gap.first) + " steady steps (" + range_text("tile", keep, n - keep - 1) +
                        " in flight)");
    } else {
        if (gap.first < s.head_end) parts.push_back(range_text("tile", keep, n - 1) + " of step 1");
        if (s.repeated > 0)
            parts.push_back((s.repeated == 1 ? "step 2" : "steps 2 to " + std::to_string(steps - 1)) + " (" +
                            std::to_string(s.repeated) + (naive ? " kernel launch" : " whole-space kernel launch") +
                            (s.repeated == 1 ? ")" : "es)"));
        if (gap.second > s.head_end)
            parts.push_back(range_text("tile", 0, n - keep - 1) + " of step " + std::to_string(steps));
    }
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return text;
}

// Appends the events of slots [from, to) starting at *at; advances *at.
void draw(const Steps& s, std::size_t from, std::size_t to, const TileTimes& t, bool mapped, double* at,
          std::vector<TimelineEvent>* ev) {
    const bool one_link = s.shape.copy_engines < 2;
    for (std::size_t i = from; i < to; ++i) {
        const Slot& slot = s.all[i];
        double host_at = *at, link_at = *at;
        // Two copies in one step share the link (thesis §6.4.4): both are
        // drawn stretched so that together they take copy_pair.
        double stretch = 1;
        if (!one_link && !mapped && has(slot, In) && has(slot, Out) && std::max(t.transfer_in, t.transfer_out) > 0)
            stretch = copy_pair(t.transfer_in, t.transfer_out, s.shape) / std::max(t.transfer_in, t.transfer_out);
        for (Stage stage : {BufferIn, BufferOut, In, Out, Kernel})
            for (const Op& o : slot.ops) {
                if (o.stage != stage) continue;
                double len = duration(t, stage), start = *at;
                if (len <= 0 && stage != Kernel) continue;  // a stage with nothing to do (no input to copy in)
                if (stage == BufferIn || stage == BufferOut) {
                    start = host_at;  // one host thread packs, then unpacks
                    host_at += len;
                } else if ((stage == In || stage == Out) && one_link) {
                    start = link_at;  // one engine: in, then out
                    link_at += len;
                } else if (stage == In || stage == Out) {
                    len *= stretch;
                }
                ev->push_back(event(engine_of(stage), o.tile, start, start + len, slot.step));
            }
        *at += slot.length;
    }
}

// Why bars that take `drawn` ms do not end at the model's pipeline; a total
// below one engine's own work is the formula's, not the picture's, doing.
std::string mismatch(const Prediction& p, double drawn, bool outlast) {
    const std::string model = ms_text(p.phases.pipeline);
    std::string why = outlast ? "the drawn steps alone, at the typical tile's pace, take " + ms_text(drawn) +
                                    " ms, more than the " + model + " ms the model gives the whole pipeline"
                              : "the bars repeat the typical tile's steps and take " + ms_text(drawn) +
                                    " ms; the model, which prices every tile's own steps, gives the pipeline " + model +
                                    " ms";
    const std::pair<double, const char*> busy[] = {{p.phases.staging, "the host thread's packing and unpacking"},
                                                   {p.phases.h2d, "the copies in"},
                                                   {p.phases.kernel, "the kernels"},
                                                   {p.phases.d2h, "the copies out"}};
    const auto most = std::max_element(std::begin(busy), std::end(busy));
    if (p.phases.pipeline < most->first * (1 - 2e-3))
        why += "; that is less than " + std::string(most->second) + " alone, " + ms_text(most->first) + " ms";
    return why;
}

}  // namespace

std::vector<TimelineEvent> timeline(const Prediction& p, const Platform& platform, std::int64_t max_tiles) {
    const TileTimes& t = p.typical_tile;
    const std::int64_t n = std::max<std::int64_t>(1, p.tiles);
    const Steps s = model_steps(p, platform);
    const std::int64_t keep = max_tiles > 0 ? std::max<std::int64_t>(1, max_tiles / 2) : n;
    const auto gap = cut(s, n, keep);
    const bool broken = gap.second > gap.first || s.repeated > 0;

    std::vector<TimelineEvent> ev;
    // Setup: allocation and registration, then the inputs read whole.
    const double setup = p.phases.alloc + p.phases.host_register;
    if (setup > 0) ev.push_back(event("host", -1, 0, setup));
    double at = setup;
    if (p.phases.whole_in > 0) {
        ev.push_back(event("H2D", -1, at, at + p.phases.whole_in));
        at += p.phases.whole_in;
    }
    const double pipeline_start = at;
    const bool mapped = scheme_traits(p.config.scheme).inputs == recipe::Residence::HostMapped;
    const bool one_piece = !scheme_traits(p.config.scheme).pipelined;  // naive
    draw(s, 0, gap.first, t, mapped, &at, &ev);
    std::string why;  // why the bars do not end at the prediction's total
    if (broken) {
        // The break holds what the model says the steps not drawn take. When
        // the drawn steps alone outlast the model's pipeline it holds them at
        // the typical tile's pace (a time loop's middle: the model's kernel
        // time less the first and the last step's), and the mark says so.
        const double drawn = sum(s.all, 0, gap.first) + sum(s.all, gap.second, s.all.size());
        double length = p.phases.pipeline - drawn;
        const bool fits = length >= 0;
        if (!fits) {
            const double first_last = (one_piece ? 2.0 : 2.0 * static_cast<double>(n)) * t.kernel;
            length = sum(s.all, gap.first, gap.second);
            if (s.repeated > 0) length += std::max(0.0, p.phases.kernel - first_last);
            why = mismatch(p, drawn, true);
        }
        const std::string note = break_parts(s, gap, n, keep, std::max<std::int64_t>(1, p.problem.time_steps),
                                             one_piece) +
                                 ", " + ms_text(length) + (fits ? " ms by the model" : " ms at the typical tile's pace");
        ev.push_back(event("break", -1, at, at + length, 0, note));
        at += length;
    }
    draw(s, gap.second, s.all.size(), t, mapped, &at, &ev);
    // Within 0.2% (a pixel or so) the bars end at the total.
    if (why.empty() && std::fabs(at - (pipeline_start + p.phases.pipeline)) > 2e-3 * p.total_ms)
        why = mismatch(p, at - pipeline_start, false);
    // Teardown: unregistration (and frees the profile times apart).
    const double teardown = p.phases.host_unregister + p.phases.free;
    if (teardown > 0) ev.push_back(event("host", -1, at, at + teardown));
    ev.push_back(event("total", -1, p.total_ms, p.total_ms, 0, why));
    std::stable_sort(ev.begin(), ev.end(),
                     [](const TimelineEvent& a, const TimelineEvent& b) { return a.start_ms < b.start_ms; });
    return ev;
}

}  // namespace recipe::advisor
