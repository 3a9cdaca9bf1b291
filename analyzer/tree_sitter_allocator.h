// tree_sitter_allocator.h — the allocator tree-sitter runs on: malloc and
// free, except that freeing a pointer into the middle of a large block does
// nothing.
//
// Debian's tree-sitter 0.20.7 keeps a node's child count in 16 bits (fixed
// in 0.20.8, tree-sitter issue #2134). A node with 65,536 children or more
// gets its count modulo 65,536; the node's children sit in one block right
// before it, found by counting back from the node, so freeing the node
// frees a pointer inside that block and glibc aborts ("munmap_chunk():
// invalid pointer"), in ts_tree_delete or already inside the parse. C
// makes such a node where an error closes a stack of 65,536 unfinished
// constructs (unclosed parentheses, `if (x)` after `if (x)` at the end of
// the file) or from 65,536 comments in a row. A block with that many
// children holds 512 KiB of pointers at least: blocks from that size up
// are remembered, and a free inside one of them is dropped, leaving the
// block and the children the node lost count of to the operating system.
// Nothing else changes (every other block is malloc's own, so memory that
// tree-sitter had before the switch is freed as usual).
//
// The tree is wrong even so (its nodes cover less than the text): see
// SyntaxTree::whole().
#pragma once

#include <cstddef>

namespace recipe::analyzer {

// Switches tree-sitter to this allocator (once per process; later calls do
// nothing). Called before a parser is made.
void install_tree_sitter_allocator();

// How many frees inside a large block the calling thread has dropped: when
// a parse makes it grow, tree-sitter lost count of a node's children.
std::size_t dropped_frees();

}  // namespace recipe::analyzer
