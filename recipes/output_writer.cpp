#include "recipes/output_writer.h"

#include <algorithm>
#include <set>

namespace recipe::recipes {

std::string join_path(const std::string& directory, const std::string& name) {
    if (directory.empty() || directory == ".") return name;
    if (directory.back() == '/') return directory + name;
    return directory + "/" + name;
}

namespace {

// The files a run moves into place, and where each one it replaces waits
// until the run is over.
struct Move {
    std::string staged;    // the new file in the staging directory ("" for an earlier output that only goes)
    std::string target;
    std::string previous;  // the replaced file, kept in the staging directory until the end
    bool present = false;  // the target was in the directory before the run
    bool replaced = false;
    bool placed = false;
};

void remove_staging(FileSystem& fs, const std::string& staging) {
    for (const auto& name : fs.list(staging)) fs.remove(join_path(staging, name));
    fs.remove(staging);
}

// Puts back what the moves done so far changed, last first.
void roll_back(FileSystem& fs, std::vector<Move>& moves) {
    std::string ignored;
    for (auto m = moves.rbegin(); m != moves.rend(); ++m) {
        if (m->placed) fs.rename(m->target, m->staged, &ignored);
        if (m->replaced) fs.rename(m->previous, m->target, &ignored);
    }
}

// The targets checked against what the directory holds (`present`): none
// may be the input or a directory, none may be replaced without --force;
// `earlier` gets an earlier run's outputs this run does not write.
bool check_targets(const FileSystem& fs, const WriteRequest& request, const std::set<std::string>& present,
                   std::vector<std::string>* earlier, std::string* error) {
    std::set<std::string> ours;
    for (const auto& f : request.files) {
        ours.insert(f.name);
        if (!present.count(f.name)) continue;
        const std::string path = join_path(request.directory, f.name);
        if (fs.same_file(path, request.input_path)) {
            *error = path + ": would overwrite the input file; choose another output directory with -o";
            return false;
        }
        if (fs.is_directory(path)) {
            *error = path + ": is a directory; the output cannot be written there";
            return false;
        }
        if (!request.force) {
            *error = path + ": already exists; use --force to replace it";
            return false;
        }
    }
    if (!request.earlier_output) return true;
    for (const auto& name : present) {
        const std::string path = join_path(request.directory, name);
        if (ours.count(name) || !request.earlier_output(name) || fs.same_file(path, request.input_path) || fs.is_directory(path))
            continue;
        if (!request.force) {
            *error = path + ": an earlier run's output this run would not replace; use --force to remove it with the rest";
            return false;
        }
        earlier->push_back(path);
    }
    return true;
}

}  // namespace

bool write_outputs(FileSystem& fs, const WriteRequest& request, std::vector<std::string>* written, std::string* error) {
    // What the directory holds already: only the names found there need a
    // closer look (a run into a new directory asks nothing of each file).
    std::set<std::string> present;
    for (auto& name : fs.list(request.directory)) present.insert(std::move(name));
    std::vector<std::string> earlier;
    if (!check_targets(fs, request, present, &earlier, error)) return false;
    if (!request.directory.empty() && !fs.make_directories(request.directory, error)) return false;

    std::string staging;
    if (!fs.make_temporary_directory(request.directory, ".recipe-staging-", &staging, error)) return false;
    std::vector<Move> moves;
    std::vector<std::string> paths;
    for (const auto& f : request.files) {
        Move m{join_path(staging, f.name), join_path(request.directory, f.name), join_path(staging, f.name + ".previous")};
        m.present = present.count(f.name) > 0;
        if (!fs.write_file(m.staged, f.content, error)) {
            // Name the file the user asked for, not its staging place.
            if (error->rfind(m.staged, 0) == 0) error->replace(0, m.staged.size(), m.target);
            remove_staging(fs, staging);
            return false;
        }
        paths.push_back(m.target);
        moves.push_back(m);
    }
    for (const auto& path : earlier)
        moves.push_back({"", path, join_path(staging, path.substr(path.rfind('/') + 1) + ".earlier"), true});
    bool failed = false;
    for (auto& m : moves) {
        if (m.present && fs.exists(m.target)) {
            if (!fs.rename(m.target, m.previous, error)) {
                failed = true;
                break;
            }
            m.replaced = true;
        }
        if (m.staged.empty()) continue;
        if (!fs.rename(m.staged, m.target, error)) {
            failed = true;
            break;
        }
        m.placed = true;
    }
    if (failed) roll_back(fs, moves);
    remove_staging(fs, staging);
    if (failed) return false;
    *written = paths;
    return true;
}

}  // namespace recipe::recipes
