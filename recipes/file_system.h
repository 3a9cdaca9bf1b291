// file_system.h — the edge between `recipe advise` and the disk. Reading the
// input and writing outputs go through this small interface so that tests run
// against MemoryFileSystem and never touch real files (CONVENTIONS.md 6,
// after ninja's VirtualFileSystem).
#pragma once

#include <map>
#include <set>
#include <string>

namespace recipe::recipes {

class FileSystem {
public:
    virtual ~FileSystem() = default;

    virtual bool exists(const std::string& path) const = 0;
    // True when both paths name the same existing file (after links and
    // relative parts): used to make sure an output never replaces the input.
    virtual bool same_file(const std::string& a, const std::string& b) const = 0;
    virtual bool read(const std::string& path, std::string* content, std::string* error) const = 0;
    // Creates the directory and its parents; an existing directory is fine.
    virtual bool make_directories(const std::string& path, std::string* error) = 0;
    // Writes `content` to a temporary file in the same directory, then renames
    // it over `path`: a reader sees the old file or the new one, never half.
    virtual bool write_atomically(const std::string& path, const std::string& content, std::string* error) = 0;
};

class RealFileSystem final : public FileSystem {
public:
    bool exists(const std::string& path) const override;
    bool same_file(const std::string& a, const std::string& b) const override;
    bool read(const std::string& path, std::string* content, std::string* error) const override;
    bool make_directories(const std::string& path, std::string* error) override;
    bool write_atomically(const std::string& path, const std::string& content, std::string* error) override;
};

// In-memory files for tests. Paths are compared as written (after dropping
// "./" prefixes); a write can be made to fail to test error handling.
class MemoryFileSystem final : public FileSystem {
public:
    std::map<std::string, std::string> files;
    std::set<std::string> directories;
    std::set<std::string> failing_writes;  // write_atomically to these fails
    int writes = 0;                        // successful write_atomically calls

    bool exists(const std::string& path) const override;
    bool same_file(const std::string& a, const std::string& b) const override;
    bool read(const std::string& path, std::string* content, std::string* error) const override;
    bool make_directories(const std::string& path, std::string* error) override;
    bool write_atomically(const std::string& path, const std::string& content, std::string* error) override;
};

}  // namespace recipe::recipes
