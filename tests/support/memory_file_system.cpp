#include "tests/support/memory_file_system.h"

namespace recipe::recipes {

namespace {
std::string normal(const std::string& path) {
    std::string p = path;
    while (p.rfind("./", 0) == 0) p.erase(0, 2);
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    return p;
}
}  // namespace

bool MemoryFileSystem::exists(const std::string& path) const {
    const std::string p = normal(path);
    return files.count(p) > 0 || directories.count(p) > 0;
}

bool MemoryFileSystem::is_directory(const std::string& path) const { return directories.count(normal(path)) > 0; }

bool MemoryFileSystem::same_file(const std::string& a, const std::string& b) const {
    return exists(a) && normal(a) == normal(b);
}

bool MemoryFileSystem::read(const std::string& path, std::string* content, std::string* error) const {
    const auto it = files.find(normal(path));
    if (it == files.end()) {
        *error = path + ": error: cannot open file: No such file or directory";
        return false;
    }
    *content = it->second;
    return true;
}

bool MemoryFileSystem::make_directories(const std::string& path, std::string* error) {
    const std::string p = normal(path);
    if (files.count(p)) {
        *error = path + ": exists and is not a directory";
        return false;
    }
    for (std::size_t slash = p.find('/'); slash != std::string::npos; slash = p.find('/', slash + 1))
        if (slash > 0) directories.insert(p.substr(0, slash));
    directories.insert(p);
    return true;
}

bool MemoryFileSystem::write_atomically(const std::string& path, const std::string& content, std::string* error) {
    return write_file(path, content, error);
}

bool MemoryFileSystem::write_file(const std::string& path, const std::string& content, std::string* error) {
    const std::string p = normal(path);
    if (failing_writes.count(p) || failing_writes.count(p.substr(p.rfind('/') + 1))) {
        *error = path + ": cannot write: Read-only file system";
        return false;
    }
    const auto slash = p.rfind('/');
    if (slash != std::string::npos && slash > 0 && !directories.count(p.substr(0, slash))) {
        *error = path + ": cannot write: No such file or directory";
        return false;
    }
    files[p] = content;
    ++writes;
    return true;
}

bool MemoryFileSystem::make_temporary_directory(const std::string& parent, const std::string& prefix, std::string* path,
                                                std::string* error) {
    for (int i = 1;; ++i) {
        const std::string p = normal((parent.empty() ? std::string(".") : parent) + "/" + prefix + std::to_string(i));
        if (exists(p)) continue;
        return make_directories(p, error) && (*path = p, true);
    }
}

bool MemoryFileSystem::rename(const std::string& from, const std::string& to, std::string* error) {
    const std::string f = normal(from), t = normal(to);
    if (++renames == failing_rename || !files.count(f)) {
        *error = to + ": cannot replace: Input/output error";
        return false;
    }
    files[t] = std::move(files[f]);
    files.erase(f);
    return true;
}

bool MemoryFileSystem::remove(const std::string& path) {
    const std::string p = normal(path);
    if (files.erase(p)) return true;
    for (const auto& [name, content] : files)
        if (name.rfind(p + "/", 0) == 0) return false;  // not empty
    return directories.erase(p) > 0;
}

std::vector<std::string> MemoryFileSystem::list(const std::string& directory) const {
    const std::string d = normal(directory.empty() ? "." : directory);
    const std::string prefix = d == "." ? "" : d + "/";
    std::set<std::string> names;
    auto add = [&](const std::string& path) {
        if (path.rfind(prefix, 0) != 0 || path.size() == prefix.size()) return;
        const std::string rest = path.substr(prefix.size());
        names.insert(rest.substr(0, rest.find('/')));
    };
    for (const auto& [name, content] : files) add(name);
    for (const auto& name : directories) add(name);
    return {names.begin(), names.end()};
}

}  // namespace recipe::recipes
