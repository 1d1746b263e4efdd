// Our x- extensions: wire steps (bytes decoded at load time), x-concurrent,
// x-grades, x-defaults and the test-level keys.
#include <gtest/gtest.h>

#include "runner/scenario/loader.hpp"
#include "runner/scenario/test_support.hpp"

namespace a2a::scenario {
namespace {

using testing::doc_with_tests;
using testing::TempDir;

const std::string kHead = "      - id: T-1\n        name: one\n        level: must\n        steps:\n";

// Loads one test whose steps are `steps` (indented 10 spaces).
scenario::Test load_one(const TempDir& dir, const std::string& steps, const std::string& extra_head = "") {
  auto path = dir.write("doc.acts.yaml", extra_head.empty()
                                             ? doc_with_tests(kHead + steps)
                                             : extra_head + "      - id: T-1\n        name: one\n"
                                                            "        level: must\n        steps:\n" + steps);
  auto doc = load_document(path);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().str());
  if (!doc.ok()) return {};
  for (const auto& t : doc->suites.at(0).tests) {
    if (t.id == "T-1") return t;
  }
  return {};
}

struct BytesCase {
  std::string name;
  std::string yaml;  // the x-send-bytes value
  std::string bytes;
};

class SendBytes : public ::testing::TestWithParam<BytesCase> {};

TEST_P(SendBytes, DecodesToExactBytes) {
  TempDir dir;
  scenario::Test t = load_one(dir, "          - id: b\n            x-send-bytes: " + GetParam().yaml + "\n");
  ASSERT_EQ(t.steps.size(), 1u);
  const Step& s = t.steps[0];
  EXPECT_EQ(s.kind, StepKind::kWire);
  ASSERT_TRUE(s.wire.has_value());
  EXPECT_EQ(s.wire->type, WireActionType::kSendBytes);
  EXPECT_TRUE(s.wire->has_bytes);
  EXPECT_EQ(s.wire->bytes, GetParam().bytes);
}

INSTANTIATE_TEST_SUITE_P(
    Extensions, SendBytes,
    ::testing::ValuesIn(std::vector<BytesCase>{
        {"SingleQuotedEscapes", R"('Content-Length: 2\r\n\r\n{}')", "Content-Length: 2\r\n\r\n{}"},
        {"DoubleQuotedHexIsAByteNotACodePoint", R"("\xff\x00a\"")", std::string("\xff\0a\"", 4)},
        {"PlainTextWithEscape", R"(abc\tdef)", "abc\tdef"},
        {"FillWithPrefixAndSuffix", R"({fill: "a", count: 5, prefix: '[\r', suffix: "]"})", "[\raaaaa]"},
        {"ZeroCountFill", R"({fill: x, count: 0})", ""},
    }),
    [](const auto& info) { return info.param.name; });

TEST(Extensions, SendBytesFileIsReadRelativeToTheDocumentWithCrlfKept) {
  TempDir dir;
  dir.write("fixtures/frame.bin", std::string("Content-Length: 2\r\n\r\n{}\xff", 24));
  scenario::Test t = load_one(dir, "          - id: b\n            x-send-bytes: {file: fixtures/frame.bin}\n");
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.steps[0].wire->bytes, std::string("Content-Length: 2\r\n\r\n{}\xff", 24));
}

TEST(Extensions, WireActionsKeepTheirSpecAsJson) {
  TempDir dir;
  scenario::Test t = load_one(dir, R"Y(          - id: hs
            x-handshake: {variant: "a2a/v1"}
          - id: req
            x-send-request: {method: "{{profile.methods.get_task}}", id: none, params: {id: x}}
          - id: resp
            x-expect-response: {id: 1, error: {code: -32601}, within_ms: 500}
            capture: {code: error.code}
          - id: frame
            x-send-frame: {body_raw: '{"a":1\n'}
          - id: exit
            x-expect-exit: {status: nonzero, within_ms: 100}
          - id: close
            x-close-stdin: true
          - id: nap
            x-sleep: 25
          - id: raw-ack
            x-handshake: {ack_raw: 'x\r\n'}
)Y");
  ASSERT_EQ(t.steps.size(), 8u);
  EXPECT_EQ(t.steps[0].wire->spec["variant"], "a2a/v1");
  EXPECT_EQ(t.steps[1].wire->type, WireActionType::kSendRequest);
  EXPECT_EQ(t.steps[1].wire->spec["id"], "none");
  EXPECT_TRUE(t.steps[2].wire->spec["id"].is_number_integer());
  EXPECT_EQ(t.steps[2].capture, (StringPairs{{"code", "error.code"}}));
  EXPECT_EQ(t.steps[3].wire->bytes, "{\"a\":1\n");
  EXPECT_EQ(t.steps[4].wire->spec["status"], "nonzero");
  EXPECT_EQ(t.steps[5].wire->type, WireActionType::kCloseStdin);
  EXPECT_EQ(t.steps[6].wire->spec, 25);
  EXPECT_EQ(t.steps[7].wire->bytes, "x\r\n");
  EXPECT_FALSE(t.reuse) << "wire steps need a process of their own";
}

TEST(Extensions, ConcurrentBranchesNest) {
  TempDir dir;
  scenario::Test t = load_one(dir, R"Y(          - id: fan
            x-concurrent:
              - - {id: a1, x-sleep: 1}
                - {id: a2, x-sleep: 2}
              - - id: inner
                  x-concurrent:
                    - - {id: b1, x-sleep: 3}
                    - - {id: b2, x-sleep: 4}
          - id: load
            x-concurrent:
              repeat: 8
              steps:
                - {id: get, operation: get_task, params: {id: x}}
)Y");
  ASSERT_EQ(t.steps.size(), 2u);
  const Step& fan = t.steps[0];
  EXPECT_EQ(fan.kind, StepKind::kConcurrent);
  ASSERT_EQ(fan.branches.size(), 2u);
  EXPECT_EQ(fan.branches[0].size(), 2u);
  const Step& inner = fan.branches[1].at(0);
  EXPECT_EQ(inner.kind, StepKind::kConcurrent);
  ASSERT_EQ(inner.branches.size(), 2u);
  EXPECT_EQ(inner.branches[1].at(0).id, "b2");
  EXPECT_EQ(inner.branches[1].at(0).where.line, 18);
  const Step& load = t.steps[1];
  EXPECT_EQ(load.fan_out, 8);
  ASSERT_EQ(load.branches.size(), 1u);
  EXPECT_EQ(load.branches[0].at(0).operation, "get_task");
}

TEST(Extensions, GradesParseIntoAlternatives) {
  TempDir dir;
  scenario::Test t = load_one(dir, R"Y(          - id: notification-gets-no-reply
            x-send-request: {method: "{{profile.methods.get_task}}", id: none, params: {id: x}}
            x-grades:
              - grade: pass
                x-expect-silence: {ms: 300}
              - grade: non_strict
                note: "replied to a notification (PR #46 does this)"
                x-expect-frame: {body: {error: {code: -32700}}}
          - id: op
            operation: get_task
            params: {id: missing}
            x-grades:
              - grade: pass
                expect_error: {error_type: TaskNotFoundError}
              - grade: informational
                expect: {task: {}}
)Y");
  ASSERT_EQ(t.steps.size(), 2u);
  const auto& g = t.steps[0].grades;
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].grade, GradeKind::kPass);
  EXPECT_EQ(g[0].action.wire->type, WireActionType::kExpectSilence);
  EXPECT_EQ(g[1].grade, GradeKind::kNonStrict);
  EXPECT_EQ(g[1].note, "replied to a notification (PR #46 does this)");
  EXPECT_EQ(g[1].action.wire->spec["body"]["error"]["code"], -32700);
  EXPECT_EQ(g[1].where.line, 16);
  const auto& og = t.steps[1].grades;
  ASSERT_EQ(og.size(), 2u);
  EXPECT_EQ(og[0].action.kind, StepKind::kOperation);
  EXPECT_TRUE(og[0].action.operation.empty()) << "applies to the parent's result";
  EXPECT_EQ((*og[0].action.expect_error)["error_type"], "TaskNotFoundError");
  EXPECT_EQ(og[1].grade, GradeKind::kInformational);
  EXPECT_TRUE((*og[1].action.expect)["body"].contains("task"));
}

TEST(Extensions, DefaultsAndTestKeysApply) {
  TempDir dir;
  const std::string head = R"Y(acts_version: "1.0"
spec_version: "1.0"
x-defaults:
  x-binding: stdio
  timeout_ms: 3000
  x-agent: {env: {A: "1", B: two}}
suites:
  - id: s
    name: S
    tests:
      - id: T-0
        name: zero
        level: may
        x-binding: jsonrpc
        x-profiles: [p46]
        timeout_ms: 500
        x-agent: {env: {B: three, C: 4}, handshake: manual}
        x-reuse: true
        steps:
          - {id: a, operation: get_task, params: {id: x}}
)Y";
  scenario::Test t = load_one(dir, "          - {id: get, operation: get_task, params: {id: x}}\n", head);
  EXPECT_EQ(t.binding, "stdio") << "from x-defaults";
  EXPECT_EQ(t.timeout_ms, 3000);
  EXPECT_EQ(t.agent.env, (StringPairs{{"A", "1"}, {"B", "two"}}));
  EXPECT_FALSE(t.reuse) << "an agent environment of its own";
  auto doc = load_document(dir.path() / "doc.acts.yaml");
  ASSERT_TRUE(doc.ok());
  const scenario::Test& t0 = doc->suites[0].tests[0];
  EXPECT_EQ(t0.binding, "jsonrpc");
  EXPECT_EQ(t0.profiles, (std::vector<std::string>{"p46"}));
  EXPECT_EQ(t0.timeout_ms, 500);
  EXPECT_EQ(t0.agent.env, (StringPairs{{"A", "1"}, {"B", "three"}, {"C", "4"}}));
  EXPECT_TRUE(t0.agent.manual_handshake);
  EXPECT_TRUE(t0.reuse) << "explicit x-reuse wins";
}

TEST(Extensions, WireStepsMakeATestWithoutBindingAStdioTest) {
  TempDir dir;
  scenario::Test t = load_one(dir, "          - {id: a, x-close-stdin: true}\n");
  EXPECT_EQ(t.binding, "stdio");
}

TEST(Extensions, ExpectStreamAndNotificationKeepTheirSpecs) {
  TempDir dir;
  scenario::Test t = load_one(dir, R"Y(          - id: s
            x-expect-stream:
              id: 7
              min_count: 2
              ordering: monotonic_state
              events: [{match: any_position, status_update: {}}]
              final: {result: null}
              within_ms: 2000
          - id: n
            x-expect-notification: {method: "event/streamResponse", params: {kind: {exists: true}}}
)Y");
  ASSERT_EQ(t.steps.size(), 2u);
  EXPECT_EQ(t.steps[0].wire->type, WireActionType::kExpectStream);
  EXPECT_EQ(t.steps[0].wire->spec["min_count"], 2);
  EXPECT_TRUE(t.steps[0].wire->spec["final"]["result"].is_null());
  EXPECT_EQ(t.steps[1].wire->spec["method"], "event/streamResponse");
}

TEST(Extensions, ExpectShorthandIsFoldedIntoBody) {
  TempDir dir;
  scenario::Test t = load_one(dir, "          - id: s\n            operation: send_message\n            params: {}\n"
                         "            expect: {status: 200, task: {id: {type: string}}}\n");
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(*t.steps[0].expect, Json::parse(R"({"status":200,"body":{"task":{"id":{"type":"string"}}}})"));
}

TEST(Extensions, QuotedAndPlainScalarsKeepTheirTypesInParams) {
  TempDir dir;
  scenario::Test t = load_one(dir, "          - id: s\n            operation: get_task\n"
                         "            params: {id: \"1.0\", historyLength: 1, cursor: null, x: ~, "
                         "pageSize: '2'}\n");
  ASSERT_EQ(t.steps.size(), 1u);
  const Json& p = t.steps[0].params;
  EXPECT_TRUE(p["id"].is_string());
  EXPECT_EQ(p["id"], "1.0");
  EXPECT_TRUE(p["historyLength"].is_number_integer());
  EXPECT_TRUE(p["cursor"].is_null());
  EXPECT_TRUE(p["x"].is_null());
  EXPECT_TRUE(p["pageSize"].is_string());
}

}  // namespace
}  // namespace a2a::scenario
