#include "analyzer/program.h"

namespace recipe::analyzer {

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

}  // namespace recipe::analyzer
