// tree_memory.h — the allocator tree-sitter uses once the analyzer has
// started: per-thread free lists of 64 size classes (8 to 512 bytes), cut
// from 64 KiB pages of one address range reserved up front (and backed by
// 2 MiB pages where the system grants them). A large file's
// syntax trees are about 1.4 million small allocations that live until the
// trees are deleted. glibc serves most of them from the top of a heap (its
// slow path) and puts an 8-byte header and 16-byte rounding on each (an 88-byte node takes 96 bytes); here a
// page holds blocks of one size, so a block needs no header, a free is a
// push on the calling thread's list and an allocation a pop or a bump.
//
// Requests over 512 bytes, and every request when the range could not be
// reserved, go to malloc; free and realloc tell the two apart by address,
// so memory tree-sitter allocated before the switch (a tree parsed
// elsewhere in the process) is still freed correctly. Freed blocks are
// kept for reuse, never returned to the system; a thread that ends hands
// its free blocks to the next thread that needs some.
#pragma once

#include <cstddef>

namespace recipe::analyzer::tree_memory {

// Makes tree-sitter allocate through this allocator from now on (once per
// process; later calls do nothing). Call it before the first parser is
// made. Builds with AddressSanitizer keep tree-sitter on malloc, so that
// the sanitizer still sees its memory.
void install();

// Whether install() switched tree-sitter over.
bool installed();

// The four functions install() hands to ts_set_allocator, for tests.
void* allocate(std::size_t bytes);
void* allocate_zeroed(std::size_t count, std::size_t size);
void* reallocate(void* p, std::size_t bytes);
void release(void* p);

// Whether `p` lies in the reserved range (a block of this allocator).
bool owns(const void* p);
// How many 64 KiB pages have been cut from the range so far.
std::size_t pages_in_use();

}  // namespace recipe::analyzer::tree_memory
