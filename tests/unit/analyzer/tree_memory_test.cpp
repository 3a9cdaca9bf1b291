// The allocator behind tree-sitter's trees: blocks keep their contents
// through realloc, malloc's memory is told apart and freed by malloc, blocks
// freed on a thread that has ended are used again, and trees parsed before
// and after the switch can both be freed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "analyzer/syntax_tree.h"
#include "analyzer/tree_memory.h"

using namespace recipe::analyzer;

namespace {

void fill(void* p, std::size_t bytes, unsigned char seed) {
    auto* b = static_cast<unsigned char*>(p);
    for (std::size_t i = 0; i < bytes; ++i) b[i] = static_cast<unsigned char>(seed + i);
}

bool holds(const void* p, std::size_t bytes, unsigned char seed) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < bytes; ++i)
        if (b[i] != static_cast<unsigned char>(seed + i)) return false;
    return true;
}

// Whether the address range could be reserved (it can on Linux and macOS).
bool has_range() {
    void* p = tree_memory::allocate(8);
    bool ours = tree_memory::owns(p);
    tree_memory::release(p);
    return ours;
}

}  // namespace

TEST_CASE("tree memory: small blocks are its own, aligned, distinct and writable", "[analyzer]") {
    std::vector<void*> blocks;
    for (std::size_t bytes : {1u, 8u, 9u, 88u, 96u, 104u, 511u, 512u}) {
        void* p = tree_memory::allocate(bytes);
        REQUIRE(p != nullptr);
        CHECK(tree_memory::owns(p) == has_range());
        CHECK(reinterpret_cast<std::uintptr_t>(p) % 8 == 0);
        fill(p, bytes, static_cast<unsigned char>(bytes));
        blocks.push_back(p);
    }
    std::size_t k = 0;
    for (std::size_t bytes : {1u, 8u, 9u, 88u, 96u, 104u, 511u, 512u}) CHECK(holds(blocks[k++], bytes, static_cast<unsigned char>(bytes)));
    for (void* p : blocks) tree_memory::release(p);
}

TEST_CASE("tree memory: a freed block of a size is handed out again for that size", "[analyzer]") {
    if (!has_range()) {
        SUCCEED("no reserved range on this system: malloc serves everything");
        return;
    }
    void* p = tree_memory::allocate(88);
    tree_memory::release(p);
    void* again = tree_memory::allocate(81);  // 81..88 bytes share a class
    CHECK(again == p);
    tree_memory::release(again);
}

TEST_CASE("tree memory: large requests and malloc's pointers go to malloc", "[analyzer]") {
    void* big = tree_memory::allocate(4096);
    CHECK_FALSE(tree_memory::owns(big));
    fill(big, 4096, 3);
    big = tree_memory::reallocate(big, 8192);
    CHECK(holds(big, 4096, 3));
    tree_memory::release(big);

    void* foreign = std::malloc(40);
    CHECK_FALSE(tree_memory::owns(foreign));
    fill(foreign, 40, 9);
    foreign = tree_memory::reallocate(foreign, 100);
    CHECK(holds(foreign, 40, 9));
    tree_memory::release(foreign);
    tree_memory::release(nullptr);
}

TEST_CASE("tree memory: realloc keeps the contents, in place while the block is big enough", "[analyzer]") {
    void* p = tree_memory::reallocate(nullptr, 20);
    fill(p, 20, 1);
    CHECK(tree_memory::reallocate(p, 24) == p);  // the same 24-byte class
    void* q = tree_memory::reallocate(p, 300);
    CHECK(holds(q, 20, 1));
    fill(q, 300, 5);
    void* r = tree_memory::reallocate(q, 2000);  // out to malloc
    CHECK(holds(r, 300, 5));
    tree_memory::release(r);

    auto* zeroed = static_cast<unsigned char*>(tree_memory::allocate_zeroed(12, 10));
    for (int i = 0; i < 120; ++i) REQUIRE(zeroed[i] == 0);
    tree_memory::release(zeroed);
}

TEST_CASE("tree memory: blocks freed on threads that have ended are used again", "[analyzer]") {
    if (!has_range()) {
        SUCCEED("no reserved range on this system");
        return;
    }
    // Each round: one thread allocates 4 MiB of 200-byte blocks, another
    // frees them and ends. Without the hand-over every round would cut new
    // pages; with it, the rounds after the first reuse the first's.
    auto round = [] {
        std::vector<void*> blocks;
        std::thread make([&] {
            for (int i = 0; i < 20000; ++i) blocks.push_back(tree_memory::allocate(200));
        });
        make.join();
        std::thread drop([&] {
            for (void* p : blocks) tree_memory::release(p);
        });
        drop.join();
    };
    round();
    std::size_t after_first = tree_memory::pages_in_use();
    for (int r = 0; r < 5; ++r) round();
    CHECK(tree_memory::pages_in_use() <= after_first + 2);
}

TEST_CASE("tree memory: trees parsed by the analyzer parse and free with it installed", "[analyzer]") {
    std::string code;
    for (int k = 0; k < 6000; ++k)
        code += "void f" + std::to_string(k) + "(float *a, const float *b, int n)\n{\n"
                "    for (int i = 1; i < n - 1; i++)\n        a[i] = b[i - 1] + b[i + 1];\n}\n";
    {
        SyntaxTree tree(code);  // large enough to be parsed in parts, on two threads
        REQUIRE(tree.parts() >= 2);
#if !defined(__SANITIZE_ADDRESS__)
        CHECK(tree_memory::installed() == has_range());  // sanitizer builds keep tree-sitter on malloc
#endif
        CHECK_FALSE(ts_node_has_error(tree.root()));
    }
    SyntaxTree again(code);  // what the first freed is used again
    CHECK_FALSE(ts_node_has_error(again.root()));
}
