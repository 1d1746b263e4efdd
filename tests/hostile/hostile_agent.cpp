// Hostile stdio agents that a shell script cannot play well (speed, exact
// sizes, signal dispositions). `a2a-hostile-agent MODE`; each mode handshakes
// like a real agent (unless it says otherwise) and then misbehaves:
//
//   flood-frames        writes 1 GiB of valid 1 MiB notification frames, then stalls
//   notification-flood  writes small unsolicited notifications without end, never answers
//   notifications-then-answer  answers every request correctly, each after 5000
//                       unsolicited notifications (legal: clients ignore them, C4)
//   nesting-bomb        answers every request with a 10 MiB body: "[" x 5 Mi, "]" x 5 Mi
//   wide-bomb           answers every request with an 18 MiB result: [{},{},...], 6 Mi empty
//                       objects, which would take about 500 MiB once parsed
//   never-read-stdin    never reads its stdin, so the runner's large writes block
//   ignore-sigterm      ignores SIGTERM and stdin EOF, reads requests, never answers
//   stderr-flood        writes to stderr without end while ignoring every request
//   wrong-id-then-answer  answers every request with a completed task; every 3rd (the 2nd,
//                       5th, ...) first gets a response with another id ("other-ID"), then
//                       its own answer
//
// Bounded by the runner: every mode ends when the runner kills its group.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>

#include <nlohmann/json.hpp>

namespace {

using Json = nlohmann::json;

// The longest any mode lives if nobody kills it (a test bug, not the runner's).
constexpr auto kLifetime = std::chrono::minutes(5);

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string frame(std::string_view body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\nContent-Type: application/json\r\n\r\n" +
         std::string(body);
}

bool send_frame(std::string_view body) { return write_all(1, frame(body)); }

void handshake() {
  const char* sid = std::getenv("A2A_SESSION_ID");
  Json hs = {{"type", "handshake"},
             {"sessionId", sid ? sid : "hostile"},
             {"supportedVariants", {"a2a/v1"}},
             {"pid", ::getpid()},
             {"features", Json::object()}};
  send_frame(hs.dump());
}

// Reads one Content-Length frame from stdin (blocking); false at EOF or on garbage.
bool read_frame(std::string& body) {
  std::string header;
  char c;
  while (header.size() < 4 || header.compare(header.size() - 4, 4, "\r\n\r\n") != 0) {
    ssize_t n = ::read(0, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    header += c;
    if (header.size() > 65536) return false;
  }
  auto at = header.find("Content-Length:");
  if (at == std::string::npos) return false;
  size_t len = std::strtoull(header.c_str() + at + 15, nullptr, 10);
  body.assign(len, '\0');
  for (size_t done = 0; done < len;) {
    ssize_t n = ::read(0, body.data() + done, len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Requests (frames with a method and an id), skipping the handshake ack.
template <class F>
void for_each_request(F&& on_request) {
  std::string body;
  while (read_frame(body)) {
    Json j = Json::parse(body, nullptr, false);
    if (j.is_object() && j.contains("method") && j.contains("id")) on_request(j);
  }
}

void stall() { std::this_thread::sleep_for(kLifetime); }

void drain_stdin_in_background() {
  std::thread([] {
    char buf[65536];
    while (::read(0, buf, sizeof buf) > 0) {
    }
  }).detach();
}

int flood_frames() {
  drain_stdin_in_background();
  handshake();
  constexpr size_t kBody = 1 << 20;
  constexpr size_t kFrames = 1024;  // 1 GiB of bodies
  std::string prefix = R"({"jsonrpc":"2.0","method":"x-flood","params":{"pad":")";
  std::string suffix = "\"}}";
  std::string body = prefix + std::string(kBody - prefix.size() - suffix.size(), 'f') + suffix;
  std::string f = frame(body);
  for (size_t i = 0; i < kFrames; ++i)
    if (!write_all(1, f)) return 0;
  stall();
  return 0;
}

int notification_flood() {
  drain_stdin_in_background();
  handshake();
  std::string batch;
  for (int i = 0; i < 1000; ++i)
    batch += frame(R"({"jsonrpc":"2.0","method":"x-unsolicited","params":{"n":)" + std::to_string(i) + "}}");
  auto until = std::chrono::steady_clock::now() + kLifetime;
  while (std::chrono::steady_clock::now() < until)
    if (!write_all(1, batch)) return 0;
  return 0;
}

int notifications_then_answer() {
  handshake();
  for_each_request([](const Json& req) {
    std::string batch;
    for (int i = 0; i < 5000; ++i)
      batch += frame(R"({"jsonrpc":"2.0","method":"x-unsolicited","params":{"n":)" + std::to_string(i) + "}}");
    write_all(1, batch);
    Json err = {{"code", -32001}, {"message", "Task not found"}};
    send_frame(Json{{"jsonrpc", "2.0"}, {"id", req["id"]}, {"error", err}}.dump());
  });
  return 0;
}

int nesting_bomb() {
  handshake();
  constexpr size_t kHalf = 5u << 20;
  for_each_request([](const Json& req) {
    std::string body = R"({"jsonrpc":"2.0","id":)" + req["id"].dump() + R"(,"result":)";
    body.append(kHalf, '[');
    body.append(kHalf, ']');
    body += "}";
    send_frame(body);
  });
  stall();
  return 0;
}

int wide_bomb() {
  handshake();
  constexpr size_t kItems = 6u << 20;
  for_each_request([](const Json& req) {
    std::string body = R"({"jsonrpc":"2.0","id":)" + req["id"].dump() + R"(,"result":[{})";
    body.reserve(body.size() + kItems * 3 + 2);
    for (size_t i = 1; i < kItems; ++i) body += ",{}";
    body += "]}";
    send_frame(body);
  });
  stall();
  return 0;
}

int never_read_stdin() {
  handshake();
  stall();
  return 0;
}

int ignore_sigterm() {
  ::signal(SIGTERM, SIG_IGN);
  handshake();
  for_each_request([](const Json&) {});
  stall();  // stdin EOF is no reason to leave either
  return 0;
}

int stderr_flood() {
  std::thread([] {
    std::string line(4096, 'e');
    line.back() = '\n';
    while (write_all(2, line)) {
    }
  }).detach();
  drain_stdin_in_background();
  handshake();
  stall();
  return 0;
}

int wrong_id_then_answer() {
  handshake();
  long n = 0;
  for_each_request([&n](const Json& req) {
    Json task = {{"task", {{"id", "task-" + std::to_string(n)}, {"contextId", "ctx-hostile"},
                           {"status", {{"state", "TASK_STATE_COMPLETED"}}}}}};
    std::string batch;
    if (n++ % 3 == 1)
      batch += frame(Json{{"jsonrpc", "2.0"}, {"id", "other-" + req["id"].dump()}, {"result", task}}.dump());
    batch += frame(Json{{"jsonrpc", "2.0"}, {"id", req["id"]}, {"result", task}}.dump());
    write_all(1, batch);
  });
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string_view mode = argc > 1 ? argv[1] : "";
  if (mode == "flood-frames") return flood_frames();
  if (mode == "notification-flood") return notification_flood();
  if (mode == "notifications-then-answer") return notifications_then_answer();
  if (mode == "nesting-bomb") return nesting_bomb();
  if (mode == "wide-bomb") return wide_bomb();
  if (mode == "never-read-stdin") return never_read_stdin();
  if (mode == "ignore-sigterm") return ignore_sigterm();
  if (mode == "stderr-flood") return stderr_flood();
  if (mode == "wrong-id-then-answer") return wrong_id_then_answer();
  std::fprintf(stderr, "usage: a2a-hostile-agent MODE (see the source for the modes)\n");
  return 2;
}
