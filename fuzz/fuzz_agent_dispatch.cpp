// Fuzzes the reference agent's request dispatch (peers/a2a-ref-agent) the
// way its HTTP server does, minus sockets and worker threads: each request
// goes to handle_jsonrpc (POST /) or handle_rest (anything else) on the
// calling thread (ctx.offload runs jobs inline) with an in-memory exchange,
// against one fresh AgentCore per input. Input: up to kMaxRequests lines,
// each either a JSON-RPC body (POSTed to /) or "VERB target[ body]"; "$TASK" and "$CTX" in a line are replaced by
// the last task and context ids the agent returned, so sequences reach tasks.
// Invariants: every request gets exactly one answer (reply or stream); a
// JSON-RPC answer is one well-formed response carrying the request's id (204
// and no body for notifications), and so is every SSE event of a stream; a
// REST answer has a known status and a JSON body of the right shape.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "peers/a2a-ref-agent/http_binding.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/wire/sse.hpp"

namespace {

using namespace a2a::agent;
using a2a::fuzz::show;
namespace jsonrpc = a2a::jsonrpc;

constexpr size_t kMaxRequests = 8;
constexpr size_t kMaxStreamEvents = 6;  // then the fake client "goes away"

// One HTTP exchange held in memory: records what the handler answered.
class FakeExchange final : public HttpExchange {
 public:
  explicit FakeExchange(ServerRequest req) : req_(std::move(req)) {}
  const ServerRequest& request() const override { return req_; }
  void reply(ServerReply r) override {
    ++answers;
    status = r.status;
    headers = std::move(r.headers);
    body = std::move(r.body);
  }
  bool start_stream(int s, HeaderList h) override {
    ++answers;
    streamed = true;
    status = s;
    headers = std::move(h);
    return true;
  }
  bool write(std::string bytes) override {
    A2A_FUZZ_CHECK(streamed && !ended, "write() outside a stream");
    body += bytes;
    return ++writes < kMaxStreamEvents;
  }
  void end() override {
    A2A_FUZZ_CHECK(streamed && !ended, "end() outside a stream or twice");
    ended = true;
  }
  void abort() override { ended = true; }
  bool closed() const override { return false; }
  void on_close(std::function<void()> fn) override { on_close_ = std::move(fn); }

  int answers = 0;
  bool streamed = false;
  bool ended = false;
  size_t writes = 0;
  int status = 0;
  HeaderList headers;
  std::string body;

 private:
  ServerRequest req_;
  std::function<void()> on_close_;
};

struct Ids {
  std::string task;
  std::string context;
};

// Remembers ids the agent handed out so later lines can name them.
void harvest(const Json& j, Ids& ids, int depth = 0) {
  if (depth > 8) return;
  if (j.is_object()) {
    auto id = j.find("id");
    auto status = j.find("status");
    if (id != j.end() && id->is_string() && status != j.end() && status->is_object()) ids.task = *id;
    auto ctx = j.find("contextId");
    if (ctx != j.end() && ctx->is_string()) ids.context = *ctx;
    for (const auto& [k, v] : j.items()) harvest(v, ids, depth + 1);
  } else if (j.is_array()) {
    for (const auto& v : j) harvest(v, ids, depth + 1);
  }
}

std::string substitute(std::string line, const Ids& ids) {
  for (auto [token, value] : {std::pair<std::string_view, const std::string*>{"$TASK", &ids.task},
                              std::pair<std::string_view, const std::string*>{"$CTX", &ids.context}}) {
    for (size_t at = line.find(token); at != std::string::npos; at = line.find(token, at + value->size())) {
      line.replace(at, token.size(), *value);
    }
  }
  return line;
}

ServerRequest parse_line(const std::string& line) {
  ServerRequest req;
  req.headers = {{"Content-Type", "application/json"}, {"A2A-Version", "1.0"}, {"Authorization", "Bearer fuzz"}};
  req.remote = "127.0.0.1:1";
  for (std::string_view verb : {"GET ", "POST ", "DELETE ", "PUT "}) {
    if (line.starts_with(verb) && line.size() > verb.size() && line[verb.size()] == '/') {
      req.method = std::string(verb.substr(0, verb.size() - 1));
      size_t sp = line.find(' ', verb.size());
      req.target = line.substr(verb.size(), sp == std::string::npos ? std::string::npos : sp - verb.size());
      if (sp != std::string::npos) req.body = line.substr(sp + 1);
      return req;
    }
  }
  req.method = "POST";
  req.target = "/";
  req.body = line;
  return req;
}

// The SSE events of a finished stream, each data parsed as JSON.
std::vector<Json> stream_documents(const FakeExchange& ex) {
  a2a::wire::SseParser p;
  std::vector<a2a::wire::SseEvent> events;
  A2A_FUZZ_CHECK(p.feed(ex.body, events) == a2a::wire::SseError::kNone, "SSE error in '" + show(ex.body) + "'");
  A2A_FUZZ_CHECK(!p.has_partial_event(), "stream ends mid-event: '" + show(ex.body) + "'");
  A2A_FUZZ_CHECK(events.size() == ex.writes, "events " + std::to_string(events.size()) + " for writes " +
                                                 std::to_string(ex.writes));
  std::vector<Json> docs;
  for (const auto& e : events) {
    Json j = Json::parse(e.data, nullptr, false);
    A2A_FUZZ_CHECK(!j.is_discarded(), "SSE data is not JSON: '" + show(e.data) + "'");
    docs.push_back(std::move(j));
  }
  return docs;
}

void check_jsonrpc_response(const Json& r, const Json& id, const std::string& what) {
  A2A_FUZZ_CHECK(r.is_object() && r.value("jsonrpc", "") == "2.0" && r.contains("id"), what);
  A2A_FUZZ_CHECK(r.at("id") == id, "id " + r.at("id").dump() + " instead of " + id.dump() + ": " + what);
  const bool has_result = r.contains("result");
  const bool has_error = r.contains("error");
  A2A_FUZZ_CHECK(has_result != has_error && r.size() == 3, what);
  if (has_error) {
    const Json& e = r.at("error");
    A2A_FUZZ_CHECK(e.is_object() && e.contains("code") && e.at("code").is_number_integer() && e.contains("message") &&
                       e.at("message").is_string(),
                   what);
  }
}

void check_jsonrpc(const ServerRequest& req, const FakeExchange& ex) {
  const std::string what = "POST / '" + show(req.body) + "' -> " + std::to_string(ex.status) + " '" + show(ex.body) + "'";
  jsonrpc::Incoming in = jsonrpc::classify_incoming(req.body, jsonrpc::Strictness::kStrict);
  if (!in.reply && (!in.message || in.message->kind == jsonrpc::Kind::kNotification)) {
    A2A_FUZZ_CHECK(!ex.streamed && ex.status == 204 && ex.body.empty(), "notification answered: " + what);
    return;
  }
  const Json id = in.reply ? in.reply->at("id") : in.message->id;
  if (ex.streamed) {
    A2A_FUZZ_CHECK(in.message && ex.status == 200 && ex.ended, what);
    for (const Json& doc : stream_documents(ex)) check_jsonrpc_response(doc, id, what);
    return;
  }
  A2A_FUZZ_CHECK(ex.status == 200 || ex.status == 401, what);
  Json body = Json::parse(ex.body, nullptr, false);
  check_jsonrpc_response(body, id, what);
}

void check_rest_error_body(const Json& b, const std::string& what) {
  A2A_FUZZ_CHECK(b.is_object() && b.contains("error") && b.at("error").is_object(), what);
  const Json& e = b.at("error");
  A2A_FUZZ_CHECK(e.contains("code") && e.at("code").is_number_integer() && e.contains("status") &&
                     e.at("status").is_string() && e.contains("message") && e.at("message").is_string(),
                 what);
}

void check_rest(const ServerRequest& req, const FakeExchange& ex) {
  const std::string what = req.method + " '" + show(req.target) + "' '" + show(req.body) + "' -> " +
                           std::to_string(ex.status) + " '" + show(ex.body) + "'";
  static constexpr int kStatuses[] = {200, 204, 400, 401, 404, 405, 409, 413, 414, 415, 500, 501, 502};
  A2A_FUZZ_CHECK(std::find(std::begin(kStatuses), std::end(kStatuses), ex.status) != std::end(kStatuses), what);
  if (ex.streamed) {
    A2A_FUZZ_CHECK(ex.status == 200 && ex.ended, what);
    for (const Json& doc : stream_documents(ex)) A2A_FUZZ_CHECK(doc.is_object(), what);
    return;
  }
  if (ex.status == 204) {
    A2A_FUZZ_CHECK(ex.body.empty(), what);
    return;
  }
  Json body = Json::parse(ex.body, nullptr, false);
  A2A_FUZZ_CHECK(body.is_object(), what);
  if (ex.status >= 400) check_rest_error_body(body, what);
}

AgentConfig fuzz_config() {
  AgentConfig cfg;
  cfg.long_running = a2a::core::Millis(2);  // behaviours finish within a few ms
  cfg.max_block = a2a::core::Millis(20);    // a blocking send on a never-ending task
  return cfg;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  AgentCore core(fuzz_config());
  HttpContext ctx;
  ctx.core = &core;
  ctx.tenant = "acme";
  ctx.auth_tokens = {"fuzz"};
  ctx.max_stream = a2a::core::Millis(30);  // a stream that stays quiet ends with an error event
  // What may block (a blocking send, the rest of a stream) runs right here
  // instead of on a worker, so one input is one thread's work.
  ctx.offload = [](const std::shared_ptr<HttpExchange>&, std::function<void()> job) {
    job();
    return true;
  };
  Ids ids;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  for (size_t n = 0; n < kMaxRequests && !rest.empty(); ++n) {
    size_t nl = rest.find('\n');
    std::string line(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    ServerRequest req = parse_line(substitute(std::move(line), ids));
    auto ex = std::make_shared<FakeExchange>(req);
    const bool rpc = req.method == "POST" && req.path() == "/";
    if (rpc) {
      handle_jsonrpc(ctx, ex);
    } else {
      handle_rest(ctx, ex);
    }
    A2A_FUZZ_CHECK(ex->answers == 1, std::to_string(ex->answers) + " answers to '" + show(req.body) + "'");
    if (rpc) {
      check_jsonrpc(req, *ex);
    } else {
      check_rest(req, *ex);
    }
    if (!ex->streamed) harvest(Json::parse(ex->body, nullptr, false), ids);
    if (ex->streamed) {
      for (const Json& doc : stream_documents(*ex)) harvest(doc, ids);
    }
  }
  return 0;
}
