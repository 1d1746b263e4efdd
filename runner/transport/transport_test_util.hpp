// Helpers for the subprocess tests. Every loop is bounded by a deadline.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "runner/transport/stdio_process.hpp"

namespace a2a::transport::testing {

using core::Deadline;
using core::Millis;

// A TCP connection to 127.0.0.1:port (blocking); -1 when it cannot be made.
// `rcvbuf` > 0: the socket's SO_RCVBUF, set before connecting, so that the
// window TCP offers the server is small too (a client that stops reading).
inline int connect_loopback(uint16_t port, int rcvbuf = 0) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (rcvbuf > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
  ::close(fd);
  return -1;
}

inline SpawnOptions sh(const std::string& script) {
  SpawnOptions o;
  o.argv = {"/bin/sh", "-c", script};
  return o;
}

// Reads until `needle` appears, EOF, an error or the deadline.
inline std::string read_until(StdioProcess& p, const std::string& needle, Deadline deadline) {
  std::string got;
  while (got.find(needle) == std::string::npos) {
    auto r = p.read_some(deadline);
    if (r.status != ReadResult::Status::kData) break;
    got += r.data;
  }
  return got;
}

// Reads until EOF (true) or the deadline / an error (false).
inline bool read_to_eof(StdioProcess& p, Deadline deadline, std::string& got) {
  for (;;) {
    auto r = p.read_some(deadline);
    if (r.status == ReadResult::Status::kEof) return true;
    if (r.status != ReadResult::Status::kData) return false;
    got += r.data;
  }
}

// True when `pid` no longer runs. A zombie counts as gone: an orphaned
// grandchild is reaped by init, and this sandbox's pid 1 does not reap.
inline bool process_gone(int pid) {
  if (::kill(pid, 0) == -1 && errno == ESRCH) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() &&
         (line[close + 2] == 'Z' || line[close + 2] == 'X');
}

inline bool wait_gone(int pid, Deadline deadline) {
  while (!process_gone(pid)) {
    if (deadline.expired()) return false;
    std::this_thread::sleep_for(Millis(10));
  }
  return true;
}

inline long long elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace a2a::transport::testing
