#include <gtest/gtest.h>

#include "runner/cli/targets.hpp"

using a2a::cli::describe_target;
using a2a::cli::Options;
using a2a::cli::TargetSpec;
using a2a::cli::with_target;
using a2a::engine::BindingTarget;
using a2a::engine::RunConfig;

TEST(TargetInfo, AStdioAgentIsTestedAsItsWireProfile) {
  Options o;
  o.agent = "./agent --stdio";
  RunConfig cfg;
  cfg.profile.name = "stdio-json";
  auto d = describe_target(o, cfg);
  EXPECT_EQ(d.role, "agent");
  EXPECT_EQ(d.profile, "stdio-json");
  EXPECT_TRUE(d.protocol_versions.empty());
  EXPECT_EQ(d.target, "./agent --stdio");
}

TEST(TargetInfo, AnHttpAgentIsTestedAsTheVersionsOfItsInterfaces) {
  Options o;
  o.url = "http://127.0.0.1:1";
  RunConfig cfg;
  cfg.profile.name = "p46";
  cfg.bindings = {BindingTarget{"jsonrpc", "u", "", "1.0"}, BindingTarget{"rest", "u", "", "1.0"},
                  BindingTarget{"jsonrpc@0.3", "u", "", ""}, BindingTarget{"rest", "u", "", ""}};
  auto d = describe_target(o, cfg);
  EXPECT_EQ(d.profile, "1.0, 0.3");
  EXPECT_EQ(d.protocol_versions, (std::vector<std::string>{"1.0", "0.3"}));
  EXPECT_EQ(d.target, "http://127.0.0.1:1");
  cfg.bindings.clear();  // discovery failed: nothing was tested
  EXPECT_EQ(describe_target(o, cfg).profile, "");
}

TEST(TargetInfo, AClientRunNamesTheClientCommand) {
  Options o;
  o.client_run = true;
  o.client_cmd = "./client --url {target}";
  RunConfig cfg;
  cfg.profile.name = "p46";
  cfg.bindings = {BindingTarget{"jsonrpc", "", "", "1.0"}};
  auto d = describe_target(o, cfg);
  EXPECT_EQ(d.role, "client");
  EXPECT_EQ(d.profile, "1.0");
  EXPECT_EQ(d.target, "./client --url {target}");
}

TEST(TargetInfo, WithTargetKeepsOnlyThatTarget) {
  Options o;
  o.targets = {TargetSpec{"agent", "./a"}, TargetSpec{"url", "http://x"}};
  auto one = with_target(o, o.targets[1]);
  EXPECT_EQ(one.url, "http://x");
  EXPECT_EQ(one.agent, "");
  ASSERT_EQ(one.targets.size(), 1u);
  EXPECT_EQ(one.targets[0].kind, "url");
}
