#include "runner/engine/op_expect.hpp"

#include "runner/engine/binding_registry.hpp"

#include "runner/a2a/methods.hpp"
#include "runner/a2a/validate.hpp"
#include "runner/match/assert.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/match/stream.hpp"

namespace a2a::engine {

using scenario::Step;

namespace {

std::string describe_error(const Json& e) {
  return "error " + match::compact(e.value("code", Json())) + " " +
         match::show(e.value("message", Json("")), 120);
}

StepOutcome check_interpolated(const Step& st, const OpResult& r, bool streaming);

}  // namespace

Json root_of(const OpResult& r) { return r.events.empty() ? r.result : Json(r.events); }

StepOutcome check_http_status(const Json& expect, int http_status, bool any_2xx) {
  if (!expect.is_object() || !expect.contains("status") || http_status == 0) return StepOutcome::pass();
  const Json& want = expect["status"];
  if (want.is_string()) return StepOutcome::pass();  // `status: error` is judged with the body
  auto is2xx = [](int v) { return v >= 200 && v < 300; };
  if (want.is_number_integer()) {
    int w = want.get<int>();
    if (w == http_status || (any_2xx && is2xx(w) && is2xx(http_status))) return StepOutcome::pass();
    return StepOutcome::fail("expected HTTP status " + std::to_string(w) + ", got " + std::to_string(http_status),
                             std::to_string(w), std::to_string(http_status), "status");
  }
  return from_match(match::match(Json(http_status), want, "status"), "HTTP status");
}

namespace {

// The a2a.proto message an operation answers with (A2AService in a2a.proto).
std::string_view result_type(const std::string& operation) {
  if (operation == "get_agent_card") return "AgentCard";
  auto op = model::operation_from_acts(operation);
  if (!op) return "";
  switch (*op) {
    case model::Operation::kSendMessage: return "SendMessageResponse";
    case model::Operation::kSendStreamingMessage:
    case model::Operation::kSubscribeToTask: return "StreamResponse";
    case model::Operation::kGetTask:
    case model::Operation::kCancelTask: return "Task";
    case model::Operation::kListTasks: return "ListTasksResponse";
    case model::Operation::kCreatePushConfig:
    case model::Operation::kGetPushConfig: return "TaskPushNotificationConfig";
    case model::Operation::kListPushConfigs: return "ListTaskPushNotificationConfigsResponse";
    case model::Operation::kGetExtendedAgentCard: return "AgentCard";
    case model::Operation::kDeletePushConfig: return "";  // google.protobuf.Empty
  }
  return "";
}

}  // namespace

std::vector<std::string> payload_violations(const Session& s, const std::string& operation, const OpResult& r) {
  std::vector<std::string> out;
  if (r.status != OpResult::Status::kResult || (s.target && s.target->is_v03())) return out;
  auto type = result_type(operation);
  if (type.empty()) return out;
  auto add = [&](const std::vector<model::PayloadViolation>& v) {
    for (const auto& x : v) out.push_back(x.describe());
  };
  if (is_streaming_operation(operation)) {
    for (size_t i = 0; i < r.events.size(); ++i)
      add(model::validate_payload(type, r.events[i], "event[" + std::to_string(i) + "]"));
  } else {
    add(model::validate_payload(type, r.result));
  }
  return out;
}

StepOutcome check_expectations(Session& s, const Step& st, const OpResult& r, bool streaming) {
  Step resolved;
  resolved.id = st.id;
  for (auto [src, dst] : {std::pair{&st.expect, &resolved.expect},
                          std::pair{&st.expect_error, &resolved.expect_error},
                          std::pair{&st.expect_stream, &resolved.expect_stream}}) {
    if (!*src) continue;
    auto v = s.interpolate(**src);
    if (!v) return StepOutcome::error("expectation: " + v.error().message);
    *dst = *v;
  }
  return check_interpolated(resolved, r, streaming);
}

namespace {


StepOutcome check_interpolated(const Step& st, const OpResult& r, bool streaming) {
  if (st.expect) {
    auto so = check_http_status(*st.expect, r.http_status, true);
    if (!so.ok()) return so;
  }
  // ACTS files also write an expected failure as `expect: {status: error,
  // error: {...}}` or just `expect: {error: {...}}`; the body assertions
  // then apply to {"error": <the JSON-RPC error object / REST Status>}.
  bool body_names_error = st.expect && st.expect->contains("body") && (*st.expect)["body"].is_object() &&
                          (*st.expect)["body"].contains("error");
  if (st.expect && (st.expect->value("status", Json()) == "error" || body_names_error)) {
    if (r.status != OpResult::Status::kError)
      return StepOutcome::fail("expected an error, got a result", "an error", match::compact(root_of(r), 200));
    Json body = st.expect->value("body", Json::object());
    return from_match(match::match(Json{{"error", r.error}}, body), "error");
  }
  if (st.expect_error) {
    if (r.status != OpResult::Status::kError)
      return StepOutcome::fail("expected an error, got a result", match::compact(*st.expect_error),
                               match::compact(root_of(r), 200));
    return from_match(match_expected_error(r, *st.expect_error), "error");
  }
  if (r.status == OpResult::Status::kError && (st.expect || st.expect_stream))
    return StepOutcome::fail("expected a result, got " + describe_error(r.error), "a result",
                             match::compact(r.error, 200));
  match::MatchResult m;
  if (st.expect && st.expect->contains("body")) {
    // A stream checked with `expect` (some ACTS files do) is matched per event:
    // it passes when some event matches, the usual reading of those tests.
    if (streaming) {
      bool any = false;
      match::MatchResult first;
      for (size_t i = 0; i < r.events.size() && !any; ++i) {
        auto mi = match::match(r.events[i], (*st.expect)["body"]);
        if (mi.ok) any = true;
        if (i == 0) first = mi;
      }
      if (!any) m.merge(r.events.empty() ? match::match(Json(), (*st.expect)["body"]) : first);
    } else {
      m.merge(match::match(r.result, (*st.expect)["body"]));
    }
  }
  if (st.expect_stream) m.merge(match::match_stream(r.events, *st.expect_stream));
  return from_match(m, "response");
}

}  // namespace

match::MatchResult match_expected_error(const OpResult& r, const Json& expect_error) {
  if (const auto* b = find_binding(r.binding); b && b->match_error) return b->match_error(r, expect_error);
  return match::match_error(r.error, expect_error);
}

}  // namespace a2a::engine
