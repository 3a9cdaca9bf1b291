#include "analyzer/preprocessor.h"

#include <cctype>
#include <filesystem>
#include <sstream>

#include "analyzer/compiler_run.h"

namespace recipe::analyzer {

LineOrigin LineMap::origin(int preprocessed_line) const {
    if (preprocessed_line < 1 || static_cast<std::size_t>(preprocessed_line) > lines.size()) return {};
    return lines[static_cast<std::size_t>(preprocessed_line - 1)];
}

const std::string& LineMap::file_name(int file) const {
    static const std::string none;
    return file >= 0 && static_cast<std::size_t>(file) < files.size() ? files[static_cast<std::size_t>(file)] : none;
}

bool LineMap::has_user_headers() const {
    for (std::size_t i = 0; i < files.size(); ++i)
        if (static_cast<int>(i) != main_file && i < system.size() && !system[i]) return true;
    return false;
}

namespace {

// `# 12 "dir/heat.h" 1 3` (GCC and Clang) or `#line 12 "heat.h"`: the line
// number the next line has, the file, and whether it is a system header.
struct Marker {
    int line = 0;
    std::string file;
    bool system = false;
    bool enter = false;  // flag 1: the start of an included file
    bool leave = false;  // flag 2: back in the file that included it
};

bool parse_marker(std::string_view l, Marker* m) {
    std::size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    if (i >= l.size() || l[i] != '#') return false;
    ++i;
    while (i < l.size() && l[i] == ' ') ++i;
    if (l.substr(i, 4) == "line") i += 4;
    while (i < l.size() && l[i] == ' ') ++i;
    if (i >= l.size() || l[i] < '0' || l[i] > '9') return false;
    int n = 0;
    while (i < l.size() && l[i] >= '0' && l[i] <= '9') n = n * 10 + (l[i++] - '0');
    while (i < l.size() && l[i] == ' ') ++i;
    if (i >= l.size() || l[i] != '"') return false;
    std::string file;
    for (++i; i < l.size() && l[i] != '"'; ++i) {
        if (l[i] == '\\' && i + 1 < l.size()) ++i;
        file += l[i];
    }
    if (i >= l.size()) return false;
    m->line = n;
    m->file = file;
    m->system = m->enter = m->leave = false;
    for (++i; i < l.size(); ++i) {
        if (l[i - 1] != ' ' || (i + 1 < l.size() && l[i + 1] != ' ')) continue;
        m->system = m->system || l[i] == '3';
        m->enter = m->enter || l[i] == '1';
        m->leave = m->leave || l[i] == '2';
    }
    return true;
}

// `#define NAME body` (object-like) or `#undef NAME`, as -dD prints them.
void record_macro(std::string_view l, std::map<std::string, std::string>* macros) {
    const bool define = l.rfind("#define ", 0) == 0;
    l.remove_prefix(define ? 8 : 7);
    std::size_t n = 0;
    while (n < l.size() && (std::isalnum(static_cast<unsigned char>(l[n])) || l[n] == '_')) ++n;
    const std::string name(l.substr(0, n));
    if (name.empty()) return;
    if (!define) {
        macros->erase(name);
        return;
    }
    if (n < l.size() && l[n] == '(') {  // function-like: not a size
        macros->erase(name);
        return;
    }
    std::string_view body = l.substr(n);
    while (!body.empty() && (body.front() == ' ' || body.front() == '\t')) body.remove_prefix(1);
    while (!body.empty() && (body.back() == ' ' || body.back() == '\t' || body.back() == '\r')) body.remove_suffix(1);
    (*macros)[name] = std::string(body);
}


// The first diagnostic of the compiler's stderr that is an error, as one
// line `file:line:col: error: message` (GCC and Clang print that form,
// "fatal error" for a missing header).
std::string first_error(const std::string& stderr_text) {
    std::istringstream in(stderr_text);
    std::string line, first;
    while (std::getline(in, line)) {
        if (first.empty() && !line.empty()) first = line;
        for (const char* tag : {": fatal error: ", ": error: "}) {
            const auto at = line.find(tag);
            if (at == std::string::npos) continue;
            return line.substr(0, at) + ": error: " + line.substr(at + std::string(tag).size());
        }
    }
    return first;
}

std::vector<std::string> command_argv(const std::string& path, const BuildFlags& flags) {
    std::vector<std::string> argv{flags.compiler(), "-E"};
    argv.insert(argv.end(), flags.args.begin(), flags.args.end());
    argv.push_back(path);
    return argv;
}

}  // namespace

Preprocessed read_preprocessor_output(std::string_view output, const std::string& main_file) {
    Preprocessed p;
    LineMap& map = p.lines;
    int file = -1, line = 0;
    bool blank = true;  // until the first marker names a file
    bool user_macros = false;
    std::vector<bool> system;  // per file of map.files
    std::vector<int> stack;    // the files being read, the input first
    int main_line = 1;         // the input's next line
    auto file_index = [&](const std::string& name) {
        for (std::size_t i = 0; i < map.files.size(); ++i)
            if (map.files[i] == name) return static_cast<int>(i);
        map.files.push_back(name);
        return static_cast<int>(map.files.size() - 1);
    };
    p.text.reserve(output.size());
    std::size_t pos = 0;
    while (pos < output.size()) {
        std::size_t eol = output.find('\n', pos);
        const bool last = eol == std::string_view::npos;
        if (last) eol = output.size();
        const std::string_view l = output.substr(pos, eol - pos);
        Marker m;
        if (parse_marker(l, &m)) {
            const bool input = m.file == "<stdin>" || m.file == main_file;
            const bool compiler_own = !input && (m.file.empty() || m.file.front() == '<');
            file = compiler_own ? -1 : file_index(input ? main_file : m.file);
            if (input) map.main_file = file;
            // A file is a system header when it was entered as one: the
            // flag also marks, inside the user's own lines, the tokens of a
            // system header's macro (`stderr`), which stay.
            if (file >= 0 && system.size() < map.files.size()) system.push_back(m.system && !input);
            blank = compiler_own || (file >= 0 && system[static_cast<std::size_t>(file)]);
            user_macros = !blank || m.file == "<command-line>";
            // The headers the input includes itself, and whether a system
            // header is first included from inside one of them.
            if (m.enter && file >= 0) {
                if (stack.size() == 1 && stack.back() == map.main_file && map.main_file >= 0)
                    map.includes.push_back({file, main_line, false, {}, {}});
                else if (stack.size() > 1 && system[static_cast<std::size_t>(file)] && !map.includes.empty()) {
                    map.includes.back().system_inside = true;
                    if (stack.size() == 2) map.includes.back().system_files.push_back(file);
                }
                stack.push_back(file);
            } else if (m.leave && !stack.empty()) {
                stack.pop_back();
            } else if (input && stack.empty()) {
                stack.push_back(file);
            }
            line = m.line;
            map.lines.push_back({});
        } else if (l.rfind("#define ", 0) == 0 || l.rfind("#undef ", 0) == 0) {
            map.lines.push_back({});
            ++line;
            if (user_macros) record_macro(l, &p.macros);
        } else {
            if (blank) map.lines.push_back({});
            else map.lines.push_back({file, line});
            if (!blank) p.text.append(l);
            ++line;
        }
        if (file >= 0 && file == map.main_file) main_line = line;
        if (!last) p.text.push_back('\n');
        pos = eol + 1;
    }
    map.system = system;
    return p;
}

std::string shell_quote(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%") == std::string::npos)
        return s;
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string preprocess_command(const std::string& path, const BuildFlags& flags) {
    std::string s;
    for (const auto& a : command_argv(path, flags)) s += (s.empty() ? "" : " ") + shell_quote(a);
    return s;
}

std::vector<std::string> stdin_argv(const std::string& path, const BuildFlags& flags, const std::vector<std::string>& mode) {
    std::vector<std::string> args{flags.compiler()};
    args.insert(args.end(), mode.begin(), mode.end());
    args.insert(args.end(), flags.args.begin(), flags.args.end());
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    const std::string dir_of_file = (ec ? std::filesystem::path(path) : absolute).parent_path().string();
    args.insert(args.end(), {"-iquote", dir_of_file.empty() ? "." : dir_of_file, "-x", "c", "-"});
    return args;
}

bool preprocess(const std::string& path, std::string_view text, const BuildFlags& flags, Preprocessed* out,
                std::string* error) {
    const std::vector<std::string> args = stdin_argv(path, flags, {"-E", "-dD"});
    CompilerRun run;
    std::string why;
    if (!run_compiler(args, text, &run, &why)) {
        *error = path + ": error: " + why;
        return false;
    }
    const std::string cannot_run = path + ": error: cannot run the C compiler '" + args[0] + "' to preprocess it (choose one with --cc)";
    if (!run.started) {
        *error = cannot_run;
        return false;
    }
    if (run.exit_status != 0) {
        std::string first = first_error(run.err);
        for (auto at = first.find("<stdin>"); at != std::string::npos; at = first.find("<stdin>")) first.replace(at, 7, path);
        *error = first.empty() ? path + ": error: the preprocessor failed: " + preprocess_command(path, flags)
                 : first.find(": error: ") != std::string::npos ? first
                                                                : path + ": error: " + first;
        return false;
    }
    *out = read_preprocessor_output(run.out, path);
    out->command = preprocess_command(path, flags);
    if (out->lines.main_file < 0) {
        *error = path + ": error: the preprocessor's output has no line markers (is '" + args[0] + "' a C compiler?)";
        return false;
    }
    return true;
}

}  // namespace recipe::analyzer
