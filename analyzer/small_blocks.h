// small_blocks.h — the allocator for small blocks (up to 512 bytes) that
// tree-sitter's trees and the analysis are made of: per-thread free lists
// of 64 size classes 8 bytes apart, cut from 64 KiB pages of one address
// range reserved up front.
//
// A large file's syntax trees are about 1.4 million small allocations that
// live until the trees are deleted, and its analysis makes and drops some
// 3 million more (strings, map nodes, polynomial terms). glibc serves the
// first from the top of a heap (its slow path) with an 8-byte header and
// 16-byte rounding on each (an 88-byte tree node takes 96 bytes), and the
// second mostly past its small per-thread caches. Here a page holds blocks
// of one size, so a block needs no header, a free is a push on the calling
// thread's list and an allocation a pop or a bump.
//
// Two users: tree-sitter, switched over by install(); and C++'s global
// operator new and delete, which this file's definition replaces for the
// whole program (blocks of up to 512 bytes; 16-byte classes, so alignment
// is what new promises). Builds with AddressSanitizer keep both on malloc,
// so that the sanitizer sees every block.
//
// Larger requests, and every request when the range could not be reserved,
// go to malloc; free and realloc tell the two apart by address, so memory
// that malloc gave out (tree-sitter's, before install()) is still freed
// correctly. Freed blocks are kept for reuse by blocks of the same size,
// never returned to the system; a thread that ends hands its free blocks
// to the next thread that needs some.
#pragma once

#include <cstddef>

namespace recipe::analyzer::small_blocks {

// Makes tree-sitter allocate here from now on (once per process; later
// calls do nothing). Call it before the first parser is made.
void install();

// Whether install() switched tree-sitter over.
bool installed();
// Whether this build's operator new comes here (not in sanitizer builds).
bool serves_operator_new();

// The four functions install() hands to ts_set_allocator, for tests.
// Blocks are 8-byte aligned; those of a multiple of 16 bytes, 16-byte.
void* allocate(std::size_t bytes);
void* allocate_zeroed(std::size_t count, std::size_t size);
void* reallocate(void* p, std::size_t bytes);
void release(void* p);

// Whether `p` lies in the reserved range (a block of this allocator).
bool owns(const void* p);
// How many 64 KiB pages have been cut from the range so far.
std::size_t pages_in_use();

}  // namespace recipe::analyzer::small_blocks
