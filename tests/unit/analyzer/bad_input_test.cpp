// Bad input never crashes and never loses anything: unreadable files are
// refused with one clear line, broken or absurd C is still analysed, and C
// that is more than the parser can hold is refused with one clear line too.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "analyzer/source_text.h"
#include "tests/unit/analyzer/analyzer_test_util.h"

using namespace recipe::analyzer;
using namespace recipe::analyzer::test;

namespace {

std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("recipe-analyzer-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

std::string write_file(const std::string& name, const std::string& content) {
    std::string path = temp_path(name);
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

std::string analyze_error(const std::string& path) {
    Program p;
    std::string error;
    CHECK_FALSE(analyze_file(path, {}, &p, &error));
    return error;
}

}  // namespace

TEST_CASE("a missing file is refused with one line", "[analyzer]") {
    std::string path = temp_path("does-not-exist.c");
    CHECK(analyze_error(path) == path + ": error: cannot open file: No such file or directory");
}

TEST_CASE("a directory is refused", "[analyzer]") {
    std::string path = temp_path("a-directory.c");
    std::filesystem::create_directories(path);
    CHECK(analyze_error(path) == path + ": error: is a directory, not a C file");
}

TEST_CASE("an unreadable file is refused", "[analyzer]") {
    std::string path = write_file("unreadable.c", "int x;\n");
    ::chmod(path.c_str(), 0);
    if (::access(path.c_str(), R_OK) == 0) {
        WARN("running with privileges that read any file: the unreadable case cannot be made here");
    } else {
        CHECK(analyze_error(path) == path + ": error: cannot open file: Permission denied");
    }
    ::chmod(path.c_str(), 0644);
}

TEST_CASE("an empty file is an input error at 1:1", "[analyzer]") {
    std::string path = write_file("empty.c", "");
    CHECK(analyze_error(path) == path + ":1:1: error: file is empty");
}

TEST_CASE("binary content is refused at the first NUL byte", "[analyzer]") {
    std::string path = write_file("binary.c", std::string("int a;\nint b\0c;\n", 16));
    CHECK(analyze_error(path) == path + ":2:6: error: binary file (NUL byte); expected C source text");
}

TEST_CASE("content that is not UTF-8 is refused at the first bad byte", "[analyzer]") {
    std::string path = write_file("latin1.c", "/* caf\xE9 */\nint x;\n");
    CHECK(analyze_error(path) == path + ":1:7: error: invalid UTF-8 (byte 0xE9); expected C source text in UTF-8 or ASCII");
    std::string error;
    CHECK_FALSE(validate_source("f.c", "\xC0\xAF", &error));  // overlong form
    CHECK_FALSE(validate_source("f.c", "\xED\xA0\x80", &error));  // surrogate
    CHECK_FALSE(validate_source("f.c", "\xE2\x82", &error));  // cut short
    CHECK(validate_source("f.c", "/* \xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 */ int x;\n", &error));
}

TEST_CASE("syntax errors are reported where they are and valid nests still analysed", "[analyzer]") {
    Program p = analyze_text(R"(void f(const float *restrict a, float *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = a[i] +* ;
}
int g(int x { return x; }
void h(const float *restrict a, float *restrict b, int n)
{
    for (int i = 1; i < n - 1; i++)
        b[i] = a[i - 1] + a[i + 1];
}
)");
    REQUIRE(p.diagnostics.size() >= 2);
    for (const auto& d : p.diagnostics) {
        CHECK(d.rule_id == "syntax");
        CHECK(d.severity == Severity::Error);
        CHECK(d.message.rfind("syntax error", 0) == 0);
    }
    CHECK(p.diagnostics[0].pos.line == 4);
    CHECK(p.diagnostics[1].pos.line == 6);
    const LoopNest& h = nest_in(p, "h");
    CHECK(h.accepted);
    CHECK(h.input_arrays.at(0).stencil == Offsets{{-1}, {1}});
    CHECK(rule_ids(nest_in(p, "f")) == std::vector<std::string>{"syntax"});
}

TEST_CASE("a file without loops has no nests", "[analyzer]") {
    Program p = analyze_text("int add(int a, int b) { return a + b; }\n");
    CHECK(p.nests.empty());
    CHECK(p.diagnostics.empty());
}

TEST_CASE("absurdly deep nesting does not crash and is refused as too complex", "[analyzer]") {
    const int depth = 5000;
    SECTION("blocks") {
        Program p = analyze_text("void f(float *restrict a, float *restrict b, int n) {\n for (int i = 0; i < n; i++) " +
                                 std::string(depth, '{') + " b[i] = a[i]; " + std::string(depth, '}') + "\n}\n");
        REQUIRE(p.nests.size() == 1);
        CHECK(has_rule(p.nests[0], "too-complex"));
    }
    SECTION("parentheses in an index") {
        Program p = analyze_text("void f(float *restrict a, float *restrict b, int n) {\n for (int i = 0; i < n; i++) b[i] = a[" +
                                 std::string(depth, '(') + "i" + std::string(depth, ')') + "];\n}\n");
        REQUIRE(p.nests.size() == 1);
        CHECK_FALSE(p.nests[0].accepted);
    }
    SECTION("loops") {
        std::string code = "void f(float *restrict a, float *restrict b, int n) {\n";
        for (int k = 0; k < 2000; ++k) code += "for (int i" + std::to_string(k) + " = 0; i" + std::to_string(k) + " < n; i" + std::to_string(k) + "++)\n";
        code += "b[i0] = a[i0];\n}\n";
        Program p = analyze_text(code);
        REQUIRE(p.nests.size() == 1);
        CHECK(has_rule(p.nests[0], "too-many-dimensions"));
    }
    SECTION("unclosed braces") {
        auto start = std::chrono::steady_clock::now();
        Program p = analyze_text("void f() {" + std::string(20000, '{'));
        CHECK(p.nests.empty());
        CHECK_FALSE(p.diagnostics.empty());
        // Not a timing test; a guard against the quadratic behaviour this
        // input once triggered (tens of seconds).
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    }
}

TEST_CASE("a 10 MB file is analysed whole", "[analyzer]") {
    std::string kernel = read_text(sample_path("emboss.c"));
    std::string code;
    code.reserve(11 << 20);
    int copies = 0;
    while (code.size() < (10u << 20)) {
        std::string k = kernel;
        // Unique names per copy; a long comment block between copies.
        for (std::size_t at = 0; (at = k.find("emboss(", at)) != std::string::npos; at += 7) k.insert(at + 6, "_" + std::to_string(copies));
        for (std::size_t at = 0; (at = k.find("int main(", at)) != std::string::npos; at += 9) k.replace(at, 8, "int main_" + std::to_string(copies));
        code += k;
        code += "/*" + std::string(200000, '-') + "*/\n";
        ++copies;
    }
    REQUIRE(code.size() >= (10u << 20));
    std::string path = write_file("ten-megabytes.c", code);
    Program p = analyze_path(path);
    CHECK(p.diagnostics.empty());
    REQUIRE(p.nests.size() == static_cast<std::size_t>(3 * copies));
    const LoopNest& last = p.nests.back();
    CHECK(last.function == "main_" + std::to_string(copies - 1));
    // Spans far into the file are still exact.
    CHECK(code.compare(last.span.begin_byte, 3, "for") == 0);
    const LoopNest& kernel_nest = p.nests[p.nests.size() - 3];
    CHECK(kernel_nest.accepted);
    CHECK(kernel_nest.input_arrays.at(0).stencil == Offsets{{-1, -1}, {0, -1}, {-1, 0}, {1, 0}, {0, 1}, {1, 1}});
}

namespace {

// What `recipe <command> <file> [args]` ends with: its exit status, or -1
// when a signal ended it; `first_error_line` gets the first line it wrote
// to stderr.
int recipe_exit(const std::string& command, const std::string& file, const std::string& args = "",
                std::string* first_error_line = nullptr) {
    std::string err = temp_path(command + ".err");
    std::string cmd = "'" + std::string(RECIPE_BINARY) + "' " + command + " '" + file + "' " + args + " >/dev/null 2>'" + err + "'";
    int status = std::system(cmd.c_str());
    if (first_error_line) {
        std::ifstream in(err);
        std::getline(in, *first_error_line);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Both commands on `content`, written to a file: each must end with `status`
// (no signal), and where it is 2, with `error_start` at the head of its
// first line of stderr.
void check_commands(const std::string& name, const std::string& content, int status, const std::string& error_start = "") {
    std::string path = write_file(name, content);
    std::string out_dir = temp_path(name + "-out");
    for (const std::string command : {"analyze", "advise"}) {
        INFO("recipe " << command << " " << name);
        std::string args = command == "advise" ? "--platform h200 --force -o '" + out_dir + "'" : "";
        std::string error;
        CHECK(recipe_exit(command, path, args, &error) == status);
        if (!error_start.empty()) CHECK(error.rfind(path + error_start, 0) == 0);
    }
}

// The text a parse of which once aborted in tree-sitter 0.20.7 (a node of
// 65,536 children or more): the analysis refuses it, with no nests.
void check_refused(const std::string& code) {
    Program p = analyze_text(code);
    CHECK(p.nests.empty());
    REQUIRE(p.diagnostics.size() == 1);
    CHECK(p.diagnostics[0].rule_id == kUnparsable);
    CHECK(p.diagnostics[0].severity == Severity::Error);
    CHECK(p.diagnostics[0].message.rfind("the parser cannot hold this file", 0) == 0);
}

std::string repeated(const std::string& piece, int times) {
    std::string out;
    out.reserve(piece.size() * static_cast<std::size_t>(times));
    for (int i = 0; i < times; ++i) out += piece;
    return out;
}

}  // namespace

TEST_CASE("100,000 unclosed parentheses are refused as more than the parser can hold, never a crash", "[analyzer]") {
    // tree-sitter 0.20.7 counted the error node's children in 16 bits, and
    // freeing it freed a pointer inside a block: "munmap_chunk(): invalid
    // pointer", exit 134.
    const std::string code = "int f(){ return " + std::string(100000, '(') + ";}\n";
    check_refused(code);
    std::string path = write_file("unclosed-parens.c", code);
    std::string error = analyze_error(path);
    CHECK(error.rfind(path + ":1:", 0) == 0);
    CHECK(error.find(": error: the parser cannot hold this file: one construct has 65,536 or more pieces of syntax side by side") != std::string::npos);
    check_commands("unclosed-parens.c", code, 2, ":1:");
}

TEST_CASE("other texts that make a node of 65,536 children are refused too", "[analyzer]") {
    SECTION("parentheses and brackets left open, which aborted inside the parse") {
        std::string code;
        for (int i = 0; i < 70000; ++i) code += i % 3 ? '(' : '[';
        check_refused(code + "\n");
    }
    SECTION("`if (1)` after `if (1)`, left open at the end of the file") {
        check_refused("void f(void) {" + repeated("if (1)", 70000) + "\n");
    }
    SECTION("70,000 comments in a row, when nothing has removed them") {
        const std::string code = "void f(void) {\n" + repeated("  // c\n", 70000) + "}\n";
        check_refused(code);
        // The commands preprocess the file first: no comment is left.
        check_commands("comments.c", code, 1);
    }
    SECTION("just under the limit, the same text is analysed") {
        Program p = analyze_text("void f(void) {\n" + repeated("  // c\n", 60000) + "}\n");
        CHECK(p.diagnostics.empty());
    }
}

TEST_CASE("100,000 nested blocks and 100,000 nested parentheses are analysed", "[analyzer]") {
    const std::string blocks = "void f(void)" + std::string(100000, '{') + std::string(100000, '}') + "\n";
    const std::string parens = "int f(int x){ return " + std::string(100000, '(') + "x" + std::string(100000, ')') + ";}\n";
    for (const std::string* code : {&blocks, &parens}) {
        Program p = analyze_text(*code);
        CHECK(p.nests.empty());
        CHECK(p.diagnostics.empty());
    }
    check_commands("nested-blocks.c", blocks, 1);
    check_commands("nested-parens.c", parens, 1);
}

TEST_CASE("a 2.8 MB expression on one line is analysed", "[analyzer]") {
    const std::string code = "int x; void f(void){ x = 1" + repeated("+1", 1400000) + ";}\n";
    REQUIRE(code.size() > 2800000);
    check_commands("long-sum.c", code, 1);
}

TEST_CASE("binary garbage, bytes that are not UTF-8 and an empty file end with exit 2, printable garbage with 0 to 2", "[analyzer]") {
    std::string binary;
    std::uint32_t state = 12345;
    auto next = [&] {
        state = state * 1103515245u + 12345u;
        return static_cast<unsigned char>(state >> 16);
    };
    for (int i = 0; i < 100000; ++i) binary += static_cast<char>(next());
    check_commands("garbage.bin.c", binary, 2, ":");
    check_commands("latin1-garbage.c", "int f(void) { return 0; } /* caf\xE9 */\n", 2, ":1:33: error: invalid UTF-8");
    check_commands("empty-file.c", "", 2, ":1:1: error: file is empty");

    std::string printable;
    for (int i = 0; i < 100000; ++i) printable += static_cast<char>(' ' + next() % 95);
    for (char& c : printable)
        if (c == '\\') c = '\n';  // no line continuation joins the whole file into one directive
    CHECK_NOTHROW(analyze_text(printable));
    std::string path = write_file("printable-garbage.c", printable);
    for (const std::string command : {"analyze", "advise"}) {
        int status = recipe_exit(command, path, command == "advise" ? "--platform h200 --force -o '" + temp_path("pg-out") + "'" : "");
        CHECK(status >= 0);
        CHECK(status <= 2);
    }
}
