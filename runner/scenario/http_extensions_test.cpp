// Loader extensions for the network bindings: raw `bytes`, raw `expect.headers`,
// x-binding http, x-expect-webhook, the document's spec_version on tests, and
// the WebSocket binding's x-ws steps.
#include <gtest/gtest.h>

#include "runner/scenario/loader.hpp"
#include "runner/scenario/test_support.hpp"

namespace a2a::scenario {
namespace {

using testing::doc_with_tests;
using testing::TempDir;

const std::string kHead = "      - id: T-1\n        name: one\n        level: must\n";

core::Expected<Document> load_text(const TempDir& dir, const std::string& test_body) {
  return load_document(dir.write("doc.acts.yaml", doc_with_tests(kHead + test_body)));
}

scenario::Test load_ok(const TempDir& dir, const std::string& test_body) {
  auto doc = load_text(dir, test_body);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().str());
  if (!doc.ok() || doc->suites.empty() || doc->suites[0].tests.empty()) return {};
  return doc->suites[0].tests[0];
}

std::string load_error(const TempDir& dir, const std::string& test_body) {
  auto doc = load_text(dir, test_body);
  EXPECT_FALSE(doc.ok());
  return doc.ok() ? "" : doc.error().message;
}

TEST(HttpExtensions, RawExpectKeepsHeadersWithLowerCasedNames) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: jsonrpc
        steps:
          - id: r
            raw: {method: GET, path: /x}
            expect:
              status: 200
              headers: {Content-Type: {starts_with: application/json}}
              body: {a: 1}
)Y");
  ASSERT_EQ(t.steps.size(), 1u);
  const Json& e = *t.steps[0].expect;
  EXPECT_EQ(e["status"], 200);
  EXPECT_EQ(e["headers"], Json::parse(R"({"content-type":{"starts_with":"application/json"}})"));
  EXPECT_EQ(e["body"], Json::parse(R"({"a":1})"));
}

TEST(HttpExtensions, RawExpectShorthandStillFoldsBodyKeysButNotHeaders) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: rest
        steps:
          - id: r
            raw: {method: GET, path: /x}
            expect: {status: 404, headers: {x-a: b}, error: {code: 404}}
)Y");
  const Json& e = *t.steps[0].expect;
  EXPECT_EQ(e["headers"], Json::parse(R"({"x-a":"b"})"));
  EXPECT_EQ(e["body"], Json::parse(R"({"error":{"code":404}})"));
}

TEST(HttpExtensions, HeadersOnAnOperationExpectAreBodyKeysAsBefore) {
  TempDir dir;
  scenario::Test t = load_ok(dir, "        steps:\n          - {id: g, operation: get_task, params: {id: x}, "
                        "expect: {headers: 1}}\n");
  EXPECT_EQ((*t.steps[0].expect)["body"]["headers"], 1);
  EXPECT_FALSE(t.steps[0].expect->contains("headers"));
}

TEST(HttpExtensions, GradeAlternativesOfARawStepMayAssertHeaders) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: jsonrpc
        steps:
          - id: r
            raw: {method: GET, path: /x}
            x-grades:
              - grade: pass
                expect: {status: 200, headers: {Allow: GET}}
)Y");
  ASSERT_EQ(t.steps[0].grades.size(), 1u);
  EXPECT_EQ((*t.steps[0].grades[0].action.expect)["headers"]["allow"], "GET");
}

TEST(HttpExtensions, RawBytesAreDecodedAtLoadTime) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: http
        steps:
          - id: r
            raw: {bytes: 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'}
            expect: {status: 400}
)Y");
  ASSERT_TRUE(t.steps[0].raw_bytes.has_value());
  EXPECT_EQ(*t.steps[0].raw_bytes, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(t.binding, "http");
}

TEST(HttpExtensions, RawBytesExcludeTheStructuredKeys) {
  TempDir dir;
  std::string err = load_error(dir, R"Y(        x-binding: http
        steps:
          - id: r
            raw: {bytes: 'x', method: GET}
)Y");
  EXPECT_NE(err.find("'bytes' is sent as it is: it excludes 'method'"), std::string::npos) << err;
}

TEST(HttpExtensions, RawBytesWithABadEscapeIsALoadError) {
  TempDir dir;
  std::string err = load_error(dir, "        x-binding: http\n        steps:\n"
                                    "          - id: r\n            raw: {bytes: 'a\\q'}\n");
  EXPECT_NE(err.find("bad escape in 'bytes'"), std::string::npos) << err;
}

TEST(HttpExtensions, ExpectWebhookParsesOnEveryBindingAndKeepsItsSpec) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: rest
        steps:
          - id: hook
            x-expect-webhook:
              count: 2
              within_ms: 3000
              until: "statusUpdate.status.state == TASK_STATE_COMPLETED"
              body: {statusUpdate: {exists: true}}
              headers: {content-type: {starts_with: application/json}}
              each_body: {type: object}
            capture: {task: statusUpdate.taskId}
)Y");
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.binding, "rest") << "x-expect-webhook does not make a test stdio-only";
  ASSERT_TRUE(t.steps[0].wire.has_value());
  EXPECT_EQ(t.steps[0].wire->type, WireActionType::kExpectWebhook);
  EXPECT_EQ(t.steps[0].wire->spec["count"], 2);
  EXPECT_EQ(t.steps[0].capture, (StringPairs{{"task", "statusUpdate.taskId"}}));
}

TEST(HttpExtensions, ExpectWebhookAloneLeavesTheTestForEveryBinding) {
  TempDir dir;
  scenario::Test t = load_ok(dir, "        steps:\n          - {id: hook, x-expect-webhook: {count: 1}}\n");
  EXPECT_EQ(t.binding, "");
}

TEST(HttpExtensions, ExpectWebhookRejectsUnknownKeysAndBadUntil) {
  TempDir dir;
  std::string err = load_error(dir, R"Y(        steps:
          - id: hook
            x-expect-webhook: {cuont: 1, until: "state ~ 3"}
)Y");
  EXPECT_NE(err.find("unknown key 'cuont'"), std::string::npos) << err;
  EXPECT_NE(err.find("did you mean 'count'?"), std::string::npos) << err;
  EXPECT_NE(err.find("until"), std::string::npos) << err;
}

TEST(HttpExtensions, ExpectWebhookCountZeroMeansNone) {
  TempDir dir;
  scenario::Test t = load_ok(dir, "        steps:\n          - {id: hook, x-expect-webhook: {count: 0, within_ms: 800}}\n");
  EXPECT_EQ(t.steps[0].wire->spec["count"], 0);
}

TEST(HttpExtensions, RawBodyFillIsCheckedAndKept) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: rest
        steps:
          - id: big
            raw:
              method: POST
              path: /message:send
              x-body-fill: {prefix: '{"a":"', fill: "a", size: 10, suffix: '"}'}
            expect: {status: 413}
)Y");
  EXPECT_EQ(t.steps[0].raw["x-body-fill"]["size"], 10);
  std::string err = load_error(dir, R"Y(        x-binding: rest
        steps:
          - id: big
            raw: {method: POST, path: /, body: {}, x-body-fill: {fill: "", size: -1}}
)Y");
  EXPECT_NE(err.find("mutually exclusive"), std::string::npos) << err;
  EXPECT_NE(err.find("'fill' must not be empty"), std::string::npos) << err;
  EXPECT_NE(err.find("'size' must be between"), std::string::npos) << err;
}

TEST(HttpExtensions, GradeAlternativeMayCombineExpectAndExpectStream) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: rest
        steps:
          - id: sub
            raw: {method: POST, path: "/tasks/x:subscribe"}
            x-grades:
              - grade: pass
                expect: {status: 200, headers: {content-type: {starts_with: text/event-stream}}}
                expect_stream: {min_count: 1}
              - grade: non_strict
                expect: {status: 405}
)Y");
  ASSERT_EQ(t.steps[0].grades.size(), 2u);
  const Step& a = t.steps[0].grades[0].action;
  EXPECT_TRUE(a.expect.has_value());
  EXPECT_TRUE(a.expect_stream.has_value());
  EXPECT_EQ((*a.expect)["headers"]["content-type"]["starts_with"], "text/event-stream");
}

TEST(HttpExtensions, GradeAlternativeWithAWireExpectationStandsAlone) {
  TempDir dir;
  std::string err = load_error(dir, R"Y(        steps:
          - id: hook
            x-expect-webhook: {count: 1}
            x-grades:
              - grade: pass
                x-expect-webhook: {count: 1}
                expect: {status: 200}
)Y");
  EXPECT_NE(err.find("needs exactly one expectation"), std::string::npos) << err;
}

TEST(HttpExtensions, OtherWireStepsStillNeedStdio) {
  TempDir dir;
  std::string err = load_error(dir, "        x-binding: http\n        steps:\n"
                                    "          - {id: c, x-close-stdin: true}\n");
  EXPECT_NE(err.find("need x-binding stdio, not 'http'"), std::string::npos) << err;
}

TEST(HttpExtensions, TestsCarryTheDocumentSpecVersion) {
  TempDir dir;
  scenario::Test t = load_ok(dir, "        steps:\n          - {id: g, operation: get_task, params: {id: x}}\n");
  EXPECT_EQ(t.spec_version, "1.0");
}

TEST(HttpExtensions, UnknownBindingNamesTheAllowedOnes) {
  TempDir dir;
  std::string err = load_error(dir, "        x-binding: carrier-pigeon\n        steps:\n"
                                    "          - {id: g, operation: get_task, params: {id: x}}\n");
  EXPECT_NE(err.find("stdio, jsonrpc, rest, grpc, websocket, http"), std::string::npos) << err;
}

TEST(WsExtensions, XWsStepsMakeAWebsocketTestAndDecodeTheirBytes) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        steps:
          - id: ping
            x-ws: {send: {ping: '\x01\x02'}}
          - id: pong
            x-ws: {expect_pong: {payload: '\x01\x02', within_ms: 100}}
          - id: big
            x-ws: {send: {fill: {prefix: "[", fill: "ab", count: 3, suffix: "]"}}}
          - id: wait
            x-sleep: 10
)Y");
  EXPECT_EQ(t.binding, "websocket");
  ASSERT_EQ(t.steps.size(), 4u);
  EXPECT_EQ(t.steps[0].wire->type, WireActionType::kWs);
  EXPECT_EQ(t.steps[0].wire->bytes, std::string("\x01\x02"));
  EXPECT_EQ(t.steps[1].wire->bytes, std::string("\x01\x02"));
  EXPECT_EQ(t.steps[2].wire->bytes, "[ababab]");
}

TEST(WsExtensions, XWsGradeAlternativesAreAccepted) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: websocket
        steps:
          - id: up
            x-ws: {upgrade: {headers: {A2A-Version: null}, probe: {method: GetTask, params: {id: x}}}}
            x-grades:
              - grade: pass
                x-ws: {expect_upgrade: {status: 400}}
              - grade: non_strict
                x-ws: {expect_upgrade: {status: 101}}
)Y");
  ASSERT_EQ(t.steps.size(), 1u);
  ASSERT_EQ(t.steps[0].grades.size(), 2u);
  EXPECT_EQ(t.steps[0].grades[1].action.wire->type, WireActionType::kWs);
}

TEST(WsExtensions, XWsOnAnotherBindingOrBesideStdioWireStepsIsAnError) {
  TempDir dir;
  EXPECT_NE(load_error(dir, R"Y(        x-binding: jsonrpc
        steps:
          - id: s
            x-ws: {send: {text: "x"}}
)Y").find("x-ws steps need x-binding websocket"),
            std::string::npos);
  EXPECT_NE(load_error(dir, R"Y(        steps:
          - id: s
            x-ws: {send: {text: "x"}}
          - id: b
            x-send-bytes: "x"
)Y").find("cannot share a test"),
            std::string::npos);
}

TEST(WsExtensions, XWsNeedsExactlyOneKnownActionAndOnePayloadForm) {
  TempDir dir;
  EXPECT_NE(load_error(dir, R"Y(        steps:
          - id: s
            x-ws: {sned: {text: "x"}}
)Y").find("sned"),
            std::string::npos);
  EXPECT_NE(load_error(dir, R"Y(        steps:
          - id: s
            x-ws: {send: {text: "x", binary: "y"}}
)Y").find("exactly one of text"),
            std::string::npos);
  EXPECT_NE(load_error(dir, R"Y(        steps:
          - id: s
            x-ws: {request: {method: GetTask, count: 5000}}
)Y").find("count"),
            std::string::npos);
  EXPECT_NE(load_error(dir, R"Y(        steps:
          - id: s
            x-ws: {expect_stream: {id: 1, end: sometime}}
)Y").find("end"),
            std::string::npos);
}

}  // namespace
}  // namespace a2a::scenario
