#include "analyzer/tree_sitter_allocator.h"

#include <tree_sitter/api.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace recipe::analyzer {

namespace {

// The smallest block a node of 65,536 children lives in.
constexpr std::size_t kLarge = std::size_t{65536} * sizeof(void*);

// The large blocks tree-sitter holds: start address and size.
struct LargeBlocks {
    std::mutex mutex;
    std::map<std::uintptr_t, std::size_t> blocks;
    std::atomic<std::size_t> count{0};  // blocks.size(), read without the lock
};

// Never destroyed: trees may be freed by static destructors.
LargeBlocks& large_blocks() {
    static auto* blocks = new LargeBlocks();
    return *blocks;
}

// The frees inside a large block this thread has dropped.
thread_local std::size_t dropped = 0;

void remember(void* p, std::size_t bytes) {
    if (!p || bytes < kLarge) return;
    LargeBlocks& l = large_blocks();
    std::lock_guard<std::mutex> lock(l.mutex);
    l.blocks[reinterpret_cast<std::uintptr_t>(p)] = bytes;
    l.count.store(l.blocks.size(), std::memory_order_relaxed);
}

enum class Where { Elsewhere, Start, Inside };

// Where `p` lies among the large blocks; the block it starts is forgotten.
// For a pointer inside one, `left` gets the bytes from it to the block's end.
Where forget(const void* p, std::size_t* left = nullptr) {
    LargeBlocks& l = large_blocks();
    if (l.count.load(std::memory_order_relaxed) == 0) return Where::Elsewhere;
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::lock_guard<std::mutex> lock(l.mutex);
    auto it = l.blocks.upper_bound(at);
    if (it == l.blocks.begin()) return Where::Elsewhere;
    --it;
    if (it->first == at) {
        l.blocks.erase(it);
        l.count.store(l.blocks.size(), std::memory_order_relaxed);
        return Where::Start;
    }
    if (at - it->first >= it->second) return Where::Elsewhere;
    if (left) *left = it->second - (at - it->first);
    return Where::Inside;
}

[[noreturn]] void out_of_memory(std::size_t bytes) {
    // What tree-sitter's own allocator does: it has no way to report it.
    std::fprintf(stderr, "tree-sitter failed to allocate %zu bytes\n", bytes);
    std::abort();
}

void* allocate(std::size_t bytes) {
    void* p = std::malloc(bytes);
    if (!p && bytes != 0) out_of_memory(bytes);
    remember(p, bytes);
    return p;
}

void* allocate_zeroed(std::size_t count, std::size_t size) {
    void* p = std::calloc(count, size);
    if (!p && count != 0 && size != 0) out_of_memory(count * size);
    if (p && size != 0 && count <= SIZE_MAX / size) remember(p, count * size);
    return p;
}

void* reallocate(void* p, std::size_t bytes) {
    if (!p) return allocate(bytes);
    std::size_t left = 0;
    if (forget(p, &left) == Where::Inside) {
        // Not seen from tree-sitter 0.20.7, which reallocates only arrays,
        // never a node's block; should it happen, the block stays as it is.
        ++dropped;
        void* q = allocate(bytes);
        std::memcpy(q, p, left < bytes ? left : bytes);
        return q;
    }
    void* q = std::realloc(p, bytes);
    if (!q && bytes != 0) out_of_memory(bytes);
    remember(q, bytes);
    return q;
}

void release(void* p) {
    if (!p) return;
    if (forget(p) == Where::Inside) {
        ++dropped;
        return;
    }
    std::free(p);
}

}  // namespace

void install_tree_sitter_allocator() {
    static std::once_flag once;
    std::call_once(once, [] { ts_set_allocator(allocate, allocate_zeroed, reallocate, release); });
}

std::size_t dropped_frees() { return dropped; }

}  // namespace recipe::analyzer
