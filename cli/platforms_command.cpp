// recipe platforms — the stored platform profiles.
#include <cxxopts.hpp>
#include <nlohmann/json.hpp>

#include "advisor/platform.h"
#include "cli/options.h"

namespace {

const recipe::cli::CommandInfo kPlatforms{
    recipe::cli::kPlatforms, "recipe platforms",
    "List the stored platform profiles: those of $RECIPE_PLATFORM_DIR, then those built in (advisor/platforms).",
    "Exit status: 0 listed, 2 a profile is invalid or a usage error.", false};

int run_platforms(int argc, char** argv, std::ostream& out, std::ostream& err) {
    recipe::cli::ParsedCommand cmd;
    recipe::cli::CommandError error;
    if (!recipe::cli::parse_command(kPlatforms, argc, argv, &cmd, &error)) return recipe::cli::fail(err, error);
    const cxxopts::ParseResult& args = cmd.args;
    if (cmd.help) {
        out << cmd.help_text;
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
