#include "runner/load/load_checks.hpp"

#include "runner/a2a/model.hpp"
#include "runner/core/escape.hpp"
#include "runner/engine/op_expect.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/stream.hpp"

namespace a2a::load {

using engine::OpResult;
using result::Quote;

namespace {

// The sentences the suites cite for the same checks (suites/a2a/core.acts.yaml
// A2A-CORE-001/002, streaming.acts.yaml A2A-STREAM-001/003), verbatim.
const Quote kLoadQuoteBlocking{"a2a-spec", "§3.2.2",
                               "The operation MUST wait until the task reaches a terminal state ... before "
                               "returning. The response MUST include the latest task state with all artifacts "
                               "and status information."};
const Quote kLoadQuoteCompleteTask{"acts", "§11.2",
                                   "| tck-complete-task | Complete the task with a text response message. |"};
const Quote kLoadQuoteTaskStream{"a2a-spec", "§3.1.2",
                                 "Task lifecycle stream: If the agent returns a ... the stream MUST begin with the "
                                 "Task object, followed by zero or more ... objects. The stream MUST close when the "
                                 "task reaches a terminal state"};
const Quote kLoadQuoteMessageStream{"a2a-spec", "§3.1.2",
                                    "Message-only stream: If the agent returns a ... the stream MUST contain exactly "
                                    "one Message object and then close immediately."};
const Quote kLoadQuoteOrder{"a2a-spec", "§3.5.2", "All implementations MUST deliver events in the order they were generated."};
const Quote kLoadQuoteStreamBasic{"acts", "§11.2",
                                  "| tck-stream-basic | Stream: status(working) → artifact → status(completed). |"};
const Quote kLoadQuoteGetTask{"a2a-spec", "§3.1.3",
                              "Retrieves the current state (including status, artifacts, and optionally history) of "
                              "a previously initiated task."};
const Quote kLoadQuoteIdEcho{"jsonrpc-2.0", "§5",
                             "id: This member is REQUIRED. It MUST be the same as the value of the id member in the "
                             "Request Object."};
const Quote kLoadQuoteReply{"jsonrpc-2.0", "§5",
                             "When a rpc call is made, the Server MUST reply with a Response, except for in the case "
                             "of Notifications."};
const Quote kLoadQuoteProto{"a2a-spec", "§5.7",
                            "Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field "
                            "MUST be present and set in valid messages."};

const Json& load_send_task_assertion() {
  static const Json j = Json::parse(
      R"({"task": {"id": {"type": "string"}, "status": {"state": "TASK_STATE_COMPLETED"}}})");
  return j;
}

const Json& load_send_message_assertion() {
  static const Json j = Json::parse(R"({"message": {"role": "ROLE_AGENT", "parts": {"count_gte": 1}}})");
  return j;
}

// A2A-STREAM-001's expectation cut to what tck-stream-basic promises every
// agent: the task (or a message) first, a legal state order, COMPLETED last.
const Json& load_stream_assertion() {
  static const Json j = Json::parse(R"({
    "min_count": 1,
    "ordering": "monotonic_state",
    "events": [{"index": 0, "one_of": [{"task": {"id": {"type": "string"}}},
                                       {"message": {"role": "ROLE_AGENT"}}]}],
    "final_event": {"one_of": [{"status_update": {"status": {"state": "TASK_STATE_COMPLETED"}}},
                               {"task": {"status": {"state": "TASK_STATE_COMPLETED"}}},
                               {"message": {"role": "ROLE_AGENT"}}]}
  })");
  return j;
}

void add_load_problem(LoadVerdict& v, const std::string& what, std::initializer_list<Quote> quotes) {
  v.kind = LoadVerdict::Kind::kNonConformant;
  v.reason += (v.reason.empty() ? "" : "; ") + what;
  for (const auto& q : quotes) {
    bool have = false;
    for (const auto& x : v.quotes) have = have || x == q;
    if (!have) v.quotes.push_back(q);
  }
}

// The state an event or a task reports ("" when none).
std::string load_state_of(const Json& ev) {
  for (const char* k : {"task", "statusUpdate"}) {
    auto it = ev.find(k);
    if (it == ev.end() || !it->is_object()) continue;
    auto st = it->find("status");
    if (st != it->end() && st->is_object() && st->contains("state") && (*st)["state"].is_string())
      return (*st)["state"].get<std::string>();
  }
  return "";
}

bool load_terminal(const std::string& state) {
  auto s = model::task_state_from(state);
  return s && model::is_terminal(*s);
}

LoadTaskRef load_task_named(const Json& result_or_event) {
  LoadTaskRef t;
  if (!result_or_event.is_object()) return t;
  auto it = result_or_event.find("task");
  if (it == result_or_event.end() || !it->is_object()) return t;
  auto id = it->find("id");
  if (id != it->end() && id->is_string()) t.id = id->get<std::string>();
  t.state = load_state_of(result_or_event);
  return t;
}

void judge_load_send(LoadVerdict& v, const OpResult& r) {
  bool message = r.result.is_object() && r.result.contains("message");
  auto m = match::match(r.result, message ? load_send_message_assertion() : load_send_task_assertion());
  if (!m.ok) add_load_problem(v, "response: " + m.summary(6), {kLoadQuoteBlocking, kLoadQuoteCompleteTask});
  v.created = load_task_named(r.result);
}

void judge_load_stream(LoadVerdict& v, const OpResult& r) {
  auto m = match::match_stream(r.events, load_stream_assertion());
  if (!m.ok) add_load_problem(v, "stream: " + m.summary(6), {kLoadQuoteTaskStream, kLoadQuoteOrder, kLoadQuoteStreamBasic});
  if (!r.events.empty() && r.events[0].is_object() && r.events[0].contains("message") && r.events.size() != 1)
    add_load_problem(v, "stream: a message stream carried " + std::to_string(r.events.size()) + " events", {kLoadQuoteMessageStream});
  if (!r.events.empty()) v.created = load_task_named(r.events[0]);
  for (const auto& ev : r.events)
    if (auto st = load_state_of(ev); !st.empty()) v.created.state = st;
}

void judge_load_get(LoadVerdict& v, const OpResult& r, const LoadTaskRef& asked) {
  Json want = {{"id", {{"x-equals", asked.id}}}};
  if (load_terminal(asked.state)) want["status"] = {{"state", asked.state}};
  auto m = match::match(r.result, want);
  if (!m.ok)
    add_load_problem(v, "GetTask of task " + match::compact(Json(asked.id), 80) +
                       (load_terminal(asked.state) ? " (seen " + asked.state + ")" : std::string()) + ": " + m.summary(6),
                {kLoadQuoteGetTask});
}

}  // namespace

const char* load_op_name(LoadOp op) {
  switch (op) {
    case LoadOp::kSend: return "send";
    case LoadOp::kStream: return "stream";
    case LoadOp::kGet: return "get";
  }
  return "?";
}

const char* load_op_operation(LoadOp op) {
  switch (op) {
    case LoadOp::kSend: return "send_message";
    case LoadOp::kStream: return "send_streaming_message";
    case LoadOp::kGet: return "get_task";
  }
  return "?";
}

Json load_request_params(LoadOp op, const LoadTaskRef* task) {
  if (op == LoadOp::kGet) return Json{{"id", task ? task->id : std::string()}};
  const char* text = op == LoadOp::kSend ? "tck-complete-task load" : "tck-stream-basic load";
  return Json{{"message",
               {{"role", "ROLE_USER"}, {"messageId", core::uuid_v7()}, {"parts", Json::array({{{"text", text}}})}}}};
}

LoadVerdict stray_frames_verdict(size_t count, const std::string& first, const std::string& problem) {
  LoadVerdict v;
  add_load_problem(v,
              problem + "; meanwhile the agent wrote " + std::to_string(count) +
                  " frame(s) that answer no request of this connection (one request is in flight at a time), the "
                  "first: " + core::escape_bytes(first, 300),
              {kLoadQuoteIdEcho});
  return v;
}

LoadVerdict framing_verdict(const std::string& framing_error, const std::string& problem) {
  LoadVerdict v;
  add_load_problem(v, "the agent's output is not valid framing (" + framing_error + "): " + problem, {kLoadQuoteReply});
  return v;
}

LoadVerdict stray_answer_verdict(const OpResult& r) {
  LoadVerdict v;
  add_load_problem(v, r.problem.empty() ? "a response with another id: " + core::escape_bytes(r.stray_answer, 300) : r.problem,
                   {kLoadQuoteIdEcho});
  return v;
}

LoadVerdict judge_answer(const engine::Session& s, LoadOp op, const OpResult& r, const LoadTaskRef* asked) {
  LoadVerdict v;
  if (!r.stray_answer.empty()) return stray_answer_verdict(r);
  // Declined for now, in a way the binding's own specification gives for it
  // and well-formed: no verdict (docs/load.md "Shed answers").
  if (auto sig = engine::shed_signal(r); !sig.empty()) {
    v.kind = LoadVerdict::Kind::kShed;
    v.signal = sig;
    v.reason = r.status == OpResult::Status::kError || r.error.is_object() ? match::compact(r.error, 300) : r.problem;
    return v;
  }
  if (r.status == OpResult::Status::kNoResponse) {
    // A stream that reported its terminal state and then did not end broke
    // §3.1.2; any other missing answer is the transport's (counted apart).
    std::string last;
    for (const auto& ev : r.events)
      if (auto st = load_state_of(ev); !st.empty()) last = st;
    if (op == LoadOp::kStream && load_terminal(last)) {
      add_load_problem(v, "the stream did not close after its terminal state " + last + ": " + r.problem, {kLoadQuoteTaskStream});
      return v;
    }
    // A whole HTTP answer came to a unary call but the binding cannot read
    // it (not JSON, nested too deep, not a JSON-RPC response): the agent
    // answered, wrongly. Refused, reset, cut short and timed out stay the
    // transport's.
    if (op != LoadOp::kStream && r.http_status != 0) {
      bool rpc = r.binding.rfind("jsonrpc", 0) == 0;
      add_load_problem(v, "the HTTP " + std::to_string(r.http_status) + " answer cannot be read: " + r.problem,
                       rpc ? std::initializer_list<Quote>{kLoadQuoteReply} : std::initializer_list<Quote>{});
      return v;
    }
    v.kind = LoadVerdict::Kind::kTransport;
    v.reason = r.problem.empty() ? (r.not_expressible.empty() ? "no answer" : r.not_expressible) : r.problem;
    return v;
  }
  if (r.status == OpResult::Status::kError) {
    const Quote& q = op == LoadOp::kStream ? kLoadQuoteStreamBasic : op == LoadOp::kSend ? kLoadQuoteCompleteTask : kLoadQuoteGetTask;
    add_load_problem(v, "expected a result, got the error " + match::compact(r.error, 300), {q});
  } else if (op == LoadOp::kSend) {
    judge_load_send(v, r);
  } else if (op == LoadOp::kStream) {
    judge_load_stream(v, r);
  } else if (asked) {
    judge_load_get(v, r, *asked);
  }
  if (auto pv = engine::payload_violations(s, load_op_operation(op), r); !pv.empty()) {
    std::string all;
    for (const auto& x : pv) all += (all.empty() ? "" : "; ") + x;
    add_load_problem(v, "invalid A2A payload: " + all, {kLoadQuoteProto});
  }
  if (!r.violations.empty()) {
    std::string all;
    for (const auto& x : r.violations) all += (all.empty() ? "" : "; ") + x;
    add_load_problem(v, "binding violation: " + all, {});
  }
  return v;
}

}  // namespace a2a::load
