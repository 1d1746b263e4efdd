// A2A 0.3 <-> 1.0 translation: agent cards (a2a-protocol.md §3.12, §9.1, §9.3),
// round trips of canonical input, and wrong shapes that must never throw.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runner/a2a/v03.hpp"
#include "runner/a2a/v03_test_util.hpp"

using namespace a2a::model;
using namespace a2a::model::v03;
using namespace a2a::model::v03::testing;

namespace {

// a2a-protocol.md §9.3, "0.3 card (abridged)".
constexpr const char* kCard03 = R"({"protocolVersion":"0.3.0","name":"X","description":"d",
  "url":"https://x.example/a2a","preferredTransport":"JSONRPC",
  "additionalInterfaces":[{"url":"https://x.example/a2a","transport":"JSONRPC"},
                          {"url":"https://x.example/rest","transport":"HTTP+JSON"}],
  "version":"1.0.0","capabilities":{"streaming":true},"supportsAuthenticatedExtendedCard":false,
  "securitySchemes":{"b":{"type":"http","scheme":"bearer"}},"security":[{"b":[]}],
  "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
  "skills":[{"id":"s","name":"S","description":"sd","tags":["t"],"security":[{"b":["read"]}]}]})";
constexpr const char* kCard1 = R"({"name":"X","description":"d","version":"1.0.0",
  "supportedInterfaces":[{"url":"https://x.example/a2a","protocolBinding":"JSONRPC","protocolVersion":"0.3.0"},
                         {"url":"https://x.example/rest","protocolBinding":"HTTP+JSON","protocolVersion":"0.3.0"}],
  "capabilities":{"streaming":true,"extendedAgentCard":false},
  "securitySchemes":{"b":{"httpAuthSecurityScheme":{"scheme":"bearer"}}},
  "securityRequirements":[{"schemes":{"b":{"list":[]}}}],
  "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
  "skills":[{"id":"s","name":"S","description":"sd","tags":["t"],"securityRequirements":[{"schemes":{"b":{"list":["read"]}}}]}]})";

TEST(V03, CardEndpointsBecomeSupportedInterfacesAndBack) {
  EXPECT_TRUE(Clean(card_to_v1(J(kCard03)), J(kCard1)));
  EXPECT_TRUE(Clean(card_to_v03(J(kCard1)), J(kCard03)));
}

TEST(V03, A03CardComesFromTheLegacyInterfacesOfA10Card) {
  const Json v1 = J(R"({"name":"A","supportedInterfaces":[
      {"url":"https://a.example/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
      {"url":"https://a.example/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
      {"url":"https://a.example/v03/rest","protocolBinding":"HTTP+JSON","protocolVersion":"0.3"}],
    "capabilities":{"streaming":true,"pushNotifications":false,"extendedAgentCard":true}})");
  const Json v03 =
      J(R"({"name":"A","url":"https://a.example/v03","preferredTransport":"JSONRPC","protocolVersion":"0.3",
    "additionalInterfaces":[{"url":"https://a.example/v03","transport":"JSONRPC"},
                            {"url":"https://a.example/v03/rest","transport":"HTTP+JSON"}],
    "capabilities":{"streaming":true,"pushNotifications":false},"supportsAuthenticatedExtendedCard":true})");
  EXPECT_TRUE(Clean(card_to_v03(v1), v03));
}

TEST(V03, A10CardWithoutALegacyInterfaceUsesItsFirstWithANote) {
  const Translation t = card_to_v03(J(R"({"name":"A","supportedInterfaces":[
      {"url":"https://a.example/","protocolBinding":"HTTP+JSON","protocolVersion":"1.0","tenant":"acme"}]})"));
  EXPECT_EQ(t.json["url"], "https://a.example/");
  EXPECT_EQ(t.json["preferredTransport"], "HTTP+JSON");
  EXPECT_EQ(t.json["protocolVersion"], "0.3");
  EXPECT_TRUE(Noted(t, "card.supportedInterfaces: no interface with a 0.x protocolVersion"));
  EXPECT_TRUE(Noted(t, "card.supportedInterfaces.tenant: no 0.3 equivalent; dropped"));
  EXPECT_TRUE(Noted(card_to_v03(J(R"({"name":"A"})")), "card.supportedInterfaces: must be a non-empty array"));
}

TEST(V03, A03CardDefaultsTheTransportAndNotesAMissingVersion) {
  const Translation t = card_to_v1(J(R"({"name":"A","url":"https://a.example/"})"));
  EXPECT_EQ(t.json["supportedInterfaces"],
            J(R"([{"url":"https://a.example/","protocolBinding":"JSONRPC","protocolVersion":"0.3"}])"));
  EXPECT_TRUE(Noted(t, "card.protocolVersion: must be a string, got null"));
  EXPECT_TRUE(Noted(card_to_v1(J(R"({"protocolVersion":"0.3.0"})")), "card.url: must be a string, got null"));
}

TEST(V03, AMergedCardKeepsItsOwnSupportedInterfaces) {
  // Python serves the 1.0 card plus 0.3 keys (a2a-protocol.md §3.12 note).
  const Json merged = J(R"({"name":"A","url":"https://a.example/v03","protocolVersion":"0.3",
    "supportedInterfaces":[{"url":"https://a.example/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                           {"url":"https://a.example/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"}]})");
  EXPECT_TRUE(Clean(card_to_v1(merged), J(R"({"name":"A",
    "supportedInterfaces":[{"url":"https://a.example/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                           {"url":"https://a.example/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"}]})")));
}

TEST(V03, TheExtendedCardFlagMovesIntoCapabilities) {
  const Json base = J(R"({"url":"https://a","protocolVersion":"0.3.0"})");
  for (const char* name : {"supportsAuthenticatedExtendedCard", "supportsExtendedAgentCard"}) {
    SCOPED_TRACE(name);
    Json card = base;
    card[name] = true;
    const Translation t = card_to_v1(card);
    EXPECT_TRUE(t.ok());
    EXPECT_EQ(t.json["capabilities"], J(R"({"extendedAgentCard":true})"));
    EXPECT_FALSE(t.json.contains(name));
  }
  Json bad = base;
  bad["supportsAuthenticatedExtendedCard"] = "yes";
  EXPECT_TRUE(Noted(card_to_v1(bad), "card.supportsAuthenticatedExtendedCard: must be a boolean"));
}

struct SchemeCase {
  const char* name;
  const char* v03;
  const char* v1;
};
const SchemeCase kSchemes[] = {
    {"apiKey", R"({"type":"apiKey","in":"header","name":"X-Key","description":"k"})",
     R"({"apiKeySecurityScheme":{"location":"header","name":"X-Key","description":"k"}})"},
    {"http", R"({"type":"http","scheme":"Bearer","bearerFormat":"JWT"})",
     R"({"httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"}})"},
    {"oauth2", R"({"type":"oauth2","oauth2MetadataUrl":"https://i.example/.well-known/oauth-authorization-server",
       "flows":{"authorizationCode":{"authorizationUrl":"https://i.example/a","tokenUrl":"https://i.example/t","scopes":{"r":"read"}}}})",
     R"({"oauth2SecurityScheme":{"oauth2MetadataUrl":"https://i.example/.well-known/oauth-authorization-server",
       "flows":{"authorizationCode":{"authorizationUrl":"https://i.example/a","tokenUrl":"https://i.example/t","scopes":{"r":"read"}}}}})"},
    {"openIdConnect",
     R"({"type":"openIdConnect","openIdConnectUrl":"https://i.example/.well-known/openid-configuration"})",
     R"({"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://i.example/.well-known/openid-configuration"}})"},
    {"mutualTLS", R"({"type":"mutualTLS","description":"m"})", R"({"mtlsSecurityScheme":{"description":"m"}})"},
};

TEST(V03, SecuritySchemesOfEveryTypeMapBothWays) {
  for (const auto& s : kSchemes) {
    SCOPED_TRACE(s.name);
    const Json v03 = {{"url", "https://a"}, {"protocolVersion", "0.3"}, {"securitySchemes", {{"k", J(s.v03)}}}};
    const Json v1 = {
        {"supportedInterfaces", {{{"url", "https://a"}, {"protocolBinding", "JSONRPC"}, {"protocolVersion", "0.3"}}}},
        {"securitySchemes", {{"k", J(s.v1)}}}};
    Json v03_out = v03;
    v03_out["preferredTransport"] = "JSONRPC";
    EXPECT_TRUE(Clean(card_to_v1(v03), v1));
    EXPECT_TRUE(Clean(card_to_v03(v1), v03_out));
  }
}

TEST(V03, SeveralOAuthFlowsKeepOneWithANote) {
  const Json v03 = J(R"({"url":"https://a","protocolVersion":"0.3","securitySchemes":{"o":{"type":"oauth2","flows":{
    "clientCredentials":{"tokenUrl":"https://i/t","scopes":{}},"authorizationCode":{"authorizationUrl":"https://i/a","tokenUrl":"https://i/t","scopes":{}},
    "password":{"tokenUrl":"https://i/t","scopes":{}}}}}})");
  const Translation t = card_to_v1(v03);
  const Json& flows = t.json["securitySchemes"]["o"]["oauth2SecurityScheme"]["flows"];
  EXPECT_EQ(flows.size(), 1u);
  EXPECT_TRUE(flows.contains("authorizationCode"));
  EXPECT_TRUE(Noted(
      t, "card.securitySchemes.o.flows.clientCredentials: dropped: 1.0 holds one flow and keeps authorizationCode"));
  EXPECT_TRUE(Noted(t, "card.securitySchemes.o.flows.password: dropped"));
}

TEST(V03, SecurityShapesWithout03FormAreNoted) {
  EXPECT_TRUE(
      Noted(card_to_v1(J(R"({"url":"https://a","protocolVersion":"0.3","securitySchemes":{"k":{"type":"magic"}}})")),
            "card.securitySchemes.k.type: unknown 0.3 security scheme type \"magic\""));
  const Json device =
      J(R"({"supportedInterfaces":[{"url":"https://a","protocolBinding":"JSONRPC","protocolVersion":"0.3"}],
    "securitySchemes":{"d":{"oauth2SecurityScheme":{"flows":{"deviceCode":{"deviceAuthorizationUrl":"https://i/d","tokenUrl":"https://i/t","scopes":{}}}}},
                       "q":{"apiKeySecurityScheme":{"location":"body","name":"k"}}}})");
  const Translation t = card_to_v03(device);
  EXPECT_TRUE(Noted(t, "card.securitySchemes.d.oauth2SecurityScheme.flows.deviceCode: no 0.3 flow; carried over"));
  EXPECT_TRUE(Noted(t, "card.securitySchemes.q.apiKeySecurityScheme.location: 0.3 allows query, header or cookie"));
  EXPECT_EQ(t.json["securitySchemes"]["q"]["in"], "body");
  EXPECT_TRUE(Noted(
      card_to_v03(J(R"({"supportedInterfaces":[{"url":"https://a","protocolBinding":"JSONRPC","protocolVersion":"0.3"}],
    "securityRequirements":[{"oidc":["openid"]}]})")),
      "card.securityRequirements[0]: must be {\"schemes\""));
}

TEST(V03, ProtoJsonCardsUseTheOneZeroSecurityShapes) {
  const Translation t = card_to_v03(J(kCard1), Dialect::kProtoJson);
  ASSERT_TRUE(t.ok()) << joined(t);
  EXPECT_EQ(t.json["securitySchemes"], J(R"({"b":{"httpAuthSecurityScheme":{"scheme":"bearer"}}})"));
  EXPECT_EQ(t.json["security"], J(R"([{"schemes":{"b":{"list":[]}}}])"));
  EXPECT_TRUE(Clean(card_to_v1(t.json), J(kCard1))) << "card_to_v1 reads either security shape";
}

TEST(V03, ExtendedCardResultIsTranslatedAsACard) {
  EXPECT_TRUE(Clean(result_to_v1(Operation::kGetExtendedAgentCard, J(kCard03)), J(kCard1)));
  EXPECT_TRUE(Clean(result_to_v03(Operation::kGetExtendedAgentCard, J(kCard1)), J(kCard03)));
}

// --- round trips -----------------------------------------------------------------------

struct RoundTrip {
  const char* name;
  Operation op;
  bool result;     // a result, else params
  const char* v1;  // canonical 1.0 input
};
const RoundTrip kRoundTrips[] = {
    {"send full", Operation::kSendMessage, false, R"({"message":{"messageId":"m-1","role":"ROLE_USER","contextId":"c",
      "parts":[{"text":"hi"},{"raw":"aGk=","filename":"h.txt","mediaType":"text/plain"},{"url":"https://f/x"},{"data":[1,"two"]}]},
      "configuration":{"acceptedOutputModes":["text/plain"],"historyLength":0,"returnImmediately":true,
        "taskPushNotificationConfig":{"url":"https://h/x","token":"tok","authentication":{"scheme":"Bearer","credentials":"s"}}},
      "metadata":{"trace":"1"}})"},
    {"send bare", Operation::kSendStreamingMessage, false,
     R"({"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}})"},
    {"send history", Operation::kSendMessage, false,
     R"({"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]},"configuration":{"historyLength":3}})"},
    {"get task", Operation::kGetTask, false, R"({"id":"t-1","historyLength":5})"},
    {"cancel", Operation::kCancelTask, false, R"({"id":"t-1","metadata":{"why":"x"}})"},
    {"subscribe", Operation::kSubscribeToTask, false, R"({"id":"t-1"})"},
    {"create push", Operation::kCreatePushConfig, false,
     R"({"taskId":"t-1","id":"c-1","url":"https://h/x","token":"tok","authentication":{"scheme":"Bearer"}})"},
    {"get push", Operation::kGetPushConfig, false, R"({"taskId":"t-1","id":"c-1"})"},
    {"delete push", Operation::kDeletePushConfig, false, R"({"taskId":"t-1","id":"c-1"})"},
    {"list push", Operation::kListPushConfigs, false, R"({"taskId":"t-1","pageSize":10})"},
    {"card params", Operation::kGetExtendedAgentCard, false, R"({})"},
    {"send task", Operation::kSendMessage, true, R"({"task":{"id":"t","contextId":"c",
      "status":{"state":"TASK_STATE_AUTH_REQUIRED","timestamp":"2026-01-02T03:04:05.678Z",
                "message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"log in"}]}},
      "artifacts":[{"artifactId":"a","name":"n","description":"d","parts":[{"data":{"k":[1]}}],"extensions":["urn:e"]}],
      "history":[{"messageId":"m0","role":"ROLE_USER","parts":[{"text":"go"}]}],"metadata":{"m":1}}})"},
    {"send message", Operation::kSendMessage, true,
     R"({"message":{"messageId":"m","role":"ROLE_AGENT","contextId":"c","parts":[{"text":"hello"}]}})"},
    {"get task result", Operation::kGetTask, true,
     R"({"id":"t","contextId":"c","status":{"state":"TASK_STATE_CANCELED"}})"},
    {"push result", Operation::kGetPushConfig, true, R"({"taskId":"t-1","id":"c-1","url":"https://h/x"})"},
    {"push list", Operation::kListPushConfigs, true,
     R"({"configs":[{"taskId":"t-1","id":"c-1","url":"https://h/x"}]})"},
    {"delete result", Operation::kDeletePushConfig, true, R"(null)"},
    {"status event", Operation::kSubscribeToTask, true,
     R"({"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"x":1}}})"},
    {"artifact event", Operation::kSendStreamingMessage, true, R"({"artifactUpdate":{"taskId":"t","contextId":"c",
      "append":true,"lastChunk":true,"artifact":{"artifactId":"a","parts":[{"text":"p"}]}}})"},
    {"card", Operation::kGetExtendedAgentCard, true, kCard1},
};

TEST(V03, CanonicalOneZeroInputRoundTripsThrough03InBothDialects) {
  for (Dialect d : {Dialect::kJsonRpc, Dialect::kProtoJson}) {
    for (const auto& r : kRoundTrips) {
      SCOPED_TRACE(std::string(r.name) + (d == Dialect::kJsonRpc ? " (JSON-RPC)" : " (ProtoJSON)"));
      const Json v1 = J(r.v1);
      const Translation down = r.result ? result_to_v03(r.op, v1, d) : params_to_v03(r.op, v1, d);
      ASSERT_TRUE(down.ok()) << joined(down);
      const Translation up = r.result ? result_to_v1(r.op, down.json, d) : params_to_v1(r.op, down.json, d);
      EXPECT_TRUE(Clean(up, v1)) << "via " << down.json.dump();
    }
  }
}

// a2a-protocol.md §9.3 examples, 0.3 -> 1.0 -> 0.3.
TEST(V03, TheSpecs03ExamplesRoundTripThrough10) {
  const Json send =
      J(R"({"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}]},
    "configuration":{"blocking":true,"acceptedOutputModes":["text/plain"]}})");
  const Translation up = params_to_v1(Operation::kSendMessage, send);
  EXPECT_TRUE(Clean(params_to_v03(Operation::kSendMessage, up.json), send));
  const Json result = J(
      R"({"kind":"task","id":"t-1","contextId":"c-1","status":{"state":"completed","timestamp":"2025-07-01T12:00:00Z"},
    "artifacts":[{"artifactId":"a-1","parts":[{"kind":"text","text":"hello"}]}]})");
  EXPECT_TRUE(
      Clean(result_to_v03(Operation::kSendMessage, result_to_v1(Operation::kSendMessage, result).json), result));
  const Json sse =
      J(R"({"kind":"status-update","taskId":"t-1","contextId":"c-1","status":{"state":"completed"},"final":true})");
  const Translation sse1 = event_to_v1(sse);
  EXPECT_TRUE(sse1.final);
  EXPECT_TRUE(Clean(event_to_v03(sse1.json), sse));
}

// --- wrong shapes never throw ------------------------------------------------------------

TEST(V03, WrongShapesNeverThrowAndEveryNoteNamesItsRoot) {
  const std::vector<const char*> inputs = {
      "null",
      "5",
      "\"x\"",
      "[]",
      "[5]",
      "{}",
      R"({"message":5})",
      R"({"message":{"parts":5,"role":7}})",
      R"({"message":{"kind":"message","parts":[{"kind":"file","file":{"bytes":5}}]}})",
      R"({"configuration":[]})",
      R"({"configuration":{"pushNotificationConfig":5,"taskPushNotificationConfig":{"authentication":5}}})",
      R"({"id":7,"name":5,"parent":[],"taskId":{}})",
      R"({"pushNotificationConfig":{"authentication":{"schemes":5}}})",
      R"({"config":5,"parent":"tasks/a/b"})",
      R"({"config":{"name":"x","pushNotificationConfig":{}}})",
      R"({"kind":"task","status":{"state":5,"message":[]}})",
      R"({"statusUpdate":5})",
      R"({"task":{"history":[5]}})",
      R"({"configs":5,"nextPageToken":7})",
      R"({"configs":[5]})",
      R"({"supportedInterfaces":5,"url":5})",
      R"({"supportedInterfaces":[5,{"protocolVersion":5}]})",
      R"({"additionalInterfaces":[5],"url":"u"})",
      R"({"securitySchemes":{"a":5,"b":{"type":"oauth2","flows":5}},"security":5,"skills":[5,{"security":[5]}]})",
      R"({"securitySchemes":{"a":{"apiKeySecurityScheme":5}},"securityRequirements":[{"schemes":{"a":5}}]})",
      R"({"capabilities":5,"supportsAuthenticatedExtendedCard":true})",
      R"({"code":1.5,"message":[],"data":[{"@type":5}]})",
  };
  int noted = 0;
  for (Dialect d : {Dialect::kJsonRpc, Dialect::kProtoJson}) {
    for (const char* text : inputs) {
      const Json in = J(text);
      for (Operation op : kAllOperations) {
        SCOPED_TRACE(std::string(text) + " " + std::string(canonical_name(op)));
        for (const auto& fn : {params_to_v1, params_to_v03, result_to_v1, result_to_v03}) {
          Translation t;
          ASSERT_NO_THROW(t = fn(op, in, d));
          for (const auto& n : t.notes) EXPECT_TRUE(n.rfind("params", 0) == 0 || n.rfind("result", 0) == 0) << n;
          noted += t.ok() ? 0 : 1;
        }
      }
      for (const auto& fn : {event_to_v1, event_to_v03, task_to_v1, message_to_v03, part_to_v1, part_to_v03}) {
        ASSERT_NO_THROW((void)fn(in, d));
      }
      ASSERT_NO_THROW((void)card_to_v1(in));
      ASSERT_NO_THROW((void)card_to_v03(in, d));
      ASSERT_NO_THROW((void)error_to_v1(in));
      ASSERT_NO_THROW((void)error_to_v03(in));
    }
  }
  EXPECT_GT(noted, 0);
}

}  // namespace
