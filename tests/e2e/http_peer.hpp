// Starts an HTTP peer (a2a-ref-agent --http 0, the JS SDK agent, ...) as a
// child process for a test and waits for its "listening on URL" line, so the
// test learns the port the system chose. The process is stopped (SIGTERM,
// then SIGKILL) when the HttpPeer goes away, so no test leaves one behind.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runner/transport/stdio_process.hpp"

namespace a2a::testing {

class HttpPeer {
 public:
  // Spawns argv and reads stdout until a line containing "listening on "
  // followed by a URL, at most `timeout_ms`. ok() is false (and error()
  // says why, with the peer's stderr) when it does not come.
  HttpPeer(std::vector<std::string> argv, int timeout_ms = 15000,
           std::map<std::string, std::string> env = {}) {
    transport::SpawnOptions o;
    o.argv = std::move(argv);
    o.env_set = std::move(env);
    o.stderr_keep_bytes = 1 << 20;
    auto p = transport::StdioProcess::spawn(o);
    if (!p) {
      error_ = p.error().message;
      return;
    }
    proc_ = std::move(*p);
    auto deadline = core::Deadline::after(core::Millis(timeout_ms));
    std::string out;
    while (url_.empty()) {
      auto rd = proc_->read_some(deadline);
      if (rd.status != transport::ReadResult::Status::kData) {
        error_ = "no 'listening on' line within " + std::to_string(timeout_ms) + " ms; stdout: " + out +
                 "; stderr: " + proc_->stderr_text();
        return;
      }
      out += rd.data;
      auto at = out.find("listening on ");
      auto eol = at == std::string::npos ? std::string::npos : out.find('\n', at);
      if (eol != std::string::npos) url_ = out.substr(at + 13, eol - at - 13);
    }
    while (!url_.empty() && (url_.back() == '\r' || url_.back() == ' ')) url_.pop_back();
  }
  ~HttpPeer() {
    if (proc_) proc_->shutdown(core::Millis(0), core::Millis(2000));
  }
  HttpPeer(const HttpPeer&) = delete;
  HttpPeer& operator=(const HttpPeer&) = delete;

  bool ok() const { return !url_.empty(); }
  const std::string& url() const { return url_; }
  const std::string& error() const { return error_; }
  std::string stderr_text() const { return proc_ ? proc_->stderr_text() : std::string(); }

 private:
  std::unique_ptr<transport::StdioProcess> proc_;
  std::string url_;
  std::string error_;
};

}  // namespace a2a::testing
