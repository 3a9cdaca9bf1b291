// old_values.h — whether a nest needs the values an output array held
// before it ran. Then the array is copied in as well as out (an "inout"
// array): the model prices that copy and the generated code makes it. The
// answer lives here, in one place, so that the model and the generator
// cannot disagree about it.
//
// Needed when the body reads the array before writing its point on every
// path (`a[i] += x`, `a[i] = a[i] * 2`, a read under an if), reads any
// other point of it (a neighbour), or writes some points only (under an
// if, a ?: or an inner loop, behind && or ||), since the points not written
// keep their old values. Not needed when every path writes the point
// before the only reads, of that point (`t[i] = f(x); u[i] = t[i];`): they
// see the value just written.
#pragma once

#include <vector>

#include "analyzer/body_facts.h"
#include "analyzer/program.h"

namespace recipe::analyzer {

struct OldValues {
    bool needed = false;
    // When needed because some points are not written: the write under a
    // branch or an inner loop (else the first write), an index into the
    // array's accesses; -1 when needed because of a read.
    int partial_write = -1;
};

// `body`: the innermost loop's body. `facts` and `accesses` are the array's
// accesses, in parallel (the facts hold the nodes, the accesses the offsets
// of each access).
OldValues old_values(TSNode body, const std::vector<const AccessFact*>& facts, const std::vector<ArrayAccess>& accesses);

}  // namespace recipe::analyzer
