// recipe platforms — the stored platform profiles.
#include <cxxopts.hpp>
#include <nlohmann/json.hpp>

#include "advisor/platform.h"
#include "cli/command.h"

namespace {

using recipe::cli::print_error;

int run_platforms(int argc, char** argv, std::ostream& out, std::ostream& err) {
    cxxopts::Options opts("recipe platforms", "List the stored platform profiles: those of $RECIPE_PLATFORM_DIR, then those built in (advisor/platforms).");
    opts.add_options()("json", "print JSON")("h,help", "show this help");
    cxxopts::ParseResult args;
    try {
        args = opts.parse(argc, argv);
    } catch (const cxxopts::exceptions::exception& e) {
        print_error(err, e.what());
        return recipe::cli::kExitUsage;
    }
    if (args.count("help")) {
        out << opts.help() << "\n";
        return recipe::cli::kExitOk;
    }
    const auto entries = recipe::advisor::list_platforms();
    if (args.count("json")) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& e : entries) {
            nlohmann::json j{{"name", e.name}, {"description", e.description}, {"path", e.path}};
            if (!e.error.empty()) j["error"] = e.error;
            a.push_back(j);
        }
        out << a.dump(2) << "\n";
    } else {
        if (entries.empty()) err << "recipe: no platform profiles found\n";
        for (const auto& e : entries) {
            out << e.name << std::string(e.name.size() < 14 ? 14 - e.name.size() : 1, ' ')
                << (e.error.empty() ? e.description : "INVALID: " + e.error) << "\n";
        }
    }
    bool bad = false;
    for (const auto& e : entries) bad = bad || !e.error.empty();
    return bad ? recipe::cli::kExitUsage : recipe::cli::kExitOk;
}

}  // namespace

RECIPE_COMMAND("platforms", "list the stored GPU platform profiles", run_platforms);
