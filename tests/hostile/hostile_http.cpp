// Hostile HTTP agents for `a2a-conform run --url`. `a2a-hostile-http MODE`
// listens on 127.0.0.1 (a port the system picks), prints
// "listening on http://127.0.0.1:PORT" and then misbehaves:
//
//   accept-never-answer  accepts connections, reads the requests, never writes a byte
//   never-answer-rpc     serves a valid agent card (JSON-RPC at /rpc); never answers a POST
//   trickle              answers every request correctly, one byte per second
//   endless-sse          serves a valid agent card (JSON-RPC at /rpc); every POST gets
//                        200 text/event-stream whose events never end
//   close-mid-chunk      serves a valid agent card; every POST gets a chunked 200 whose
//                        connection closes in the middle of the first chunk
//   nesting-bomb         serves a valid agent card; every POST gets a 10 MiB JSON-RPC
//                        response whose result is "[" x 5 Mi then "]" x 5 Mi (as JSON,
//                        or as one SSE event when the request asks for a stream)
//
// Shedding agents for `a2a-conform load` (tests/e2e/load_mode_test.cpp): every
// 2nd POST is declined, the others answered with a completed task, as
// JSON-RPC (a body with "jsonrpc") or as REST (any other POST):
//   shed-503             503 + Retry-After; JSON-RPC: an error response with the request's id
//                        (-32603); REST: {"error": google.rpc.Status} with code 503
//   shed-429             the same with 429 (REST status RESOURCE_EXHAUSTED)
//   shed-32000           200 with the JSON-RPC error -32000 "server busy" (as a2a-rust)
//   shed-503-malformed   503 text/plain "Service Unavailable": no JSON-RPC response, no Status
// For `a2a-conform run` (tests/e2e/run_shed_test.cpp), other schedules:
//   shed-503-once        the first POST declined as shed-503, every later one answered
//   shed-503-always      every POST declined as shed-503
//   shed-32000-always    every POST declined as shed-32000
//
// One thread per connection; the process exits on its own after kLifetime.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <string>
#include <string_view>
#include <thread>

#include <nlohmann/json.hpp>

namespace {

using Json = nlohmann::json;

constexpr unsigned kLifetimeSeconds = 300;
constexpr size_t kMaxRequest = 1 << 20;

std::string g_mode;
int g_port = 0;

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

struct Request {
  std::string method;
  std::string target;
  std::string accept;
  std::string body;
};

// One request from a keep-alive connection; false when the peer is gone.
bool read_request(int fd, std::string& buf, Request& req) {
  char chunk[16384];
  size_t end;
  while ((end = buf.find("\r\n\r\n")) == std::string::npos) {
    if (buf.size() > kMaxRequest) return false;
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buf.append(chunk, static_cast<size_t>(n));
  }
  std::string head = buf.substr(0, end);
  size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
  req.method = head.substr(0, sp1);
  req.target = head.substr(sp1 + 1, sp2 - sp1 - 1);
  size_t length = 0;
  for (std::string_view name : {"Content-Length:", "content-length:"})
    if (auto at = head.find(name); at != std::string::npos) length = std::strtoull(head.c_str() + at + 15, nullptr, 10);
  if (length > kMaxRequest) return false;
  req.accept.clear();
  for (std::string_view name : {"Accept:", "accept:"})
    if (auto at = head.find(name); at != std::string::npos) req.accept = head.substr(at, head.find("\r\n", at) - at);
  while (buf.size() < end + 4 + length) {
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buf.append(chunk, static_cast<size_t>(n));
  }
  req.body = buf.substr(end + 4, length);
  buf.erase(0, end + 4 + length);
  return true;
}

std::string card() {
  std::string base = "http://127.0.0.1:" + std::to_string(g_port);
  Json c = {{"name", "hostile"},
            {"description", "a hostile agent for a2a-conform's robustness tests"},
            {"version", "1.0.0"},
            {"supportedInterfaces", {{{"url", base + "/rpc"}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "1.0"}}}},
            {"capabilities", {{"streaming", true}}},
            {"defaultInputModes", {"text/plain"}},
            {"defaultOutputModes", {"text/plain"}},
            {"skills", Json::array()}};
  return c.dump();
}

std::string response(std::string_view type, const std::string& body) {
  return "HTTP/1.1 200 OK\r\nContent-Type: " + std::string(type) + "\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

Json request_id(const Request& req) {
  Json j = Json::parse(req.body, nullptr, false);
  return j.is_object() && j.contains("id") ? j["id"] : Json();
}

std::string chunk(std::string_view data) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  return size + std::string(data) + "\r\n";
}

void endless_sse(int fd, const Json& id) {
  if (!send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")) return;
  Json status = {{"taskId", "t-1"}, {"contextId", "c-1"}, {"status", {{"state", "TASK_STATE_WORKING"}}}};
  std::string event = "data: " + Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"statusUpdate", status}}}}.dump() + "\n\n";
  std::string batch;
  for (int i = 0; i < 64; ++i) batch += event;
  std::string framed = chunk(batch);
  while (send_all(fd, framed)) {
  }
}

void close_mid_chunk(int fd, const Json& id) {
  std::string body = Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"id", "t-1"}}}}.dump();
  std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", body.size());
  send_all(fd, head + size + body.substr(0, body.size() / 2));
}

void nesting_bomb(int fd, const Request& req) {
  constexpr size_t kHalf = 5u << 20;
  std::string body = R"({"jsonrpc":"2.0","id":)" + request_id(req).dump() + R"(,"result":)";
  body.append(kHalf, '[');
  body.append(kHalf, ']');
  body += "}";
  bool stream = req.accept.find("text/event-stream") != std::string::npos;
  send_all(fd, stream ? response("text/event-stream", "data: " + body + "\n\n") : response("application/json", body));
}

std::atomic<long> g_posts{0};

std::string http_answer(int status, const char* reason, std::string_view type, const std::string& body,
                        const std::string& extra = "") {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\nContent-Type: " + std::string(type) +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + extra + "\r\n" + body;
}

// The shed-* modes: every 2nd POST declined (or the first, or all), the rest
// a completed task.
std::string shed_answer(const Request& req) {
  Json body = Json::parse(req.body, nullptr, false);
  bool rpc = body.is_object() && body.contains("jsonrpc");
  Json id = rpc ? request_id(req) : Json();
  long n = g_posts++;
  Json task = {{"task", {{"id", "task-" + std::to_string(n)}, {"contextId", "ctx-shed"},
                         {"status", {{"state", "TASK_STATE_COMPLETED"}}}}}};
  auto ends_with = [](const std::string& s, std::string_view tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  };
  bool declined = ends_with(g_mode, "-always") ? true : ends_with(g_mode, "-once") ? n == 0 : n % 2 == 1;
  if (!declined) {
    std::string ok = rpc ? Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", task}}.dump() : task.dump();
    return http_answer(200, "OK", "application/json", ok);
  }
  if (g_mode == "shed-503-malformed") return http_answer(503, "Service Unavailable", "text/plain", "Service Unavailable");
  if (g_mode.rfind("shed-32000", 0) == 0)
    return http_answer(200, "OK", "application/json",
                       Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32000}, {"message", "server busy"}}}}.dump());
  bool busy = g_mode.rfind("shed-503", 0) == 0;
  int status = busy ? 503 : 429;
  const char* reason = busy ? "Service Unavailable" : "Too Many Requests";
  std::string err = rpc ? Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32603}, {"message", "overloaded"}}}}.dump()
                        : Json{{"error", {{"code", status}, {"status", busy ? "UNAVAILABLE" : "RESOURCE_EXHAUSTED"},
                                          {"message", "overloaded"}}}}.dump();
  return http_answer(status, reason, "application/json", err, "Retry-After: 1\r\n");
}

void trickle(int fd, const std::string& bytes) {
  for (char c : bytes) {
    if (!send_all(fd, std::string_view(&c, 1))) return;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

void serve(int fd) {
  std::string buf;
  Request req;
  while (read_request(fd, buf, req)) {
    if (g_mode == "accept-never-answer") continue;
    bool is_card = req.method == "GET" && req.target.find("/.well-known/agent-card.json") != std::string::npos;
    if (g_mode == "never-answer-rpc" && !is_card) continue;
    std::string ok = is_card ? response("application/json", card())
                             : response("application/json", Json{{"jsonrpc", "2.0"}, {"id", request_id(req)},
                                                                 {"result", {{"id", "t-1"}}}}.dump());
    if (g_mode == "trickle") {
      trickle(fd, ok);
    } else if (is_card) {
      if (!send_all(fd, ok)) break;
    } else if (g_mode.rfind("shed-", 0) == 0) {
      if (!send_all(fd, shed_answer(req))) break;
    } else if (g_mode == "nesting-bomb") {
      nesting_bomb(fd, req);
    } else if (g_mode == "endless-sse") {
      endless_sse(fd, request_id(req));
      break;
    } else {
      close_mid_chunk(fd, request_id(req));
      break;
    }
  }
  ::close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  g_mode = argc > 1 ? argv[1] : "";
  if (g_mode != "accept-never-answer" && g_mode != "never-answer-rpc" && g_mode != "trickle" && g_mode != "endless-sse" &&
      g_mode != "close-mid-chunk" && g_mode != "nesting-bomb" && g_mode != "shed-503" && g_mode != "shed-429" &&
      g_mode != "shed-32000" && g_mode != "shed-503-malformed" && g_mode != "shed-503-once" &&
      g_mode != "shed-503-always" && g_mode != "shed-32000-always") {
    std::fprintf(stderr,
                 "usage: a2a-hostile-http accept-never-answer|never-answer-rpc|trickle|endless-sse|close-mid-chunk|nesting-bomb|"
                 "shed-503|shed-429|shed-32000|shed-503-malformed|shed-503-once|shed-503-always|shed-32000-always\n");
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);
  ::alarm(kLifetimeSeconds);  // SIGALRM ends us if nobody else does
  int ls = ::socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  ::setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(ls, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(ls, 64) != 0 ||
      ::getsockname(ls, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::perror("a2a-hostile-http: listen");
    return 1;
  }
  g_port = ntohs(addr.sin_port);
  std::printf("listening on http://127.0.0.1:%d\n", g_port);
  std::fflush(stdout);
  for (;;) {
    int fd = ::accept(ls, nullptr, nullptr);
    if (fd < 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // EMFILE and the like
      continue;
    }
    std::thread(serve, fd).detach();
  }
}
