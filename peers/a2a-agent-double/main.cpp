// a2a-agent-double: the "agent" a client under test spawns during
// `a2a-conform client` on the stdio binding (docs/client-conformance.md).
// It is a dumb relay: it connects back to the runner on a loopback port,
// says who it is (token, argv, the A2A_* environment it received), forwards
// its stdin bytes to the runner and the runner's bytes to its stdout, and
// exits with the code the runner names. All scripting lives in the runner.
//
//   a2a-agent-double --connect 127.0.0.1:PORT --token TOKEN [--lifetime-s N]
//
// A double that loses its runner exits at once (status 3) so no orphan is
// left; one that lives past --lifetime-s (default 600) exits with status 4.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include "runner/wire/double_link.hpp"

extern char** environ;

namespace {

using a2a::wire::LinkType;
using Clock = std::chrono::steady_clock;

constexpr int kExitUsage = 64;
constexpr int kExitLostRunner = 3;
constexpr int kExitLifetime = 4;

struct Args {
  std::string host = "127.0.0.1";
  int port = 0;
  std::string token;
  int lifetime_s = 600;
};

bool parse_args(int argc, char** argv, Args& a) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--connect") {
      auto colon = v.rfind(':');
      if (colon == std::string::npos) return false;
      a.host = v.substr(0, colon);
      a.port = std::atoi(v.c_str() + colon + 1);
    } else if (k == "--token") {
      a.token = v;
    } else if (k == "--lifetime-s") {
      a.lifetime_s = std::atoi(v.c_str());
    } else {
      return false;
    }
  }
  return a.port > 0 && !a.token.empty() && a.lifetime_s > 0;
}

// Connects with a 5 s bound: a runner that is gone must not keep us waiting.
int connect_runner(const Args& a) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(a.port));
  if (::inet_pton(AF_INET, a.host.c_str(), &addr.sin_addr) != 1) return -1;
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 && errno != EINPROGRESS) return -1;
  pollfd p{fd, POLLOUT, 0};
  if (::poll(&p, 1, 5000) != 1) return -1;
  int err = 0;
  socklen_t len = sizeof err;
  ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  if (err != 0) return -1;
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string hello(const Args& a, int argc, char** argv) {
  nlohmann::json h = {{"token", a.token}, {"argv", nlohmann::json::array()}, {"env", nlohmann::json::object()}};
  for (int i = 0; i < argc; ++i) h["argv"].push_back(argv[i]);
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos && kv.rfind("A2A_", 0) == 0) h["env"][kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return h.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Applies one runner message; returns false when the runner said to stop.
void apply(const a2a::wire::LinkMessage& m, bool& stdout_open) {
  switch (m.type) {
    case LinkType::kOutput:
      // A client that closed its end of our stdout gets nothing; the runner
      // learns about it through the client's behaviour, not from us.
      if (stdout_open && !write_all(STDOUT_FILENO, m.payload)) stdout_open = false;
      break;
    case LinkType::kCloseOutput:
      if (stdout_open) ::close(STDOUT_FILENO);
      stdout_open = false;
      break;
    case LinkType::kExit: std::_Exit(std::atoi(m.payload.c_str()));
    case LinkType::kStderr: {
      // Blocking on purpose: a client that never reads our stderr stalls us
      // here, and the runner's next bytes (the reply) never reach it (L6).
      static const std::string kLine(1023, 'e');
      long long left = std::atoll(m.payload.c_str());
      while (left > 0) {
        std::string chunk = kLine.substr(0, static_cast<size_t>(std::min<long long>(left, 1024) - 1)) + "\n";
        if (!write_all(STDERR_FILENO, chunk)) break;
        left -= static_cast<long long>(chunk.size());
      }
      break;
    }
    default: break;
  }
}

int relay(int sock, const Args& a) {
  auto end = Clock::now() + std::chrono::seconds(a.lifetime_s);
  bool stdin_open = true, stdout_open = true;
  a2a::wire::LinkDecoder dec;
  char buf[64 * 1024];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    if (left <= 0) return kExitLifetime;
    pollfd fds[2] = {{sock, POLLIN, 0}, {stdin_open ? STDIN_FILENO : -1, POLLIN, 0}};
    int r = ::poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno != EINTR) return kExitLostRunner;
    if (fds[0].revents) {
      ssize_t n = ::read(sock, buf, sizeof buf);
      if (n <= 0) return kExitLostRunner;
      dec.feed(std::string_view(buf, static_cast<size_t>(n)));
      while (auto m = dec.next()) apply(*m, stdout_open);
      if (dec.broken()) return kExitLostRunner;
    }
    if (stdin_open && fds[1].revents) {
      ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      bool ok = n > 0 ? write_all(sock, a2a::wire::encode_link(LinkType::kInput, std::string_view(buf, n)))
                      : write_all(sock, a2a::wire::encode_link(LinkType::kInputEof, ""));
      if (!ok) return kExitLostRunner;
      if (n <= 0) stdin_open = false;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  Args a;
  if (!parse_args(argc, argv, a)) {
    std::fprintf(stderr, "usage: a2a-agent-double --connect 127.0.0.1:PORT --token TOKEN [--lifetime-s N]\n");
    return kExitUsage;
  }
  int sock = connect_runner(a);
  if (sock < 0) {
    std::fprintf(stderr, "a2a-agent-double: cannot reach the runner at %s:%d\n", a.host.c_str(), a.port);
    return kExitLostRunner;
  }
  if (!write_all(sock, a2a::wire::encode_link(LinkType::kHello, hello(a, argc, argv)))) return kExitLostRunner;
  return relay(sock, a);
}
