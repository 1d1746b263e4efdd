// Loader keys of client scenarios (docs/client-conformance.md): x-role, the
// client steps (x-client-op, x-expect-output, x-expect-request, x-reply,
// x-offer-handshake, x-agent-close) and x-card. Every mistake is a schema
// error at the file:line of the offending value.
#include <gtest/gtest.h>

#include "runner/scenario/loader.hpp"
#include "runner/scenario/test_support.hpp"

namespace a2a::scenario {
namespace {

using testing::doc_with_tests;
using testing::TempDir;

// Line 7 of the document is the test's first line ("      - id: T-1").
const std::string kHead = "      - id: T-1\n        name: one\n        level: must\n";

core::Expected<Document> load_text(const TempDir& dir, const std::string& test_body,
                                   const std::string& defaults = "") {
  std::string text = doc_with_tests(kHead + test_body);
  if (!defaults.empty()) text = defaults + text;
  return load_document(dir.write("doc.acts.yaml", text));
}

scenario::Test load_ok(const TempDir& dir, const std::string& test_body, const std::string& defaults = "") {
  auto doc = load_text(dir, test_body, defaults);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().str());
  if (!doc.ok() || doc->suites.empty() || doc->suites[0].tests.empty()) return {};
  return doc->suites[0].tests[0];
}

// The error message, which must name the file and `line`.
std::string load_error(const TempDir& dir, const std::string& test_body, int line) {
  auto doc = load_text(dir, test_body);
  EXPECT_FALSE(doc.ok());
  if (doc.ok()) return "";
  EXPECT_EQ(doc.error().kind, core::ErrorKind::kSchema) << doc.error().str();
  std::string at = "doc.acts.yaml:" + std::to_string(line) + ":";
  EXPECT_NE(doc.error().message.find(at), std::string::npos) << "expected " << at << " in\n" << doc.error().message;
  return doc.error().message;
}

TEST(ClientExtensions, ClientStepsMakeAClientTestWithoutXRole) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        steps:
          - id: op
            x-client-op: {op: get, params: {id: t-1}}
          - id: out
            x-expect-output: {line: {op: get}, within_ms: 500}
)Y");
  EXPECT_EQ(t.role, Role::kClient);
  ASSERT_EQ(t.steps.size(), 2u);
  ASSERT_TRUE(t.steps[0].wire.has_value());
  EXPECT_EQ(t.steps[0].wire->type, WireActionType::kClientOp);
  EXPECT_EQ(t.steps[0].wire->spec["params"]["id"], "t-1");
  EXPECT_EQ(t.steps[1].wire->type, WireActionType::kExpectOutput);
  EXPECT_EQ(t.steps[1].wire->spec["within_ms"], 500);
}

TEST(ClientExtensions, XRoleClientInDefaultsAppliesToEveryTest) {
  TempDir dir;
  scenario::Test t = load_ok(dir, "        steps:\n          - id: s\n            x-close-stdin: true\n",
                   "x-defaults:\n  x-role: client\n");
  EXPECT_EQ(t.role, Role::kClient);
}

TEST(ClientExtensions, ClientTestsMayUseWireStepsOnAnHttpBinding) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: jsonrpc
        steps:
          - id: req
            x-expect-request: {method: GetTask, headers: {a2a-version: "1.0"}, path: "/"}
          - id: answer
            x-reply: {status: 404, error: {code: -32001}}
)Y");
  EXPECT_EQ(t.role, Role::kClient);
  EXPECT_EQ(t.binding, "jsonrpc");
  EXPECT_EQ(t.steps[1].wire->spec["status"], 404);
}

TEST(ClientExtensions, XRoleAgentWithClientStepsIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        x-role: agent\n        steps:\n          - id: op\n"
                                    "            x-client-op: {op: get}\n", 10);
  EXPECT_NE(err.find("need x-role client"), std::string::npos) << err;
}

TEST(ClientExtensions, UnknownRoleIsAnErrorWithTheAllowedValues) {
  TempDir dir;
  std::string err = load_error(dir, "        x-role: server\n        steps:\n          - id: s\n"
                                    "            x-close-stdin: true\n", 10);
  EXPECT_NE(err.find("must be one of"), std::string::npos) << err;
}

TEST(ClientExtensions, ClientOpWithoutOpIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        steps:\n          - id: op\n            x-client-op: {params: {}}\n", 12);
  EXPECT_NE(err.find("missing required key 'op'"), std::string::npos) << err;
}

TEST(ClientExtensions, ExpectOutputWithoutLineIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        steps:\n          - id: o\n            x-expect-output: {within_ms: 5}\n", 12);
  EXPECT_NE(err.find("missing required key 'line'"), std::string::npos) << err;
}

TEST(ClientExtensions, ReplyWithResultAndErrorIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        steps:\n          - id: r\n"
                                    "            x-reply: {result: {}, error: {code: 1}}\n", 12);
  EXPECT_NE(err.find("mutually exclusive"), std::string::npos) << err;
}

TEST(ClientExtensions, ReplyWithAnUnknownStreamEndIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        steps:\n          - id: r\n"
                                    "            x-reply: {stream: [], end: finall}\n", 12);
  EXPECT_NE(err.find("'end' must be one of"), std::string::npos) << err;
}

TEST(ClientExtensions, ReplyStatusOutsideHttpRangeIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        steps:\n          - id: r\n            x-reply: {status: 99}\n", 12);
  EXPECT_NE(err.find("'status' must be between 100 and 599"), std::string::npos) << err;
}

TEST(ClientExtensions, ReplyWithAnUnknownKeyIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        steps:\n          - id: r\n            x-reply: {reslut: {}}\n", 12);
  EXPECT_NE(err.find("reslut"), std::string::npos) << err;
}

TEST(ClientExtensions, OfferHandshakeMustBeDefaultAMapOrBodyRaw) {
  TempDir dir;
  std::string err = load_error(dir, "        steps:\n          - id: h\n            x-offer-handshake: 42\n", 12);
  EXPECT_NE(err.find("'x-offer-handshake' is 'default'"), std::string::npos) << err;
}

TEST(ClientExtensions, OfferHandshakeBodyRawIsDecodedToBytes) {
  TempDir dir;
  scenario::Test t = load_ok(dir, "        steps:\n          - id: h\n            x-offer-handshake: {body_raw: 'x\\ty'}\n");
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_TRUE(t.steps[0].wire->has_bytes);
  EXPECT_EQ(t.steps[0].wire->bytes, "x\ty");
}

TEST(ClientExtensions, AgentCloseExitAbove255IsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        steps:\n          - id: c\n            x-agent-close: {exit: 300}\n", 12);
  EXPECT_NE(err.find("'exit' must be between 0 and 255"), std::string::npos) << err;
}

TEST(ClientExtensions, XCardIsKeptForClientTests) {
  TempDir dir;
  scenario::Test t = load_ok(dir, R"Y(        x-binding: jsonrpc
        x-card:
          supportedInterfaces: [{url: "{{agent.url}}/", protocolBinding: JSONRPC, protocolVersion: "1.0"}]
        steps:
          - id: op
            x-client-op: {op: get}
)Y");
  ASSERT_TRUE(t.card.is_object());
  EXPECT_EQ(t.card["supportedInterfaces"][0]["url"], "{{agent.url}}/");
}

TEST(ClientExtensions, XCardOnAnAgentTestIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        x-card: {name: x}\n        steps:\n          - id: s\n"
                                    "            x-close-stdin: true\n", 10);
  EXPECT_NE(err.find("needs x-role client"), std::string::npos) << err;
}

TEST(ClientExtensions, XCardThatIsNotAMapIsAnError) {
  TempDir dir;
  std::string err = load_error(dir, "        x-role: client\n        x-card: [1]\n        steps:\n          - id: s\n"
                                    "            x-close-stdin: true\n", 11);
  EXPECT_NE(err.find("must be a map"), std::string::npos) << err;
}

}  // namespace
}  // namespace a2a::scenario
