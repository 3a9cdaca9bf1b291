#include "analyzer/analyzer.h"

#include "analyzer/context.h"
#include "analyzer/definitions.h"
#include "analyzer/nest_builder.h"
#include "analyzer/nest_finder.h"
#include "analyzer/source_text.h"
#include "analyzer/syntax_errors.h"
#include "analyzer/syntax_tree.h"
#include "analyzer/time_loop.h"

namespace recipe::analyzer {

Program analyze_source(std::string_view file_name, std::string_view source, const AnalyzeOptions& options) {
    Program program;
    program.file = std::string(file_name);
    SyntaxTree tree{std::string(source)};
    program.diagnostics = syntax_errors(tree);
    FileDefinitions defs(tree, options.defines);
    AnalysisContext ctx(program.file, defs, options);
    NestSearch search = find_nests(defs);
    std::vector<LoopNest> nests;
    nests.reserve(search.nests.size());
    for (std::size_t i = 0; i < search.nests.size(); ++i)
        nests.push_back(analyze_nest(ctx, search.nests[i], static_cast<int>(i) + 1));
    attach_time_loops(ctx, search, nests);
    program.nests = std::move(nests);
    return program;
}

bool analyze_file(const std::string& path, const AnalyzeOptions& options, Program* program, std::string* error) {
    std::string text;
    if (!read_source_file(path, &text, error)) return false;
    *program = analyze_source(path, text, options);
    return true;
}

}  // namespace recipe::analyzer
