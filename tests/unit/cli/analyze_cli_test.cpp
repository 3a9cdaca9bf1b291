// `recipe analyze` as users run it: text and JSON output, -D, exit codes
// (0 analysed, 1 nothing acceptable, 2 usage or input error), and
// diagnostics in compiler form with the source line and a caret.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct Run {
    int status = -1;
    std::string out, err;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Runs `recipe <args>` from the source directory (so sample paths print as
// samples/x.c).
Run recipe_cli(const std::string& args) {
    std::string err_file = (std::filesystem::temp_directory_path() / ("recipe-cli-err-" + std::to_string(::getpid()))).string();
    std::string cmd = std::string("cd '") + RECIPE_SOURCE_DIR + "' && '" + RECIPE_BINARY + "' " + args + " 2>'" + err_file + "'";
    Run r;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    REQUIRE(pipe);
    std::array<char, 65536> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    int status = ::pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = slurp(err_file);
    std::filesystem::remove(err_file);
    return r;
}

Run analyze(const std::string& args) { return recipe_cli("analyze " + args); }

std::string temp_file(const std::string& name, const std::string& content) {
    auto path = std::filesystem::temp_directory_path() / ("recipe-cli-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
}

}  // namespace

TEST_CASE("analyze prints each nest for people and exits 0 when one is accepted", "[cli]") {
    Run r = analyze("samples/emboss.c");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.find("samples/emboss.c: 3 loop nests, 2 accepted\n") == 0);
    CHECK(r.out.find("nest 1: emboss(), lines 20-30: accepted, map\n"
                     "  dimensions: 2 (x first)\n"
                     "    x from 0 to W = 8000 (exclusive), stride 1, loop depth 1\n"
                     "    y from 0 to H = 8000 (exclusive), stride 1, loop depth 0\n") != std::string::npos);
    CHECK(r.out.find("  input  in: float (4 bytes), flat [y*W + x], size W = 8000 x H = 8000 (x first)\n"
                     "      stencil: (-1,-1) (0,-1) (-1,0) (1,0) (0,1) (1,1)\n") != std::string::npos);
    CHECK(r.out.find("  boundary: clamp `x > 0 ? x - 1 : 0` at 22:22\n") != std::string::npos);
    CHECK(r.out.find("  per iteration: 6 add, 0 mul, 1 div, 0 other; 6 reads, 1 writes\n") != std::string::npos);
}

TEST_CASE("rejected nests print compiler-style warnings with a caret; nothing accepted exits 1", "[cli]") {
    Run r = analyze("samples/sor1d.c");
    CHECK(r.status == 1);
    CHECK(r.out.find("samples/sor1d.c:22:21: warning: loop-carried dependence on 'a' (distance 1 in i): 'a[i - 1]' reads "
                     "what an earlier iteration writes (flow); 'a[i + 1]' is overwritten by a later iteration (anti); "
                     "iterations cannot run independently (DOACROSS) [doacross]\n"
                     "   22 |             a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;\n"
                     "      |                     ^\n") != std::string::npos);
    CHECK(r.out.find("  time loop: for over t, SWEEPS = 10 iterations, exchange none (line 20)\n") != std::string::npos);
}

TEST_CASE("--json prints the documented schema", "[cli]") {
    Run r = analyze("samples/hotspot.c --json");
    CHECK(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["schema_version"] == 1);
    CHECK(j["file"] == "samples/hotspot.c");
    CHECK(j["accepted_nests"] == 1);
    const auto& n = j["nests"][0];
    CHECK(n["function"] == "simulate");
    CHECK(n["accepted"] == true);
    CHECK(n["kind"] == "zip");
    CHECK(n["iteration_space"][0]["var"] == "c");
    CHECK(n["iteration_space"][0]["upper"]["value"] == 1024);
    CHECK(n["iteration_space"][0]["upper"]["expr"] == "COLS");
    CHECK(n["input_arrays"][0]["name"] == "temp");
    CHECK(n["input_arrays"][0]["stencil"] == nlohmann::json::parse("[[0,-1],[-1,0],[0,0],[1,0],[0,1]]"));
    CHECK(n["time_loop"]["exchange"] == "pointer-swap");
    CHECK(n["time_loop"]["iterations"]["value"] == 100);
    CHECK(n["boundaries"][0]["kind"] == "clamp");
    CHECK(n["ops"]["reads"] == 6);
    CHECK(n["span"]["begin"]["line"] == 32);
    CHECK(n["span"]["begin_byte"].get<int>() > 0);
}

TEST_CASE("-D overrides sizes", "[cli]") {
    Run r = analyze("samples/emboss.c -D W=640 -D H=480 --json");
    CHECK(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["nests"][0]["iteration_space"][0]["upper"]["value"] == 640);
    CHECK(j["nests"][0]["iteration_space"][1]["upper"]["value"] == 480);
    CHECK(j["nests"][0]["input_arrays"][0]["size"][1]["value"] == 480);
}

TEST_CASE("--assume-no-alias accepts pointer parameters that may overlap", "[cli]") {
    std::string path = temp_file("alias.c", "void f(const float *a, float *b, int n) {\n"
                                            "    for (int i = 1; i < n - 1; i++) b[i] = a[i - 1] + a[i + 1];\n}\n");
    Run plain = analyze("'" + path + "'");
    CHECK(plain.status == 1);
    CHECK(plain.out.find("[possible-aliasing]") != std::string::npos);
    CHECK(analyze("'" + path + "' --assume-no-alias").status == 0);
    std::filesystem::remove(path);
}

TEST_CASE("input errors exit 2 with one line on stderr", "[cli]") {
    Run missing = analyze("samples/no-such-file.c");
    CHECK(missing.status == 2);
    CHECK(missing.err == "samples/no-such-file.c: error: cannot open file: No such file or directory\n");
    CHECK(missing.out.empty());

    Run dir = analyze("samples");
    CHECK(dir.status == 2);
    CHECK(dir.err == "samples: error: is a directory, not a C file\n");

    std::string empty = temp_file("empty.c", "");
    Run e = analyze("'" + empty + "'");
    CHECK(e.status == 2);
    CHECK(e.err == empty + ":1:1: error: file is empty\n");

    std::string binary = temp_file("binary.c", std::string("\x7f" "ELF\0\0", 6));
    Run b = analyze("'" + binary + "'");
    CHECK(b.status == 2);
    CHECK(b.err == binary + ":1:5: error: binary file (NUL byte); expected C source text\n");

    std::string latin1 = temp_file("latin1.c", "int caf\xE9;\n");
    Run l = analyze("'" + latin1 + "'");
    CHECK(l.status == 2);
    CHECK(l.err == latin1 + ":1:8: error: invalid UTF-8 (byte 0xE9); expected C source text in UTF-8 or ASCII\n");
    for (const auto& p : {empty, binary, latin1}) std::filesystem::remove(p);
}

TEST_CASE("usage errors exit 2", "[cli]") {
    CHECK(analyze("").status == 2);
    CHECK(analyze("samples/emboss.c samples/sor1d.c").status == 2);
    Run bad_define = analyze("samples/emboss.c -D =3");
    CHECK(bad_define.status == 2);
    CHECK(bad_define.err == "recipe: error: -D =3: '' is not a macro name\n");
    Run unknown = analyze("samples/emboss.c --no-such-option");
    CHECK(unknown.status == 2);
    CHECK(unknown.err.rfind("recipe: error: ", 0) == 0);
    Run help = analyze("--help");
    CHECK(help.status == 0);
    CHECK(help.out.find("--json") != std::string::npos);
}

TEST_CASE("a file without loops and a file with syntax errors", "[cli]") {
    std::string none = temp_file("none.c", "int add(int a, int b) { return a + b; }\n");
    Run n = analyze("'" + none + "'");
    CHECK(n.status == 1);
    CHECK(n.out == none + ": 0 loop nests, 0 accepted\n");

    std::string broken = temp_file("broken.c", "void g(int x { }\n"
                                               "void f(const float *restrict a, float *restrict b, int n) {\n"
                                               "    for (int i = 0; i < n; i++) b[i] = 2.0f * a[i];\n}\n");
    Run s = analyze("'" + broken + "'");
    CHECK(s.status == 0);
    CHECK(s.out.rfind(broken + ":1:", 0) == 0);
    CHECK(s.out.find("error: syntax error") != std::string::npos);
    CHECK(s.out.find("[syntax]\n") != std::string::npos);
    CHECK(s.out.find("nest 1: f(), lines 3-3: accepted, map") != std::string::npos);
    for (const auto& p : {none, broken}) std::filesystem::remove(p);
}

TEST_CASE("recipe help COMMAND is the command's --help", "[cli]") {
    Run help = recipe_cli("help advise");
    CHECK(help.status == 0);
    CHECK(help.out.find("--platform") != std::string::npos);
    CHECK(help.out.find("--assume NAME=VALUE") != std::string::npos);
    Run top = recipe_cli("--help");
    CHECK(top.out.find("recipe --version") != std::string::npos);
}
