#include "analyzer/program.h"

#include <algorithm>

namespace recipe::analyzer {

Reach ArrayProperties::halo() const {
    Reach r;
    for (const auto& off : stencil)
        for (std::size_t d = 0; d < off.size() && d < 3; ++d) {
            r.lo[d] = std::max<std::int64_t>(r.lo[d], -off[d]);
            r.hi[d] = std::max<std::int64_t>(r.hi[d], off[d]);
        }
    return r;
}

const char* to_string(NestKind k) {
    switch (k) {
        case NestKind::Map: return "map";
        case NestKind::Zip: return "zip";
        case NestKind::Unzip: return "unzip";
        case NestKind::ZipUnzip: return "zip-unzip";
    }
    return "?";
}

const char* to_string(ArrayLayout l) {
    switch (l) {
        case ArrayLayout::Flat: return "flat";
        case ArrayLayout::MultiDim: return "multi-dim";
        case ArrayLayout::PointerToPointer: return "pointer-to-pointer";
    }
    return "?";
}

const char* to_string(Severity s) {
    switch (s) {
        case Severity::Error: return "error";
        case Severity::Warning: return "warning";
        case Severity::Note: return "note";
    }
    return "?";
}

const char* to_string(Boundary::Kind k) {
    switch (k) {
        case Boundary::Kind::None: return "none";
        case Boundary::Kind::ShrunkBounds: return "shrunk-bounds";
        case Boundary::Kind::Guard: return "guard";
        case Boundary::Kind::Clamp: return "clamp";
    }
    return "?";
}

const char* to_string(TimeLoop::Form f) {
    switch (f) {
        case TimeLoop::Form::For: return "for";
        case TimeLoop::Form::While: return "while";
        case TimeLoop::Form::DoWhile: return "do-while";
    }
    return "?";
}

const char* to_string(TimeLoop::Exchange e) {
    switch (e) {
        case TimeLoop::Exchange::PointerSwap: return "pointer-swap";
        case TimeLoop::Exchange::IndexToggle: return "index-toggle";
        case TimeLoop::Exchange::MirroredNests: return "mirrored-nests";
        case TimeLoop::Exchange::CopyBack: return "copy-back";
        case TimeLoop::Exchange::None: return "none";
    }
    return "?";
}

const char* to_string(Dependence::Kind k) {
    switch (k) {
        case Dependence::Kind::Flow: return "flow";
        case Dependence::Kind::Anti: return "anti";
        case Dependence::Kind::Output: return "output";
    }
    return "?";
}

}  // namespace recipe::analyzer
