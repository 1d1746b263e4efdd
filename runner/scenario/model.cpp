#include "runner/scenario/model.hpp"

#include <array>

namespace a2a::scenario {

namespace {

struct WireName {
  WireActionType type;
  std::string_view key;
};

constexpr std::array<WireName, 22> kWireNames = {{
    {WireActionType::kHandshake, "x-handshake"},
    {WireActionType::kExpectHandshake, "x-expect-handshake"},
    {WireActionType::kSendBytes, "x-send-bytes"},
    {WireActionType::kSendFrame, "x-send-frame"},
    {WireActionType::kSendRequest, "x-send-request"},
    {WireActionType::kExpectResponse, "x-expect-response"},
    {WireActionType::kExpectNotification, "x-expect-notification"},
    {WireActionType::kExpectFrame, "x-expect-frame"},
    {WireActionType::kExpectStream, "x-expect-stream"},
    {WireActionType::kExpectSilence, "x-expect-silence"},
    {WireActionType::kExpectEof, "x-expect-eof"},
    {WireActionType::kExpectExit, "x-expect-exit"},
    {WireActionType::kCloseStdin, "x-close-stdin"},
    {WireActionType::kSleep, "x-sleep"},
    {WireActionType::kExpectWebhook, "x-expect-webhook"},
    {WireActionType::kClientOp, "x-client-op"},
    {WireActionType::kExpectOutput, "x-expect-output"},
    {WireActionType::kExpectRequest, "x-expect-request"},
    {WireActionType::kReply, "x-reply"},
    {WireActionType::kOfferHandshake, "x-offer-handshake"},
    {WireActionType::kAgentClose, "x-agent-close"},
    {WireActionType::kWs, "x-ws"},
}};

}  // namespace

std::string_view to_string(Level level) {
  switch (level) {
    case Level::kMust: return "must";
    case Level::kShould: return "should";
    case Level::kMay: return "may";
  }
  return "must";
}

std::optional<Level> level_from(std::string_view text) {
  if (text == "must") return Level::kMust;
  if (text == "should") return Level::kShould;
  if (text == "may") return Level::kMay;
  return std::nullopt;
}

std::string_view to_string(StepKind kind) {
  switch (kind) {
    case StepKind::kOperation: return "operation";
    case StepKind::kAssertion: return "assertion";
    case StepKind::kRaw: return "raw";
    case StepKind::kClient: return "client_response";
    case StepKind::kWire: return "wire";
    case StepKind::kConcurrent: return "x-concurrent";
  }
  return "operation";
}

std::string_view to_string(Backoff backoff) {
  switch (backoff) {
    case Backoff::kNone: return "none";
    case Backoff::kLinear: return "linear";
    case Backoff::kExponential: return "exponential";
  }
  return "none";
}

std::string_view to_string(WireActionType type) {
  for (const auto& w : kWireNames) {
    if (w.type == type) return w.key;
  }
  return "x-send-bytes";
}

std::optional<WireActionType> wire_action_from(std::string_view key) {
  for (const auto& w : kWireNames) {
    if (w.key == key) return w.type;
  }
  return std::nullopt;
}

bool is_expectation(WireActionType type) {
  switch (type) {
    case WireActionType::kExpectHandshake:
    case WireActionType::kExpectResponse:
    case WireActionType::kExpectNotification:
    case WireActionType::kExpectFrame:
    case WireActionType::kExpectStream:
    case WireActionType::kExpectSilence:
    case WireActionType::kExpectEof:
    case WireActionType::kExpectExit:
    case WireActionType::kExpectWebhook:
    case WireActionType::kExpectOutput:
    case WireActionType::kExpectRequest:
      return true;
    default:
      return false;
  }
}

std::string_view to_string(GradeKind grade) {
  switch (grade) {
    case GradeKind::kPass: return "pass";
    case GradeKind::kNonStrict: return "non_strict";
    case GradeKind::kInformational: return "informational";
    case GradeKind::kFail: return "fail";
  }
  return "pass";
}

std::optional<GradeKind> grade_from(std::string_view text) {
  if (text == "pass") return GradeKind::kPass;
  if (text == "non_strict") return GradeKind::kNonStrict;
  if (text == "informational") return GradeKind::kInformational;
  if (text == "fail") return GradeKind::kFail;
  return std::nullopt;
}

size_t Document::test_count() const {
  size_t n = 0;
  for (const auto& s : suites) n += s.tests.size();
  return n;
}

void for_each_step(const std::vector<Step>& steps, const std::function<void(const Step&)>& fn) {
  for (const auto& step : steps) {
    fn(step);
    for (const auto& branch : step.branches) for_each_step(branch, fn);
    for (const auto& grade : step.grades) fn(grade.action);
  }
}

}  // namespace a2a::scenario
