#include "recipes/nest_conversion.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "advisor/plan.h"
#include "analyzer/macro_values.h"
#include "analyzer/source_map.h"
#include "recipes/c_declarations.h"
#include "recipes/c_tree.h"
#include "recipes/nest_source_facts.h"
#include "recipes/source_rewriter.h"

namespace recipe::recipes {

namespace {

using namespace facts;
using analyzer::ArrayLayout;
using analyzer::ArrayProperties;
using analyzer::LoopNest;

struct Failure {
    std::string why;
};

// C math functions whose CUDA device versions are not correctly rounded (CUDA
// C Programming Guide, "Mathematical Functions": sinf 2 ulp, expf 2 ulp, ...),
// while glibc's usually are: results differ in the last bits. sqrt, fabs,
// fmin/fmax, floor/ceil/trunc/round and fma are exact on both sides.
const std::set<std::string> kInexactMath = {
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "pow", "cbrt", "hypot", "erf", "erfc",
    "tgamma", "lgamma", "sinf", "cosf", "tanf", "asinf", "acosf", "atanf", "atan2f", "sinhf", "coshf", "tanhf",
    "asinhf", "acoshf", "atanhf", "expf", "exp2f", "exp10f", "expm1f", "logf", "log2f", "log10f", "log1pf", "powf",
    "cbrtf", "hypotf", "erff", "erfcf", "tgammaf", "lgammaf"};

}  // namespace

std::string time_loop_body_problem(const CTree& t, TSNode loop, const analyzer::TimeLoop& tl,
                                   const std::vector<analyzer::SourceSpan>& nests, bool loop_stays) {
    TSNode body = field(loop, "body");
    if (!is(body, "compound_statement")) {
        // `for (t = 0; t < T; t++) for (i = ...) ...`: the nest is the body.
        const bool nest = std::any_of(nests.begin(), nests.end(), [&](const analyzer::SourceSpan& n) {
            return ts_node_start_byte(body) == n.begin_byte && ts_node_end_byte(body) == n.end_byte;
        });
        return nest ? "" : "the time loop's body is neither a block nor one of its nests";
    }
    const TSNode extra = loop_body_extra(t, body, tl.var, std::set<std::string>(tl.arrays.begin(), tl.arrays.end()), [&](TSNode s) {
        return std::any_of(nests.begin(), nests.end(), [&](const analyzer::SourceSpan& n) {
            return ts_node_start_byte(s) == n.begin_byte && ts_node_end_byte(s) == n.end_byte;
        });
    }, nullptr, loop_stays);
    if (ts_node_is_null(extra)) return "";
    return "the time loop also runs `" + std::string(t.text(extra)).substr(0, 40) + "` (line " +
           std::to_string(t.user_line(extra)) + ") every step";
}

namespace {

// Marks a statement the kernel drops; its line goes when nothing else is on it.
constexpr char kDroppedMark = '\x01';

std::string without_dropped_lines(const std::string& body) {
    if (body.find(kDroppedMark) == std::string::npos) return body;
    std::string out;
    std::size_t at = 0;
    while (at <= body.size()) {
        const std::size_t nl = body.find('\n', at);
        const std::size_t end = nl == std::string::npos ? body.size() : nl;
        std::string line = body.substr(at, end - at);
        const bool marked = line.find(kDroppedMark) != std::string::npos;
        line.erase(std::remove(line.begin(), line.end(), kDroppedMark), line.end());
        const bool blank = line.find_first_not_of(" \t\r") == std::string::npos;
        if (!(marked && blank)) out += line + (nl == std::string::npos ? "" : "\n");
        if (nl == std::string::npos) break;
        at = nl + 1;
    }
    return out;
}

// Checks that the time loop's body does nothing but run the nest, swap the
// arrays and count: anything else would be lost when the loop is replaced.
void check_time_loop_body(const CTree& t, TSNode loop, const LoopNest& nest) {
    const std::string why = time_loop_body_problem(t, loop, *nest.time_loop, {nest.span}, false);
    if (!why.empty()) throw Failure{why + ", which the library call would drop"};
}

// Whether array dimension d is walked by loop dimension d alone, with
// coefficient 1 (x first): then an access's offsets are its coordinates.
bool identity_mapping(const ArrayProperties& a, int dims) {
    if (static_cast<int>(a.mapping.size()) != dims) return false;
    for (int i = 0; i < dims; ++i) {
        const auto& row = a.mapping[static_cast<std::size_t>(i)];
        if (static_cast<int>(row.size()) != dims) return false;
        for (int l = 0; l < dims; ++l)
            if (row[static_cast<std::size_t>(l)] != (i == l ? 1 : 0)) return false;
    }
    return true;
}

// The kernel body as the user wrote it: the main file's text of the body
// with the access edits moved into it. Empty when some end does not map
// (the body or an access lies inside a macro's expansion).
std::string original_body(const analyzer::SourceMap& map, std::uint32_t begin, std::uint32_t end, const std::vector<Edit>& edits) {
    const auto ob = map.to_original(begin, false);
    const auto oe = map.to_original(end, true);
    if (!ob || !oe || *oe < *ob) return "";
    std::vector<Edit> moved;
    for (const auto& e : edits) {
        const auto b = map.to_original(begin + e.begin, false);
        const auto x = map.to_original(begin + e.end, true);
        if (!b || !x || *b < *ob || *x > *oe || *x < *b) return "";
        moved.push_back({*b - *ob, *x - *ob, e.replacement});
    }
    return apply_edits(std::string_view(map.original()).substr(*ob, *oe - *ob), moved);
}

// `text` without its last `count` subscripts (`ez[NX - 2][j]`, 1: `ez[NX - 2]`); "" when it does not end in them.
std::string without_subscripts(std::string text, std::size_t count) {
    for (; count > 0; --count) {
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
        if (text.empty() || text.back() != ']') return "";
        int depth = 0;
        std::size_t i = text.size();
        while (i > 0) {
            const char ch = text[--i];
            if (ch == ']') ++depth;
            else if (ch == '[' && --depth == 0) break;
        }
        if (depth != 0) return "";
        text.erase(i);
    }
    return text;
}

// What the steps of convert() share: the nest and its file, the conversion
// they fill in, and what one step finds for the later ones. Every field
// after `c` has an initialiser, so convert() names only the first six.
struct Converting {
    const CTree& t;
    const LoopNest& nest;
    std::set<std::string>* taken;
    const analyzer::SourceMap* map;
    NestConversion* c;
    std::string_view src{};  // t's text
    bool iterate = false;    // the time loop becomes one recipe::iterate call
    std::vector<const ArrayProperties*> all{};     // the arrays the kernel views: inputs, then outputs
    std::vector<const ArrayProperties*> wholes{};  // inputs read whole (advisor::whole_input)
    std::set<std::string> output_names{};
    std::map<std::string, std::string> view_name{}, element_of{};  // by array
    TSNode body_node{};
    std::uint32_t body_begin = 0, body_end = 0;  // the body's text (trim_body)
    std::string body_text{};
    std::set<std::string> array_names{};
    std::vector<const analyzer::ArrayAccess*> accesses{};  // in the order of the text
    std::vector<Edit> body_edits{};                        // offsets from body_begin
    std::set<std::string> macros_defined{};                // by the file or its preprocessing

    // The text of `span` as the user's file has it (macros unexpanded); "" inside a macro's expansion.
    std::string original(const analyzer::SourceSpan& span) const {
        if (!map) return std::string(src.substr(span.begin_byte, span.end_byte - span.begin_byte));
        return map->original_text(span.begin_byte, span.end_byte).value_or("");
    }

    // Lines of the preprocessed text, as the user's file numbers them.
    int user_line(std::uint32_t row) const {
        const int line = static_cast<int>(row) + 1;
        const int mapped = map ? map->lines().origin(line).line : line;
        return mapped > 0 ? mapped : line;
    }
};

// The nest's id and function, its time loop's kind and its dimensions.
void read_nest(Converting& conv) {
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    c->nest_id = nest.id;
    c->function = nest.function;
    // A time loop that swaps two pointers becomes one recipe::iterate call;
    // any other (PolyBench's B = f(A); A = f(B) with fixed arrays, several
    // nests per step) keeps its loop, and the nest runs on the GPU each step.
    conv.iterate = nest.time_loop && nest.time_loop->exchange == analyzer::TimeLoop::Exchange::PointerSwap;
    c->step_by_step = nest.time_loop && !conv.iterate;
    c->dims = nest.dimensionality;
    if (c->dims < 1 || c->dims > 3 || static_cast<int>(nest.iteration_space.size()) != c->dims)
        throw Failure{"the nest has " + std::to_string(nest.dimensionality) + " dimensions; the library runs 1 to 3"};
}

// Loops, x first: counters and bounds.
void read_loops(Converting& conv) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    static const char kAxes[] = {'x', 'y', 'z'};
    for (int d = 0; d < c->dims; ++d) {
        const auto& lp = nest.iteration_space[static_cast<std::size_t>(d)];
        if (lp.stride != 1) throw Failure{"loop `" + lp.var + "` steps by " + std::to_string(lp.stride) + "; the library visits every point"};
        if (!is(node_for(t, lp.span), "for_statement"))
            throw Failure{"loop `" + lp.var + "` is not a for statement the generator can read"};
        if (lp.upper_written.empty()) throw Failure{"the upper bound of loop `" + lp.var + "` is not readable"};
        c->index_vars.push_back({lp.var, without_const(lp.counter_type), kAxes[d]});
        c->space_begin[static_cast<std::size_t>(d)] = lp.lower_written;
        c->space_end[static_cast<std::size_t>(d)] = lp.upper_written;
    }
}

// Arrays: the inputs read whole apart, the others (inputs, then outputs)
// the kernel's views.
void sort_arrays(Converting& conv) {
    const LoopNest& nest = conv.nest;
    for (const auto& a : nest.output_arrays) conv.output_names.insert(a.name);
    for (const auto& a : nest.input_arrays) {
        if (conv.output_names.count(a.name)) continue;
        if (advisor::whole_input(a, nest)) conv.wholes.push_back(&a);
        else conv.all.push_back(&a);
    }
    for (const auto& a : nest.output_arrays) conv.all.push_back(&a);
    if (nest.output_arrays.empty()) throw Failure{"the nest writes no array"};
}

// Inputs read whole reach the kernel as pointers, passed through recipe::whole.
void pass_whole_inputs(Converting& conv) {
    NestConversion* c = conv.c;
    for (const auto* w : conv.wholes) {
        if (w->layout != ArrayLayout::Flat && w->layout != ArrayLayout::MultiDim)
            throw Failure{"`" + w->name + "` is reached through pointers; only arrays can be read whole"};
        if (w->name.find('[') != std::string::npos)
            throw Failure{"`" + w->name + "` is one part of an array, read whole; only whole arrays can be"};
        const std::string count = extent_text(w->size.front());
        if (count.empty()) throw Failure{"the extent of `" + w->name + "` is unknown"};
        if (w->element_type.empty()) throw Failure{"the element type of `" + w->name + "` is unknown"};
        const std::string pointer = w->layout == ArrayLayout::MultiDim ? "&" + w->name + "[0]" : w->name;
        c->scalars.push_back({w->name, "const " + without_const(w->element_type) + "*",
                              "recipe::whole(" + pointer + ", static_cast<std::size_t>(" + count + "))"});
        c->wholes.push_back(w->name);
    }
}

// An array's name as the user's file spells it: a part (`ez[NX - 2]`, which
// the analyzer reads preprocessed) from the text of its first access.
std::string written_name(const Converting& conv, const ArrayProperties& a) {
    if (a.name.find('[') == std::string::npos || a.accesses.empty()) return a.name;
    const std::size_t subscripts = a.layout == ArrayLayout::Flat ? 1 : a.size.size();
    const std::string written = without_subscripts(conv.original(a.accesses.front().span), subscripts);
    return written.empty() ? a.name : analyzer::squeeze(written);
}

// Arrays held in structs (`in->u`, `g.u`): the kernel's view gets a
// name of its own (`in_u`), the element type comes from the struct.
void name_views(Converting& conv) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    for (const auto* a : conv.all) {
        const bool member = a->name.find("->") != std::string::npos || a->name.find('.') != std::string::npos;
        std::string element = a->element_type;
        if (member && element.empty()) {
            std::string type = field_type(t, a->name, nest.span.begin_byte);
            if (!type.empty() && type.back() == '*') {
                type.pop_back();
                while (!type.empty() && type.back() == ' ') type.pop_back();
                element = type;
            }
        }
        conv.element_of[a->name] = element;
        std::string view = a->name;
        if (view.find('[') != std::string::npos) view = identifier_for(written_name(conv, *a));  // a part, `ey[0]`: `ey_0`
        if (member) {
            view = identifier_for(view);
        }
        if (view != a->name) view = unique_name(view, t, conv.taken);
        conv.view_name[a->name] = view;
    }
}

// Arrays: one shape shared by all (the first one's extents are the
// call's), and a known element type for each.
void check_shapes(Converting& conv) {
    NestConversion* c = conv.c;
    const ArrayProperties& shape = *conv.all.front();
    for (const auto* a : conv.all) {
        if (static_cast<int>(a->size.size()) != c->dims)
            throw Failure{"array `" + a->name + "` has " + std::to_string(a->size.size()) + " dimensions in a " +
                          std::to_string(c->dims) + "-dimensional nest; the library gives every array the nest's shape"};
        for (int d = 0; d < c->dims; ++d)
            if (!same_extent(a->size[static_cast<std::size_t>(d)], shape.size[static_cast<std::size_t>(d)]))
                throw Failure{"arrays `" + shape.name + "` and `" + a->name + "` differ in extent; the library needs one shape for all"};
        if (conv.element_of[a->name].empty()) throw Failure{"the element type of `" + a->name + "` is unknown"};
    }
    for (int d = 0; d < c->dims; ++d) {
        c->extents[static_cast<std::size_t>(d)] = extent_text(shape.size[static_cast<std::size_t>(d)]);
        if (c->extents[static_cast<std::size_t>(d)].empty()) throw Failure{"the extent of `" + shape.name + "` is unknown"};
    }
}

// The loop body in the syntax tree.
void find_body(Converting& conv) {
    conv.body_node = node_for(conv.t, conv.nest.body_span);
    if (ts_node_is_null(conv.body_node)) throw Failure{"the loop body's span does not match the source"};
}

// An array's role, either way: its view's name and element type, and what
// the library is given (rows reached through pointers are gathered first).
ArrayRole make_role(const Converting& conv, const ArrayProperties& a) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    ArrayRole r;
    r.name = conv.view_name.at(a.name);
    r.element_type = without_const(conv.element_of.at(a.name));
    r.layout = a.layout;
    r.pinned = a.pinned_host;
    r.zero_pages = a.zero_pages;
    r.written_before_by = a.written_before_by;
    const std::string name = written_name(conv, a);
    if (const auto bracket = a.name.find('['); bracket != std::string::npos) r.part_of = a.name.substr(0, bracket);
    switch (a.layout) {
        case ArrayLayout::Flat: r.host_pointer = name; break;
        case ArrayLayout::MultiDim: {
            VlaParameter vla;
            if (vla_parameter(t, a.name, nest.span.begin_byte, &vla)) {
                r.host_pointer = a.name;  // `float A[ni][nj]` becomes `float *A` in the .cu (cpp_compat)
                r.vla_parameter = true;
                break;
            }
            r.host_pointer = "&" + name;
            for (int d = 0; d < c->dims; ++d) r.host_pointer += "[0]";
            break;
        }
        case ArrayLayout::PointerToPointer:
            if (c->dims != 2) throw Failure{"`" + a.name + "` is reached through pointers in " + std::to_string(c->dims) + " dimensions; only rows of a 2D array can be gathered"};
            r.flatten = true;
            r.flat_name = unique_name(a.name + "_block", t, conv.taken);
            r.host_pointer = r.flat_name + ".data()";
            break;
    }
    return r;
}

// Arrays: inputs with their halos, outputs with whether the kernel must
// also read them (inout).
void assign_roles(Converting& conv) {
    NestConversion* c = conv.c;
    for (const auto* a : conv.all) {
        ArrayRole r = make_role(conv, *a);
        if (!conv.output_names.count(a->name)) {
            r.halo = {a->halo().lo, a->halo().hi};
            c->inputs.push_back(r);
            continue;
        }
        // The analyzer decides whether the old values are needed (one place
        // for the model and the code); the recipe says why.
        if (a->needs_old_values) {
            r.inout = true;
            const auto w = static_cast<std::size_t>(a->partial_write);
            r.inout_reason = a->partial_write < 0 || w >= a->accesses.size()
                                 ? "the body also reads `" + a->name + "` at its own point"
                                 : "the body writes `" + a->name + "` on some points only (line " +
                                       std::to_string(a->accesses[w].span.begin.line) + ")";
        }
        c->outputs.push_back(r);
    }
}

// The body's text: inside its braces, without the blanks around it, from
// the start of its first line.
void trim_body(Converting& conv) {
    const std::string_view src = conv.src;
    std::uint32_t& body_begin = conv.body_begin;
    std::uint32_t& body_end = conv.body_end;
    body_begin = conv.nest.body_span.begin_byte;
    body_end = conv.nest.body_span.end_byte;
    if (is(conv.body_node, "compound_statement")) {
        ++body_begin;  // inside the braces
        --body_end;
    }
    while (body_begin < body_end && (src[body_begin] == ' ' || src[body_begin] == '\t' || src[body_begin] == '\n' || src[body_begin] == '\r')) ++body_begin;
    while (body_end > body_begin && (src[body_end - 1] == ' ' || src[body_end - 1] == '\t' || src[body_end - 1] == '\n' || src[body_end - 1] == '\r')) --body_end;
    if (only_blanks_before(src, body_begin)) body_begin = line_start(src, body_begin);
    conv.body_text = std::string(src.substr(body_begin, body_end - body_begin));
}

// The nest's arrays by name, and all their accesses in the order of the text.
void collect_accesses(Converting& conv) {
    const LoopNest& nest = conv.nest;
    for (const auto& a : nest.input_arrays) {
        conv.array_names.insert(a.name);
        for (const auto& acc : a.accesses) conv.accesses.push_back(&acc);
    }
    for (const auto& a : nest.output_arrays) {
        conv.array_names.insert(a.name);
        for (const auto& acc : a.accesses) conv.accesses.push_back(&acc);
    }
    std::sort(conv.accesses.begin(), conv.accesses.end(), [](auto* x, auto* y) { return x->span.begin_byte < y->span.begin_byte; });
}

// The array of the kernel's views that lists `acc`, or null.
const ArrayProperties* array_of(const Converting& conv, const analyzer::ArrayAccess* acc) {
    for (const auto* a : conv.all)
        if (std::any_of(a->accesses.begin(), a->accesses.end(), [&](const auto& x) { return &x == acc; })) return a;
    return nullptr;
}

// An index the text does not show (a temporary `c = i * n + j`, a helper):
// the analyzer's offset from the iteration point gives the coordinates,
// where the array follows the loops one to one. The array it rewrote, or null.
const ArrayProperties* rewrite_by_offset(Converting& conv, const analyzer::ArrayAccess* acc) {
    NestConversion* c = conv.c;
    const ArrayProperties* owner = nullptr;
    for (const auto* a : conv.all) {
        const bool mine = std::any_of(a->accesses.begin(), a->accesses.end(), [&](const auto& x) { return &x == acc; });
        if (!mine || !identity_mapping(*a, c->dims) || acc->clamped || !acc->window_offsets.empty() ||
            static_cast<int>(acc->offset.size()) != c->dims)
            continue;
        owner = a;
        AccessChange ch;
        ch.pos = acc->span.begin;
        ch.before = acc->text;
        ch.after = conv.view_name.at(a->name) + "(";
        for (int d = 0; d < c->dims; ++d) {
            const int off = acc->offset[static_cast<std::size_t>(d)];
            ch.after += (d ? ", " : "") + c->index_vars[static_cast<std::size_t>(d)].name +
                        (off > 0 ? " + " + std::to_string(off) : off < 0 ? " - " + std::to_string(-off) : "");
        }
        ch.after += ")";
        ch.begin = acc->span.begin_byte;
        ch.end = acc->span.end_byte;
        c->accesses.push_back(ch);
        conv.body_edits.push_back({ch.begin - conv.body_begin, ch.end - conv.body_begin, ch.after});
    }
    return owner;
}

// Accesses: split into coordinates and rewritten as view calls.
void rewrite_accesses(Converting& conv) {
    const std::string_view src = conv.src;
    NestConversion* c = conv.c;
    const std::uint32_t body_begin = conv.body_begin, body_end = conv.body_end;
    std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
    std::set<const analyzer::ArrayAccess*> whole_accesses;
    for (const auto* w : conv.wholes)
        for (const auto& acc : w->accesses) whole_accesses.insert(&acc);
    for (const auto* acc : conv.accesses) {
        if (whole_accesses.count(acc)) continue;  // read as the C code does, through a device pointer
        if (!seen.insert({acc->span.begin_byte, acc->span.end_byte}).second) continue;  // listed as read and write
        if (acc->span.begin_byte < body_begin || acc->span.end_byte > body_end)
            throw Failure{"the access `" + acc->text + "` (line " + std::to_string(acc->span.begin.line) + ") is outside the loop body"};
        const std::string text(src.substr(acc->span.begin_byte, acc->span.end_byte - acc->span.begin_byte));
        const ArrayProperties* owner = acc->coordinates.empty() ? nullptr : array_of(conv, acc);
        if (owner) {
            AccessChange ch;
            ch.pos = acc->span.begin;
            ch.before = acc->text;  // as the user wrote it
            ch.after = conv.view_name.at(owner->name) + "(";
            for (std::size_t i = 0; i < acc->coordinates.size(); ++i) ch.after += (i ? ", " : "") + acc->coordinates[i];
            ch.after += ")";
            ch.begin = acc->span.begin_byte;
            ch.end = acc->span.end_byte;
            c->accesses.push_back(ch);
            conv.body_edits.push_back({ch.begin - body_begin, ch.end - body_begin, ch.after});
        }
        if (!owner) owner = rewrite_by_offset(conv, acc);
        if (!owner && !acc->why_no_coordinates.empty())
            throw Failure{"cannot split the index of `" + text + "` into coordinates: " + acc->why_no_coordinates};
        if (!owner) throw Failure{"the access `" + text + "` names none of the nest's arrays"};
    }
}

// Elements read at one place for the whole nest (`_fict_[t]`): the host reads
// each before the launch and the kernel takes it as a parameter.
void pass_invariant_reads(Converting& conv) {
    NestConversion* c = conv.c;
    std::map<std::string, std::string> by_text;  // the argument as written -> the parameter
    for (const auto& r : conv.nest.invariant_reads) {
        if (r.span.begin_byte < conv.body_begin || r.span.end_byte > conv.body_end)
            throw Failure{"the read `" + r.text + "` (line " + std::to_string(r.span.begin.line) + ") is outside the loop body"};
        const std::string argument = conv.original(r.span);
        if (argument.empty()) throw Failure{"the read `" + r.text + "` lies inside a macro's expansion"};
        if (conv.iterate && contains_identifier(argument, conv.nest.time_loop->var))
            throw Failure{"the body reads `" + argument + "`, which changes every step of the time loop the library runs"};
        auto it = by_text.find(argument);
        if (it == by_text.end()) {
            const std::string name = unique_name(identifier_for(argument), conv.t, conv.taken);
            c->scalars.push_back({name, without_const(r.element_type), argument});
            c->invariant_reads.push_back(argument);
            it = by_text.emplace(argument, name).first;
        }
        conv.body_edits.push_back({r.span.begin_byte - conv.body_begin, r.span.end_byte - conv.body_begin, it->second});
    }
}

// The body's first and last lines, as the user's file numbers them.
void number_body_lines(Converting& conv) {
    NestConversion* c = conv.c;
    const TSNode body_node = conv.body_node;
    c->body_first_line = conv.user_line(ts_node_start_point(body_node).row) + (is(body_node, "compound_statement") ? 1 : 0);
    c->body_last_line = conv.user_line(ts_node_end_point(body_node).row) - (is(body_node, "compound_statement") ? 1 : 0);
    if (c->body_last_line < c->body_first_line) c->body_last_line = c->body_first_line;
}

// Calls: math that rounds differently on the GPU, and this file's own
// functions, which must become __host__ __device__ (with what they call).
void find_calls(Converting& conv) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    const std::map<std::string, TSNode, std::less<>>& defined = t.function_definitions();
    std::vector<TSNode> scan{conv.body_node};
    std::set<std::string> seen_fns;
    while (!scan.empty()) {
        const TSNode node = scan.back();
        scan.pop_back();
        walk(node, [&](TSNode n) {
            if (!is(n, "call_expression")) return;
            const std::string fn(t.text(field(n, "function")));
            if (kInexactMath.count(fn) && std::find(c->inexact_calls.begin(), c->inexact_calls.end(), fn) == c->inexact_calls.end())
                c->inexact_calls.push_back(fn);
            const auto def = defined.find(fn);
            if (def == defined.end() || !seen_fns.insert(fn).second) return;
            if (fn == nest.function) throw Failure{"the body calls `" + fn + "`, the function the nest is in"};
            NestConversion::DeviceFunction f;
            f.name = fn;
            f.line = conv.user_line(ts_node_start_point(def->second).row);
            f.insert_at = t.function_declarations(fn);
            c->device_functions.push_back(f);
            scan.push_back(field(def->second, "body"));
        });
    }
}

// Struct fields the body reads outside the rewritten accesses (`in->nx`
// in `int c = j * in->nx + i`): the kernel cannot reach the host's
// struct, so each becomes a parameter passed by value (`in_nx`).
void pass_struct_fields(Converting& conv) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> access_spans;
    for (const auto* acc : conv.accesses) access_spans.emplace_back(acc->span.begin_byte, acc->span.end_byte);
    std::map<std::string, std::string> field_param;
    walk(conv.body_node, [&](TSNode n) {
        if (!is(n, "field_expression") || is(ts_node_parent(n), "field_expression")) return;
        const std::uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
        for (const auto& [ab, ae] : access_spans)
            if (b >= ab && e <= ae) return;
        std::string path;
        for (char ch : t.text(n))
            if (ch != ' ' && ch != '\t' && ch != '\n') path += ch;
        auto it = field_param.find(path);
        if (it == field_param.end()) {
            const std::string type = field_type(t, path, nest.span.begin_byte);
            if (type.empty() || is_pointer_or_array(type))
                throw Failure{"the body reads `" + path + "`, a struct field the kernel cannot reach" +
                              (type.empty() ? std::string() : " (" + type + ")")};
            std::string name = path;
            for (auto at = name.find("->"); at != std::string::npos; at = name.find("->")) name.replace(at, 2, "_");
            for (auto& ch : name)
                if (ch == '.') ch = '_';
            name = unique_name(name, t, conv.taken);
            c->scalars.push_back({name, without_const(type), path});
            it = field_param.emplace(path, name).first;
        }
        conv.body_edits.push_back({b - conv.body_begin, e - conv.body_begin, it->second});
    });
}

// Index temporaries the rewritten accesses no longer read (`size_t c =
// y * W + x;` once every `in[c]` became `in(x, y)`) are dropped, or the
// kernel would declare a variable it never uses.
void drop_index_temporaries(Converting& conv) {
    const CTree& t = conv.t;
    const TSNode body_node = conv.body_node;
    const std::uint32_t body_begin = conv.body_begin;
    std::vector<Edit>& body_edits = conv.body_edits;
    if (!is(body_node, "compound_statement")) return;
    auto edited = [&](std::uint32_t b, std::uint32_t e) {
        for (const auto& x : body_edits)
            if (b < x.end + body_begin && x.begin + body_begin < e) return true;
        return false;
    };
    std::vector<Edit> dropped;
    for (TSNode s : named_children(body_node)) {
        if (!is(s, "declaration") || edited(ts_node_start_byte(s), ts_node_end_byte(s))) continue;
        std::vector<TSNode> ds;
        for (TSNode d : named_children(s))
            if (is(d, "init_declarator") || is(d, "identifier") || is(d, "pointer_declarator") || is(d, "array_declarator"))
                ds.push_back(d);
        if (ds.size() != 1 || !is(ds[0], "init_declarator") || !is(field(ds[0], "declarator"), "identifier")) continue;
        if (has_side_effects(field(ds[0], "value"))) continue;
        const TSNode id = field(ds[0], "declarator");
        const std::string name(t.text(id));
        // Read where an edit leaves it (outside the edits, or in an edit's new text: `in(xp, y)`).
        bool read = false;
        for (const auto& x : body_edits) read = read || contains_identifier(x.replacement, name);
        walk(body_node, [&](TSNode n) {
            if (read || !is(n, "identifier") || ts_node_eq(n, id) || t.text(n) != name) return;
            read = !edited(ts_node_start_byte(n), ts_node_end_byte(n));
        });
        if (read) continue;
        // A mark where it was: its line goes too when nothing else is on it.
        dropped.push_back({ts_node_start_byte(s) - body_begin, ts_node_end_byte(s) - body_begin, std::string(1, kDroppedMark)});
    }
    body_edits.insert(body_edits.end(), dropped.begin(), dropped.end());
}

// The kernel's body: the user's text (the preprocessed one where it does
// not map back) with the edits made. A `continue` in it may skip a write,
// so every output becomes inout.
void write_body(Converting& conv) {
    NestConversion* c = conv.c;
    const std::string& body_text = conv.body_text;
    std::string body = conv.map ? original_body(*conv.map, conv.body_begin, conv.body_end, conv.body_edits) : "";
    if (body.empty()) body = apply_edits(body_text, conv.body_edits);
    body = without_dropped_lines(body);
    c->body = reindent(body, "    ", true);
    c->wraps_continue = contains_identifier(body_text, "continue");
    if (c->wraps_continue)
        for (auto& o : c->outputs)
            if (!o.inout) {
                o.inout = true;
                o.inout_reason = "a `continue` in the body can skip the write to `" + o.name + "`";
            }
}

// The names the body reads, in the order it first reads them: its
// identifiers (not a call's function, not a variable it reaches only
// through its fields, passed above), then the scalars the analyzer saw it read.
std::vector<std::string> names_read(const Converting& conv) {
    const CTree& t = conv.t;
    std::set<std::string> field_bases;  // variables the body reaches only through their fields
    std::vector<std::string> names;
    walk(conv.body_node, [&](TSNode n) {
        if (!is(n, "identifier")) return;
        const std::uint32_t at = ts_node_start_byte(n);
        for (const auto& r : conv.nest.invariant_reads)
            if (at >= r.span.begin_byte && at < r.span.end_byte) return;  // read on the host, passed as a value
        const TSNode parent = ts_node_parent(n);
        if (is(parent, "call_expression") && ts_node_eq(field(parent, "function"), n)) return;
        if (is(parent, "field_expression")) {  // a struct's: its fields are passed above
            field_bases.insert(std::string(t.text(n)));
            return;
        }
        const std::string name(t.text(n));
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    });
    for (const auto& s : conv.nest.scalars_read)
        if (std::find(names.begin(), names.end(), s.name) == names.end() && !field_bases.count(s.name)) names.push_back(s.name);
    return names;
}

// Scalars: what the body reads from outside itself becomes a kernel
// parameter; what it assigns (an inner loop's counter declared outside
// the nest) becomes a kernel local.
void pass_scalars(Converting& conv) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    const std::set<std::string> declared = declared_in(t, conv.body_node);
    const std::set<std::string> assigned = assigned_in(t, conv.body_node);
    std::set<std::string>& macros_defined = conv.macros_defined;
    macros_defined = t.defined_macros();
    if (conv.map)
        for (const auto& m : conv.map->macros()) macros_defined.insert(m.first);
    std::set<std::string> loop_vars;
    for (const auto& v : c->index_vars) loop_vars.insert(v.name);
    std::set<std::string> bases;  // `ey` of the part `ey[0]`
    for (const auto& name : conv.array_names) bases.insert(name.substr(0, name.find('[')));
    for (const auto& name : names_read(conv)) {
        if (declared.count(name) || loop_vars.count(name) || conv.array_names.count(name) || bases.count(name) ||
            macros_defined.count(name))
            continue;
        Declaration d;
        std::string type;
        bool file_scope = false;
        if (find_declaration(t, name, nest.span.begin_byte, &d)) {
            type = d.type;
            file_scope = d.file_scope;
        } else {
            const auto s = std::find_if(nest.scalars_read.begin(), nest.scalars_read.end(), [&](const auto& x) { return x.name == name; });
            if (s == nest.scalars_read.end()) continue;  // an enumerator or a header's macro
            type = s->type;
        }
        if (conv.iterate) {
            if (name == nest.time_loop->var)
                throw Failure{"the body reads the time loop's counter `" + name + "`, which changes every step"};
        }
        if (assigned.count(name)) {
            if (is_pointer_or_array(type)) throw Failure{"the body assigns the pointer `" + name + "`"};
            c->locals.push_back({name, without_const(type), ""});
            continue;
        }
        if (file_scope && type.find("const") != std::string::npos && !is_pointer_or_array(type)) continue;  // usable on the device as it is
        if (is_pointer_or_array(type))
            throw Failure{"the body reads `" + name + "` (" + type + "), memory that is not one of the nest's arrays"};
        c->scalars.push_back({name, type, ""});
    }
}

// The extents and bounds as the call's std::int64_t initialisers.
void spell_sizes(Converting& conv) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    for (std::size_t d = 0; d < 3; ++d) {
        c->extents_code[d] = int64_code(t, c->extents[d], conv.macros_defined, nest.span.begin_byte);
        c->space_begin_code[d] = int64_code(t, c->space_begin[d], conv.macros_defined, nest.span.begin_byte);
        c->space_end_code[d] = int64_code(t, c->space_end[d], conv.macros_defined, nest.span.begin_byte);
    }
}

// Numbers the call would hold where the user's code names macros.
void guard_macro_sizes(Converting& conv) {
    NestConversion* c = conv.c;
    if (!conv.map) return;
    const auto values = analyzer::macro_values(conv.map->macros());
    std::set<std::int64_t> baked;
    for (std::size_t d = 0; d < 3; ++d)
        for (const std::string* e : {&c->extents[d], &c->space_begin[d], &c->space_end[d]})
            if (auto v = analyzer::integer_value(*e); v && *v > 1) baked.insert(*v);
    if (conv.iterate)
        if (auto v = analyzer::integer_value(extent_text(conv.nest.time_loop->iterations)); v && *v > 1) baked.insert(*v);
    for (const auto& [name, value] : values)
        if (baked.count(value)) c->size_guards.emplace_back(name, value);
}

// An OpenMP pragma right above the loop would land before the library
// call: it goes with the loop (the GPU runs its iterations in parallel).
void take_omp_pragma(Converting& conv) {
    const std::string_view src = conv.src;
    NestConversion* c = conv.c;
    const std::uint32_t line_begin = line_start(src, c->replace_begin);
    if (line_begin == 0 || !only_blanks_before(src, c->replace_begin)) return;
    const std::uint32_t prev_begin = line_start(src, line_begin - 1);
    const std::string_view prev = src.substr(prev_begin, line_begin - 1 - prev_begin);
    const auto first = prev.find_first_not_of(" \t");
    if (first == std::string_view::npos || prev.substr(first, 1) != "#") return;
    const auto tokens = analyzer::c_tokens(prev.substr(first + 1));
    auto tok = [&](std::size_t i) { return prev.substr(first + 1 + tokens[i].first, tokens[i].second - tokens[i].first); };
    if (tokens.size() >= 2 && tok(0) == "pragma" && tok(1) == "omp" && prev.back() != '\\') {
        c->dropped_pragma = std::string(prev.substr(first));
        c->replace_begin = prev_begin + static_cast<std::uint32_t>(first);
    }
}

// Where the call goes: over the nest, or over its time loop when iterated.
void place_call(Converting& conv) {
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    const analyzer::SourceSpan& replaced = conv.iterate ? nest.time_loop->span : nest.span;
    c->replace_begin = replaced.begin_byte;
    c->replace_end = replaced.end_byte;
    take_omp_pragma(conv);
    c->first_line = replaced.begin.line;
    c->last_line = replaced.end.line;
    c->nest_first_line = nest.span.begin.line;
    c->nest_last_line = nest.span.end.line;
    c->indent = line_indent(conv.src, replaced.begin_byte);
}

// Where the kernel goes (above the nest's function and a comment that
// introduces it), the function's line and the kernel's name.
void place_kernel(Converting& conv) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    TSNode fn = enclosing_function(t, nest.span.begin_byte);
    if (ts_node_is_null(fn)) throw Failure{"the nest is not inside a function"};
    // Keep a comment that introduces the function with it.
    TSNode above = fn;
    for (TSNode prev = ts_node_prev_named_sibling(above); is(prev, "comment") &&
                                                         ts_node_end_point(prev).row + 1 >= ts_node_start_point(above).row;
         prev = ts_node_prev_named_sibling(above))
        above = prev;
    c->kernel_at = line_start(conv.src, ts_node_start_byte(above));
    c->function_line = conv.user_line(ts_node_start_point(fn).row);
    c->kernel_name = unique_name(nest.function + "_kernel", t, conv.taken);
}

// The .cu rewrites the user's own file: the code the call replaces, the
// line the kernel goes on and the device functions' declarations must all
// lie in it, outside any macro's expansion.
void check_rewritable(Converting& conv) {
    const analyzer::SourceMap* map = conv.map;
    NestConversion* c = conv.c;
    if (!map) return;
    if (!map->to_original(c->replace_begin, false) || !map->to_original(c->replace_end, true))
        throw Failure{"the code it replaces begins or ends inside a macro's expansion, which the .cu cannot rewrite"};
    if (!map->to_original(c->kernel_at, false)) throw Failure{"its function does not begin on a line of its own in " + map->lines().file_name(map->lines().main_file)};
    for (const auto& f : c->device_functions)
        for (const std::uint32_t at : f.insert_at)
            if (!map->to_original(at, false))
                throw Failure{"it calls `" + f.name + "`, which is declared where the .cu cannot mark it __device__ (a header or a macro)"};
}

// A time loop that swaps two pointers: one recipe::iterate call, reading
// one of the two arrays and writing the other in its first step.
void set_up_iteration(Converting& conv) {
    const CTree& t = conv.t;
    const LoopNest& nest = conv.nest;
    NestConversion* c = conv.c;
    if (!conv.iterate) return;
    const auto& tl = *nest.time_loop;
    if (tl.arrays.size() != 2) throw Failure{"the time loop swaps more than two pointers"};
    if (c->outputs.size() != 1 || c->outputs[0].inout || c->outputs[0].flatten)
        throw Failure{"an iterated nest must write exactly one array at every point"};
    const std::string& written = c->outputs[0].name;
    const std::string& read = tl.arrays[0] == written ? tl.arrays[1] : tl.arrays[0];
    if (written != tl.arrays[0] && written != tl.arrays[1])
        throw Failure{"the nest writes `" + written + "`, which the time loop does not swap"};
    const auto r = std::find_if(c->inputs.begin(), c->inputs.end(), [&](const ArrayRole& a) { return a.name == read; });
    if (r == c->inputs.end()) throw Failure{"the nest does not read `" + read + "`, which the time loop swaps"};
    if (r->flatten) throw Failure{"`" + read + "` is reached through row pointers; iterating needs flat arrays"};
    std::rotate(c->inputs.begin(), r, r + 1);  // the array read goes first (ping_pong's a)
    const TSNode loop = node_for(t, tl.span);
    if (ts_node_is_null(loop)) throw Failure{"the time loop's span does not match the source"};
    check_time_loop_body(t, loop, nest);
    c->iterative = true;
    c->read_array = read;
    c->written_array = written;
    c->time_var = tl.var;
    c->steps = extent_text(tl.iterations);
    if (c->steps.empty()) throw Failure{"the number of time steps is unknown"};
}

// One accepted nest into a kernel and a library call, step by step; a
// step that finds something the .cu cannot express throws Failure.
void convert(const CTree& t, const LoopNest& nest, std::set<std::string>* taken, const analyzer::SourceMap* map,
             NestConversion* c) {
    Converting conv{t, nest, taken, map, c, t.source()};
    read_nest(conv);
    read_loops(conv);
    sort_arrays(conv);
    pass_whole_inputs(conv);
    name_views(conv);
    check_shapes(conv);
    find_body(conv);
    assign_roles(conv);
    trim_body(conv);
    collect_accesses(conv);
    rewrite_accesses(conv);
    pass_invariant_reads(conv);
    number_body_lines(conv);
    find_calls(conv);
    pass_struct_fields(conv);
    drop_index_temporaries(conv);
    write_body(conv);
    pass_scalars(conv);
    spell_sizes(conv);
    guard_macro_sizes(conv);
    place_call(conv);
    place_kernel(conv);
    check_rewritable(conv);
    set_up_iteration(conv);
}

}  // namespace

NestConversion convert_nest(const CTree& file, const analyzer::LoopNest& nest, std::set<std::string>* taken,
                            const analyzer::SourceMap* map) {
    NestConversion c;
    if (!nest.accepted) {
        c.why_not = "the nest was not accepted";
        return c;
    }
    try {
        convert(file, nest, taken, map, &c);
        c.ok = true;
    } catch (const Failure& f) {
        NestConversion failed;
        failed.nest_id = nest.id;
        failed.function = nest.function;
        failed.why_not = f.why;
        return failed;
    }
    return c;
}

}  // namespace recipe::recipes
