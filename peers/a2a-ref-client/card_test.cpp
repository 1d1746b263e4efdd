// Interface selection from literal Agent Cards (a2a-protocol.md §1.3, §7.2).
#include "peers/a2a-ref-client/card.hpp"

#include <gtest/gtest.h>

namespace a2a::client {
namespace {

struct SelectCase {
  std::string name;
  std::string card;                   // JSON text
  std::optional<HttpBinding> forced;
  // Expected: either an error containing `error`, or the chosen entry.
  std::string error;
  size_t index = 0;
  HttpBinding binding = HttpBinding::kJsonRpc;
  std::string url;
  std::optional<std::string> tenant;
  bool grpc = false;  // a build with the gRPC binding
};

std::ostream& operator<<(std::ostream& os, const SelectCase& c) { return os << c.name; }

const std::vector<SelectCase> kCases = {
    {"FirstUsableInCardOrderWins",
     R"({"supportedInterfaces":[{"url":"http://h/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
                                {"url":"http://h/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
     std::nullopt, "", 0, HttpBinding::kRest, "http://h/rest", std::nullopt},
    {"UnknownBindingsAreSkipped",
     R"({"supportedInterfaces":[{"url":"h:443","protocolBinding":"GRPC","protocolVersion":"1.0"},
                                {"url":"http://h/x","protocolBinding":"urn:custom","protocolVersion":"1.0"},
                                {"url":"http://h/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
     std::nullopt, "", 2, HttpBinding::kJsonRpc, "http://h/rpc", std::nullopt},
    {"OlderVersionEarlierInOrderIsSkipped",
     R"({"supportedInterfaces":[{"url":"http://h/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
                                {"url":"http://h/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
     std::nullopt, "", 1, HttpBinding::kJsonRpc, "http://h/v1", std::nullopt},
    {"PatchVersionIsIgnored",
     R"({"supportedInterfaces":[{"url":"http://h/a","protocolBinding":"JSONRPC","protocolVersion":"1.0.3"}]})",
     std::nullopt, "", 0, HttpBinding::kJsonRpc, "http://h/a", std::nullopt},
    {"OtherMinorIsNotOurs",
     R"({"supportedInterfaces":[{"url":"http://h/a","protocolBinding":"JSONRPC","protocolVersion":"1.1"},
                                {"url":"http://h/b","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]})",
     std::nullopt, "", 1, HttpBinding::kRest, "http://h/b", std::nullopt},
    {"ForcedBindingTakesItsFirstEntry",
     R"({"supportedInterfaces":[{"url":"http://h/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                                {"url":"http://h/rest1","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
                                {"url":"http://h/rest2","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]})",
     HttpBinding::kRest, "", 1, HttpBinding::kRest, "http://h/rest1", std::nullopt},
    {"ForcedBindingAbsentIsAnError",
     R"({"supportedInterfaces":[{"url":"http://h/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
     HttpBinding::kRest, "no usable interface", 0, HttpBinding::kRest, "", std::nullopt},
    {"TenantIsCopiedFromTheChosenEntry",
     R"({"supportedInterfaces":[{"url":"http://h/","protocolBinding":"GRPC","protocolVersion":"1.0","tenant":"grpc-t"},
                                {"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"acme/eu"}]})",
     std::nullopt, "", 1, HttpBinding::kJsonRpc, "http://h/", std::string("acme/eu")},
    {"EmptyTenantCountsAsUnset",
     R"({"supportedInterfaces":[{"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":""}]})",
     std::nullopt, "", 0, HttpBinding::kJsonRpc, "http://h/", std::nullopt},
    {"MergedCardUsesSupportedInterfaces",
     R"({"url":"http://h/old","preferredTransport":"JSONRPC","protocolVersion":"0.3",
         "supportedInterfaces":[{"url":"http://h/new","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
     std::nullopt, "", 0, HttpBinding::kJsonRpc, "http://h/new", std::nullopt},
    {"V03CardIsRefused",
     R"({"url":"http://h/a2a","preferredTransport":"HTTP+JSON","protocolVersion":"0.3.0",
         "additionalInterfaces":[{"url":"http://h/rpc","transport":"JSONRPC"}]})",
     std::nullopt, "agent speaks A2A 0.3 only; not supported yet", 0, HttpBinding::kRest, "", std::nullopt},
    {"V03CardWithoutVersionOrTransportIsRefused", R"({"url":"http://h/a2a","name":"x"})", std::nullopt,
     "agent speaks A2A 0.3 only; not supported yet", 0, HttpBinding::kRest, "", std::nullopt},
    {"OnlyV03InterfacesInA1CardAreRefusedAs03",
     R"({"supportedInterfaces":[{"url":"http://h/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"}]})",
     std::nullopt, "A2A 0.3 only", 0, HttpBinding::kRest, "", std::nullopt},
    {"NoUsableInterfaceNamesWhatWasOffered",
     R"({"supportedInterfaces":[{"url":"h:1","protocolBinding":"GRPC","protocolVersion":"1.0"},
                                {"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"2.0"}]})",
     std::nullopt, "the card offers GRPC 1.0, JSONRPC 2.0", 0, HttpBinding::kRest, "", std::nullopt},
    {"EmptyInterfaceListIsAnError", R"({"supportedInterfaces":[]})", std::nullopt, "offers nothing", 0,
     HttpBinding::kRest, "", std::nullopt},
    {"CardWithoutInterfacesOrUrlIsASchemaError", R"({"name":"x"})", std::nullopt,
     "neither supportedInterfaces", 0, HttpBinding::kRest, "", std::nullopt},
    {"NonObjectEntriesAreSkipped",
     R"({"supportedInterfaces":[42,{"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
     std::nullopt, "", 1, HttpBinding::kJsonRpc, "http://h/", std::nullopt},
    // gRPC builds: a forced GRPC takes the first 1.0 GRPC entry; without
    // --binding the HTTP bindings still come first and GRPC is the fallback.
    {"ForcedGrpcTakesTheFirstGrpc10Entry",
     R"({"supportedInterfaces":[{"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                                {"url":"h:1","protocolBinding":"GRPC","protocolVersion":"0.3"},
                                {"url":"h:2","protocolBinding":"GRPC","protocolVersion":"1.0.1"}]})",
     HttpBinding::kGrpc, "", 2, HttpBinding::kGrpc, "h:2", std::nullopt, true},
    {"ForcedGrpcWithoutGrpcInTheBuildSaysSo",
     R"({"supportedInterfaces":[{"url":"h:2","protocolBinding":"GRPC","protocolVersion":"1.0"}]})",
     HttpBinding::kGrpc, "this build has no gRPC binding", 0, HttpBinding::kGrpc, "", std::nullopt, false},
    {"GrpcFirstStillYieldsToAnHttpBinding",
     R"({"supportedInterfaces":[{"url":"h:2","protocolBinding":"GRPC","protocolVersion":"1.0"},
                                {"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
     std::nullopt, "", 1, HttpBinding::kJsonRpc, "http://h/", std::nullopt, true},
    {"GrpcIsTakenWhenNothingElseFits",
     R"({"supportedInterfaces":[{"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
                                {"url":"h:2","protocolBinding":"GRPC","protocolVersion":"1.0"}]})",
     std::nullopt, "", 1, HttpBinding::kGrpc, "h:2", std::nullopt, true},
    {"GrpcOnlyZeroThreeIsRefusedAsZeroThree",
     R"({"supportedInterfaces":[{"url":"h:2","protocolBinding":"GRPC","protocolVersion":"0.3"}]})",
     std::nullopt, "A2A 0.3 only", 0, HttpBinding::kGrpc, "", std::nullopt, true},
    {"WebSocketIsNeverTakenUnforced",
     R"({"supportedInterfaces":[{"url":"ws://h:3","protocolBinding":"WEBSOCKET","protocolVersion":"1.0"},
                                {"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
     std::nullopt, "", 1, HttpBinding::kJsonRpc, "http://h/", std::nullopt, true},
    {"ForcedWebSocketTakesTheFirstWsUrlAtOneDotZero",
     R"({"supportedInterfaces":[{"url":"wss://h:4","protocolBinding":"WEBSOCKET","protocolVersion":"1.0"},
                                {"url":"ws://h:5","protocolBinding":"WEBSOCKET","protocolVersion":"0.3"},
                                {"url":"ws://h:3","protocolBinding":"WEBSOCKET","protocolVersion":"1.0"}]})",
     HttpBinding::kWebSocket, "", 2, HttpBinding::kWebSocket, "ws://h:3", std::nullopt},
    {"ForcedWebSocketWithOnlyWssSaysWhy",
     R"({"supportedInterfaces":[{"url":"wss://h:4","protocolBinding":"WEBSOCKET","protocolVersion":"1.0"}]})",
     HttpBinding::kWebSocket, "WEBSOCKET with a ws:// url", 0, HttpBinding::kWebSocket, "", std::nullopt},
};

class SelectInterface : public ::testing::TestWithParam<SelectCase> {};

TEST_P(SelectInterface, ChoosesPerSpecOrSaysWhyNot) {
  const SelectCase& c = GetParam();
  auto got = select_interface(Json::parse(c.card), c.forced, c.grpc);
  if (!c.error.empty()) {
    ASSERT_FALSE(got.ok()) << "chose " << got->iface.url;
    EXPECT_NE(got.error().message.find(c.error), std::string::npos) << got.error().message;
    return;
  }
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(got->index, c.index);
  EXPECT_EQ(got->binding, c.binding);
  EXPECT_EQ(got->iface.url, c.url);
  EXPECT_EQ(got->iface.tenant, c.tenant);
}

INSTANTIATE_TEST_SUITE_P(Cards, SelectInterface, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

TEST(CardInterfaces, V03CardIsSynthesisedWithDefaultsAndCardVersion) {
  auto all = card_interfaces(Json::parse(
      R"({"url":"http://h/a","protocolVersion":"0.3.0","additionalInterfaces":[{"url":"http://h/r","transport":"HTTP+JSON"}]})"));
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].protocol_binding, "JSONRPC");  // preferredTransport defaults to JSONRPC
  EXPECT_EQ((*all)[0].protocol_version, "0.3.0");
  EXPECT_EQ((*all)[1].protocol_binding, "HTTP+JSON");
  EXPECT_EQ((*all)[1].url, "http://h/r");
}

TEST(SpeaksVersion, AcceptsOneDotZeroWithAnyPatchOnly) {
  EXPECT_TRUE(speaks_version("1.0"));
  EXPECT_TRUE(speaks_version("1.0.0"));
  EXPECT_TRUE(speaks_version("1.0.12"));
  EXPECT_FALSE(speaks_version("1"));
  EXPECT_FALSE(speaks_version("1.00"));
  EXPECT_FALSE(speaks_version("1.0."));
  EXPECT_FALSE(speaks_version("1.0.x"));
  EXPECT_FALSE(speaks_version("1.1"));
  EXPECT_FALSE(speaks_version("0.3"));
  EXPECT_FALSE(speaks_version(""));
}

TEST(SelectedInterface, DescribeNamesPositionBindingUrlAndTenant) {
  SelectedInterface s{HttpBinding::kRest, {"http://h/r", "HTTP+JSON", "1.0", "acme"}, 1};
  EXPECT_EQ(s.describe(3), "interface #2 of 3: HTTP+JSON 1.0 at http://h/r (tenant acme)");
}

}  // namespace
}  // namespace a2a::client
