// output_writer.h — puts the generated files on disk, all or nothing as far
// as checks go: every refusal (an output would replace the input, an output
// exists and --force was not given) is found before the first byte is written,
// and each file is written atomically.
#pragma once

#include <string>
#include <vector>

#include "recipes/file_system.h"

namespace recipe::recipes {

struct OutputFile {
    std::string name;  // file name inside the output directory
    std::string content;
};

struct WriteRequest {
    std::string directory;   // created when missing; "" means "."
    std::string input_path;  // never overwritten, whatever the names say
    bool force = false;      // replace existing outputs
    std::vector<OutputFile> files;
};

std::string join_path(const std::string& directory, const std::string& name);

// Writes every file of `request`; `written` gets the paths in order. On a
// user-level problem returns false with `error` set and, when the problem was
// found by the checks, nothing written.
bool write_outputs(FileSystem& fs, const WriteRequest& request, std::vector<std::string>* written, std::string* error);

}  // namespace recipe::recipes
