#include "recipes/file_system.h"

#include "analyzer/source_text.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace recipe::recipes {

namespace fs = std::filesystem;

bool RealFileSystem::exists(const std::string& path) const {
    std::error_code ec;
    return fs::exists(path, ec);
}

bool RealFileSystem::is_directory(const std::string& path) const {
    std::error_code ec;
    return fs::is_directory(path, ec);
}

bool RealFileSystem::same_file(const std::string& a, const std::string& b) const {
    std::error_code ec;
    const bool same = fs::equivalent(a, b, ec);
    return !ec && same;
}

bool RealFileSystem::read(const std::string& path, std::string* content, std::string* error) const {
    return analyzer::read_source_file(path, content, error);  // one reader for every command
}

bool RealFileSystem::make_directories(const std::string& path, std::string* error) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) {
        *error = path + ": cannot create directory: " + ec.message();
        return false;
    }
    if (!fs::is_directory(path, ec)) {
        *error = path + ": exists and is not a directory";
        return false;
    }
    return true;
}

bool RealFileSystem::write_file(const std::string& path, const std::string& content, std::string* error) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        *error = path + ": cannot write: " + std::strerror(errno);
        return false;
    }
    // No fsync: the output set is switched in by rename(), which is atomic
    // for readers, and syncing every output would cost more than generating
    // it (compilers do not sync their outputs either).
    const bool written = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    const bool flushed = std::fflush(f) == 0;
    const int saved_errno = errno;
    const bool closed = std::fclose(f) == 0;
    if (!written || !flushed || !closed) {
        std::remove(path.c_str());
        *error = path + ": cannot write: " + std::strerror(saved_errno);
        return false;
    }
    return true;
}

bool RealFileSystem::write_atomically(const std::string& path, const std::string& content, std::string* error) {
    // The temporary file sits beside the target so that rename() stays within
    // one file system and is atomic.
    static std::atomic<int> counter{0};
    const std::string temp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    if (!write_file(temp, content, error)) {
        if (error->rfind(temp, 0) == 0) error->replace(0, temp.size(), path);
        return false;
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        *error = path + ": cannot replace: " + std::strerror(errno);
        std::remove(temp.c_str());
        return false;
    }
    return true;
}

bool RealFileSystem::make_temporary_directory(const std::string& parent, const std::string& prefix, std::string* path,
                                              std::string* error) {
    std::string pattern = (parent.empty() ? std::string(".") : parent) + "/" + prefix + "XXXXXX";
    if (!::mkdtemp(pattern.data())) {
        *error = parent + ": cannot create a directory in it: " + std::strerror(errno);
        return false;
    }
    *path = pattern;
    return true;
}

bool RealFileSystem::rename(const std::string& from, const std::string& to, std::string* error) {
    if (std::rename(from.c_str(), to.c_str()) != 0) {
        *error = to + ": cannot replace: " + std::strerror(errno);
        return false;
    }
    return true;
}

bool RealFileSystem::remove(const std::string& path) { return std::remove(path.c_str()) == 0; }

std::vector<std::string> RealFileSystem::list(const std::string& directory) const {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(directory.empty() ? "." : directory, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    return names;
}

}  // namespace recipe::recipes
