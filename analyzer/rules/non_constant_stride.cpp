// non-constant-stride — `for (i = 0; i < n; i += s)` with s unknown at
// compile time: the iteration space has no fixed shape to tile.
#include "analyzer/rules/rule.h"

namespace recipe::analyzer {

void check_non_constant_stride(const NestFacts& f, std::vector<Diagnostic>& out) {
    const std::string& src = f.ctx->source();
    for (const auto& h : f.headers) {
        if (!h.canonical || h.constant_stride) continue;
        TSNode up = field(h.node, "update");
        out.push_back(reason("non-constant-stride", up,
                             "loop '" + h.var + "' steps by '" + squeeze(text(up, src)) +
                                 "', which is not a compile-time constant (pass it with -D if it is fixed)"));
    }
}

}  // namespace recipe::analyzer
