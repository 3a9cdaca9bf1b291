#include "analyzer/program_json.h"

#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace recipe::analyzer {

using nlohmann::json;

namespace {

template <typename E>
E enum_from(const std::string& s, std::initializer_list<E> values) {
    for (E v : values)
        if (s == to_string(v)) return v;
    throw std::invalid_argument("unknown value '" + s + "'");
}

json pos_json(const SourcePos& p) { return {{"line", p.line}, {"column", p.column}}; }
SourcePos pos_from(const json& j) { return {j.at("line").get<int>(), j.at("column").get<int>()}; }

json span_json(const SourceSpan& s) {
    return {{"begin", pos_json(s.begin)}, {"end", pos_json(s.end)}, {"begin_byte", s.begin_byte}, {"end_byte", s.end_byte}};
}
SourceSpan span_from(const json& j) {
    SourceSpan s;
    s.begin = pos_from(j.at("begin"));
    s.end = pos_from(j.at("end"));
    s.begin_byte = j.at("begin_byte").get<std::uint32_t>();
    s.end_byte = j.at("end_byte").get<std::uint32_t>();
    return s;
}

json extent_json(const Extent& e) {
    return {{"value", e.value ? json(*e.value) : json(nullptr)}, {"expr", e.expr}};
}
Extent extent_from(const json& j) {
    Extent e;
    if (!j.at("value").is_null()) e.value = j.at("value").get<std::int64_t>();
    e.expr = j.at("expr").get<std::string>();
    return e;
}

json diag_json(const Diagnostic& d) {
    return {{"severity", to_string(d.severity)}, {"file", d.file}, {"line", d.pos.line}, {"column", d.pos.column},
            {"rule", d.rule_id}, {"message", d.message}};
}
Diagnostic diag_from(const json& j) {
    Diagnostic d;
    d.severity = enum_from<Severity>(j.at("severity").get<std::string>(), {Severity::Error, Severity::Warning, Severity::Note});
    d.pos = {j.at("line").get<int>(), j.at("column").get<int>()};
    d.rule_id = j.at("rule").get<std::string>();
    d.message = j.at("message").get<std::string>();
    d.file = j.value("file", std::string());
    return d;
}

json array_json(const ArrayProperties& a) {
    json accesses = json::array();
    for (const auto& x : a.accesses)
        accesses.push_back({{"span", span_json(x.span)},
                            {"text", x.text},
                            {"offset", x.offset},
                            {"read", x.read},
                            {"write", x.write},
                            {"guarded", x.guarded},
                            {"clamped", x.clamped},
                            {"window_offsets", x.window_offsets}});
    json size = json::array();
    for (const auto& e : a.size) size.push_back(extent_json(e));
    return {{"name", a.name},
            {"element_type", a.element_type},
            {"bytes_per_element", a.bytes_per_element},
            {"size", size},
            {"mapping", a.mapping},
            {"layout", to_string(a.layout)},
            {"linear_index", a.linear_index},
            {"stencil", a.stencil},
            {"reads_own_element", a.reads_own_element},
            {"needs_old_values", a.needs_old_values},
            {"partial_write", a.partial_write},
            {"pinned_host", a.pinned_host},
            {"zero_pages", a.zero_pages},
            {"written_before_by", a.written_before_by},
            {"accesses", accesses}};
}
ArrayProperties array_from(const json& j) {
    ArrayProperties a;
    a.name = j.at("name").get<std::string>();
    a.element_type = j.at("element_type").get<std::string>();
    a.bytes_per_element = j.at("bytes_per_element").get<int>();
    for (const auto& e : j.at("size")) a.size.push_back(extent_from(e));
    a.mapping = j.at("mapping").get<std::vector<std::vector<int>>>();
    a.layout = enum_from<ArrayLayout>(j.at("layout").get<std::string>(),
                                      {ArrayLayout::Flat, ArrayLayout::MultiDim, ArrayLayout::PointerToPointer});
    a.linear_index = j.at("linear_index").get<std::string>();
    a.stencil = j.at("stencil").get<std::vector<std::vector<int>>>();
    a.reads_own_element = j.at("reads_own_element").get<bool>();
    a.needs_old_values = j.at("needs_old_values").get<bool>();
    a.partial_write = j.at("partial_write").get<int>();
    a.pinned_host = j.at("pinned_host").get<bool>();
    a.zero_pages = j.value("zero_pages", false);
    a.written_before_by = j.value("written_before_by", std::vector<int>{});
    for (const auto& x : j.at("accesses")) {
        ArrayAccess acc;
        acc.span = span_from(x.at("span"));
        acc.text = x.at("text").get<std::string>();
        acc.offset = x.at("offset").get<std::vector<int>>();
        acc.read = x.at("read").get<bool>();
        acc.write = x.at("write").get<bool>();
        acc.guarded = x.at("guarded").get<bool>();
        acc.clamped = x.at("clamped").get<bool>();
        acc.window_offsets = x.at("window_offsets").get<std::vector<std::vector<int>>>();
        a.accesses.push_back(std::move(acc));
    }
    return a;
}

json nest_json(const LoopNest& n) {
    json space = json::array();
    for (const auto& l : n.iteration_space)
        space.push_back({{"var", l.var},
                         {"lower", extent_json(l.lower)},
                         {"upper", extent_json(l.upper)},
                         {"stride", l.stride},
                         {"depth", l.depth},
                         {"span", span_json(l.span)}});
    json inputs = json::array(), outputs = json::array();
    for (const auto& a : n.input_arrays) inputs.push_back(array_json(a));
    for (const auto& a : n.output_arrays) outputs.push_back(array_json(a));
    json reasons = json::array();
    for (const auto& d : n.reasons) reasons.push_back(diag_json(d));
    json scalars = json::array();
    for (const auto& s : n.scalars_read) scalars.push_back({{"name", s.name}, {"type", s.type}});
    json invariants = json::array();
    for (const auto& r : n.invariant_reads)
        invariants.push_back({{"text", r.text}, {"array", r.array}, {"element_type", r.element_type}, {"span", span_json(r.span)}});
    json boundaries = json::array();
    for (const auto& b : n.boundaries) boundaries.push_back({{"kind", to_string(b.kind)}, {"text", b.text}, {"span", span_json(b.span)}});
    json windows = json::array();
    for (const auto& w : n.window_loops)
        windows.push_back({{"var", w.var}, {"lower", w.lower}, {"upper", w.upper}, {"stride", w.stride}, {"span", span_json(w.span)}});
    json deps = json::array();
    for (const auto& d : n.dependences)
        deps.push_back({{"array", d.array}, {"kind", to_string(d.kind)}, {"distance", d.distance}, {"span", span_json(d.span)}});
    json time = nullptr;
    if (n.time_loop) {
        const TimeLoop& t = *n.time_loop;
        time = {{"form", to_string(t.form)},
                {"exchange", to_string(t.exchange)},
                {"var", t.var},
                {"iterations", extent_json(t.iterations)},
                {"arrays", t.arrays},
                {"toggle", t.toggle},
                {"condition", t.condition},
                {"span", span_json(t.span)}};
    }
    return {{"id", n.id},
            {"file", n.file},
            {"function", n.function},
            {"function_span", span_json(n.function_span)},
            {"span", span_json(n.span)},
            {"body_span", span_json(n.body_span)},
            {"accepted", n.accepted},
            {"kind", to_string(n.kind)},
            {"reasons", reasons},
            {"dimensionality", n.dimensionality},
            {"iteration_space", space},
            {"innermost_is_contiguous", n.innermost_is_contiguous},
            {"input_arrays", inputs},
            {"output_arrays", outputs},
            {"scalars_read", scalars},
            {"invariant_reads", invariants},
            {"boundaries", boundaries},
            {"window_loops", windows},
            {"time_loop", time},
            {"dependences", deps},
            {"ops",
             {{"adds", n.ops.adds},
              {"muls", n.ops.muls},
              {"divs", n.ops.divs},
              {"other", n.ops.other},
              {"flops", n.ops.flops()},
              {"reads", n.ops.reads},
              {"writes", n.ops.writes},
              {"conversions", n.ops.conversions},
              {"serial_adds", n.ops.serial_adds}}},
            {"host_vector_lanes", n.host_vector_lanes > 0 ? json(n.host_vector_lanes) : json(nullptr)},
            {"host_reported_lanes", n.host_reported_lanes},
            {"host_lane_loads", n.host_lane_loads}};
}

LoopNest nest_from(const json& j) {
    LoopNest n;
    n.id = j.at("id").get<int>();
    n.function = j.at("function").get<std::string>();
    n.file = j.value("file", std::string());
    n.function_span = span_from(j.at("function_span"));
    n.span = span_from(j.at("span"));
    n.body_span = span_from(j.at("body_span"));
    n.accepted = j.at("accepted").get<bool>();
    n.kind = enum_from<NestKind>(j.at("kind").get<std::string>(), {NestKind::Map, NestKind::Zip, NestKind::Unzip, NestKind::ZipUnzip});
    for (const auto& d : j.at("reasons")) n.reasons.push_back(diag_from(d));
    n.dimensionality = j.at("dimensionality").get<int>();
    for (const auto& l : j.at("iteration_space")) {
        LoopProperties lp;
        lp.var = l.at("var").get<std::string>();
        lp.lower = extent_from(l.at("lower"));
        lp.upper = extent_from(l.at("upper"));
        lp.stride = l.at("stride").get<std::int64_t>();
        lp.depth = l.at("depth").get<int>();
        lp.span = span_from(l.at("span"));
        n.iteration_space.push_back(lp);
    }
    n.innermost_is_contiguous = j.at("innermost_is_contiguous").get<bool>();
    for (const auto& a : j.at("input_arrays")) n.input_arrays.push_back(array_from(a));
    for (const auto& a : j.at("output_arrays")) n.output_arrays.push_back(array_from(a));
    for (const auto& s : j.at("scalars_read")) n.scalars_read.push_back({s.at("name").get<std::string>(), s.at("type").get<std::string>()});
    for (const auto& r : j.value("invariant_reads", json::array()))
        n.invariant_reads.push_back({r.at("text").get<std::string>(), r.at("array").get<std::string>(),
                                     r.at("element_type").get<std::string>(), span_from(r.at("span"))});
    for (const auto& b : j.at("boundaries")) {
        Boundary x;
        x.kind = enum_from<Boundary::Kind>(b.at("kind").get<std::string>(),
                                           {Boundary::Kind::None, Boundary::Kind::ShrunkBounds, Boundary::Kind::Guard, Boundary::Kind::Clamp});
        x.text = b.at("text").get<std::string>();
        x.span = span_from(b.at("span"));
        n.boundaries.push_back(x);
    }
    for (const auto& w : j.at("window_loops"))
        n.window_loops.push_back({w.at("var").get<std::string>(), w.at("lower").get<std::int64_t>(), w.at("upper").get<std::int64_t>(),
                                  w.at("stride").get<std::int64_t>(), span_from(w.at("span"))});
    for (const auto& d : j.at("dependences")) {
        Dependence x;
        x.array = d.at("array").get<std::string>();
        x.kind = enum_from<Dependence::Kind>(d.at("kind").get<std::string>(),
                                             {Dependence::Kind::Flow, Dependence::Kind::Anti, Dependence::Kind::Output});
        x.distance = d.at("distance").get<std::vector<int>>();
        x.span = span_from(d.at("span"));
        n.dependences.push_back(x);
    }
    const json& t = j.at("time_loop");
    if (!t.is_null()) {
        TimeLoop tl;
        tl.form = enum_from<TimeLoop::Form>(t.at("form").get<std::string>(),
                                            {TimeLoop::Form::For, TimeLoop::Form::While, TimeLoop::Form::DoWhile});
        tl.exchange = enum_from<TimeLoop::Exchange>(
            t.at("exchange").get<std::string>(),
            {TimeLoop::Exchange::PointerSwap, TimeLoop::Exchange::IndexToggle, TimeLoop::Exchange::MirroredNests,
             TimeLoop::Exchange::CopyBack, TimeLoop::Exchange::None});
        tl.var = t.at("var").get<std::string>();
        tl.iterations = extent_from(t.at("iterations"));
        tl.arrays = t.at("arrays").get<std::vector<std::string>>();
        tl.toggle = t.at("toggle").get<std::string>();
        tl.condition = t.at("condition").get<std::string>();
        tl.span = span_from(t.at("span"));
        n.time_loop = tl;
    }
    const json& o = j.at("ops");
    n.ops.adds = o.at("adds").get<int>();
    n.ops.muls = o.at("muls").get<int>();
    n.ops.divs = o.at("divs").get<int>();
    n.ops.other = o.at("other").get<int>();
    n.ops.reads = o.at("reads").get<int>();
    n.ops.writes = o.at("writes").get<int>();
    n.ops.conversions = o.value("conversions", 0);
    n.ops.serial_adds = o.value("serial_adds", 0);
    const auto lanes = j.find("host_vector_lanes");
    n.host_vector_lanes = lanes != j.end() && lanes->is_number_integer() ? lanes->get<int>() : 0;
    n.host_reported_lanes = j.value("host_reported_lanes", 0);
    n.host_lane_loads = j.value("host_lane_loads", 0);
    return n;
}

}  // namespace

json to_json(const Program& p) {
    json nests = json::array();
    for (const auto& n : p.nests) nests.push_back(nest_json(n));
    json diags = json::array();
    for (const auto& d : p.diagnostics) diags.push_back(diag_json(d));
    int accepted = 0;
    for (const auto& n : p.nests) accepted += n.accepted ? 1 : 0;
    return {{"schema_version", kProgramSchemaVersion},
            {"file", p.file},
            {"preprocessor", p.preprocessor},
            {"vector_report", p.vector_report.empty() ? json(nullptr) : json(p.vector_report)},
            {"vector_report_missing", p.vector_report_missing.empty() ? json(nullptr) : json(p.vector_report_missing)},
            {"accepted_nests", accepted},
            {"nests", nests},
            {"diagnostics", diags}};
}

void write_json(std::ostream& out, const Program& p) {
    // The document of a large file (10,000 nests, 70 MB) would take some
    // 700 MB as one tree: the nests are dumped one at a time into the
    // place the document holds for them, indented as dump(2) indents them.
    // Strings escape their newlines, so every newline of a dump is one of
    // its line breaks, and "\n  \"nests\": []" can only be the top level's.
    auto dump = [](const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); };
    Program without_nests;
    without_nests.file = p.file;
    without_nests.preprocessor = p.preprocessor;
    without_nests.vector_report = p.vector_report;
    without_nests.vector_report_missing = p.vector_report_missing;
    without_nests.diagnostics = p.diagnostics;
    json rest = to_json(without_nests);
    int accepted = 0;
    for (const auto& n : p.nests) accepted += n.accepted ? 1 : 0;
    rest["accepted_nests"] = accepted;
    const std::string document = dump(rest);
    const std::string slot = "\n  \"nests\": []";
    const std::size_t at = document.find(slot);
    if (at == std::string::npos) throw std::logic_error("write_json: the document has no top-level \"nests\"");
    out << std::string_view(document).substr(0, at);
    if (p.nests.empty()) {
        out << std::string_view(document).substr(at);
        return;
    }
    out << "\n  \"nests\": [";
    std::string indented;
    for (std::size_t i = 0; i < p.nests.size(); ++i) {
        const std::string nest = dump(nest_json(p.nests[i]));
        indented.assign(i == 0 ? "\n    " : ",\n    ");
        std::size_t from = 0;
        for (std::size_t nl; (nl = nest.find('\n', from)) != std::string::npos; from = nl + 1)
            indented.append(nest, from, nl + 1 - from).append("    ");
        indented.append(nest, from);
        out << indented;
    }
    out << "\n  ]" << std::string_view(document).substr(at + slot.size());
}

Program program_from_json(const json& j) {
    Program p;
    p.file = j.at("file").get<std::string>();
    p.preprocessor = j.value("preprocessor", std::string());
    for (auto [key, field] : {std::pair{"vector_report", &p.vector_report}, std::pair{"vector_report_missing", &p.vector_report_missing}}) {
        const auto v = j.find(key);
        if (v != j.end() && v->is_string()) *field = v->get<std::string>();
    }
    for (const auto& n : j.at("nests")) p.nests.push_back(nest_from(n));
    for (const auto& d : j.at("diagnostics")) p.diagnostics.push_back(diag_from(d));
    return p;
}

}  // namespace recipe::analyzer
