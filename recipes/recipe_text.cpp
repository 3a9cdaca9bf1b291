#include "recipes/recipe_text.h"

#include <algorithm>
#include <cctype>

#include "recipes/svg_charts.h"

namespace recipe::recipes::text {

std::string cell(std::string text) {
    for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) text.replace(at, 1, "\\|");
    return text;
}

std::string lines(int first, int last) {
    return first == last ? std::to_string(first) : std::to_string(first) + "–" + std::to_string(last);
}

std::string explain(const TemplateStore& t, const std::string& name, const km::data& flags) {
    const std::string text = t.render(name, flags, Escape::None);
    std::string out;
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t nl = text.find('\n', at);
        if (nl == std::string::npos) nl = text.size();
        std::string line = text.substr(at, nl - at);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        if (!line.empty()) out += (out.empty() || line.front() == ' ' ? "" : " ") + line;
        at = nl + 1;
    }
    return out;
}

km::data flag(const std::string& name) {
    km::data d;
    d.set(name, true);
    return d;
}

std::string and_list(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) s += i + 1 == names.size() ? " and " : ", ";
        s += "`" + names[i] + "`";
    }
    return s;
}

const char* verdict_text(Verdict v) {
    switch (v) {
        case Verdict::Converted: return "converted";
        case Verdict::RecipeOnly: return "recipe only";
        case Verdict::NotConverted: return "not converted";
        case Verdict::NotPlanned: return "not planned";
        case Verdict::KeptOnCpu: return "kept on the CPU";
        case Verdict::Rejected: return "rejected";
    }
    return "?";
}

const char* host_text(advisor::HostStrategy s) {
    switch (s) {
        case advisor::HostStrategy::Pinned: return "pinned";
        case advisor::HostStrategy::Register: return "registered";
        case advisor::HostStrategy::Staged: return "staged";
        case advisor::HostStrategy::Pageable: return "pageable";
    }
    return "?";
}

const char* dominant_flag(advisor::Operation o) {
    switch (o) {
        case advisor::Operation::TransferIn: return "transfer_in";
        case advisor::Operation::Kernel: return "kernel";
        case advisor::Operation::TransferOut: return "transfer_out";
        case advisor::Operation::Staging: return "staging";
        case advisor::Operation::Setup: return "setup";
    }
    return "?";
}

const char* dominant_text(advisor::Operation o) {
    switch (o) {
        case advisor::Operation::TransferIn: return "copying in (host to GPU)";
        case advisor::Operation::Kernel: return "the kernel";
        case advisor::Operation::TransferOut: return "copying out (GPU to host)";
        case advisor::Operation::Staging: return "host staging";
        case advisor::Operation::Setup: return "setting up (allocation, page-locking)";
    }
    return "?";
}

const char* copy_flag(CopyMethod m) {
    switch (m) {
        case CopyMethod::RowByRow: return "row_by_row";
        case CopyMethod::Merged: return "merged";
        case CopyMethod::Strided: return "strided";
    }
    return "?";
}

std::string extent_text(const analyzer::Extent& e) {
    const bool literal = !e.expr.empty() && std::all_of(e.expr.begin(), e.expr.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (e.expr.empty()) return e.value ? std::to_string(*e.value) : "?";
    if (!e.value || literal) return "`" + e.expr + "`";
    return "`" + e.expr + "` = " + std::to_string(*e.value);
}

std::string reach_text(const Halo& h, int dims) {
    static const char* axes[] = {"x", "y", "z"};
    std::string s;
    for (int d = 0; d < dims; ++d) {
        const auto du = static_cast<std::size_t>(d);
        if (h.lo[du] == 0 && h.hi[du] == 0) continue;
        if (!s.empty()) s += ", ";
        s += std::string(axes[d]) + " " + std::to_string(h.lo[du]) + " / " + std::to_string(h.hi[du]);
    }
    return s.empty() ? "none" : s;
}

}  // namespace recipe::recipes::text
