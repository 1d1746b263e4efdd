#include <gtest/gtest.h>

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/discovery.hpp"
#include "runner/engine/engine_test_support.hpp"

namespace a2a::engine {
namespace {

using Json = nlohmann::json;

struct MapCase {
  const char* name;
  const char* card;
  std::vector<std::string> bindings;  // "binding url tenant"
  std::vector<std::string> notes;     // substrings, one per note, in order
};

std::string show(const BindingTarget& b) { return b.binding + " " + b.url + " " + b.tenant; }

class MapInterfaces : public ::testing::TestWithParam<MapCase> {};

// A GRPC interface is a target in a build with the gRPC binding (-DA2A_GRPC=ON,
// the default) and a note naming what is missing in one without it.
TEST(MapInterfacesGrpc, IsATargetOnlyWhenTheBindingIsBuilt) {
  InterfaceMap m = map_interfaces(Json::parse(
      R"({"supportedInterfaces":[{"url":"127.0.0.1:9","protocolBinding":"GRPC","protocolVersion":"1.0"},
                                 {"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})"));
  std::vector<std::string> got;
  for (const auto& t : m.targets) got.push_back(show(t));
  if (find_binding("grpc")) {
    EXPECT_EQ(got, (std::vector<std::string>{"grpc 127.0.0.1:9 ", "jsonrpc http://h/ "}));
    EXPECT_TRUE(m.notes.empty()) << m.notes.front();
  } else {
    EXPECT_EQ(got, (std::vector<std::string>{"jsonrpc http://h/ "}));
    ASSERT_EQ(m.notes.size(), 1u);
    EXPECT_NE(m.notes[0].find("GRPC at 127.0.0.1:9): not tested (this build has no gRPC binding)"), std::string::npos)
        << m.notes[0];
  }
}

TEST_P(MapInterfaces, GivesTargetsAndNotes) {
  const auto& c = GetParam();
  InterfaceMap m = map_interfaces(Json::parse(c.card));
  std::vector<std::string> got;
  for (const auto& t : m.targets) got.push_back(show(t));
  EXPECT_EQ(got, c.bindings);
  ASSERT_EQ(m.notes.size(), c.notes.size()) << (m.notes.empty() ? "" : m.notes.front());
  for (size_t i = 0; i < c.notes.size(); ++i)
    EXPECT_NE(m.notes[i].find(c.notes[i]), std::string::npos) << m.notes[i];
}

INSTANTIATE_TEST_SUITE_P(
    Cards, MapInterfaces,
    ::testing::Values(
        MapCase{"BothHttpBindings",
                R"({"supportedInterfaces":[{"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                                            {"url":"http://h/","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]})",
                {"jsonrpc http://h/ ", "rest http://h/ "}, {}},
        MapCase{"TenantIsKept",
                R"({"supportedInterfaces":[{"url":"http://h/a2a","protocolBinding":"HTTP+JSON","protocolVersion":"1.3","tenant":"acme"}]})",
                {"rest http://h/a2a acme"}, {}},
        MapCase{"UnknownBindingIsANote",
                R"({"supportedInterfaces":[{"url":"http://h/","protocolBinding":"urn:x:mqtt","protocolVersion":"1.0"}]})",
                {}, {"unknown protocolBinding"}},
        MapCase{"OtherVersionIsANote",
                R"({"supportedInterfaces":[{"url":"http://h/v2","protocolBinding":"JSONRPC","protocolVersion":"2.0"},
                                            {"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
                {"jsonrpc http://h/ "}, {"protocolVersion '2.0' is not tested"}},
        MapCase{"SecondInterfaceOfABindingIsANote",
                R"({"supportedInterfaces":[{"url":"http://a/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                                            {"url":"http://b/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
                {"jsonrpc http://a/ "}, {"the first jsonrpc interface (http://a/) is"}},
        MapCase{"BadUrlIsANote",
                R"({"supportedInterfaces":[{"url":"ftp://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]})",
                {}, {"url is not usable"}},
        MapCase{"LegacyCardIsRead", R"({"url":"http://h/","preferredTransport":"JSONRPC","protocolVersion":"0.3.0"})",
                {"jsonrpc http://h/ "}, {}},
        MapCase{"NoInterfaces", R"({"name":"x"})", {}, {"declares no supportedInterfaces"}},
        MapCase{"EmptyInterfaces", R"({"supportedInterfaces":[]})", {}, {"list is empty"}},
        MapCase{"NotAnObject", R"([1])", {}, {"not a JSON object"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Discovery, CardUrlAppendsToThePathAndDropsTheQuery) {
  auto u = transport::Url::parse("http://h:8/agents/x/?k=v");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(agent_card_url(*u).str(), "http://h:8/agents/x/.well-known/agent-card.json");
  EXPECT_EQ(agent_card_url(*transport::Url::parse("http://h")).target(), "/.well-known/agent-card.json");
}

const char* kBothCard =
    R"({"supportedInterfaces":[{"url":"http://h/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                                {"url":"http://h/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]})";

TEST(Discovery, WithoutBindingEveryUsableInterfaceIsTested) {
  auto d = choose_targets("http://h", Json::parse(kBothCard), {});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->targets.size(), 2u);
  EXPECT_EQ(d->targets[1].url, "http://h/rest");
  EXPECT_TRUE(d->card.has_value());
}

TEST(Discovery, ForcedBindingPicksThatInterface) {
  auto d = choose_targets("http://h", Json::parse(kBothCard), {"rest"});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->targets.size(), 1u);
  EXPECT_EQ(show(d->targets[0]), "rest http://h/rest ");
}

TEST(Discovery, ForcedBindingTheCardLacksUsesTheUrlWithANote) {
  auto d = choose_targets("http://h/x", Json::parse(R"({"name":"x"})"), {"jsonrpc"});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->targets.size(), 1u);
  EXPECT_EQ(show(d->targets[0]), "jsonrpc http://h/x ");
  ASSERT_FALSE(d->notes.empty());
  EXPECT_NE(d->notes.back().find("testing http://h/x itself as the jsonrpc interface"), std::string::npos);
}

TEST(Discovery, NoCardAndNoBindingIsAnErrorThatSuggestsBinding) {
  core::Expected<Json> card = core::fail(core::ErrorKind::kIo, "GET http://h/.well-known/agent-card.json failed: refused");
  auto d = choose_targets("http://h", card, {});
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("refused"), std::string::npos) << d.error().message;
  EXPECT_NE(d.error().message.find("--binding"), std::string::npos) << d.error().message;
}

TEST(Discovery, NoCardWithForcedBindingsGoesOn) {
  core::Expected<Json> card = core::fail(core::ErrorKind::kIo, "refused");
  auto d = choose_targets("http://h", card, {"jsonrpc", "rest"});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->targets.size(), 2u);
  EXPECT_FALSE(d->card.has_value());
}

TEST(Discovery, CardWithNothingUsableIsAnErrorListingWhy) {
  auto d = choose_targets("http://h", Json::parse(R"({"url":"ftp://h/","preferredTransport":"JSONRPC","protocolVersion":"0.3"})"), {});
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("url is not usable"), std::string::npos) << d.error().message;
}

TEST(Discovery, FetchesTheCardOverHttp) {
  testing::ScriptedAgent agent([](const std::shared_ptr<transport::HttpExchange>& ex) {
    if (ex->request().target == "/.well-known/agent-card.json") ex->reply(testing::json_reply(200, kBothCard));
    else ex->reply(testing::json_reply(404, "{}"));
  });
  auto d = discover(agent.url(), {}, false, testing::soon());
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->targets.size(), 2u);
}

TEST(Discovery, NothingListeningSaysWhatFailed) {
  auto d = discover("http://127.0.0.1:1", {}, false, testing::soon(3000));
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("GET http://127.0.0.1:1/.well-known/agent-card.json failed"), std::string::npos)
      << d.error().message;
}

TEST(Discovery, NonJsonCardIsAnError) {
  testing::ScriptedAgent agent([](const std::shared_ptr<transport::HttpExchange>& ex) {
    ex->reply(testing::json_reply(200, "<html/>", "text/html"));
  });
  auto card = fetch_agent_card(*transport::Url::parse(agent.url()), false, testing::soon());
  ASSERT_FALSE(card.ok());
  EXPECT_NE(card.error().message.find("not JSON"), std::string::npos);
}

// A card over the 4 MiB cap is refused for its size, not called "not JSON".
TEST(Discovery, CardOverTheCapSaysSo) {
  testing::ScriptedAgent agent([](const std::shared_ptr<transport::HttpExchange>& ex) {
    ex->reply(testing::json_reply(200, "{\"name\":\"" + std::string((4u << 20) + 10, 'x') + "\"}"));
  });
  auto card = fetch_agent_card(*transport::Url::parse(agent.url()), false, testing::soon(5000));
  ASSERT_FALSE(card.ok());
  EXPECT_NE(card.error().message.find("agent card larger than the 4 MiB cap"), std::string::npos)
      << card.error().message;
  EXPECT_EQ(card.error().message.find("not JSON"), std::string::npos) << card.error().message;
}

}  // namespace
}  // namespace a2a::engine
