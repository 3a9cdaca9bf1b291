#include "cli/options.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace recipe::cli {

namespace {
constexpr unsigned kModel = kAdvise | kPredict | kSweep;  // the commands that price nests
}  // namespace

const std::vector<OptionSpec>& option_table() {
    static const std::vector<OptionSpec> table = {
        {"platform", "platform profile: a stored name (recipe platforms) or a .json path (default: h200)", "NAME|PATH", kModel},
        {"measure-host", "measure this machine's CPU (one thread's streaming, arithmetic and first-touch rates, a few "
                         "seconds) and use it instead of the profile's host figures: the best of each figure over this "
                         "machine's readings of the last 7 days, remembered in $RECIPE_CACHE_DIR (default "
                         "~/.cache/recipe)", nullptr, kModel},
        {"o,output-dir", "directory for the outputs, created if missing (default: the current directory)", "DIR", kAdvise},
        {"host-memory", "the host arrays are pinned or pageable (default: as the analyzer sees them)", "pinned|pageable", kModel},
        {"kernel-ms", "nest NEST's measured kernel time for its whole problem, one step, in ms (repeatable; NEST= may "
                      "be left out when one nest is planned)", "[NEST=]MS", kModel, true},
        {"gpu-memory", "device memory the plans may use, e.g. 4GiB for a shared GPU (default: the profile's); arrays "
                       "larger than it are tiled", "SIZE", kModel},
        {"kernel", "name of the profile's kernel table to use (default: the nest's function)", "NAME", kPredict | kSweep},
        {"nest", "only the nest with this id (as `recipe analyze` numbers them)", "ID", kPredict | kSweep},
        {"scheme", "the scheme: naive, basic, scalable, buffered, streams, hybrid or mapped", "SCHEME", kPredict},
        {"tile", "tile size, x first, e.g. 400x400x25 (not for naive or mapped)", "XxYxZ", kPredict},
        {"tiles", "tile shape with one varying size marked '*', e.g. 400x*x25 (default: whole rows/planes)", "XxYxZ", kSweep},
        {"copy", "row-by-row, merged or strided (default: merged)", "METHOD", kPredict},
        {"streams", "tile buffers / CUDA streams (default: 3)", "N", kPredict | kSweep},
        {"gpus", "the most GPUs of this host a call or region may run on (default: 1); each converted one runs on as "
                 "many of 1 ... N as the program is fastest with, priced with the profile's multiGpu figures "
                 "(recipe predict: the plan priced on 1 ... N; recipe sweep: each tile's fastest on 1 ... N)", "N", kModel},
        {"all-gpus", "run every call and region that can be cut on all the --gpus, whatever the model finds fastest "
                     "(to measure them; the recipe still prices 1 ... N)", nullptr, kAdvise},
        {"calls", "how often the program runs the file's nests (e.g. a function called from a loop elsewhere); "
                  "the CPU comparison prices N calls (default: 1; time loops in the file are counted anyway)", "N", kAdvise},
        {"convert-all", "convert every nest the generator can convert, also those the comparison with the CPU keeps "
                        "there (to measure both)", nullptr, kAdvise},
        {"timeline", "include the pipeline timeline (with --json)", nullptr, kPredict},
        {"format", "summary on stdout: md (text) or json (default: md)", "md|json", kAdvise},
        {"force", "replace existing output files", nullptr, kAdvise},
        {"csv", "print CSV", nullptr, kSweep},
        {"json", "print JSON instead of text (recipe analyze: docs/analyze-json.md)", nullptr, kAnalyze | kPredict | kSweep | kPlatforms},
        {"h,help", "show this help", nullptr, kAnalyze | kModel | kPlatforms},
    };
    return table;
}

int fail(std::ostream& err, const CommandError& e) {
    print_error(err, e.message);
    return e.exit_code();
}

int fail(std::ostream& err, const std::string& usage_message) { return fail(err, CommandError{CommandError::Kind::Usage, usage_message}); }

bool parse_command(const CommandInfo& info, int argc, char** argv, ParsedCommand* out, CommandError* error) {
    CommandLine line;
    if (info.reads_c) {
        if (!line.split(argc, argv, &error->message)) return false;
        out->source = line.source;
        argc = line.argc();
        argv = line.argv();
    }
    cxxopts::Options parser(info.name, info.description);
    if (info.reads_c) parser.positional_help("FILE.c");
    parser.custom_help("[OPTION...]");
    auto adder = parser.add_options();
    for (const OptionSpec& o : option_table()) {
        if (!(o.commands & info.bit)) continue;
        if (!o.value_name) adder(o.names, o.help);
        else if (o.repeatable) adder(o.names, o.help, cxxopts::value<std::vector<std::string>>(), o.value_name);
        else adder(o.names, o.help, cxxopts::value<std::string>(), o.value_name);
    }
    if (info.reads_c) {
        parser.add_options()("file", "", cxxopts::value<std::vector<std::string>>());
        parser.parse_positional({"file"});
    }
    try {
        out->args = parser.parse(argc, argv);
    } catch (const cxxopts::exceptions::exception& e) {
        error->message = e.what();
        return false;
    }
    if (!info.reads_c && !out->args.unmatched().empty()) {
        error->message = std::string(info.name) + " takes no file (got '" + out->args.unmatched().front() + "')";
        return false;
    }
    out->help = out->args.count("help") > 0;
    out->help_text = parser.help() + (info.reads_c ? source_options_help() : std::string()) + "\n" + info.exit_status + "\n";
    if (info.reads_c && out->args.count("file")) out->files = out->args["file"].as<std::vector<std::string>>();
    return true;
}

bool one_c_file(const CommandInfo& info, ParsedCommand* cmd, std::string* file, CommandError* error) {
    if (cmd->files.size() != 1) {
        error->message = std::string(info.name) + " takes one C file (got " + std::to_string(cmd->files.size()) + "; see " +
                         info.name + " --help)";
        return false;
    }
    *file = cmd->files.front();
    return apply_compile_database(*file, &cmd->source, &error->message);
}

std::string value_or(const cxxopts::ParseResult& args, const char* name, const std::string& otherwise) {
    return args.count(name) ? args[name].as<std::string>() : otherwise;
}

std::string platform_name(const cxxopts::ParseResult& args) { return value_or(args, "platform", "h200"); }

bool read_host_memory(const cxxopts::ParseResult& args, std::optional<advisor::HostMemory>* out, CommandError* error) {
    if (!args.count("host-memory")) return true;
    const std::string h = args["host-memory"].as<std::string>();
    if (h == "pinned") *out = advisor::HostMemory::Pinned;
    else if (h == "pageable") *out = advisor::HostMemory::Pageable;
    else {
        error->message = "--host-memory " + h + ": expected pinned or pageable";
        return false;
    }
    return true;
}

bool parse_memory_size(const std::string& text, std::int64_t* bytes, std::string* error) {
    std::size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    std::string unit = text.substr(i);
    static const std::pair<const char*, int> kUnits[] = {{"", 0},   {"B", 0},   {"K", 1},   {"KiB", 1}, {"KB", 1},
                                                         {"M", 2},  {"MiB", 2}, {"MB", 2},  {"G", 3},   {"GiB", 3},
                                                         {"GB", 3}, {"T", 4},   {"TiB", 4}, {"TB", 4}};
    int power = -1;
    for (const auto& [name, p] : kUnits)
        if (unit == name) power = p;
    if (i == 0 || i > 15 || power < 0) {
        *error = "--gpu-memory " + text + ": expected a size such as 4GiB, 512MiB or a number of bytes";
        return false;
    }
    std::int64_t v = std::stoll(text.substr(0, i));
    for (int k = 0; k < power; ++k) {
        if (v > (std::int64_t{1} << 52)) {
            *error = "--gpu-memory " + text + ": too large";
            return false;
        }
        v *= 1024;
    }
    if (v <= 0) {
        *error = "--gpu-memory " + text + ": must be more than 0 bytes";
        return false;
    }
    *bytes = v;
    return true;
}

bool read_gpu_memory(const cxxopts::ParseResult& args, std::int64_t* bytes, CommandError* error) {
    return !args.count("gpu-memory") || parse_memory_size(args["gpu-memory"].as<std::string>(), bytes, &error->message);
}

bool read_kernel_ms(const cxxopts::ParseResult& args, std::map<int, double>* out, CommandError* error) {
    if (!args.count("kernel-ms")) return true;
    for (const std::string& k : args["kernel-ms"].as<std::vector<std::string>>()) {
        // [NEST=]MS: NEST a nest's number (as the summary gives it), MS > 0.
        const auto eq = k.find('=');
        const std::string nest = eq == std::string::npos ? "" : k.substr(0, eq);
        const std::string ms = eq == std::string::npos ? k : k.substr(eq + 1);
        char* end = nullptr;
        errno = 0;
        const long id = nest.empty() ? 0 : std::strtol(nest.c_str(), &end, 10);
        const bool id_ok = eq == std::string::npos || (!nest.empty() && *end == '\0' && errno != ERANGE && id >= 1 &&
                                                       id <= 1000000000 && std::isdigit(static_cast<unsigned char>(nest[0])));
        const double v = std::strtod(ms.c_str(), &end);
        if (!id_ok || ms.empty() || *end != '\0' || !(v > 0) || !std::isfinite(v)) {
            error->message = "--kernel-ms " + k + ": expected [NEST=]MS, a nest's number and a positive number of milliseconds";
            return false;
        }
        if (out->count(static_cast<int>(id))) {
            error->message = "--kernel-ms " + k + ": " + (id ? "nest " + nest + " has" : std::string("the file's nest has")) +
                             " a kernel time already";
            return false;
        }
        (*out)[static_cast<int>(id)] = v;
    }
    return true;
}

bool read_count(const cxxopts::ParseResult& args, const char* name, std::int64_t min, std::int64_t max, std::int64_t* out,
                CommandError* error) {
    if (!args.count(name)) return true;
    const std::string c = args[name].as<std::string>();
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(c.c_str(), &end, 10);
    if (c.empty() || *end != '\0' || errno == ERANGE || v < min || v > max) {
        error->message = std::string("--") + name + " " + c + ": expected a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max);
        return false;
    }
    *out = v;
    return true;
}

}  // namespace recipe::cli
