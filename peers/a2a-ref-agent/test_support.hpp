// Helpers shared by the agent's tests (header-only: *_test.cpp files are the
// only test translation units the build globs). Every wait has a deadline.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/behaviour.hpp"
#include "peers/a2a-ref-agent/stdio_server.hpp"
#include "runner/a2a/model.hpp"
#include "runner/core/escape.hpp"
#include "runner/wire/codec.hpp"

namespace a2a::agent::testing {

using model::Operation;
using std::chrono::milliseconds;

inline Json user_message(const std::string& text, const Json& extra = Json::object()) {
  static std::atomic<int> n{0};
  Json m = {{"messageId", "test-msg-" + std::to_string(++n)},
            {"role", "ROLE_USER"},
            {"parts", Json::array({{{"text", text}}})}};
  for (auto it = extra.begin(); it != extra.end(); ++it) m[it.key()] = it.value();
  return m;
}

inline Json send_params(const std::string& text, const Json& configuration = nullptr,
                        const Json& message_extra = Json::object()) {
  Json p = {{"message", user_message(text, message_extra)}};
  if (!configuration.is_null()) p["configuration"] = configuration;
  return p;
}

inline AgentConfig fast_config() {
  AgentConfig c;
  c.long_running = core::Millis(100);
  c.max_block = core::Millis(3000);
  return c;
}

// Sends and returns the task of the SendMessageResponse (null when an error).
inline Json send_task(AgentCore& core, const std::string& text, const Json& configuration = nullptr,
                      const Json& message_extra = Json::object()) {
  CallResult r = core.call(Operation::kSendMessage, send_params(text, configuration, message_extra));
  if (!r.ok() || !r.value().contains("task")) return nullptr;
  return r.value()["task"];
}

inline std::string state_of(const Json& task) { return task["status"]["state"].get<std::string>(); }

// Every item of a stream until it ends, bounded by `total`.
struct Drained {
  std::vector<Json> events;
  std::vector<CallError> errors;
  bool ended = false;
};
inline Drained drain(EventStream& s, core::Millis total = core::Millis(5000)) {
  Drained d;
  auto deadline = core::Deadline::after(total);
  while (!deadline.expired()) {
    StreamItem item = s.next(deadline);
    if (item.kind == StreamItem::Kind::kEnd) {
      d.ended = true;
      break;
    }
    if (item.kind == StreamItem::Kind::kEvent) d.events.push_back(item.event);
    if (item.kind == StreamItem::Kind::kError) d.errors.push_back(item.error);
  }
  return d;
}

inline std::string kind_of(const Json& event) { return model::stream_response_kind(event); }

// Runs serve_stdio on a thread over two pipes; the test plays the client.
class StdioHarness {
 public:
  explicit StdioHarness(ServerOptions opt) {
    if (::pipe(to_agent_) != 0 || ::pipe(from_agent_) != 0) std::abort();
    opt.log_fd = -1;
    thread_ = std::thread([this, opt] {
      exit_code_ = serve_stdio(to_agent_[0], from_agent_[1], opt);
      ::close(from_agent_[1]);  // as the process exit would: the client sees EOF
      done_ = true;
    });
  }
  ~StdioHarness() {
    close_input();
    close_output();
    if (thread_.joinable()) thread_.join();
    ::close(to_agent_[0]);
  }

  static ServerOptions options(Faults faults = {}) {
    ServerOptions opt = default_server_options(*profile_by_name("p46"));
    opt.faults = faults;
    opt.agent = fast_config();
    opt.ack_timeout = core::Millis(3000);
    opt.eof_grace = core::Millis(300);
    return opt;
  }

  void send_raw(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::write(to_agent_[1], bytes.data(), bytes.size());
      if (n <= 0) return;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
  }
  void send(const Json& j) { send_raw(wire::encode_content_length(j.dump())); }
  // `params` null = no params member (JSON-RPC forbids "params": null).
  void request(const Json& id, const std::string& method, const Json& params) {
    Json req = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (!params.is_null()) req["params"] = params;
    send(req);
  }
  void ack(bool accept = true, const std::string& variant = "a2a/v1") {
    send(Json{{"type", "handshakeAck"}, {"selectedVariant", variant}, {"accept", accept}});
  }
  // Reads the handshake and accepts it.
  Json handshake() {
    auto h = read_json();
    ack();
    return h.value_or(nullptr);
  }

  // The next frame body, or nullopt at EOF, on a framing error or after `timeout`.
  std::optional<std::string> read_body(core::Millis timeout = core::Millis(3000)) {
    auto deadline = core::Deadline::after(timeout);
    for (;;) {
      wire::DecodeResult r = decoder_->next();
      if (r.status == wire::DecodeResult::Status::kFrame) return r.frame.body;
      if (r.status != wire::DecodeResult::Status::kNeedMore || eof_) return std::nullopt;
      pollfd p{from_agent_[0], POLLIN, 0};
      if (::poll(&p, 1, deadline.poll_timeout_ms()) <= 0) return std::nullopt;
      char buf[65536];
      ssize_t n = ::read(from_agent_[0], buf, sizeof buf);
      if (n <= 0) {
        eof_ = true;
        decoder_->finish();
      } else {
        raw_ += std::string_view(buf, static_cast<size_t>(n));
        decoder_->feed(std::string_view(buf, static_cast<size_t>(n)));
      }
    }
  }
  std::optional<Json> read_json(core::Millis timeout = core::Millis(3000)) {
    auto body = read_body(timeout);
    if (!body) return std::nullopt;
    return Json::parse(*body, nullptr, false);
  }
  // Raw bytes the agent wrote so far (read through read_body / read_raw_for).
  const std::string& raw() const { return raw_; }
  // Reads whatever arrives for `d` (for tests on the bytes themselves).
  void read_raw_for(core::Millis d) {
    auto deadline = core::Deadline::after(d);
    while (!deadline.expired() && !eof_) {
      pollfd p{from_agent_[0], POLLIN, 0};
      if (::poll(&p, 1, deadline.poll_timeout_ms()) <= 0) return;
      char buf[65536];
      ssize_t n = ::read(from_agent_[0], buf, sizeof buf);
      if (n <= 0) {
        eof_ = true;
        return;
      }
      raw_ += std::string_view(buf, static_cast<size_t>(n));
    }
  }
  // True when the agent's output ends (EOF) within `timeout` with no more frames.
  bool output_closed(core::Millis timeout = core::Millis(3000)) {
    return !read_body(timeout).has_value() && eof_;
  }

  void close_input() {
    if (to_agent_[1] >= 0) ::close(to_agent_[1]);
    to_agent_[1] = -1;
  }
  void close_output() {
    if (from_agent_[0] >= 0) ::close(from_agent_[0]);
    from_agent_[0] = -1;
  }
  // The exit status once serve_stdio returned within `timeout`.
  std::optional<int> wait_exit(core::Millis timeout = core::Millis(3000)) {
    auto deadline = core::Deadline::after(timeout);
    while (!done_ && !deadline.expired()) std::this_thread::sleep_for(milliseconds(5));
    if (!done_) return std::nullopt;
    return exit_code_.load();
  }

 private:
  int to_agent_[2] = {-1, -1};
  int from_agent_[2] = {-1, -1};
  std::thread thread_;
  std::atomic<int> exit_code_{-1};
  std::atomic<bool> done_{false};
  std::unique_ptr<wire::Decoder> decoder_ = wire::make_content_length_decoder(wire::ContentLengthRules::p46());
  bool eof_ = false;
  std::string raw_;
};

inline Faults faults_of(std::initializer_list<Fault> list) {
  Faults f;
  for (Fault x : list) f.add(x);
  return f;
}

}  // namespace a2a::agent::testing
