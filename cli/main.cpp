// recipe — command-line front end: finds the sub-command and runs it.
#include <algorithm>
#include <cstring>
#include <exception>
#include <iostream>

#include "cli/command.h"

namespace recipe::cli {
std::vector<Command>& registry() {
    static std::vector<Command> commands;
    return commands;
}
}  // namespace recipe::cli

namespace {

void print_usage(std::ostream& os) {
    auto commands = recipe::cli::registry();
    std::sort(commands.begin(), commands.end(),
              [](const auto& a, const auto& b) { return std::strcmp(a.name, b.name) < 0; });
    os << "usage: recipe <command> [options]\n\n"
          "Finds stenciled map/zip loop nests in C, predicts how to overlap their\n"
          "PCIe transfers with the kernel, and writes a recipe and a .cu file.\n\ncommands:\n";
    for (const auto& c : commands) os << "  " << c.name << std::string(12 - std::min<size_t>(11, std::strlen(c.name)), ' ') << c.summary << "\n";
    os << "\nRun 'recipe <command> --help' (or 'recipe help <command>') for a command's options; 'recipe --version' for the version.\n"
          "Exit codes: 0 success, 1 nothing acceptable found, 2 usage or input error, 3 internal error.\n";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace recipe::cli;
    // `recipe help advise` is `recipe advise --help`.
    if (argc == 3 && !std::strcmp(argv[1], "help")) {
        for (const auto& c : registry())
            if (!std::strcmp(c.name, argv[2])) {
                char help_flag[] = "--help";
                char* args[] = {argv[2], help_flag, nullptr};
                return c.run(2, args, std::cout, std::cerr);
            }
        std::cerr << "recipe: error: unknown command '" << argv[2] << "'; run 'recipe --help' for the commands\n";
        return kExitUsage;
    }
    if (argc < 2) {
        std::cerr << "recipe: error: no command given\n";
        print_usage(std::cerr);
        return kExitUsage;
    }
    if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        print_usage(std::cout);
        return kExitOk;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::cout << "recipe " << RECIPE_VERSION << "\n";
        return kExitOk;
    }
    for (const auto& c : registry()) {
        if (std::strcmp(c.name, argv[1]) != 0) continue;
        try {
            return c.run(argc - 1, argv + 1, std::cout, std::cerr);
        } catch (const std::exception& e) {
            std::cerr << "recipe: internal error: " << e.what() << "\n";
            return kExitInternal;
        }
    }
    std::cerr << "recipe: error: unknown command '" << argv[1] << "'; run 'recipe --help' for the commands\n";
    return kExitUsage;
}
