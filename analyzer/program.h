// program.h — what the analyzer extracts from a C file: the thesis's program
// properties (§5.1) plus what a concrete recipe needs (names, spans, layout,
// boundary handling, time loop, operation counts). Plain data; the analyzer
// fills it, the advisor and the recipe generator read it. JSON form: see
// program_json.h and docs/analyze-json.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace recipe::analyzer {

// 1-based line and column (column counts bytes, as compilers do).
struct SourcePos {
    int line = 0;
    int column = 0;
};

// [begin, end) in the source; byte offsets too, for rewriting.
struct SourceSpan {
    SourcePos begin;
    SourcePos end;
    std::uint32_t begin_byte = 0;
    std::uint32_t end_byte = 0;
};

enum class Severity { Error, Warning, Note };

// A finding at a place in the source, printed as `file:line:col: severity:
// message [rule-id]`. rule_id is the kebab-case name of the rule that made it.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string file;  // the header it is in; "" for the program's own file
    SourcePos pos;
    std::string rule_id;
    std::string message;
};

// An integer that may stay symbolic: `value` is set when the analyzer could
// evaluate `expr` from literals, #defines, const variables, enums and -D.
struct Extent {
    std::optional<std::int64_t> value;
    std::string expr;  // as written (after trimming), e.g. "N-1" or "ROWS"
    // The bytes of the expression it was read from, when it was read from
    // one (an array declarator's size); both 0 otherwise.
    std::uint32_t from_begin = 0, from_end = 0;
};

// thesis §5.1 loopProperties: lower bound inclusive, upper bound exclusive
// (a loop written `i <= N-2` has upper "N-2+1" evaluated), stride.
struct LoopProperties {
    std::string var;
    Extent lower;
    Extent upper;
    std::int64_t stride = 1;
    int depth = 0;  // 0 = outermost loop of the nest
    SourceSpan span;
    // As the user wrote them, for code that copies them (analyzer/as_written.h):
    // the lower bound, the exclusive upper bound (`N-2 + 1` for `i <= N-2`;
    // "" when unreadable) and the counter's declared type ("long" when the
    // file does not declare it). Read for accepted nests; all "" in others
    // and when the loop is not a for statement.
    std::string lower_written, upper_written, counter_type;
};

enum class ArrayLayout {
    Flat,              // a[x + X*y] / *(a + i*n + j): one index expression
    MultiDim,          // a[z][y][x] on a true multi-dimensional array
    PointerToPointer,  // float **a: rows reached through a pointer array
};

struct ArrayAccess {
    SourceSpan span;
    std::string text;             // the access as written, e.g. "in[(y-1)*W + x]"
    std::vector<int> offset;      // per dimension (x first), relative to the iteration point
    bool write = false;
    // Added by the analyzer beyond the first model:
    bool read = false;     // a compound assignment (`+=`) both reads and writes
    bool guarded = false;  // under an if that tests loop variables
    bool clamped = false;  // its index is clamped (min/max/?:)
    // Inside fixed-size window loops: every offset the access touches as the
    // windows run (`offset` is then the one with window variables at 0).
    std::vector<std::vector<int>> window_offsets;
    // One coordinate per dimension of its array, x first, each the user's
    // own sub-expression of the preprocessed text (`in[(y - 1) * W + xp]` ->
    // {"xp", "y - 1"}; analyzer/access_coordinates.h), read for accepted
    // nests. Empty when the access does not split (why_no_coordinates says
    // why) or indexes another name than its array's (`u[iz][i]` of the
    // array `u[iz]`).
    std::vector<std::string> coordinates;
    std::string why_no_coordinates;
};

// How far reads reach from the iteration point, per dimension, x first
// (thesis §6.4.3, PX/PY/PZ): `lo` below it, `hi` above it.
struct Reach {
    std::array<std::int64_t, 3> lo{}, hi{};
};

// thesis §5.1 arrayProperties / inputArrayProperties, plus names and layout.
struct ArrayProperties {
    std::string name;
    std::string element_type;  // C type as written, e.g. "float", "double"
    int bytes_per_element = 0;
    std::vector<Extent> size;  // per dimension, x (contiguous) first
    // mapping[a][l] = coefficient of loop dimension l in array dimension a
    std::vector<std::vector<int>> mapping;
    ArrayLayout layout = ArrayLayout::Flat;
    std::string linear_index;  // Flat: the index expression with offsets removed, e.g. "x + X*(y + Y*z)"
    std::vector<std::vector<int>> stencil;  // distinct offsets read (inputs); x first
    std::vector<ArrayAccess> accesses;
    bool reads_own_element = false;  // an output that also reads its own element
    // An output whose old values the nest needs (analyzer/old_values.h):
    // copied in as well as out. partial_write: when that is because some
    // points are not written, the write that is conditional (an index into
    // `accesses`), else -1.
    bool needs_old_values = false;
    int partial_write = -1;
    bool pinned_host = false;        // allocated with cudaMallocHost/cudaHostAlloc
    // An output copied in whose memory is zero-filled and written by no other
    // nest of the file (calloc'd, or static storage without an initialiser):
    // its pages are still unmapped zero pages when the nest first writes
    // them, as an output not copied in is (docs/model.md, "The program's run").
    bool zero_pages = false;
    // Outputs: the nests of the file (ids) that write the same memory and run
    // before this nest first does (earlier in its function, or in a function
    // that calls this one only after them): its pages are present when this
    // nest first writes them, not fresh. Left empty where the file does not
    // tell (docs/model.md, "The program's run").
    std::vector<int> written_before_by;

    // The reach of the stencil: the one halo the model prices, the generator
    // pads and the recipe shows (none for an output, whose stencil is
    // empty). Read off the stencil, so that it cannot disagree with it.
    Reach halo() const;
};

// How the nest avoids reading outside the arrays.
struct Boundary {
    enum class Kind { None, ShrunkBounds, Guard, Clamp };
    Kind kind = Kind::None;
    std::string text;  // e.g. "x from 1 to W-2", "if (x < n-1)", "min(i+1, ROWS-1)"
    SourceSpan span;
};

// An enclosing loop that repeats the nest (an iterative stencil loop, seed 002).
struct TimeLoop {
    enum class Form { For, While, DoWhile };
    enum class Exchange { PointerSwap, IndexToggle, MirroredNests, CopyBack, None };
    Form form = Form::For;
    Exchange exchange = Exchange::None;
    std::string var;
    Extent iterations;
    std::vector<std::string> arrays;  // the arrays exchanged between steps
    SourceSpan span;
    std::string toggle;     // IndexToggle: the variable that picks the buffer ("iz", or the loop's own "t")
    std::string condition;  // while / do-while: the condition as written, e.g. "iter < ITERATIONS"
};

// A fixed-size loop inside the body that slides over a window of the inputs
// (`for (d = -R; d <= R; d++)`): part of the stencil, not a dimension.
struct WindowLoop {
    std::string var;
    std::int64_t lower = 0;  // inclusive
    std::int64_t upper = 0;  // exclusive
    std::int64_t stride = 1;
    SourceSpan span;
};

// A loop-carried dependence (why a nest is DOACROSS, seed 001). distance is
// per dimension of iteration_space (x first): how many iterations back the
// source of the dependence is, in the direction each loop runs.
struct Dependence {
    enum class Kind { Flow, Anti, Output };
    std::string array;
    Kind kind = Kind::Flow;
    std::vector<int> distance;
    SourceSpan span;  // the access that closes the dependence
};

// Per-iteration counts (thesis §5.3 left kernel analysis out; the roofline
// estimate uses these).
struct OpCounts {
    int adds = 0;  // + and -
    int muls = 0;
    int divs = 0;
    int other = 0;  // comparisons, min/max, math calls
    int math_calls = 0;  // of `other`: calls of C math library functions (not those gcc inlines: is_inlined_math_function)
    int reads = 0;   // array element reads (each access counted)
    int writes = 0;  // array element writes
    // Conversions of varying 64-bit integers to floating types (not among
    // the flops: the CPU has no vector form of them; analyzer/conversions.h).
    int conversions = 0;
    // Updates of a floating variable from itself that outlives the
    // iteration (`sum += a[i]`, sum declared outside the nest): the updates
    // of all iterations form one chain, which gcc -O2 keeps in order (no
    // -ffast-math), so each waits for the one before (hostChainedSum).
    // Counted among the flops as well.
    int serial_adds = 0;
    int flops() const { return adds + muls + divs + other; }
};

// A variable the nest's body reads that is neither an array nor declared in
// the body (sizes, coefficients): the kernel receives it as a parameter.
struct ScalarUse {
    std::string name;
    std::string type;  // C type as declared, e.g. "int", "const float"
};

// An element the body reads at the same place in every iteration, of an
// array the nest does not write (`_fict_[t]`, `coef[0]`): a value, not one of
// the nest's arrays. The host reads it before the launch and passes it to
// the kernel as it passes a scalar.
struct InvariantRead {
    std::string text;          // as written, e.g. "_fict_[t]"
    std::string array;         // the array it reads, e.g. "_fict_"
    std::string element_type;  // C type as declared, e.g. "double"
    SourceSpan span;
};

enum class NestKind { Map, Zip, Unzip, ZipUnzip };

struct LoopNest {
    int id = 0;
    std::string file;      // the header the nest is written in; "" for the program's own file
    std::string function;  // enclosing function's name
    SourceSpan function_span;
    SourceSpan span;       // the outermost loop statement
    SourceSpan body_span;  // the innermost loop's body

    bool accepted = false;
    NestKind kind = NestKind::Map;
    std::vector<Diagnostic> reasons;  // why rejected (and notes when accepted)

    // thesis §5.1 programProperties. iteration_space is listed by dimension,
    // x (the contiguous one) first, so that stencil offsets line up with it;
    // LoopProperties::depth says how the loops are nested.
    int dimensionality = 0;
    std::vector<LoopProperties> iteration_space;
    std::vector<ArrayProperties> input_arrays;
    std::vector<ArrayProperties> output_arrays;

    bool innermost_is_contiguous = true;  // false: the kernel should swap loops
    std::vector<ScalarUse> scalars_read;
    std::vector<InvariantRead> invariant_reads;
    std::vector<Boundary> boundaries;
    std::optional<TimeLoop> time_loop;
    OpCounts ops;
    // How wide the user's C compiler vectorises the nest's loops
    // (analyzer/vectorization.h): the lanes of its widest vectorised loop, 1
    // where it vectorises none, 0 when not known (no report read).
    int host_vector_lanes = 0;
    // Where the nest clamps its contiguous index (host_vector_lanes is then
    // 1): the lanes the report gave its loops all the same, and its reads
    // whose contiguous coordinate is clamped, per iteration (`in[y * W +
    // xp]`): the compiler vectorises the rest of the loop and loads these
    // elements one lane at a time (hostLaneLoadNs). 0 otherwise.
    int host_reported_lanes = 0;
    int host_lane_loads = 0;
    // Added by the analyzer beyond the first model:
    std::vector<WindowLoop> window_loops;
    std::vector<Dependence> dependences;  // filled for DOACROSS nests
};

struct Program {
    std::string file;  // as given on the command line
    std::string preprocessor;  // the command that preprocessed it ("" when analysed as written)
    // The command whose vectorisation report set the nests' host_vector_lanes
    // ("" when none was read, and why in vector_report_missing).
    std::string vector_report;
    std::string vector_report_missing;
    std::vector<LoopNest> nests;
    std::vector<Diagnostic> diagnostics;  // file-level: syntax errors and the like
};

const char* to_string(NestKind k);
const char* to_string(ArrayLayout l);
const char* to_string(Severity s);
const char* to_string(Boundary::Kind k);
const char* to_string(TimeLoop::Form f);
const char* to_string(TimeLoop::Exchange e);
const char* to_string(Dependence::Kind k);

}  // namespace recipe::analyzer
