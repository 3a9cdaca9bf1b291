// preprocessor.h — the user's build in front of the analyzer. Runs their C
// compiler's preprocessor (`cc -E` with their -I/-D/-U/-include/-std flags)
// and keeps, from its line markers (`# 12 "heat.h" 1`), where every line of
// the output came from, so that what the analysis reports points into the
// user's own files. The analyzer reads the output with the marker lines and
// the system headers' lines blanked (their declarations are not the user's
// code); every other line keeps its number in the output.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace recipe::analyzer {

// How to preprocess: the compiler and the flags that reach its preprocessor,
// in the order given (`-I dir`, `-DNAME=VALUE`, `-U NAME`, `-include f`,
// `-std=c99`, and whatever followed `--`).
struct BuildFlags {
    std::string cc = "cc";
    std::vector<std::string> args;
    // The compiler to run: `cc`, or "cc" when it is empty.
    std::string compiler() const { return cc.empty() ? "cc" : cc; }
};

// A line of the preprocessed text: the file it came from (an index into
// LineMap::files; -1 for the compiler's own lines and blanked system
// headers) and its 1-based line there.
struct LineOrigin {
    int file = -1;
    int line = 0;
};

class LineMap {
public:
    std::vector<std::string> files;  // as the markers name them; files[main_file] is the input
    std::vector<bool> system;        // per file: a system header (blanked)
    int main_file = -1;
    std::vector<LineOrigin> lines;   // [preprocessed line - 1]
    // The input's own #include lines of user headers and system headers.
    struct Include {
        int file = -1;              // the header included
        int line = 0;               // the input's line that includes it
        bool system_inside = false; // a system header is first included from inside it
        std::vector<int> system_files;  // those, included by the header itself
        // How the header spells them (`<stdlib.h>`), when each was found in
        // its text (TranslationUnit fills it): a .cu can include them first.
        std::vector<std::string> system_spellings;
    };
    std::vector<Include> includes;

    LineOrigin origin(int preprocessed_line) const;
    bool in_main_file(int preprocessed_line) const { return origin(preprocessed_line).file == main_file && main_file >= 0; }
    // The file's name as markers give it ("" for none).
    const std::string& file_name(int file) const;
    // Whether the input includes headers of its own (not system headers).
    bool has_user_headers() const;
};

struct Preprocessed {
    std::string text;     // what the analyzer reads
    LineMap lines;
    std::string command;  // the command that made it, for the plan
    // Object-like macros of the user's files and command line as defined at
    // the end of the file (-dD shows them): name -> replacement text.
    std::map<std::string, std::string> macros;
};

// Turns the preprocessor's output into Preprocessed: marker lines become
// empty, lines of system headers (marker flag 3) and of <built-in> and
// <command-line> too, and #define / #undef lines (recorded in `macros`). The input is the file the markers call <stdin>, and
// is named `main_file` in the map.
Preprocessed read_preprocessor_output(std::string_view output, const std::string& main_file);

// Preprocesses `text`, the content of `path` as read: runs
// `flags.cc -E flags.args... -iquote DIR -x c -` with the text on its
// standard input (DIR is path's directory, where the compiler would look
// for the file's own "headers"), so what is analysed is exactly what was
// read. A preprocessor error returns false with its first error as one line
// `file:line:col: error: message`; a compiler that cannot be run, with a
// line that says so.
bool preprocess(const std::string& path, std::string_view text, const BuildFlags& flags, Preprocessed* out,
                std::string* error);

// The compiler's command line for `path`'s text given on its standard
// input, treated as the file itself: the compiler, `mode` (`-E -dD`; `-c -o
// /dev/null` ...), the user's flags, then `-iquote DIR -x c -`, DIR being the
// file's directory, where the compiler looks for the file's own "headers".
std::vector<std::string> stdin_argv(const std::string& path, const BuildFlags& flags, const std::vector<std::string>& mode);

// `s` as one word of a POSIX shell command line (quoted only when needed).
std::string shell_quote(const std::string& s);

// The command line as a user would type it for the file itself
// (`cc -E flags... path`), shell-quoted, for the plan and the recipe.
std::string preprocess_command(const std::string& path, const BuildFlags& flags);

}  // namespace recipe::analyzer
