// The registry as the CLI fills it: every binding is there under its key,
// a card interface finds its binding by protocolBinding and version, and the
// engine dispatches an abstract operation through it. The other engine tests
// (discovery, applicability) read the same registry.
#include <gtest/gtest.h>

#include <algorithm>

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/operations.hpp"

namespace a2a::engine {
namespace {

[[maybe_unused]] const bool registered = (register_bindings(), true);

bool has(const std::vector<std::string>& keys, const std::string& k) {
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

TEST(BindingRegistry, EveryBuiltInBindingIsRegistered) {
  auto keys = registered_bindings();
  for (const char* k : {"stdio", "jsonrpc", "rest", "jsonrpc@0.3", "rest@0.3", "loopback"})
    EXPECT_TRUE(has(keys, k)) << k;
  for (const auto& k : keys) {
    const auto* b = find_binding(k);
    ASSERT_NE(b, nullptr) << k;
    EXPECT_TRUE(b->call) << k << " has no call";
    EXPECT_TRUE(b->check_url) << k << " has no check_url";
    EXPECT_FALSE(b->title.empty()) << k;
  }
}

TEST(BindingRegistry, CardInterfacesFindTheirBindingByNameAndVersion) {
  ASSERT_NE(find_binding_by_card_name("JSONRPC", "1"), nullptr);
  EXPECT_EQ(find_binding_by_card_name("JSONRPC", "1")->key, "jsonrpc");
  EXPECT_EQ(find_binding_by_card_name("JSONRPC", "0.3")->key, "jsonrpc@0.3");
  EXPECT_EQ(find_binding_by_card_name("HTTP+JSON", "1")->key, "rest");
  EXPECT_EQ(find_binding_by_card_name("HTTP+JSON", "0.3")->key, "rest@0.3");
  EXPECT_EQ(find_binding_by_card_name("NOPE", "1"), nullptr);
  // stdio is not an interface a card lists.
  EXPECT_EQ(find_binding_by_card_name("", "1"), nullptr);
}

TEST(BindingRegistry, OnlyTheHttpBindingsAreOverHttp) {
  for (const char* k : {"jsonrpc", "rest", "jsonrpc@0.3", "rest@0.3"}) EXPECT_TRUE(find_binding(k)->over_http) << k;
  for (const char* k : {"stdio", "loopback"}) EXPECT_FALSE(find_binding(k)->over_http) << k;
}

TEST(BindingRegistry, ATargetWithoutARegisteredBindingIsNoResponseSayingSo) {
  RunConfig c;
  BindingTarget t{"carrier-pigeon", "http://127.0.0.1:1", "", "1.0"};
  Session s;
  s.config = &c;
  s.target = &t;
  OpResult r = call_operation(s, "get_task", {{"id", "t"}}, core::Deadline::after(core::Millis(100)));
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("this build has no carrier-pigeon binding"), std::string::npos) << r.problem;
  EXPECT_NE(r.problem.find("jsonrpc"), std::string::npos) << r.problem;
}

TEST(BindingRegistry, StdioWithoutAnAgentProcessSaysSo) {
  RunConfig c;
  Session s;
  s.config = &c;
  OpResult r = call_operation(s, "get_task", {{"id", "t"}}, core::Deadline::after(core::Millis(100)));
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("needs --agent"), std::string::npos) << r.problem;
}

}  // namespace
}  // namespace a2a::engine
