#include "runner/bindings/websocket/ws_scripted_agent.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "runner/core/ascii.hpp"
#include "runner/engine/client_http.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/transport/transcript.hpp"
#include "runner/transport/ws_codec.hpp"

namespace a2a::bindings {
namespace {

using Json = nlohmann::json;
namespace ws = transport::ws;

constexpr size_t kMaxUpgradeBytes = 16 * 1024;
constexpr size_t kMaxRequests = 1000;  // unread requests kept while a scenario runs
constexpr int kPollMs = 50;

// The upgrade request's path and headers (names lower-cased); nullopt when
// it is not a GET with a Sec-WebSocket-Key.
struct Upgrade {
  std::string path;
  Json headers = Json::object();
  std::string key;
};

std::optional<Upgrade> parse_upgrade(const std::string& head) {
  Upgrade u;
  size_t eol = head.find("\r\n");
  std::string line = head.substr(0, eol);
  if (line.rfind("GET ", 0) != 0) return std::nullopt;
  u.path = line.substr(4, line.find(' ', 4) - 4);
  for (size_t at = eol + 2; at < head.size();) {
    size_t end = head.find("\r\n", at);
    if (end == std::string::npos || end == at) break;
    std::string h = head.substr(at, end - at);
    at = end + 2;
    size_t colon = h.find(':');
    if (colon == std::string::npos) continue;
    std::string name = core::ascii_lower(h.substr(0, colon));
    std::string value(ws::trim(std::string_view(h).substr(colon + 1)));
    u.headers[name] = value;
    if (name == "sec-websocket-key") u.key = value;
  }
  if (u.key.empty()) return std::nullopt;
  return u;
}

class WsScriptedAgent : public engine::ScriptedAgent {
 public:
  explicit WsScriptedAgent(transport::Transcript* tr) : tr_(tr) {}
  ~WsScriptedAgent() override {
    stop_ = true;
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    drop_connection();
    if (listen_fd_ >= 0) ::close(listen_fd_);
  }

  core::Expected<void> start() {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(listen_fd_, 8) != 0 || ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      return core::fail(core::ErrorKind::kIo, "the scripted WebSocket agent could not listen on 127.0.0.1");
    url_ = "ws://127.0.0.1:" + std::to_string(ntohs(a.sin_port));
    auto card = engine::ScriptedServer::start("websocket", tr_);
    if (!card) return core::fail(card.error());
    card_ = std::move(*card);
    card_->set_interface(url_, "WEBSOCKET");
    thread_ = std::thread([this] { serve(); });
    return {};
  }

  std::string target() const override { return card_->base_url(); }
  std::string interface_url() const override { return url_; }
  void set_card_members(Json members) override { card_->set_card_members(std::move(members)); }

  std::optional<Json> take(core::Deadline d) override {
    std::unique_lock lk(mu_);
    while (inbox_.empty() && !stop_ && !d.expired()) cv_.wait_until(lk, d.time());
    if (inbox_.empty()) return std::nullopt;
    last_ = inbox_.front();
    inbox_.pop_front();
    return last_;
  }

  engine::ScriptedReply reply(const Json& v, const std::function<void(int)>& pause, core::Deadline d) override {
    Json req;
    {
      std::lock_guard lk(mu_);
      req = last_;
    }
    if (req.is_null()) return {"x-reply without a request (x-expect-request first)", ""};
    if (v.contains("delay_ms")) pause(v["delay_ms"].get<int>());
    Json id = v.contains("id") ? v["id"] : req.value("id", Json());
    // `frame`: one extra frame; the request stays open for the next x-reply.
    if (v.contains("frame")) {
      const Json& f = v["frame"];
      return sent(write(f.is_string() ? f.get<std::string>() : jsonrpc::dump(f), d));
    }
    {
      std::lock_guard lk(mu_);
      last_ = nullptr;
    }
    // `close`: a close frame with this code (1013 "Try Again Later": a load
    // test's shedding agent, tests/hostile/load_double.cpp); no answer.
    if (v.contains("close") && v["close"].is_number_integer()) {
      note("[the scripted agent closes the connection with code " + v["close"].dump() + "]");
      return sent(write_raw(ws::encode_frame(ws::Opcode::kClose, ws::close_payload(v["close"].get<int>(), "try again later")), d));
    }
    if (v.contains("stream")) return stream(v, id, pause, d);
    if (v.contains("error")) return sent(write(envelope(id, "error", v["error"]), d));
    return sent(write(envelope(id, "result", v.value("result", Json())), d));
  }

 private:
  static std::string envelope(const Json& id, const char* member, const Json& value) {
    return jsonrpc::dump(Json{{"jsonrpc", "2.0"}, {"id", id}, {member, value}});
  }
  static engine::ScriptedReply sent(bool ok) {
    return ok ? engine::ScriptedReply{} : engine::ScriptedReply{"the client's connection was gone before the answer", ""};
  }

  engine::ScriptedReply stream(const Json& v, const Json& id, const std::function<void(int)>& pause, core::Deadline d) {
    for (const auto& item : v["stream"]) {
      if (item.contains("delay_ms")) pause(item["delay_ms"].get<int>());
      if (item.contains("error")) return sent(write(envelope(id, "error", item["error"]), d));  // no completion follows
      if (item.contains("raw")) {
        if (!write(item["raw"].get<std::string>(), d)) return sent(false);
      } else if (item.contains("event") && !write(envelope(id, "result", item["event"]), d)) {
        return sent(false);
      }
    }
    std::string end = v.value("end", "final");
    if (end == "never" || end == "none") return {};
    if (end == "eof" || end == "cut") {
      note("[the scripted agent closes the TCP connection]");
      drop_connection();
      return {};
    }
    Json end_id = end == "final-other-id" ? Json("other-" + jsonrpc::dump(id)) : id;
    return sent(write(envelope(end_id, "result", {{"status", "stream_complete"}}), d));
  }

  void note(const std::string& what) {
    if (tr_) tr_->add(transport::Direction::kToPeer, what);
  }

  // One unmasked text frame (a server's, RFC 6455 §5.1), all of it or false.
  bool write(const std::string& text, core::Deadline d) {
    note(text);
    return write_raw(ws::encode_frame(ws::Opcode::kText, text), d);
  }
  bool write_raw(const std::string& bytes, core::Deadline d) {
    std::lock_guard lk(write_mu_);
    int fd = conn_fd_.load();
    if (fd < 0) return false;
    for (size_t off = 0; off < bytes.size();) {
      pollfd p{fd, POLLOUT, 0};
      if (d.expired() || ::poll(&p, 1, kPollMs) < 0) return false;
      if (!(p.revents & POLLOUT)) continue;
      ssize_t n = ::send(fd, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<size_t>(n);
    }
    return true;
  }

  void drop_connection() {
    std::lock_guard lk(write_mu_);
    int fd = conn_fd_.exchange(-1);
    if (fd >= 0) {
      ::shutdown(fd, SHUT_RDWR);
      ::close(fd);
    }
  }

  // Accepts connections (the newest replaces an older one) and reads them:
  // the upgrade, then frames. Every wait is a short poll, so stop_ ends it.
  void serve() {
    std::string head;
    ws::FrameParser parser;
    bool upgraded = false;
    Json headers;
    std::string path;
    char buf[16384];
    while (!stop_) {
      int fd = conn_fd_.load();
      pollfd p[2] = {{listen_fd_, POLLIN, 0}, {fd, POLLIN, 0}};
      if (::poll(p, fd >= 0 ? 2 : 1, kPollMs) <= 0) continue;
      if (p[0].revents & POLLIN) {
        int c = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (c >= 0) {
          drop_connection();
          conn_fd_ = c;
          head.clear();
          parser = ws::FrameParser();
          upgraded = false;
        }
        continue;
      }
      if (fd < 0 || !(p[1].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) {
        drop_connection();
        continue;
      }
      std::string_view bytes(buf, static_cast<size_t>(n));
      if (!upgraded) {
        head.append(bytes);
        size_t end = head.find("\r\n\r\n");
        if (end == std::string::npos) {
          if (head.size() > kMaxUpgradeBytes) drop_connection();
          continue;
        }
        auto u = parse_upgrade(head.substr(0, end + 2));
        std::string rest = head.substr(end + 4);
        if (!u) {
          write_raw("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    core::Deadline::after(core::Millis(1000)));
          drop_connection();
          continue;
        }
        if (tr_) tr_->add(transport::Direction::kFromPeer, "WebSocket upgrade " + u->path + " " + u->headers.dump());
        headers = u->headers;
        path = u->path;
        upgraded = write_raw("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             "Sec-WebSocket-Accept: " + ws::accept_key(u->key) + "\r\n\r\n",
                             core::Deadline::after(core::Millis(1000)));
        bytes = {};
        if (!upgraded || rest.empty()) continue;
        head = rest;
        bytes = head;
      }
      std::vector<ws::Message> msgs;
      if (!parser.feed(bytes, msgs)) {
        write_raw(ws::encode_frame(ws::Opcode::kClose, ws::close_payload(parser.close_code())),
                  core::Deadline::after(core::Millis(500)));
        drop_connection();
        continue;
      }
      for (auto& m : msgs) on_message(m, headers, path);
    }
  }

  void on_message(const ws::Message& m, const Json& headers, const std::string& path) {
    auto soon = core::Deadline::after(core::Millis(1000));
    if (m.op == ws::Opcode::kPing) {
      write_raw(ws::encode_frame(ws::Opcode::kPong, m.payload), soon);
      return;
    }
    if (m.op == ws::Opcode::kClose) {
      write_raw(ws::encode_frame(ws::Opcode::kClose, m.payload.size() >= 2 ? m.payload.substr(0, 2) : ""), soon);
      drop_connection();
      return;
    }
    if (m.op != ws::Opcode::kText && m.op != ws::Opcode::kBinary) return;
    if (tr_) tr_->add(transport::Direction::kFromPeer, (m.op == ws::Opcode::kBinary ? "[binary] " : "") + m.payload);
    Json view = {{"path", path}, {"headers", headers}, {"frame", m.op == ws::Opcode::kText ? "text" : "binary"},
                 {"method", nullptr}, {"params", nullptr}, {"id", nullptr}};
    Json body = jsonrpc::parse_json_or_discarded(m.payload);
    if (body.is_object()) {
      view["method"] = body.value("method", Json());
      view["params"] = body.value("params", Json());
      view["id"] = body.value("id", Json());
      view["jsonrpc"] = body.value("jsonrpc", Json());
    } else {
      view["problem"] = "the frame is not a JSON object";
    }
    std::lock_guard lk(mu_);
    if (inbox_.size() < kMaxRequests) inbox_.push_back(std::move(view));
    cv_.notify_all();
  }

  transport::Transcript* tr_;
  std::unique_ptr<engine::ScriptedServer> card_;
  std::string url_;
  int listen_fd_ = -1;
  std::atomic<int> conn_fd_{-1};
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mu_, write_mu_;
  std::condition_variable cv_;
  std::deque<Json> inbox_;
  Json last_ = nullptr;
};

}  // namespace

core::Expected<std::unique_ptr<engine::ScriptedAgent>> start_ws_scripted_agent(transport::Transcript* tr) {
  return engine::start_scripted_agent<WsScriptedAgent>(tr);
}

}  // namespace a2a::bindings
