// Every PolyBench/C 4.2.1 kernel through `recipe advise`, as shipped, with
// the suite's own flags (-I utilities -DLARGE_DATASET, with and without
// -DPOLYBENCH_USE_RESTRICT): docs/polybench.md lists every nest, its verdict
// and the reason, and must be what the tool says today (UPDATE_SNAPSHOTS=1
// rewrites it). Skipped where the corpus is not beside the project
// (../shared/corpus/polybench-c-4.2.1).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "recipes/advise.h"
#include "recipes/recipe_view.h"

namespace fs = std::filesystem;
using namespace recipe::recipes;

namespace {

fs::path corpus() { return fs::path(RECIPE_SOURCE_DIR).parent_path() / "shared" / "corpus" / "polybench-c-4.2.1"; }

std::vector<std::string> kernels(const fs::path& root) {
    std::vector<std::string> out;
    std::ifstream list(root / "utilities" / "benchmark_list");
    for (std::string line; std::getline(list, line);) {
        if (line.rfind("./", 0) == 0) line = line.substr(2);
        if (!line.empty()) out.push_back(line);
    }
    return out;
}

std::string cell(std::string s) {
    for (std::size_t at = s.find('|'); at != std::string::npos; at = s.find('|', at + 2)) s.replace(at, 1, "\\|");
    return s;
}

struct Row {
    std::string verdict;
    std::string detail;
};

// The nests of one kernel: key "function lines".
std::map<std::string, Row> advise_kernel(const fs::path& root, const std::string& kernel, bool restrict_flag,
                                         std::vector<std::string>* order, std::string* error) {
    RealFileSystem fsys;
    AdviseOptions o;
    o.input = (root / kernel).string();
    o.platform = "h200";
    o.build.args = {"-I", (root / "utilities").string(), "-DLARGE_DATASET"};
    if (restrict_flag) o.build.args.push_back("-DPOLYBENCH_USE_RESTRICT");
    AdviseResult r;
    std::map<std::string, Row> rows;
    if (!advise(fsys, o, &r, error)) return rows;
    for (const auto& n : r.nests) {
        const std::string key = "`" + n.nest->function + "()` | " + std::to_string(n.nest->span.begin.line) + "–" +
                                std::to_string(n.nest->span.end.line);
        Row row{to_string(n.verdict), n.why};
        if (n.verdict == Verdict::Converted || (n.why.empty() && n.chosen())) {
            const auto* best = n.chosen();
            std::ostringstream d;
            if (n.region >= 0 && r.regions[static_cast<std::size_t>(n.region)].converted) {
                const auto& region = r.regions[static_cast<std::size_t>(n.region)];
                d << "in the region of the time loop at lines " << region.first_line << "–" << region.last_line << " (arrays resident, "
                  << region.problem.steps << " steps: " << format_ms(region.prediction.total.total_ms) << " ms, step by step "
                  << format_ms(region.step_by_step_ms) << " ms)";
            } else {
                d << recipe::advisor::to_string(best->config.scheme) << ", " << format_speedup(n.plan.speedup) << " over naive";
            }
            row.detail = d.str();
        }
        if (order) order->push_back(key);
        rows[key] = row;
    }
    return rows;
}

}  // namespace

TEST_CASE("every PolyBench/C kernel's nests and verdicts are in docs/polybench.md", "[recipes]") {
    const fs::path root = corpus();
    if (!fs::exists(root / "utilities" / "benchmark_list")) {
        WARN("PolyBench/C corpus not found at " << root.string() << ": skipped");
        return;
    }
    std::map<std::string, int> counts;
    std::ostringstream table;
    int nests = 0;
    const auto all = kernels(root);
    REQUIRE(all.size() == 30);
    for (const auto& k : all) {
        std::vector<std::string> order;
        std::string error;
        const auto plain = advise_kernel(root, k, false, &order, &error);
        INFO(k << ": " << error);
        REQUIRE_FALSE(plain.empty());
        const auto restricted = advise_kernel(root, k, true, nullptr, &error);
        for (const auto& key : order) {
            const Row& row = plain.at(key);
            const auto other = restricted.find(key);
            const std::string with_restrict = other == restricted.end() ? "(not found)"
                                              : other->second.verdict == row.verdict ? "same"
                                                                                     : other->second.verdict;
            table << "| `" << k << "` | " << key << " | " << row.verdict << " | " << cell(row.detail) << " | "
                  << with_restrict << " |\n";
            ++counts[row.verdict];
            ++nests;
        }
    }
    std::ostringstream doc;
    doc << "# PolyBench/C 4.2.1 through `recipe advise`\n\n"
           "Every kernel of the suite as released (`../shared/corpus/polybench-c-4.2.1`, unedited), with the suite's own\n"
           "flags: `recipe advise KERNEL.c -I utilities -DLARGE_DATASET --platform h200`, and again with\n"
           "`-DPOLYBENCH_USE_RESTRICT` (last column). Generated by the test in\n"
           "`tests/unit/recipes/polybench_corpus_test.cpp`, which fails when this page and the tool disagree\n"
           "(`UPDATE_SNAPSHOTS=1` rewrites it). Every `.cu` it writes is compiled with nvcc by\n"
           "`tests/corpus/polybench_nvcc.sh`; `bench/polybench/` runs the converted programs on a GPU and compares\n"
           "their `-DPOLYBENCH_DUMP_ARRAYS` output with the C programs'.\n\n"
           "Planned for the stored h200 profile, each kernel's nests run once (`--calls 1`). Verdicts: **converted**\n"
           "(in the `.cu`), **kept-on-cpu** (convertible, but the program is predicted faster with it on the CPU:\n"
           "the reason gives both times; `--convert-all` converts it), **recipe-only** (planned, left on the CPU, the reason says why),\n"
           "**not-converted** (planned, the generator cannot convert it faithfully), **not-planned** (accepted, the\n"
           "model cannot price it), **rejected** (not a stenciled map/zip: the reason is the analyzer's first).\n"
           "A time loop whose every step runs converted nests and nothing else that touches their arrays (Jacobi's\n"
           "`B = f(A); A = f(B)`) runs as one region: its arrays are copied to the GPU once before the loop and back once\n"
           "after it, and each step launches one kernel per nest on them (`recipe::Region`). Other time loops that do not\n"
           "swap pointers are converted step by step: one library call per nest and step.\n\n";
    doc << "| " << all.size() << " kernels | " << nests << " nests |";
    for (const char* v : {"converted", "kept-on-cpu", "recipe-only", "not-converted", "not-planned", "rejected"})
        doc << " " << counts[v] << " " << v << " |";
    doc << "\n|---|---|---|---|---|---|---|---|\n\n";
    doc << "| kernel | function | lines | verdict | plan or reason | with `-DPOLYBENCH_USE_RESTRICT` |\n|---|---|---|---|---|---|\n"
        << table.str();
    const fs::path page = fs::path(RECIPE_SOURCE_DIR) / "docs" / "polybench.md";
    const char* update = std::getenv("UPDATE_SNAPSHOTS");
    if (update && std::string(update) == "1") {
        std::ofstream(page, std::ios::binary) << doc.str();
        return;
    }
    std::ifstream in(page, std::ios::binary);
    std::ostringstream have;
    have << in.rdbuf();
    if (have.str() != doc.str()) {
        std::ofstream(page.string() + ".actual", std::ios::binary) << doc.str();
        FAIL("docs/polybench.md differs from what recipe advise says now: compare it with docs/polybench.md.actual, "
             "or run with UPDATE_SNAPSHOTS=1 to accept");
    }
}
