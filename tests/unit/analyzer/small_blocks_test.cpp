// The small-block allocator behind tree-sitter's trees and operator new:
// blocks keep their contents through realloc, malloc's memory is told apart
// and freed by malloc, blocks freed on a thread that has ended are used
// again, new keeps its 16-byte alignment, and trees parsed before and after
// the switch can both be freed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "analyzer/syntax_tree.h"
#include "analyzer/small_blocks.h"

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
    void* p = small_blocks::allocate(8);
    bool ours = small_blocks::owns(p);
    small_blocks::release(p);
    return ours;
}

}  // namespace

TEST_CASE("small blocks: blocks of up to 512 bytes are its own, aligned, distinct and writable", "[analyzer]") {
    std::vector<void*> blocks;
    for (std::size_t bytes : {1u, 8u, 9u, 88u, 96u, 104u, 511u, 512u}) {
        void* p = small_blocks::allocate(bytes);
        REQUIRE(p != nullptr);
        CHECK(small_blocks::owns(p) == has_range());
        CHECK(reinterpret_cast<std::uintptr_t>(p) % 8 == 0);
        fill(p, bytes, static_cast<unsigned char>(bytes));
        blocks.push_back(p);
    }
    std::size_t k = 0;
    for (std::size_t bytes : {1u, 8u, 9u, 88u, 96u, 104u, 511u, 512u}) CHECK(holds(blocks[k++], bytes, static_cast<unsigned char>(bytes)));
    for (void* p : blocks) small_blocks::release(p);
}

TEST_CASE("small blocks: a freed block of a size is handed out again for that size", "[analyzer]") {
    if (!has_range()) {
        SUCCEED("no reserved range on this system: malloc serves everything");
        return;
    }
    void* p = small_blocks::allocate(88);
    small_blocks::release(p);
    void* again = small_blocks::allocate(81);  // 81..88 bytes share a class
    CHECK(again == p);
    small_blocks::release(again);
}

TEST_CASE("small blocks: large requests and malloc's pointers go to malloc", "[analyzer]") {
    void* big = small_blocks::allocate(4096);
    CHECK_FALSE(small_blocks::owns(big));
    fill(big, 4096, 3);
    big = small_blocks::reallocate(big, 8192);
    CHECK(holds(big, 4096, 3));
    small_blocks::release(big);

    void* foreign = std::malloc(40);
    CHECK_FALSE(small_blocks::owns(foreign));
    fill(foreign, 40, 9);
    foreign = small_blocks::reallocate(foreign, 100);
    CHECK(holds(foreign, 40, 9));
    small_blocks::release(foreign);
    small_blocks::release(nullptr);
}

TEST_CASE("small blocks: realloc keeps the contents, in place while the block is big enough", "[analyzer]") {
    void* p = small_blocks::reallocate(nullptr, 20);
    fill(p, 20, 1);
    CHECK(small_blocks::reallocate(p, 24) == p);  // the same 24-byte class
    void* q = small_blocks::reallocate(p, 300);
    CHECK(holds(q, 20, 1));
    fill(q, 300, 5);
    void* r = small_blocks::reallocate(q, 2000);  // out to malloc
    CHECK(holds(r, 300, 5));
    small_blocks::release(r);

    auto* zeroed = static_cast<unsigned char*>(small_blocks::allocate_zeroed(12, 10));
    for (int i = 0; i < 120; ++i) REQUIRE(zeroed[i] == 0);
    small_blocks::release(zeroed);
}

TEST_CASE("small blocks: blocks freed on threads that have ended are used again", "[analyzer]") {
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
            for (int i = 0; i < 20000; ++i) blocks.push_back(small_blocks::allocate(200));
        });
        make.join();
        std::thread drop([&] {
            for (void* p : blocks) small_blocks::release(p);
        });
        drop.join();
    };
    round();
    std::size_t after_first = small_blocks::pages_in_use();
    for (int r = 0; r < 5; ++r) round();
    CHECK(small_blocks::pages_in_use() <= after_first + 2);
}

TEST_CASE("small blocks: trees parsed by the analyzer parse and free with it installed", "[analyzer]") {
    std::string code;
    for (int k = 0; k < 6000; ++k)
        code += "void f" + std::to_string(k) + "(float *a, const float *b, int n)\n{\n"
                "    for (int i = 1; i < n - 1; i++)\n        a[i] = b[i - 1] + b[i + 1];\n}\n";
    {
        SyntaxTree tree(code);  // large enough to be parsed in parts, on two threads
        REQUIRE(tree.parts() >= 2);
        // Sanitizer builds keep tree-sitter on malloc, as they keep new.
        CHECK(small_blocks::installed() == (small_blocks::serves_operator_new() && has_range()));
        CHECK_FALSE(ts_node_has_error(tree.root()));
    }
    SyntaxTree again(code);  // what the first freed is used again
    CHECK_FALSE(ts_node_has_error(again.root()));
}

TEST_CASE("small blocks: operator new serves small objects with its 16-byte alignment", "[analyzer]") {
    std::vector<char*> blocks;
    for (std::size_t bytes = 1; bytes <= 600; bytes += 7) {
        char* p = new char[bytes];
        CHECK(reinterpret_cast<std::uintptr_t>(p) % 16 == 0);
        CHECK(small_blocks::owns(p) == (small_blocks::serves_operator_new() && has_range() && bytes <= 512));
        std::memset(p, 0x5a, bytes);
        blocks.push_back(p);
    }
    for (char* p : blocks) delete[] p;
    auto* zero = new char[0];  // a distinct pointer, as new must give
    auto* other = new char[0];
    CHECK(zero != other);
    delete[] zero;
    delete[] other;
}
