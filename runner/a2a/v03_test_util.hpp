// Helpers for the v03 tests: literal JSON and translation checks.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>

#include "runner/a2a/v03.hpp"

namespace a2a::model::v03::testing {

using Json = nlohmann::json;

inline Json J(std::string_view text) { return Json::parse(text); }

inline std::string joined(const Translation& t) {
  std::string out;
  for (const auto& n : t.notes) out += "\n  " + n;
  return out;
}

// The translation has no notes and equals `want`.
inline ::testing::AssertionResult Clean(const Translation& t, const Json& want) {
  if (!t.ok()) return ::testing::AssertionFailure() << "unexpected notes:" << joined(t) << "\ngot " << t.json.dump();
  if (t.json != want) return ::testing::AssertionFailure() << "got  " << t.json.dump() << "\nwant " << want.dump();
  return ::testing::AssertionSuccess();
}

// Some note contains `needle`.
inline ::testing::AssertionResult Noted(const Translation& t, std::string_view needle) {
  for (const auto& n : t.notes) {
    if (n.find(needle) != std::string::npos) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no note contains \"" << needle << "\"; notes:" << joined(t);
}

// Fixtures shared by the test files (a2a-protocol.md §3.1, §9.1, §9.3).
struct StateCase {
  TaskState state;
  const char* rpc;
  const char* proto;
};
inline constexpr std::array<StateCase, 9> kStateCases = {{
    {TaskState::kUnspecified, "unknown", "TASK_STATE_UNSPECIFIED"},
    {TaskState::kSubmitted, "submitted", "TASK_STATE_SUBMITTED"},
    {TaskState::kWorking, "working", "TASK_STATE_WORKING"},
    {TaskState::kCompleted, "completed", "TASK_STATE_COMPLETED"},
    {TaskState::kFailed, "failed", "TASK_STATE_FAILED"},
    {TaskState::kCanceled, "canceled", "TASK_STATE_CANCELLED"},
    {TaskState::kInputRequired, "input-required", "TASK_STATE_INPUT_REQUIRED"},
    {TaskState::kRejected, "rejected", "TASK_STATE_REJECTED"},
    {TaskState::kAuthRequired, "auth-required", "TASK_STATE_AUTH_REQUIRED"},
}};

inline constexpr const char* kMessage03 = R"({"kind":"message","messageId":"m-1","role":"user","contextId":"c-1",
  "taskId":"t-1","metadata":{"k":"v"},"extensions":["urn:x"],"referenceTaskIds":["t-0"],
  "parts":[{"kind":"text","text":"hi"},
           {"kind":"file","file":{"uri":"https://f.example/a.pdf","mimeType":"application/pdf","name":"a.pdf"}},
           {"kind":"data","data":{"n":1}}]})";

inline constexpr const char* kMessage1 = R"({"messageId":"m-1","role":"ROLE_USER","contextId":"c-1","taskId":"t-1",
  "metadata":{"k":"v"},"extensions":["urn:x"],"referenceTaskIds":["t-0"],
  "parts":[{"text":"hi"},{"url":"https://f.example/a.pdf","mediaType":"application/pdf","filename":"a.pdf"},
           {"data":{"n":1}}]})";

inline constexpr const char* kTask03 = R"({"kind":"task","id":"t-1","contextId":"c-1",
  "status":{"state":"input-required","timestamp":"2025-07-01T12:00:00Z",
            "message":{"kind":"message","messageId":"m-2","role":"agent","parts":[{"kind":"text","text":"which city?"}]}},
  "artifacts":[{"artifactId":"a-1","name":"out","parts":[{"kind":"text","text":"hello"}]}],
  "history":[{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"weather"}]}],
  "metadata":{"x":1}})";

inline constexpr const char* kTask1 = R"({"id":"t-1","contextId":"c-1",
  "status":{"state":"TASK_STATE_INPUT_REQUIRED","timestamp":"2025-07-01T12:00:00Z",
            "message":{"messageId":"m-2","role":"ROLE_AGENT","parts":[{"text":"which city?"}]}},
  "artifacts":[{"artifactId":"a-1","name":"out","parts":[{"text":"hello"}]}],
  "history":[{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"weather"}]}],
  "metadata":{"x":1}})";

}  // namespace a2a::model::v03::testing
