#include "peers/a2a-ref-client/router.hpp"

#include <cstdlib>

#include "peers/a2a-ref-client/fault.hpp"

#include "runner/a2a/methods.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::client {
namespace {

std::string body_excerpt(std::string_view body) { return core::escape_bytes(body, 200); }

ClientError prefixed(const ClientError& e, const std::string& what) {
  ClientError out = e;
  out.message = what + ": " + e.message;
  return out;
}

}  // namespace

std::string id_key(const Json& id) { return jsonrpc::dump(id); }

Router::Router(DiagnosticSink sink, bool json_streams) : sink_(std::move(sink)), json_streams_(json_streams) {}

template <class Pred>
bool Router::wait_for(std::unique_lock<std::mutex>& lock, core::Deadline deadline, Pred pred) {
  // Deadline::never() is bounded by an outer deadline at the call site; a
  // time_point::max() wait_until could overflow inside the library.
  if (deadline.is_never()) {
    cv_.wait(lock, pred);
    return true;
  }
  return cv_.wait_until(lock, deadline.time(), pred);
}

void Router::emit(const std::string& diagnostic) const {
  if (!diagnostic.empty() && sink_) sink_(diagnostic);
}

void Router::expect(const Json& id) {
  std::lock_guard lock(mu_);
  pending_[id_key(id)] = Slot{};
}

void Router::forget(const Json& id) {
  std::lock_guard lock(mu_);
  pending_.erase(id_key(id));
}

CallResult Router::wait(const Json& id, core::Deadline deadline, const std::string& what) {
  const std::string key = id_key(id);
  std::unique_lock lock(mu_);
  auto slot_done = [&] {
    auto it = pending_.find(key);
    return it == pending_.end() || it->second.done || dead_.has_value();
  };
  bool in_time = wait_for(lock, deadline, slot_done);
  auto it = pending_.find(key);
  if (it != pending_.end() && it->second.done) {
    CallResult r = std::move(it->second.result);
    pending_.erase(it);
    return r;
  }
  if (it != pending_.end()) pending_.erase(it);
  if (dead_) return CallResult::failure(prefixed(*dead_, what));
  if (!in_time) {
    return CallResult::failure(
        {ClientErrorKind::kTimeout, what + ": no response before the deadline", nullptr});
  }
  return CallResult::failure({ClientErrorKind::kUsage, what + ": id was not expected", nullptr});
}

bool Router::open_stream(const Json& id, core::Deadline deadline) {
  std::unique_lock lock(mu_);
  if (!wait_for(lock, deadline, [&] { return !stream_.has_value() || dead_.has_value(); })) return false;
  if (stream_) return false;  // dead while another stream is still registered
  stream_ = OpenStream{id_key(id), {}, false, false, CallResult::success(nullptr)};
  return true;
}

bool Router::close_stream() {
  bool abandoned = false;
  {
    std::lock_guard lock(mu_);
    if (!stream_) return false;
    if (stream_->ended || dead_) {
      stream_.reset();
    } else {
      stream_->abandoned = abandoned = true;
      stream_->items.clear();
    }
  }
  cv_.notify_all();
  return abandoned;
}

StreamStep Router::next_stream_step(core::Deadline deadline, const std::string& what) {
  std::unique_lock lock(mu_);
  if (!stream_) return {true, {}, CallResult::failure({ClientErrorKind::kUsage, what + ": no open stream", nullptr})};
  auto ready = [&] { return !stream_->items.empty() || stream_->ended || dead_.has_value(); };
  bool in_time = wait_for(lock, deadline, ready);
  if (!stream_->items.empty()) {
    StreamItem item = std::move(stream_->items.front());
    stream_->items.pop_front();
    return {false, std::move(item), {}};
  }
  if (stream_->ended) return {true, {}, stream_->outcome};
  if (dead_ && fault_on("client-eof-mid-stream-ok")) return {true, {}, CallResult::success(nullptr)};
  if (dead_) {
    // C11: the agent went away before the final response; never a normal end.
    return {true, {}, CallResult::failure(prefixed(*dead_, what + " ended before its final response"))};
  }
  (void)in_time;
  return {true, {}, CallResult::failure({ClientErrorKind::kTimeout, what + ": stream did not end before the deadline", nullptr})};
}

void Router::route(std::string_view body) {
  std::string diagnostic;
  {
    std::lock_guard lock(mu_);
    diagnostic = route_locked(body);
  }
  cv_.notify_all();
  emit(diagnostic);
}

std::string Router::route_locked(std::string_view body) {
  if (json_streams_) {
    Json doc = jsonrpc::parse_json_or_discarded(body);
    if (doc.is_object()) {
      if (auto d = route_json_control(doc)) return *d;
    }
  }
  std::string why;
  std::optional<jsonrpc::Message> msg = jsonrpc::parse_message(body, &why);
  if (!msg) return "dropped a frame that is not a JSON-RPC message (" + why + "): '" + body_excerpt(body) + "'";
  switch (msg->kind) {
    case jsonrpc::Kind::kResponse: return route_response(id_key(msg->id), false, msg->result);
    case jsonrpc::Kind::kError: return route_response(id_key(msg->id), true, msg->error);
    case jsonrpc::Kind::kNotification: return route_notification(msg->method, msg->params);
    case jsonrpc::Kind::kRequest:
      return "ignored a request from the agent (method " + msg->method + ", id " + id_key(msg->id) +
             "): P46 defines no agent-to-client requests";
  }
  return {};
}

std::optional<std::string> Router::route_json_control(const Json& doc) {
  if (!doc.contains("jsonrpc") && doc.value("type", Json()) == "heartbeat") {
    if (fault_on("client-crash-on-heartbeat")) std::_Exit(70);
    return std::string();  // ignored (§4)
  }
  auto end = doc.find("streamEnd");
  if (end == doc.end() || !doc.contains("id") || doc.contains("result") || doc.contains("error")) return std::nullopt;
  if (fault_on("client-ignore-stream-end")) return "ignored streamEnd (fault)";
  const std::string key = id_key(doc["id"]);
  if (fault_on("client-end-stream-on-any-id") && stream_ && !stream_->ended && !stream_->abandoned) {
    stream_->ended = true;
    stream_->outcome = CallResult::success(nullptr);
    return std::string();
  }
  if (!stream_ || stream_->ended || stream_->key != key) return "dropped streamEnd for id " + key + ": no such open stream";
  if (stream_->abandoned) {
    stream_.reset();
    return "abandoned stream id " + key + " ended (streamEnd); next stream may start";
  }
  stream_->ended = true;
  stream_->outcome = CallResult::success(nullptr);
  return std::string();
}

// stdio-json: a result is one more event; an error ends the stream (no streamEnd follows).
std::string Router::route_stream_response(bool is_error, const Json& payload) {
  if (stream_->abandoned) {
    if (is_error) stream_.reset();
    return {};
  }
  if (is_error) {
    stream_->ended = true;
    stream_->outcome = fault_on("client-stream-error-as-end") ? CallResult::success(nullptr)
                                                              : CallResult::failure({ClientErrorKind::kAgent, "", payload});
    return {};
  }
  stream_->items.push_back({StreamItem::Type::kEvent, payload});
  return {};
}

std::string Router::route_response(const std::string& key, bool is_error, const Json& payload) {
  auto it = pending_.find(key);
  if (fault_on("client-assume-in-order") && it != pending_.end()) {
    // Any answer is taken as the answer of the oldest call (ids count up).
    for (auto& [k, slot] : pending_)
      if (!slot.done && (k.size() < it->first.size() || (k.size() == it->first.size() && k < it->first)))
        it = pending_.find(k);
  }
  if (it != pending_.end() && !it->second.done) {
    it->second.done = true;
    it->second.result = is_error ? CallResult::failure({ClientErrorKind::kAgent, "", payload})
                                 : CallResult::success(payload);
    return {};
  }
  if (json_streams_ && stream_ && !stream_->ended && stream_->key == key) return route_stream_response(is_error, payload);
  if (stream_ && !stream_->ended && stream_->key == key) {
    if (stream_->abandoned) {
      stream_.reset();
      return "abandoned stream id " + key + " received its final response; next stream may start";
    }
    stream_->ended = true;
    if (is_error && !fault_on("client-stream-error-as-end")) {
      stream_->outcome = CallResult::failure({ClientErrorKind::kAgent, "", payload});
      return {};
    }
    stream_->outcome = CallResult::success(nullptr);
    if (!payload.is_null()) {
      stream_->items.push_back({StreamItem::Type::kEvent, payload});
      return "stream id " + key + ": final response carried a non-null result; yielded as an event (C9)";
    }
    return {};
  }
  if (fault_on("client-match-wrong-id"))
    for (auto& [k, slot] : pending_)
      if (!slot.done) {
        slot.done = true;
        slot.result = is_error ? CallResult::failure({ClientErrorKind::kAgent, "", payload}) : CallResult::success(payload);
        return {};
      }
  if (fault_on("client-end-stream-on-any-id") && stream_ && !stream_->ended) {
    stream_->ended = true;
    stream_->outcome = CallResult::success(nullptr);
    return {};
  }
  return std::string("dropped a ") + (is_error ? "error response" : "response") + " with id " + key +
         " that no call is waiting for (C3)";
}

std::string Router::route_notification(const std::string& method, const Json& params) {
  bool is_event = method == model::kP46StreamEvent;
  bool is_error = method == model::kP46StreamError;
  if (!is_event && !is_error && fault_on("client-crash-on-notification")) std::_Exit(70);
  if (!is_event && !is_error) return "ignored notification " + method + " (C4)";
  if (is_error && fault_on("client-ignore-stream-error")) return {};
  if (!stream_ || stream_->ended) return "dropped " + method + ": no stream is open";
  if (stream_->abandoned) return "discarded " + method + " of abandoned stream id " + stream_->key + " (C13)";
  stream_->items.push_back(
      {is_event ? StreamItem::Type::kEvent : StreamItem::Type::kStreamError, params});
  return {};
}

void Router::fail_all(const ClientError& e) {
  {
    std::lock_guard lock(mu_);
    if (!dead_) dead_ = e;
  }
  cv_.notify_all();
}

std::optional<ClientError> Router::dead() const {
  std::lock_guard lock(mu_);
  return dead_;
}

size_t Router::pending_count() const {
  std::lock_guard lock(mu_);
  return pending_.size();
}

}  // namespace a2a::client
