// memory_file_system.h — files in memory, for the tests and the fuzz target:
// recipe advise and the output writer run against it and never touch the
// disk (recipes/file_system.h).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "recipes/file_system.h"

namespace recipe::recipes {

// In-memory files for tests. Paths are compared as written (after dropping
// "./" prefixes); a write can be made to fail to test error handling.
class MemoryFileSystem final : public FileSystem {
public:
    std::map<std::string, std::string> files;
    std::set<std::string> directories;
    std::set<std::string> failing_writes;   // writes to these paths, or files of these names, fail
    int failing_rename = 0;                 // the rename with this number (1, 2, …) fails; 0: none
    int writes = 0;                        // successful writes
    int renames = 0;                       // rename calls

    bool exists(const std::string& path) const override;
    bool is_directory(const std::string& path) const override;
    bool same_file(const std::string& a, const std::string& b) const override;
    bool read(const std::string& path, std::string* content, std::string* error) const override;
    bool make_directories(const std::string& path, std::string* error) override;
    bool write_atomically(const std::string& path, const std::string& content, std::string* error) override;
    bool write_file(const std::string& path, const std::string& content, std::string* error) override;
    bool make_temporary_directory(const std::string& parent, const std::string& prefix, std::string* path,
                                  std::string* error) override;
    bool rename(const std::string& from, const std::string& to, std::string* error) override;
    bool remove(const std::string& path) override;
    std::vector<std::string> list(const std::string& directory) const override;
};

}  // namespace recipe::recipes
