// Test-only: a scripted HTTP peer on 127.0.0.1 made of raw POSIX sockets, so
// the client is tested against bytes written by hand (including hostile
// ones) rather than against our own server. Connections are served one after
// another on one thread; every wait is bounded.
#pragma once

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include "runner/core/deadline.hpp"
#include "runner/transport/url.hpp"

namespace a2a::transport::testing {

using core::Deadline;
using core::Millis;

inline Deadline soon(int ms = 5000) { return Deadline::after(Millis(ms)); }

// The server's side of one accepted connection.
class Peer {
 public:
  explicit Peer(int fd) : fd_(fd) {}
  int fd() const { return fd_; }

  // One request: the header block plus a Content-Length body. "" on EOF or deadline.
  std::string read_request(Deadline d = soon()) {
    std::string head = read_until("\r\n\r\n", d);
    if (head.empty()) return "";
    size_t length = 0;
    for (std::string_view key : {"Content-Length: ", "content-length: "}) {
      auto at = head.find(key);
      if (at != std::string::npos) length = std::stoul(head.substr(at + key.size()));
    }
    while (buf_.size() < length && fill(d)) {
    }
    std::string body = buf_.substr(0, length);
    buf_.erase(0, body.size());
    return head + body;
  }

  // Bytes up to and including `needle` ("" when it never came).
  std::string read_until(std::string_view needle, Deadline d = soon()) {
    size_t at;
    while ((at = buf_.find(needle)) == std::string::npos)
      if (!fill(d)) return "";
    std::string out = buf_.substr(0, at + needle.size());
    buf_.erase(0, out.size());
    return out;
  }

  bool send(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // True once the client has closed its end (EOF or reset) before `d`.
  bool wait_closed(Deadline d = soon()) {
    while (fill(d)) buf_.clear();
    return eof_;
  }

 private:
  bool fill(Deadline d) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, d.poll_timeout_ms()) <= 0) return false;
    char tmp[4096];
    ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    buf_.append(tmp, static_cast<size_t>(n));
    return true;
  }

  int fd_;
  std::string buf_;
  bool eof_ = false;
};

class ScriptedServer {
 public:
  using Handler = std::function<void(int index, Peer& peer)>;

  explicit ScriptedServer(Handler handler, int max_connections = 4) : handler_(std::move(handler)) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(listen_fd_, 8);
    socklen_t len = sizeof addr;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this, max_connections] { serve(max_connections); });
  }

  ~ScriptedServer() {
    stop_ = true;
    thread_.join();
    ::close(listen_fd_);
  }

  uint16_t port() const { return port_; }
  int accepted() const { return accepted_.load(); }
  bool wait_finished(int n, Deadline d = soon()) {
    while (finished_.load() < n) {
      if (d.expired()) return false;
      std::this_thread::sleep_for(Millis(5));
    }
    return true;
  }
  Url url(const std::string& path = "/") const {
    auto u = Url::parse("http://127.0.0.1:" + std::to_string(port_) + path);
    return u.ok() ? *u : Url{};
  }

 private:
  void serve(int max_connections) {
    auto overall = soon(20000);
    for (int i = 0; i < max_connections && !stop_ && !overall.expired();) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      ++accepted_;
      Peer peer(fd);
      handler_(i++, peer);
      ::close(fd);
      ++finished_;
    }
  }

  Handler handler_;
  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::atomic<int> finished_{0};
  std::thread thread_;
};

}  // namespace a2a::transport::testing
