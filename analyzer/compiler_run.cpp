#include "analyzer/compiler_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <fstream>
#include <sstream>

extern char** environ;

namespace recipe::analyzer {

namespace {

bool read_whole(const std::string& path, std::string* text) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    *text = ss.str();
    return true;
}

// A file in the temporary directory, removed when it goes out of scope.
class TempFile {
public:
    explicit TempFile(const std::string& dir) : path_(dir + "/recipe-cc-XXXXXX") { fd_ = mkstemp(path_.data()); }
    ~TempFile() {
        if (fd_ >= 0) {
            close(fd_);
            unlink(path_.c_str());
        }
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    bool ok() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    const std::string& path() const { return path_; }
    bool write(std::string_view text) {
        for (std::size_t done = 0; done < text.size();) {
            const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            done += static_cast<std::size_t>(n);
        }
        return true;
    }

private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace

bool run_compiler(const std::vector<std::string>& args, std::string_view input, CompilerRun* run, std::string* error,
                  double seconds) {
    *run = {};
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = tmp && *tmp ? tmp : "/tmp";
    TempFile in(dir), out_file(dir), err_file(dir);
    if (!in.ok() || !out_file.ok() || !err_file.ok() || !in.write(input)) {
        *error = "cannot create a temporary file in " + dir + " for the C compiler";
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, in.path().c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_file.fd(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err_file.fd(), STDERR_FILENO);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return true;
    int status = 0;
    if (seconds > 0) {
        // Polled, from 1 ms up to 20 ms apart: a compile of a few
        // milliseconds is not held up, one that runs away is stopped.
        using Clock = std::chrono::steady_clock;
        const auto until = Clock::now() + std::chrono::duration<double>(seconds);
        auto pause = std::chrono::milliseconds(1);
        for (;;) {
            const pid_t done = waitpid(pid, &status, WNOHANG);
            if (done == pid || (done < 0 && errno != EINTR)) break;
            if (Clock::now() >= until) {
                kill(pid, SIGKILL);
                while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
                }
                run->timed_out = true;
                break;
            }
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::milliseconds(20));
        }
    } else {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    run->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run->started = run->exit_status != 127;
    read_whole(out_file.path(), &run->out);
    read_whole(err_file.path(), &run->err);
    return true;
}

}  // namespace recipe::analyzer
