// output_writer.h — puts the generated files on disk, all or nothing. Every
// refusal (an output would replace the input, an output exists and --force
// was not given) is found before the first byte is written; the files are
// then written into a temporary directory beside their targets and moved
// into place only when all of them were written, so a full disk or an
// unwritable name leaves the directory as it was.
#pragma once

#include <functional>
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
    // Names an earlier run for the same input may have written (its pictures
    // of nests this run no longer has, a .cu this run does not write): with
    // --force they go with the run's files, else they are refused like them,
    // so that a directory never mixes two runs' outputs.
    std::function<bool(const std::string& name)> earlier_output;
};

std::string join_path(const std::string& directory, const std::string& name);

// Writes every file of `request`; `written` gets the paths in order. On a
// user-level problem returns false with `error` set and the directory's
// outputs as they were (a directory this call created stays, empty).
bool write_outputs(FileSystem& fs, const WriteRequest& request, std::vector<std::string>* written, std::string* error);

}  // namespace recipe::recipes
