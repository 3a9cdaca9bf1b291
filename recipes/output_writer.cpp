#include "recipes/output_writer.h"

namespace recipe::recipes {

std::string join_path(const std::string& directory, const std::string& name) {
    if (directory.empty() || directory == ".") return name;
    if (directory.back() == '/') return directory + name;
    return directory + "/" + name;
}

bool write_outputs(FileSystem& fs, const WriteRequest& request, std::vector<std::string>* written, std::string* error) {
    std::vector<std::string> paths;
    for (const auto& f : request.files) {
        const std::string path = join_path(request.directory, f.name);
        if (fs.same_file(path, request.input_path)) {
            *error = path + ": would overwrite the input file; choose another output directory with -o";
            return false;
        }
        if (!request.force && fs.exists(path)) {
            *error = path + ": already exists; use --force to replace it";
            return false;
        }
        paths.push_back(path);
    }
    if (!request.directory.empty() && !fs.make_directories(request.directory, error)) return false;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (!fs.write_atomically(paths[i], request.files[i].content, error)) return false;
        written->push_back(paths[i]);
    }
    return true;
}

}  // namespace recipe::recipes
