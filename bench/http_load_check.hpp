// What bench/http_load.hpp accepts as a correct answer. Unary: HTTP 200 and a
// JSON-RPC result with the request's id holding the COMPLETED echo task.
// Stream: HTTP 200 and exactly the K+3 SSE events of tck-stream-many in
// order, each a result with the request's id: the task, WORKING, "chunk 0"
// .. "chunk K-1", COMPLETED. The byte checks (benchmarks: they must cost the
// generator little) look for those markers; the full checks (tests) parse
// every answer and compare the fields. `rest`: the answers of the REST
// binding, the same objects bare (no JSON-RPC envelope, so no id to match).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/wire/sse.hpp"

namespace a2a::bench {

class AnswerCheck {
 public:
  AnswerCheck(bool stream, int k, bool full, long long id, bool rest = false)
      : stream_(stream), k_(k), full_(full), id_(id), rest_(rest) {}

  // Body bytes of a chunked (SSE) answer, as they arrive.
  void feed(std::string_view bytes) {
    events_buf_.clear();
    if (sse_.feed(bytes, events_buf_) != wire::SseError::kNone) note("SSE: " + std::string(to_string(sse_.error())));
    for (const auto& ev : events_buf_) on_event(ev);
  }

  // The answer is whole: "" when it is correct, else why not.
  std::string finish(int status, const std::string& body) {
    if (status != 200) return "HTTP " + std::to_string(status) + ": " + body.substr(0, 200);
    if (!stream_) return check_unary(body);
    if (!body.empty()) feed(body);  // an SSE body sent without chunked encoding
    if (!why_.empty()) return why_;
    if (seen_ == 0 && !body.empty()) return "not an SSE stream: " + body.substr(0, 200);
    if (seen_ != k_ + 3) {
      return "stream ended after " + std::to_string(seen_) + " of " + std::to_string(k_ + 3) + " events";
    }
    return "";
  }

  long long events() const { return seen_; }

 private:
  using Json = nlohmann::json;

  void note(std::string why) {
    if (why_.empty()) why_ = "event " + std::to_string(seen_) + ": " + std::move(why);
  }

  bool has_id(std::string_view data) const {
    if (rest_) return true;
    std::string key = "\"id\":" + std::to_string(id_);
    for (size_t at = data.find(key); at != std::string_view::npos; at = data.find(key, at + 1)) {
      size_t end = at + key.size();
      if (end < data.size() && (data[end] == ',' || data[end] == '}')) return true;
    }
    return false;
  }

  std::string check_unary(const std::string& body) const {
    if (!full_) {
      bool ok = (rest_ || body.find("\"result\":") != std::string::npos) &&
                body.find("\"TASK_STATE_COMPLETED\"") != std::string::npos && has_id(body);
      return ok ? "" : "not the COMPLETED echo task: " + body.substr(0, 200);
    }
    Json j = Json::parse(body, nullptr, false);
    if (rest_ && j.is_object()) j = Json{{"jsonrpc", "2.0"}, {"id", id_}, {"result", std::move(j)}};
    bool ok = j.is_object() && j.value("id", Json()) == Json(id_) && !j.contains("error") &&
              j.value("/result/task/status/state"_json_pointer, Json()) == "TASK_STATE_COMPLETED" &&
              j.value("/result/task/artifacts/0/parts/0/text"_json_pointer, Json()) == "Echo: hello";
    return ok ? "" : "not the COMPLETED echo task: " + body.substr(0, 200);
  }

  // What event number `seen_` must be: 0 task, 1 WORKING, 2..K+1 chunks, K+2 COMPLETED.
  void on_event(const wire::SseEvent& ev) {
    if (ev.event == "error") note("an error event: " + ev.data.substr(0, 200));
    if (seen_ >= k_ + 3) note("an event after the terminal one");
    if (why_.empty()) {
      std::string why = full_ ? full_event(ev.data) : byte_event(ev.data);
      if (!why.empty()) note(why + ": " + ev.data.substr(0, 200));
    }
    ++seen_;
  }

  std::string byte_event(std::string_view d) const {
    if ((!rest_ && d.find("\"result\":") == std::string_view::npos) || !has_id(d)) {
      return "not a result for this request";
    }
    auto has = [&](std::string_view s) { return d.find(s) != std::string_view::npos; };
    long long e = seen_;
    if (e == 0) return has("\"task\":{") ? "" : "expected the task";
    if (e == 1) return has("\"statusUpdate\"") && has("\"TASK_STATE_WORKING\"") ? "" : "expected WORKING";
    if (e == k_ + 2) return has("\"statusUpdate\"") && has("\"TASK_STATE_COMPLETED\"") ? "" : "expected COMPLETED";
    std::string text = "\"text\":\"chunk " + std::to_string(e - 2) + "\"";
    return has("\"artifactUpdate\"") && has(text) ? "" : "expected chunk " + std::to_string(e - 2);
  }

  std::string full_event(const std::string& d) const {
    Json j = Json::parse(d, nullptr, false);
    if (rest_ && j.is_object()) j = Json{{"jsonrpc", "2.0"}, {"id", id_}, {"result", std::move(j)}};
    if (!j.is_object() || j.value("jsonrpc", "") != "2.0" || j.value("id", Json()) != Json(id_) ||
        j.contains("error") || !j.contains("result") || !j["result"].is_object() || j["result"].size() != 1) {
      return "not a result for this request";
    }
    const Json& r = j["result"];
    long long e = seen_;
    auto state = [&](const char* want) {
      return r.value("/statusUpdate/status/state"_json_pointer, Json()) == want;
    };
    if (e == 0) return r.contains("task") ? "" : "expected the task";
    if (e == 1) return state("TASK_STATE_WORKING") ? "" : "expected WORKING";
    if (e == k_ + 2) return state("TASK_STATE_COMPLETED") ? "" : "expected COMPLETED";
    long long i = e - 2;
    const Json& a = r.value("artifactUpdate", Json::object());
    bool ok = a.is_object() && a.value("/artifact/parts/0/text"_json_pointer, Json()) == "chunk " + std::to_string(i) &&
              a.value("append", false) == (i > 0) && a.value("lastChunk", false) == (i == k_ - 1);
    return ok ? "" : "expected chunk " + std::to_string(i);
  }

  bool stream_;
  long long k_;
  bool full_;
  long long id_;
  bool rest_;
  wire::SseParser sse_;
  std::vector<wire::SseEvent> events_buf_;
  long long seen_ = 0;
  std::string why_;
};

}  // namespace a2a::bench
