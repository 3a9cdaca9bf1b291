#include "analyzer/small_blocks.h"

#include <tree_sitter/api.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define RECIPE_SMALL_BLOCKS_MMAP 1
#endif

#if defined(__SANITIZE_ADDRESS__)
#define RECIPE_SMALL_BLOCKS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RECIPE_SMALL_BLOCKS_ASAN 1
#endif
#endif

namespace recipe::analyzer::small_blocks {

namespace {

// Tree-sitter needs 8-byte alignment at most (pointers and 32-bit fields),
// and most of its nodes are 88 or 104 bytes, which malloc rounds up to 96
// and 112: classes 8 bytes apart fit them exactly.
constexpr std::size_t kGranule = 8;
constexpr std::size_t kClasses = 64;  // 8, 16, ..., 512 bytes
constexpr std::size_t kLargest = kGranule * kClasses;
constexpr std::size_t kPageBytes = std::size_t{64} << 10;
// The range is reserved without memory behind it and made accessible in
// steps of this size, so that a small file commits little.
constexpr std::size_t kCommitBytes = std::size_t{4} << 20;
constexpr std::size_t kReserveBytes = std::size_t{8} << 30;
constexpr std::size_t kPages = kReserveBytes / kPageBytes;

std::size_t class_of(std::size_t bytes) { return bytes == 0 ? 0 : (bytes - 1) / kGranule; }
std::size_t size_of(std::size_t size_class) { return (size_class + 1) * kGranule; }

struct Block {
    Block* next;
};

// The arena's own lists live on malloc: they grow while the arena's lock
// is held, and operator new comes here.
template <typename T>
struct SystemAllocator {
    using value_type = T;
    SystemAllocator() = default;
    template <typename U>
    SystemAllocator(const SystemAllocator<U>&) {}
    T* allocate(std::size_t n) {
        void* p = std::malloc(n * sizeof(T));
        if (!p) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t) { std::free(p); }
    friend bool operator==(const SystemAllocator&, const SystemAllocator&) { return true; }
};
template <typename T>
using SystemVector = std::vector<T, SystemAllocator<T>>;

// The bump space left in a thread's page when the thread ended.
struct Span {
    char* next;
    char* end;
};

// Process-wide state. Never destroyed: trees may be freed by static
// destructors or by threads that end after main returns.
struct Arena {
    char* base = nullptr;  // null: the range could not be reserved
    std::mutex mutex;
    std::size_t pages_cut = 0;   // under mutex
    std::size_t committed = 0;   // bytes from base made accessible, under mutex
    SystemVector<Block*> left_lists[kClasses];  // free lists of ended threads, under mutex
    SystemVector<Span> left_spans[kClasses];    // their unused page ends, under mutex
    // The class of each page cut so far. Written before the page's first
    // block is handed out; a block reaches another thread only through
    // code that synchronizes (a thread's start or join, a lock), so
    // relaxed loads see it.
    std::atomic<std::uint8_t> page_class[kPages];
};

char* reserve_range() {
#if defined(RECIPE_SMALL_BLOCKS_MMAP)
#if defined(MAP_NORESERVE)
    constexpr int kNoReserve = MAP_NORESERVE;
#else
    constexpr int kNoReserve = 0;
#endif
    // No MADV_HUGEPAGE: 2 MiB pages cut TLB misses in the tree walks, but
    // the kernel's zeroing (and compaction) of them cost as much again on a
    // two-core virtual machine, and more when writing the JSON.
    void* p = mmap(nullptr, kReserveBytes + kPageBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | kNoReserve, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    auto at = reinterpret_cast<std::uintptr_t>(p);
    return reinterpret_cast<char*>((at + kPageBytes - 1) & ~(kPageBytes - 1));
#else
    return nullptr;
#endif
}

// The arena once made, for the paths that free: they need not make it
// (nothing can be freed before it exists) and so skip its guard.
std::atomic<Arena*> made_arena{nullptr};

Arena& arena() {
    static Arena* const a = [] {
        void* memory = std::malloc(sizeof(Arena));  // not new: new comes here
        if (!memory) std::abort();
        auto* made = new (memory) Arena();
        made->base = reserve_range();
        made_arena.store(made, std::memory_order_release);
        return made;
    }();
    return *a;
}

// The arena when `p` is one of its blocks, else null.
Arena* arena_owning(const void* p) {
    Arena* a = made_arena.load(std::memory_order_acquire);
    if (a && reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(a->base) < kReserveBytes && a->base)
        return a;
    return nullptr;
}

[[noreturn]] void out_of_memory(std::size_t bytes) {
    // What tree-sitter's own allocator does: it cannot report the failure.
    std::fprintf(stderr, "tree-sitter failed to allocate %zu bytes\n", bytes);
    std::abort();
}

// Per thread: a free list and a bump page per class. Constant-initialized
// and trivially destructible, so reading it costs no initialization check;
// the Farewell below hands its contents over when the thread ends.
struct ThreadCache {
    Block* free[kClasses];
    char* next[kClasses];
    char* end[kClasses];
    bool watched;  // this thread's Farewell exists
    bool ended;    // the Farewell ran: blocks go to the arena directly
};
thread_local ThreadCache cache{};

struct Farewell {
    Farewell() = default;
    Farewell(const Farewell&) = delete;
    Farewell& operator=(const Farewell&) = delete;
    ~Farewell() {
        Arena& a = arena();
        std::lock_guard<std::mutex> lock(a.mutex);
        for (std::size_t c = 0; c < kClasses; ++c) {
            if (cache.free[c]) a.left_lists[c].push_back(cache.free[c]);
            if (cache.end[c] - cache.next[c] >= static_cast<std::ptrdiff_t>(size_of(c)))
                a.left_spans[c].push_back({cache.next[c], cache.end[c]});
            cache.free[c] = nullptr;
            cache.next[c] = cache.end[c] = nullptr;
        }
        cache.ended = true;
    }
};
thread_local Farewell farewell;

[[gnu::noinline]] void start_watching() {
    cache.watched = true;
    [[maybe_unused]] Farewell* made = &farewell;  // constructs it: its destructor runs at thread exit
}

inline void watch_thread() {
    if (!cache.watched) start_watching();
}

// A block freed by a thread whose Farewell has run.
[[gnu::noinline]] void release_after_farewell(Arena& a, std::size_t size_class, Block* b) {
    b->next = nullptr;
    std::lock_guard<std::mutex> lock(a.mutex);
    a.left_lists[size_class].push_back(b);
}

// Cuts the next page for `size_class` (mutex held); null when the range is
// used up or cannot be made accessible.
char* cut_page(Arena& a, std::size_t size_class) {
    if (!a.base || a.pages_cut == kPages) return nullptr;
    std::size_t offset = a.pages_cut * kPageBytes;
    if (offset + kPageBytes > a.committed) {
#if defined(RECIPE_SMALL_BLOCKS_MMAP)
        if (mprotect(a.base + a.committed, kCommitBytes, PROT_READ | PROT_WRITE) != 0) return nullptr;
        a.committed += kCommitBytes;
#else
        return nullptr;
#endif
    }
    a.page_class[a.pages_cut].store(static_cast<std::uint8_t>(size_class), std::memory_order_relaxed);
    ++a.pages_cut;
    return a.base + offset;
}

// The slow path of take(): this thread's list and page for the class are
// empty. Null only when malloc, the last resort, fails.
void* refill(std::size_t size_class) {
    const std::size_t size = size_of(size_class);
    if (cache.ended) return std::malloc(size);
    watch_thread();
    Arena& a = arena();
    std::unique_lock<std::mutex> lock(a.mutex);
    if (!a.left_lists[size_class].empty()) {
        Block* b = a.left_lists[size_class].back();
        a.left_lists[size_class].pop_back();
        cache.free[size_class] = b->next;
        return b;
    }
    char* page;
    char* end;
    if (!a.left_spans[size_class].empty()) {
        Span s = a.left_spans[size_class].back();
        a.left_spans[size_class].pop_back();
        page = s.next;
        end = s.end;
    } else {
        page = cut_page(a, size_class);
        if (!page) {
            lock.unlock();
            return std::malloc(size);
        }
        end = page + kPageBytes / size * size;
    }
    lock.unlock();
    cache.next[size_class] = page + size;
    cache.end[size_class] = end;
    return page;
}

std::size_t class_of_block(const Arena& a, const void* p) {
    auto offset = static_cast<std::size_t>(static_cast<const char*>(p) - a.base);
    return a.page_class[offset / kPageBytes].load(std::memory_order_relaxed);
}

// A block of `bytes` (at most kLargest): a pop, a bump, or the slow path.
inline void* take(std::size_t bytes) {
    const std::size_t c = class_of(bytes);
    if (Block* b = cache.free[c]) {
        cache.free[c] = b->next;
        return b;
    }
    const auto size = static_cast<std::ptrdiff_t>(size_of(c));
    if (cache.end[c] - cache.next[c] >= size) {
        char* p = cache.next[c];
        cache.next[c] += size;
        return p;
    }
    return refill(c);
}

}  // namespace

bool owns(const void* p) { return arena_owning(p) != nullptr; }

void* allocate(std::size_t bytes) {
    void* p = bytes <= kLargest ? take(bytes) : std::malloc(bytes);
    if (!p) out_of_memory(bytes);
    return p;
}

void* allocate_zeroed(std::size_t count, std::size_t size) {
    if (size != 0 && count > SIZE_MAX / size) out_of_memory(SIZE_MAX);
    const std::size_t bytes = count * size;
    if (bytes > kLargest) {
        void* p = std::calloc(count, size);
        if (!p) out_of_memory(bytes);
        return p;
    }
    void* p = allocate(bytes);
    std::memset(p, 0, bytes);
    return p;
}

void release(void* p) {
    Arena* a = arena_owning(p);
    if (!a) {
        std::free(p);  // malloc's (large, or from before install()), or null
        return;
    }
    const std::size_t c = class_of_block(*a, p);
    auto* b = static_cast<Block*>(p);
    if (cache.ended) return release_after_farewell(*a, c, b);
    watch_thread();
    b->next = cache.free[c];
    cache.free[c] = b;
}

void* reallocate(void* p, std::size_t bytes) {
    if (!p) return allocate(bytes);
    Arena* a = arena_owning(p);
    if (!a) {
        void* q = std::realloc(p, bytes == 0 ? 1 : bytes);
        if (!q) out_of_memory(bytes);
        return q;
    }
    const std::size_t capacity = size_of(class_of_block(*a, p));
    if (bytes <= capacity) return p;
    void* q = allocate(bytes);
    std::memcpy(q, p, capacity);
    release(p);
    return q;
}

std::size_t pages_in_use() {
    Arena& a = arena();
    std::lock_guard<std::mutex> lock(a.mutex);
    return a.pages_cut;
}

namespace {
std::atomic<bool> switched{false};
}  // namespace

void install() {
    static std::once_flag once;
    std::call_once(once, [] {
#if !defined(RECIPE_SMALL_BLOCKS_ASAN)
        if (!arena().base) return;
        ts_set_allocator(allocate, allocate_zeroed, reallocate, release);
        switched.store(true, std::memory_order_release);
#endif
    });
}

bool installed() { return switched.load(std::memory_order_acquire); }

bool serves_operator_new() {
#if defined(RECIPE_SMALL_BLOCKS_ASAN)
    return false;
#else
    return true;
#endif
}

}  // namespace recipe::analyzer::small_blocks

// C++'s global operator new and delete (the other forms, nothrow and
// arrays, come to these). Requests are rounded up to 16 bytes: the
// alignment new promises. Not in sanitizer builds: the sanitizer's own
// operator new must see every block.
#if !defined(RECIPE_SMALL_BLOCKS_ASAN)
namespace {

void* new_block(std::size_t bytes) {
    namespace blocks = recipe::analyzer::small_blocks;
    for (;;) {
        void* p = bytes <= blocks::kLargest ? blocks::take(bytes == 0 ? 16 : (bytes + 15) & ~std::size_t{15})
                                            : std::malloc(bytes);
        if (p) return p;
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
}

}  // namespace

void* operator new(std::size_t bytes) { return new_block(bytes); }
void* operator new[](std::size_t bytes) { return new_block(bytes); }
void operator delete(void* p) noexcept { recipe::analyzer::small_blocks::release(p); }
void operator delete[](void* p) noexcept { recipe::analyzer::small_blocks::release(p); }
void operator delete(void* p, std::size_t) noexcept { recipe::analyzer::small_blocks::release(p); }
void operator delete[](void* p, std::size_t) noexcept { recipe::analyzer::small_blocks::release(p); }
#endif
