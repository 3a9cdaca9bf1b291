#include "analyzer/translation_unit.h"

#include <algorithm>
#include <cctype>

#include "analyzer/as_written.h"
#include "analyzer/macro_values.h"
#include "analyzer/parenthesized_names.h"
#include "analyzer/source_text.h"
#include "analyzer/vectorization.h"

namespace recipe::analyzer {

namespace {

// Maps one position; returns the file it is in ("" for the main file).
std::string map_pos(const SourceMap& map, SourcePos* pos) {
    if (pos->line <= 0) return "";
    const SourceMap::Place p = map.place(pos->line, pos->column);
    if (p.file < 0) return "";
    pos->line = p.line;
    pos->column = p.column;
    return p.file == map.lines().main_file ? "" : map.lines().file_name(p.file);
}

// Messages name lines of the preprocessed text ("the call at line 7594"):
// they become the user's.
void map_message_lines(const SourceMap& map, std::string* message) {
    static const std::string kWord = "line ";
    for (std::size_t at = message->find(kWord); at != std::string::npos; at = message->find(kWord, at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>((*message)[at - 1])) || (*message)[at - 1] == '_')) continue;
        std::size_t end = at + kWord.size();
        while (end < message->size() && std::isdigit(static_cast<unsigned char>((*message)[end]))) ++end;
        if (end == at + kWord.size()) continue;
        const int line = std::stoi(message->substr(at + kWord.size(), end - at - kWord.size()));
        const LineOrigin o = map.lines().origin(line);
        if (o.file < 0) continue;
        std::string mapped = std::to_string(o.line);
        if (o.file != map.lines().main_file) mapped += " of " + map.lines().file_name(o.file);
        message->replace(at + kWord.size(), end - at - kWord.size(), mapped);
    }
}

void map_span(const SourceMap& map, SourceSpan* s) {
    map_pos(map, &s->begin);
    map_pos(map, &s->end);
}

// The user's spelling of an expression the analysis wrote from the
// preprocessed text (`8000` where the user wrote `W`): its first
// occurrence, token for token, on the header line of a loop starting at
// `from`, where that occurrence maps back whole. Unchanged otherwise.
void respell(const SourceMap& map, std::uint32_t from, std::string* expr) {
    if (expr->empty()) return;
    const std::string_view pp = map.preprocessed();
    if (from >= pp.size()) return;
    const std::size_t eol = pp.find('\n', from);
    const std::string_view line = pp.substr(from, (eol == std::string_view::npos ? pp.size() : eol) - from);
    const auto want = c_tokens(*expr);
    const auto have = c_tokens(line);
    if (want.empty()) return;
    for (std::size_t i = 0; i + want.size() <= have.size(); ++i) {
        bool same = true;
        for (std::size_t k = 0; k < want.size() && same; ++k)
            same = line.substr(have[i + k].first, have[i + k].second - have[i + k].first) ==
                   std::string_view(*expr).substr(want[k].first, want[k].second - want[k].first);
        if (!same) continue;
        const auto text = map.original_text(from + have[i].first, from + have[i + want.size() - 1].second);
        if (text) *expr = *text;
        return;
    }
}

// The user's spelling of a loop's bound written `var < NAME` with NAME a
// macro (`N` where the preprocessor wrote `(64 * 1024 * 1024)` and the
// analysis folded it to `67108864`); "" when the loop is not written so.
std::string macro_bound(const SourceMap& map, const LoopProperties& l) {
    const std::string_view pp = map.preprocessed();
    if (l.span.begin_byte >= pp.size()) return "";
    const std::size_t eol = pp.find('\n', l.span.begin_byte);
    const std::string_view line = pp.substr(l.span.begin_byte, (eol == std::string_view::npos ? pp.size() : eol) - l.span.begin_byte);
    const auto t = c_tokens(line);
    auto tok = [&](std::size_t i) { return line.substr(t[i].first, t[i].second - t[i].first); };
    for (std::size_t i = 0; i + 2 < t.size(); ++i) {
        if (tok(i) != l.var || tok(i + 1) != "<" || tok(i + 2) == "=") continue;
        std::size_t j = i + 2;
        int depth = 0;
        for (; j < t.size(); ++j) {
            if (tok(j) == "(") ++depth;
            else if (tok(j) == ")" && --depth < 0) break;
            else if (tok(j) == ";" && depth == 0) break;
        }
        if (j == i + 2) return "";
        const auto text = map.original_text(l.span.begin_byte + t[i + 2].first, l.span.begin_byte + t[j - 1].second);
        return text && map.macros().count(*text) ? *text : "";
    }
    return "";
}

bool all_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// The macros with a value that the user's text names in [begin, end) of
// the preprocessed text (mapped back), in order of first use.
std::vector<std::string> macros_named(const SourceMap& map, std::uint32_t begin, std::uint32_t end,
                                      const std::map<std::string, std::int64_t>& values) {
    std::vector<std::string> names;
    const auto b = map.to_original(begin, false);
    if (!b) return names;
    auto e = map.to_original(end, true);
    const std::string& og = map.original();
    const std::size_t stop = e ? *e : og.find('\n', *b);
    const std::string_view text = std::string_view(og).substr(*b, (stop == std::string::npos ? og.size() : stop) - *b);
    for (const auto& [tb, te] : c_tokens(text)) {
        const std::string t(text.substr(tb, te - tb));
        if (values.count(t) && std::find(names.begin(), names.end(), t) == names.end()) names.push_back(t);
    }
    return names;
}

// A number the analysis folded (`1026`) in the user's terms (`N+2`): with a
// macro named on the loop's own header line first, then in the nest.
void spell_number(const SourceMap& map, const LoopNest& n, std::size_t dim, const std::map<std::string, std::int64_t>& values,
                  Extent* e) {
    if (!all_digits(e->expr) || !e->value) return;
    std::vector<std::string> names;
    if (dim < n.iteration_space.size()) names = macros_named(map, n.iteration_space[dim].span.begin_byte, n.iteration_space[dim].span.begin_byte, values);
    for (const auto& m : macros_named(map, n.span.begin_byte, n.span.end_byte, values))
        if (std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
    const std::string spelled = spell_with_macro(*e->value, names, values);
    if (!spelled.empty()) e->expr = spelled;
}

void respell_nest(const SourceMap& map, const std::map<std::string, std::int64_t>& values, LoopNest* n) {
    std::vector<std::string> bound_macro;
    for (auto& l : n->iteration_space) {
        const std::string as_parsed = l.upper.expr;
        respell(map, l.span.begin_byte, &l.lower.expr);
        respell(map, l.span.begin_byte, &l.upper.expr);
        const std::string macro = macro_bound(map, l);
        bound_macro.push_back(macro);
        if (l.upper.expr == as_parsed && !macro.empty()) l.upper.expr = macro;
    }
    for (std::size_t d = 0; d < n->iteration_space.size(); ++d) {
        spell_number(map, *n, d, values, &n->iteration_space[d].lower);
        spell_number(map, *n, d, values, &n->iteration_space[d].upper);
    }
    for (auto* arrays : {&n->input_arrays, &n->output_arrays})
        for (auto& a : *arrays) {
            for (std::size_t d = 0; d < a.size.size() && d < n->iteration_space.size(); ++d) {
                const std::string as_parsed = a.size[d].expr;
                if (a.size[d].from_end > a.size[d].from_begin) {
                    // Read from a declarator: that declarator's spelling.
                    if (auto text = map.original_text(a.size[d].from_begin, a.size[d].from_end)) {
                        text->erase(std::remove_if(text->begin(), text->end(), [](char c) { return c == ' ' || c == '\t'; }), text->end());
                        a.size[d].expr = *text;
                    }
                    continue;
                }
                respell(map, n->iteration_space[d].span.begin_byte, &a.size[d].expr);
                // An extent equal to the loop's bound `var < NAME` takes its name.
                const auto& l = n->iteration_space[d];
                if (a.size[d].expr == as_parsed && !bound_macro[d].empty() && a.size[d].value && l.upper.value &&
                    *a.size[d].value == *l.upper.value && l.lower.value && *l.lower.value == 0)
                    a.size[d].expr = bound_macro[d];
                spell_number(map, *n, d, values, &a.size[d]);
            }
            for (auto& acc : a.accesses)
                if (auto text = map.original_text(acc.span.begin_byte, acc.span.end_byte)) acc.text = *text;
            // `y*8000 + x` as `y*W + x`: numbers that are exactly a macro the
            // array's accesses name.
            if (!a.accesses.empty()) {
                const auto names = macros_named(map, a.accesses.front().span.begin_byte, a.accesses.front().span.end_byte, values);
                std::string spelled;
                std::size_t last = 0;
                for (const auto& [b, e] : c_tokens(a.linear_index)) {
                    const std::string t = a.linear_index.substr(b, e - b);
                    if (!all_digits(t)) continue;
                    std::string name;
                    for (const auto& m : names)
                        if (name.empty() && std::to_string(values.at(m)) == t) name = m;
                    if (name.empty()) continue;
                    spelled += a.linear_index.substr(last, b - last) + name;
                    last = e;
                }
                if (last) a.linear_index = spelled + a.linear_index.substr(last);
            }
        }
    for (auto& b : n->boundaries) {
        const std::string_view pp = map.preprocessed();
        if (b.span.end_byte <= b.span.begin_byte || b.span.end_byte > pp.size()) continue;
        if (pp.substr(b.span.begin_byte, b.span.end_byte - b.span.begin_byte) != b.text) continue;
        if (auto text = map.original_text(b.span.begin_byte, b.span.end_byte)) b.text = *text;
    }
    if (n->time_loop) {
        respell(map, n->time_loop->span.begin_byte, &n->time_loop->iterations.expr);
        spell_number(map, *n, n->iteration_space.size(), values, &n->time_loop->iterations);
    }
}

// For a header of the user's that includes system headers: how its text
// spells them, where every one of them is found (by file name).
void find_system_spellings(LineMap* lines) {
    for (auto& inc : lines->includes) {
        if (inc.system_files.empty()) continue;
        std::string text, error;
        if (!read_source_file(lines->file_name(inc.file), &text, &error)) continue;
        std::vector<std::string> spellings;
        for (int f : inc.system_files) {
            const std::string& path = lines->file_name(f);
            const std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
            std::string found;
            for (std::size_t at = text.find('<'); at != std::string::npos && found.empty(); at = text.find('<', at + 1)) {
                const auto close = text.find('>', at);
                const auto line_start = text.rfind('\n', at);
                const std::string_view head(text.data() + (line_start == std::string::npos ? 0 : line_start + 1),
                                            at - (line_start == std::string::npos ? 0 : line_start + 1));
                if (close == std::string::npos || head.find("include") == std::string_view::npos || head.find('#') == std::string_view::npos) continue;
                const std::string name = text.substr(at + 1, close - at - 1);
                const std::string name_base = name.substr(name.rfind('/') == std::string::npos ? 0 : name.rfind('/') + 1);
                if (name_base == base && path.size() >= name.size() && path.compare(path.size() - name.size(), name.size(), name) == 0)
                    found = "<" + name + ">";
            }
            if (found.empty()) {
                spellings.clear();
                break;
            }
            spellings.push_back(found);
        }
        inc.system_spellings = spellings;
    }
}

}  // namespace

void map_positions(const SourceMap& map, Program* program) {
    for (auto& d : program->diagnostics) {
        d.file = map_pos(map, &d.pos);
        map_message_lines(map, &d.message);
    }
    const auto values = macro_values(map.macros());
    for (auto& n : program->nests) {
        respell_nest(map, values, &n);
        n.file = map_pos(map, &n.span.begin);
        map_pos(map, &n.span.end);
        map_span(map, &n.function_span);
        map_span(map, &n.body_span);
        for (auto& d : n.reasons) {
            d.file = map_pos(map, &d.pos);
            map_message_lines(map, &d.message);
        }
        for (auto& l : n.iteration_space) map_span(map, &l.span);
        for (auto* arrays : {&n.input_arrays, &n.output_arrays})
            for (auto& a : *arrays)
                for (auto& acc : a.accesses) map_span(map, &acc.span);
        for (auto& b : n.boundaries) map_span(map, &b.span);
        if (n.time_loop) map_span(map, &n.time_loop->span);
        for (auto& w : n.window_loops) map_span(map, &w.span);
        for (auto& d : n.dependences) map_span(map, &d.span);
    }
}

bool analyze_translation_unit(const std::string& path, std::string text, const BuildFlags& build,
                              const AnalyzeOptions& options, TranslationUnit* unit, std::string* error) {
    if (!validate_source(path, text, error)) return false;
    Preprocessed pp;
    if (!preprocess(path, text, build, &pp, error)) return false;
    blank_name_parentheses(&pp.text, type_names(pp.text));
    unit->path = path;
    unit->tree = std::make_unique<const SyntaxTree>(pp.text);
    unit->program = analyze_tree(path, *unit->tree, options);
    unit->program.preprocessor = pp.command;
    find_system_spellings(&pp.lines);
    const VectorReport vector_report = vectorization_report(path, text, build);
    unit->map = std::make_unique<SourceMap>(std::move(pp.text), std::move(pp.lines), std::move(text), std::move(pp.macros));
    map_positions(*unit->map, &unit->program);
    apply_vector_report(vector_report, &unit->program);
    read_as_written(*unit->tree, unit->map.get(), &unit->program);
    return parsed_whole(unit->program, path, error);
}

}  // namespace recipe::analyzer
