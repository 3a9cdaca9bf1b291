#include "analyzer/source_text.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>

namespace recipe::analyzer {

namespace {

std::string at(std::string_view file, std::string_view text, std::size_t offset) {
    int line = 1, col = 1;
    line_col_of(text, offset, &line, &col);
    return std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: ";
}

// Length of the UTF-8 sequence starting at s[i], 0 when it is invalid
// (overlong forms, surrogates and code points above U+10FFFF included).
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = b(i);
    if (c < 0x80) return 1;
    std::size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if (c >= 0xE1 && c <= 0xEC) len = 3;
    else if (c == 0xED) { len = 3; hi = 0x9F; }
    else if (c >= 0xEE && c <= 0xEF) len = 3;
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) { len = 4; hi = 0x8F; }
    else return 0;
    if (i + len > s.size()) return 0;
    if (b(i + 1) < lo || b(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < len; ++k)
        if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
    return len;
}

}  // namespace

void line_col_of(std::string_view text, std::size_t offset, int* line, int* col) {
    int l = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++l;
            line_start = i + 1;
        }
    }
    *line = l;
    *col = static_cast<int>(offset - line_start) + 1;
}

bool validate_source(std::string_view file_name, std::string_view text, std::string* error) {
    if (text.empty()) {
        *error = std::string(file_name) + ":1:1: error: file is empty";
        return false;
    }
    const void* nul = std::memchr(text.data(), '\0', text.size());
    if (nul) {
        std::size_t off = static_cast<std::size_t>(static_cast<const char*>(nul) - text.data());
        *error = at(file_name, text, off) + "binary file (NUL byte); expected C source text";
        return false;
    }
    for (std::size_t i = 0; i < text.size();) {
        // ASCII eight bytes at a time: most C files are all ASCII.
        if (i + 8 <= text.size()) {
            std::uint64_t word;
            std::memcpy(&word, text.data() + i, 8);
            if ((word & 0x8080808080808080ull) == 0) {
                i += 8;
                continue;
            }
        }
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        std::size_t n = utf8_sequence(text, i);
        if (n == 0) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[i]));
            *error = at(file_name, text, i) + "invalid UTF-8 (byte " + hex + "); expected C source text in UTF-8 or ASCII";
            return false;
        }
        i += n;
    }
    return true;
}

bool read_source_file(const std::string& path, std::string* text, std::string* error) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        *error = path + ": error: cannot open file: " + std::strerror(errno);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        *error = path + ": error: is a directory, not a C file";
        return false;
    }
    std::FILE* in = std::fopen(path.c_str(), "rb");
    if (!in) {
        *error = path + ": error: cannot open file: " + std::strerror(errno);
        return false;
    }
    // One read into a string of the file's size (more if it grows meanwhile).
    std::string data;
    data.resize(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 0) + 1);
    std::size_t used = 0;
    for (;;) {
        used += std::fread(data.data() + used, 1, data.size() - used, in);
        if (used < data.size()) break;  // end of file (or an error, below)
        data.resize(data.size() * 2);
    }
    bool failed = std::ferror(in) != 0;
    int saved_errno = errno;
    std::fclose(in);
    if (failed) {
        *error = path + ": error: cannot read file: " + std::strerror(saved_errno);
        return false;
    }
    data.resize(used);
    *text = std::move(data);
    return validate_source(path, *text, error);
}

}  // namespace recipe::analyzer
