// Boost 1.81 would otherwise use boost::filesystem, which is a compiled
// library we do not link; std::filesystem serves the launcher equally.
#define BOOST_PROCESS_USE_STD_FS 1

#include "runner/transport/process_launch.hpp"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

// Boost 1.81's Process v2 leans on boost::optional and Boost.TypeTraits
// names that only boost::filesystem pulled in; with std::filesystem they
// must be included first.
#include <boost/optional.hpp>
#include <boost/type_traits.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/process/v2.hpp>

extern char** environ;

namespace a2a::transport::detail {

namespace bp = boost::process::v2;
namespace fs = std::filesystem;
using core::ErrorKind;

namespace {

std::string errno_text(int err) { return ::strerror(err); }

// Closes every fd >= 3 that the launcher does not need. Boost 1.81's
// close_range-based close_all skips the gaps between whitelisted fds (it
// compares an fd with itself), so an fd below the launcher's error pipe
// could leak into the agent and keep some other pipe from ever reaching EOF.
// Runs in the child between fork and exec: system calls only, no allocation.
void close_fds_except(std::vector<int>& keep) {
  std::sort(keep.begin(), keep.end());
  unsigned int from = 3;
  for (int fd : keep) {
    if (fd < static_cast<int>(from)) continue;
    if (static_cast<unsigned int>(fd) > from) ::close_range(from, fd - 1, 0);
    from = fd + 1;
  }
  if (::close_range(from, ~0U, 0) == 0) return;
  // close_range is missing (kernel < 5.9): close one by one up to the limit.
  struct rlimit lim {};
  unsigned int top = 65536;
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < top) top = lim.rlim_cur;
  for (unsigned int fd = from; fd < top; ++fd) {
    if (!std::binary_search(keep.begin(), keep.end(), static_cast<int>(fd))) ::close(fd);
  }
}

// Boost.Process v2 initializer run in the child just before exec. It must be
// the last initializer so that stdio is already in place.
struct ChildSetup {
  bp::error_code on_exec_setup(bp::posix::default_launcher& launcher, const bp::filesystem::path&,
                               const char* const*) {
    // Own process group: shutdown signals the agent and everything it forked.
    if (::setpgid(0, 0) == -1) return bp::error_code(errno, bp::system_category());
    // The harness ignores SIGPIPE and the disposition "ignored" survives exec;
    // the agent must start with the defaults it would get from a shell.
    ::signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    close_fds_except(launcher.fd_whitelist);
    return {};
  }
};

// Anchors a relative path where the child will resolve it: its cwd.
fs::path anchor(const fs::path& p, const SpawnOptions& opts) {
  if (p.is_absolute()) return p;
  fs::path base = opts.cwd.empty() ? fs::current_path() : fs::absolute(opts.cwd);
  return base / p;
}

bool is_executable_file(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

core::Expected<std::string> check_explicit_path(const std::string& name, const SpawnOptions& opts) {
  fs::path p = anchor(name, opts);
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) {
    return core::fail(ErrorKind::kSpawn, "'" + name + "' cannot be run: " + errno_text(errno));
  }
  if (S_ISDIR(st.st_mode)) return core::fail(ErrorKind::kSpawn, "'" + name + "' is a directory");
  if (!S_ISREG(st.st_mode) || ::access(p.c_str(), X_OK) != 0) {
    return core::fail(ErrorKind::kSpawn, "'" + name + "' is not executable");
  }
  return p.lexically_normal().string();
}

// PATH used for the lookup: the child's own PATH when the caller sets one,
// else ours (as execvp would), else the POSIX default.
std::string search_path(const SpawnOptions& opts) {
  if (auto it = opts.env_set.find("PATH"); it != opts.env_set.end()) return it->second;
  if (const char* ours = ::getenv("PATH")) return ours;
  return "/usr/local/bin:/usr/bin:/bin";
}

void reap_failed_child(int pid) {
  // The launcher's child exits right after reporting the exec error; the
  // bound only guards against the impossible.
  for (int i = 0; i < 2000; ++i) {
    int r = ::waitpid(pid, nullptr, WNOHANG);
    if (r == pid || (r == -1 && errno != EINTR)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

}  // namespace

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = o.release();
  }
  return *this;
}

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

core::Expected<Pipe> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return core::fail(ErrorKind::kSpawn, "pipe: " + errno_text(errno));
  }
  Pipe p{Fd(fds[0]), Fd(fds[1])};
  for (Fd* end : {&p.read, &p.write}) {
    if (end->get() >= 3) continue;
    int moved = ::fcntl(end->get(), F_DUPFD_CLOEXEC, 3);
    if (moved < 0) return core::fail(ErrorKind::kSpawn, "fcntl(F_DUPFD): " + errno_text(errno));
    *end = Fd(moved);
  }
  return p;
}

core::Expected<void> set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    return core::fail(ErrorKind::kIo, "fcntl(O_NONBLOCK): " + errno_text(errno));
  }
  return {};
}

core::Expected<std::string> resolve_program(const SpawnOptions& opts) {
  if (opts.argv.empty() || opts.argv[0].empty()) {
    return core::fail(ErrorKind::kSpawn, "empty command: no program to run");
  }
  const std::string& name = opts.argv[0];
  if (name.find('/') != std::string::npos) return check_explicit_path(name, opts);

  std::string path = search_path(opts);
  std::string not_executable;
  size_t begin = 0;
  while (begin <= path.size()) {
    size_t end = path.find(':', begin);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(begin, end - begin);
    begin = end + 1;
    fs::path candidate = anchor(fs::path(dir.empty() ? "." : dir) / name, opts);
    if (is_executable_file(candidate)) return candidate.lexically_normal().string();
    std::error_code ec;
    if (not_executable.empty() && fs::is_regular_file(candidate, ec)) {
      not_executable = candidate.string();
    }
  }
  if (!not_executable.empty()) {
    return core::fail(ErrorKind::kSpawn, "program '" + name + "' found in PATH at '" +
                                             not_executable + "' but it is not executable");
  }
  return core::fail(ErrorKind::kSpawn, "program '" + name + "' not found in PATH");
}

std::vector<std::string> build_environment(const SpawnOptions& opts) {
  std::set<std::string, std::less<>> drop(opts.env_unset.begin(), opts.env_unset.end());
  for (const auto& [key, value] : opts.env_set) drop.insert(key);
  std::vector<std::string> env;
  if (opts.inherit_env) {
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
      std::string_view entry(*e);
      std::string_view key = entry.substr(0, entry.find('='));
      if (!drop.contains(key)) env.emplace_back(entry);
    }
  }
  for (const auto& [key, value] : opts.env_set) env.push_back(key + "=" + value);
  return env;
}

core::Expected<int> launch(const std::string& exe, const SpawnOptions& opts, int in_fd,
                           int out_fd, int err_fd) {
  std::vector<std::string> env = build_environment(opts);
  std::vector<const char*> envp;
  for (const auto& e : env) envp.push_back(e.c_str());
  envp.push_back(nullptr);
  // The caller's argv[0] is passed through unchanged; `exe` is what runs.
  std::vector<const char*> argv;
  for (const auto& a : opts.argv) argv.push_back(a.c_str());
  argv.push_back(nullptr);

  // A private io_context: nothing else can hold its locks across the fork.
  boost::asio::io_context ctx;
  bp::posix::default_launcher launcher;
  launcher.env = envp.data();
  bp::error_code ec;
  int pid = -1;
  try {
    auto run = [&](auto&&... cwd_init) {
      auto proc = launcher(ctx.get_executor(), ec, fs::path(exe), argv.data(),
                           bp::process_stdio{in_fd, out_fd, err_fd}, cwd_init..., ChildSetup{});
      // Detached so the process object neither kills nor reaps on destruction:
      // StdioProcess owns the child's whole lifecycle.
      if (!ec) pid = proc.id();
      proc.detach();
    };
    if (opts.cwd.empty()) {
      run();
    } else {
      run(bp::process_start_dir(opts.cwd));
    }
  } catch (const std::exception& e) {
    // Thrown after a successful exec (e.g. pidfd_open refused): the child
    // runs and launcher.pid names it, so go on with it.
    if (launcher.pid > 0 && !ec) return launcher.pid;
    return core::fail(ErrorKind::kSpawn, "cannot start '" + opts.argv[0] + "': " + e.what());
  }
  if (ec) {
    if (launcher.pid > 0) reap_failed_child(launcher.pid);
    return core::fail(ErrorKind::kSpawn, "cannot start '" + opts.argv[0] + "' (" + exe +
                                             "): " + ec.message());
  }
  return pid;
}

}  // namespace a2a::transport::detail
