// file_system.h — the edge between `recipe advise` and the disk. Reading the
// input and writing outputs go through this small interface so that tests run
// against an in-memory one (tests/support/memory_file_system.h) and never
// touch real files (CONVENTIONS.md 6, after ninja's VirtualFileSystem).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace recipe::recipes {

class FileSystem {
public:
    virtual ~FileSystem() = default;

    virtual bool exists(const std::string& path) const = 0;
    virtual bool is_directory(const std::string& path) const = 0;
    // True when both paths name the same existing file (after links and
    // relative parts): used to make sure an output never replaces the input.
    virtual bool same_file(const std::string& a, const std::string& b) const = 0;
    virtual bool read(const std::string& path, std::string* content, std::string* error) const = 0;
    // Creates the directory and its parents; an existing directory is fine.
    virtual bool make_directories(const std::string& path, std::string* error) = 0;
    // Writes `content` to a temporary file in the same directory, then renames
    // it over `path`: a reader sees the old file or the new one, never half.
    virtual bool write_atomically(const std::string& path, const std::string& content, std::string* error) = 0;
    // Writes `content` straight to `path`: for files in a directory no one
    // else looks into (the staging directory of an output set).
    virtual bool write_file(const std::string& path, const std::string& content, std::string* error) = 0;
    // Creates a new, empty directory inside `parent` whose name starts with
    // `prefix`; `path` gets its path.
    virtual bool make_temporary_directory(const std::string& parent, const std::string& prefix, std::string* path,
                                          std::string* error) = 0;
    // Renames a file (within one file system: atomic, and it cannot fail for
    // want of space).
    virtual bool rename(const std::string& from, const std::string& to, std::string* error) = 0;
    // Removes a file or an empty directory; false when it could not.
    virtual bool remove(const std::string& path) = 0;
    // The names of the entries of a directory (none when it cannot be read).
    virtual std::vector<std::string> list(const std::string& directory) const = 0;
};

class RealFileSystem final : public FileSystem {
public:
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
