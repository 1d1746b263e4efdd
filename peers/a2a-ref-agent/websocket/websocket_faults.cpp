#include "peers/a2a-ref-agent/websocket/websocket_faults.hpp"

#include <optional>
#include <utility>

#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

// An id that is not `id` (the wrong-id faults).
Json other_id(const Json& id) {
  if (id.is_string()) return id.get<std::string>() + "-other";
  if (id.is_number_integer()) return id.get<long long>() + 1000000;
  return "other";
}

// The clean encoder: one JSON-RPC 2.0 response per message, as the HTTP
// JSON-RPC binding writes it (rpc_result_text, rpc_error_response).
class Encoder : public WsMessageSink {
 public:
  Encoder(const Faults& f, std::unique_ptr<WsFrameSink> out) : f_(f), out_(std::move(out)) {}
  void send(WsMessage m) override {
    switch (m.kind) {
      case WsKind::kResult:
      case WsKind::kEvent:
        if (m.text) return out_->write({rpc_result_raw(f_, m.id, *m.text), false});
        return out_->write({rpc_result_text(f_, m.id, m.body), false});
      case WsKind::kComplete:
        return out_->write({rpc_result_text(f_, m.id, ws_stream_complete()), false});
      case WsKind::kError:
      case WsKind::kStreamError: {
        Json err = std::move(m.body);
        apply_error_faults(f_, err);
        return out_->write({jsonrpc::dump(rpc_error_response(f_, m.id, std::move(err))), false});
      }
    }
  }

 private:
  const Faults f_;
  std::unique_ptr<WsFrameSink> out_;
};

// Message decorators: each changes one thing of what a request's answer is.
class MessageDecorator : public WsMessageSink {
 public:
  explicit MessageDecorator(std::unique_ptr<WsMessageSink> inner) : inner_(std::move(inner)) {}

 protected:
  std::unique_ptr<WsMessageSink> inner_;
};

class NoStreamComplete : public MessageDecorator {  // ws-no-stream-complete
 public:
  using MessageDecorator::MessageDecorator;
  void send(WsMessage m) override {
    if (m.kind != WsKind::kComplete) inner_->send(std::move(m));
  }
};

class WrongId : public MessageDecorator {  // ws-complete-wrong-id, ws-event-wrong-id
 public:
  WrongId(std::unique_ptr<WsMessageSink> inner, WsKind kind) : MessageDecorator(std::move(inner)), kind_(kind) {}
  void send(WsMessage m) override {
    if (m.kind == kind_) m.id = other_id(m.id);
    inner_->send(std::move(m));
  }

 private:
  WsKind kind_;
};

class EventsAfterComplete : public MessageDecorator {  // ws-events-after-complete
 public:
  using MessageDecorator::MessageDecorator;
  void send(WsMessage m) override {
    if (m.kind == WsKind::kEvent) last_ = m;
    bool complete = m.kind == WsKind::kComplete;
    inner_->send(std::move(m));
    if (complete && last_) inner_->send(*last_);
  }

 private:
  std::optional<WsMessage> last_;
};

class ErrorThenComplete : public MessageDecorator {  // ws-error-then-complete
 public:
  using MessageDecorator::MessageDecorator;
  void send(WsMessage m) override {
    bool failed = m.kind == WsKind::kStreamError;
    Json id = m.id;
    inner_->send(std::move(m));
    if (failed) inner_->send({WsKind::kComplete, id, nullptr});
  }
};

// Frame decorators: each changes how an encoded answer goes on the wire.
class FrameDecorator : public WsFrameSink {
 public:
  explicit FrameDecorator(std::unique_ptr<WsFrameSink> inner) : inner_(std::move(inner)) {}

 protected:
  std::unique_ptr<WsFrameSink> inner_;
};

class BinaryFrames : public FrameDecorator {  // ws-binary-frames
 public:
  using FrameDecorator::FrameDecorator;
  void write(WsFrame f) override {
    f.binary = true;
    inner_->write(std::move(f));
  }
};

class WrongJsonrpc : public FrameDecorator {  // ws-wrong-jsonrpc
 public:
  using FrameDecorator::FrameDecorator;
  void write(WsFrame f) override {
    static constexpr std::string_view kMember = "\"jsonrpc\":\"2.0\"";
    if (auto at = f.text.find(kMember); at != std::string::npos) f.text.replace(at, kMember.size(), "\"jsonrpc\":\"1.0\"");
    inner_->write(std::move(f));
  }
};

// ws-two-messages-per-frame: frames go out in pairs, [a,b] in one text
// frame; an odd last one goes alone when the answer ends. Unary answers
// (one frame) are unchanged.
class TwoPerFrame : public FrameDecorator {
 public:
  using FrameDecorator::FrameDecorator;
  ~TwoPerFrame() override {
    if (held_) inner_->write(std::move(*held_));
  }
  void write(WsFrame f) override {
    if (!held_) {
      held_ = std::move(f);
      return;
    }
    WsFrame both{"[" + held_->text + "," + f.text + "]", f.binary};
    held_.reset();
    inner_->write(std::move(both));
  }

 private:
  std::optional<WsFrame> held_;
};

}  // namespace

WsPolicy ws_policy(const Faults& f) {
  WsPolicy p;
  p.check_version = !f.has(Fault::kWsVersionNotChecked);
  p.carry_upgrade_auth = !f.has(Fault::kWsIgnoreUpgradeAuth);
  p.answer_binary = !f.has(Fault::kWsAcceptBinarySilently);
  p.answer_notifications = f.has(Fault::kWsAnswerNotifications);
  if (f.has(Fault::kWsNoBusyLimit)) p.max_in_flight = 0;
  if (f.has(Fault::kWsNoSizeLimit)) p.max_message = 64u << 20;
  p.answer_control = !f.has(Fault::kWsIgnoreControl);
  return p;
}

Json ws_stream_complete() { return Json{{"status", "stream_complete"}}; }

std::unique_ptr<WsMessageSink> ws_answer_path(const Faults& f, std::unique_ptr<WsFrameSink> out) {
  if (f.has(Fault::kWsBinaryFrames)) out = std::make_unique<BinaryFrames>(std::move(out));
  if (f.has(Fault::kWsWrongJsonrpc)) out = std::make_unique<WrongJsonrpc>(std::move(out));
  if (f.has(Fault::kWsTwoMessagesPerFrame)) out = std::make_unique<TwoPerFrame>(std::move(out));
  std::unique_ptr<WsMessageSink> path = std::make_unique<Encoder>(f, std::move(out));
  if (f.has(Fault::kWsNoStreamComplete)) path = std::make_unique<NoStreamComplete>(std::move(path));
  if (f.has(Fault::kWsCompleteWrongId)) path = std::make_unique<WrongId>(std::move(path), WsKind::kComplete);
  if (f.has(Fault::kWsEventWrongId)) path = std::make_unique<WrongId>(std::move(path), WsKind::kEvent);
  if (f.has(Fault::kWsEventsAfterComplete)) path = std::make_unique<EventsAfterComplete>(std::move(path));
  if (f.has(Fault::kWsErrorThenComplete)) path = std::make_unique<ErrorThenComplete>(std::move(path));
  return path;
}

}  // namespace a2a::agent
