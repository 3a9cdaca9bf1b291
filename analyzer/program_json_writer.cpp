// program_json_writer.cpp — writes a Program as JSON straight to a stream,
// byte for byte what to_json(p).dump(2) prints, without building the tree
// first: a file of 10,000 nests makes a document of ~70 MB, whose nlohmann
// tree costs ~700 MB and seconds to build. Keys come in the order the tree
// prints them (nlohmann::json keeps objects in std::map, so sorted by key);
// tests compare the two writers on every sample and test input.
#include "analyzer/program_json.h"

#include <charconv>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "analyzer/parallel.h"

namespace recipe::analyzer {

namespace {

constexpr std::size_t kNestsPerRun = 64;  // ~0.5 MB of text: the runs held at once stay small

// Pretty-prints JSON as nlohmann's dump(2) does: two spaces per level, one
// value per line, `"key": value`, and `{}` / `[]` for empty containers.
// Appends to a string; a writer may start inside containers opened by
// another (`open`: for each, outermost first, whether nothing has been
// written in it yet), so that runs of nests can be written side by side.
class JsonWriter {
public:
    explicit JsonWriter(std::string& into, std::vector<bool> open = {}) : buf_(into), empty_(std::move(open)) {}
    ~JsonWriter() = default;
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }

    // The next value belongs to `name` (names are plain ASCII literals).
    void key(std::string_view name) {
        element();
        buf_ += '"';
        buf_.append(name);
        buf_ += "\": ";
        keyed_ = true;
    }

    void string(std::string_view s) {
        element();
        write_string(s);
    }
    void boolean(bool b) {
        element();
        buf_ += b ? "true" : "false";
    }
    void null() {
        element();
        buf_ += "null";
    }
    template <class T>
        requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
    void number(T v) {
        element();
        char tmp[24];
        auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        buf_.append(tmp, r.ptr);
    }

private:
    std::string& buf_;
    std::vector<bool> empty_;  // per open container: nothing written in it yet
    bool keyed_ = false;       // a key was just written: its value follows on the same line

    // Two appends: one from a static run of ",\n" and spaces measured
    // three times slower (GCC copies it with `rep movsq`).
    void line_break(bool comma) {
        buf_ += comma ? ",\n" : "\n";
        buf_.append(2 * empty_.size(), ' ');
    }

    // Separates a new value from what came before in its container.
    void element() {
        if (keyed_) {
            keyed_ = false;
            return;
        }
        if (empty_.empty()) return;  // the document itself
        line_break(!empty_.back());
        empty_.back() = false;
    }

    void open(char bracket) {
        element();
        buf_ += bracket;
        empty_.push_back(true);
    }

    void close(char bracket) {
        bool was_empty = empty_.back();
        empty_.pop_back();
        if (!was_empty) line_break(false);
        buf_ += bracket;
    }

    // Printable ASCII other than the quote and the backslash is written as
    // is; any other string goes through nlohmann's own escaping, so control
    // characters and UTF-8 come out exactly as the tree prints them. Bytes
    // that are not UTF-8 (a message cut inside a character) become U+FFFD
    // instead of failing the whole document.
    void write_string(std::string_view s) {
        bool plain = true;
        for (char c : s) {
            auto u = static_cast<unsigned char>(c);
            if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') {
                plain = false;
                break;
            }
        }
        if (plain) {
            buf_ += '"';
            buf_.append(s);
            buf_ += '"';
            return;
        }
        buf_ += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
};

void write_pos(JsonWriter& w, const SourcePos& p) {
    w.begin_object();
    w.key("column");
    w.number(p.column);
    w.key("line");
    w.number(p.line);
    w.end_object();
}

void write_span(JsonWriter& w, const SourceSpan& s) {
    w.begin_object();
    w.key("begin");
    write_pos(w, s.begin);
    w.key("begin_byte");
    w.number(s.begin_byte);
    w.key("end");
    write_pos(w, s.end);
    w.key("end_byte");
    w.number(s.end_byte);
    w.end_object();
}

void write_extent(JsonWriter& w, const Extent& e) {
    w.begin_object();
    w.key("expr");
    w.string(e.expr);
    w.key("value");
    if (e.value) w.number(*e.value);
    else w.null();
    w.end_object();
}

void write_diagnostic(JsonWriter& w, const Diagnostic& d) {
    w.begin_object();
    w.key("column");
    w.number(d.pos.column);
    w.key("file");
    w.string(d.file);
    w.key("line");
    w.number(d.pos.line);
    w.key("message");
    w.string(d.message);
    w.key("rule");
    w.string(d.rule_id);
    w.key("severity");
    w.string(to_string(d.severity));
    w.end_object();
}

void write_ints(JsonWriter& w, const std::vector<int>& v) {
    w.begin_array();
    for (int x : v) w.number(x);
    w.end_array();
}

void write_int_rows(JsonWriter& w, const std::vector<std::vector<int>>& rows) {
    w.begin_array();
    for (const auto& r : rows) write_ints(w, r);
    w.end_array();
}

void write_strings(JsonWriter& w, const std::vector<std::string>& v) {
    w.begin_array();
    for (const auto& s : v) w.string(s);
    w.end_array();
}

void write_access(JsonWriter& w, const ArrayAccess& x) {
    w.begin_object();
    w.key("clamped");
    w.boolean(x.clamped);
    w.key("guarded");
    w.boolean(x.guarded);
    w.key("offset");
    write_ints(w, x.offset);
    w.key("read");
    w.boolean(x.read);
    w.key("span");
    write_span(w, x.span);
    w.key("text");
    w.string(x.text);
    w.key("window_offsets");
    write_int_rows(w, x.window_offsets);
    w.key("write");
    w.boolean(x.write);
    w.end_object();
}

void write_array(JsonWriter& w, const ArrayProperties& a) {
    w.begin_object();
    w.key("accesses");
    w.begin_array();
    for (const auto& x : a.accesses) write_access(w, x);
    w.end_array();
    w.key("bytes_per_element");
    w.number(a.bytes_per_element);
    w.key("element_type");
    w.string(a.element_type);
    w.key("layout");
    w.string(to_string(a.layout));
    w.key("linear_index");
    w.string(a.linear_index);
    w.key("mapping");
    write_int_rows(w, a.mapping);
    w.key("name");
    w.string(a.name);
    w.key("pinned_host");
    w.boolean(a.pinned_host);
    w.key("reads_own_element");
    w.boolean(a.reads_own_element);
    w.key("size");
    w.begin_array();
    for (const auto& e : a.size) write_extent(w, e);
    w.end_array();
    w.key("stencil");
    write_int_rows(w, a.stencil);
    w.end_object();
}

void write_time_loop(JsonWriter& w, const TimeLoop& t) {
    w.begin_object();
    w.key("arrays");
    write_strings(w, t.arrays);
    w.key("condition");
    w.string(t.condition);
    w.key("exchange");
    w.string(to_string(t.exchange));
    w.key("form");
    w.string(to_string(t.form));
    w.key("iterations");
    write_extent(w, t.iterations);
    w.key("span");
    write_span(w, t.span);
    w.key("toggle");
    w.string(t.toggle);
    w.key("var");
    w.string(t.var);
    w.end_object();
}

void write_nest(JsonWriter& w, const LoopNest& n) {
    w.begin_object();
    w.key("accepted");
    w.boolean(n.accepted);
    w.key("body_span");
    write_span(w, n.body_span);
    w.key("boundaries");
    w.begin_array();
    for (const auto& b : n.boundaries) {
        w.begin_object();
        w.key("kind");
        w.string(to_string(b.kind));
        w.key("span");
        write_span(w, b.span);
        w.key("text");
        w.string(b.text);
        w.end_object();
    }
    w.end_array();
    w.key("dependences");
    w.begin_array();
    for (const auto& d : n.dependences) {
        w.begin_object();
        w.key("array");
        w.string(d.array);
        w.key("distance");
        write_ints(w, d.distance);
        w.key("kind");
        w.string(to_string(d.kind));
        w.key("span");
        write_span(w, d.span);
        w.end_object();
    }
    w.end_array();
    w.key("dimensionality");
    w.number(n.dimensionality);
    w.key("file");
    w.string(n.file);
    w.key("function");
    w.string(n.function);
    w.key("function_span");
    write_span(w, n.function_span);
    w.key("id");
    w.number(n.id);
    w.key("innermost_is_contiguous");
    w.boolean(n.innermost_is_contiguous);
    w.key("input_arrays");
    w.begin_array();
    for (const auto& a : n.input_arrays) write_array(w, a);
    w.end_array();
    w.key("iteration_space");
    w.begin_array();
    for (const auto& l : n.iteration_space) {
        w.begin_object();
        w.key("depth");
        w.number(l.depth);
        w.key("lower");
        write_extent(w, l.lower);
        w.key("span");
        write_span(w, l.span);
        w.key("stride");
        w.number(l.stride);
        w.key("upper");
        write_extent(w, l.upper);
        w.key("var");
        w.string(l.var);
        w.end_object();
    }
    w.end_array();
    w.key("kind");
    w.string(to_string(n.kind));
    w.key("ops");
    w.begin_object();
    w.key("adds");
    w.number(n.ops.adds);
    w.key("divs");
    w.number(n.ops.divs);
    w.key("flops");
    w.number(n.ops.flops());
    w.key("muls");
    w.number(n.ops.muls);
    w.key("other");
    w.number(n.ops.other);
    w.key("reads");
    w.number(n.ops.reads);
    w.key("writes");
    w.number(n.ops.writes);
    w.end_object();
    w.key("output_arrays");
    w.begin_array();
    for (const auto& a : n.output_arrays) write_array(w, a);
    w.end_array();
    w.key("reasons");
    w.begin_array();
    for (const auto& d : n.reasons) write_diagnostic(w, d);
    w.end_array();
    w.key("scalars_read");
    w.begin_array();
    for (const auto& s : n.scalars_read) {
        w.begin_object();
        w.key("name");
        w.string(s.name);
        w.key("type");
        w.string(s.type);
        w.end_object();
    }
    w.end_array();
    w.key("span");
    write_span(w, n.span);
    w.key("time_loop");
    if (n.time_loop) write_time_loop(w, *n.time_loop);
    else w.null();
    w.key("window_loops");
    w.begin_array();
    for (const auto& x : n.window_loops) {
        w.begin_object();
        w.key("lower");
        w.number(x.lower);
        w.key("span");
        write_span(w, x.span);
        w.key("stride");
        w.number(x.stride);
        w.key("upper");
        w.number(x.upper);
        w.key("var");
        w.string(x.var);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

}  // namespace

void write_json(std::ostream& out, const Program& p) {
    std::string text;
    JsonWriter w(text);
    int accepted = 0;
    for (const auto& n : p.nests) accepted += n.accepted ? 1 : 0;
    w.begin_object();
    w.key("accepted_nests");
    w.number(accepted);
    w.key("diagnostics");
    w.begin_array();
    for (const auto& d : p.diagnostics) write_diagnostic(w, d);
    w.end_array();
    w.key("file");
    w.string(p.file);
    w.key("nests");
    w.begin_array();
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    // The nests (nearly all of a large file's document) in runs side by
    // side, each run's writer inside the top object and the nests array.
    write_in_runs(out, p.nests.size(), kNestsPerRun, [&](std::size_t begin, std::size_t end, std::string& into) {
        JsonWriter run(into, {false, begin == 0});
        for (std::size_t i = begin; i < end; ++i) write_nest(run, p.nests[i]);
    });
    text.clear();
    JsonWriter tail(text, {false, p.nests.empty()});
    tail.end_array();
    tail.key("preprocessor");
    tail.string(p.preprocessor);
    tail.key("schema_version");
    tail.number(kProgramSchemaVersion);
    tail.end_object();
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace recipe::analyzer
