// An HTTP agent under test, as a child process: spawned, its "listening on
// URL" line read, its resident memory read from /proc, stopped at the end.
// For bench/http_bench and tests/e2e/load_test (header-only: bench/ builds
// one executable per .cpp).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include "runner/core/deadline.hpp"
#include "runner/transport/stdio_process.hpp"
#include "runner/transport/url.hpp"

namespace a2a::bench {

// A /proc/PID/status field: KiB for "VmRSS", "VmHWM"; a count for "Threads"; -1 when unreadable.
inline long proc_status_field(int pid, const std::string& name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name + ":", 0) == 0) return std::strtol(line.c_str() + name.size() + 1, nullptr, 10);
  }
  return -1;
}

class HttpAgentProcess {
 public:
  using Argv = std::vector<std::string>;

  // `path`: where the agent takes JSON-RPC POSTs ("/" for a2a-ref-agent).
  HttpAgentProcess(Argv argv, std::string path, core::Millis timeout = core::Millis(20000))
      : path_(std::move(path)) {
    transport::SpawnOptions o;
    o.argv = std::move(argv);
    o.stderr_keep_bytes = 64u << 10;
    o.transcript_max_bytes = 64u << 10;
    auto p = transport::StdioProcess::spawn(o);
    if (!p) {
      error_ = p.error().message;
      return;
    }
    proc_ = std::move(*p);
    read_url(core::Deadline::after(timeout));
  }
  ~HttpAgentProcess() {
    if (proc_) proc_->shutdown(core::Millis(0), core::Millis(3000));
  }
  HttpAgentProcess(const HttpAgentProcess&) = delete;
  HttpAgentProcess& operator=(const HttpAgentProcess&) = delete;

  bool ok() const { return port_ != 0; }
  const std::string& error() const { return error_; }
  uint16_t port() const { return port_; }
  const std::string& path() const { return path_; }
  int pid() const { return proc_ ? proc_->pid() : -1; }
  bool running() { return proc_ && !proc_->poll_exit(); }
  std::string stderr_text() const { return proc_ ? proc_->stderr_text() : std::string(); }
  // Everything the agent wrote to stdout up to its "listening on" line (other
  // start-up lines, such as "grpc on HOST:PORT", come before it).
  const std::string& start_output() const { return start_output_; }

  long status_field(const std::string& name) const { return proc_status_field(pid(), name); }
  long rss_kib() const { return status_field("VmRSS"); }

  // User + system CPU time of the whole process so far, in seconds (all
  // threads); -1 when unreadable. Under a shared machine, work per CPU
  // second is steadier than work per wall second.
  double cpu_seconds() const {
    std::ifstream in("/proc/" + std::to_string(pid()) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t paren = stat.rfind(')');  // the command name may hold spaces
    if (paren == std::string::npos) return -1;
    std::istringstream fields(stat.substr(paren + 2));
    std::string f;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && fields >> f; ++i) {
      if (i == 14) utime = std::stoull(f);
      if (i == 15) stime = std::stoull(f);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  }

 private:
  void read_url(core::Deadline deadline) {
    std::string out;
    for (;;) {
      auto at = out.find("listening on ");
      auto eol = at == std::string::npos ? std::string::npos : out.find('\n', at);
      if (eol != std::string::npos) {
        std::string url = out.substr(at + 13, eol - at - 13);
        while (!url.empty() && (url.back() == '\r' || url.back() == ' ')) url.pop_back();
        auto u = transport::Url::parse(url);
        if (!u) {
          error_ = "bad URL in '" + out + "'";
          return;
        }
        port_ = u->port;
        start_output_ = out.substr(0, eol + 1);
        return;
      }
      auto rd = proc_->read_some(deadline);
      if (rd.status != transport::ReadResult::Status::kData) {
        error_ = "no 'listening on' line; stdout: " + out + "; stderr: " + proc_->stderr_text();
        return;
      }
      out += rd.data;
    }
  }

  std::unique_ptr<transport::StdioProcess> proc_;
  std::string path_;
  std::string error_;
  std::string start_output_;
  uint16_t port_ = 0;
};

}  // namespace a2a::bench
