// `a2a-conform client` judges the official A2A JavaScript SDK's client
// (@a2a-js/sdk 1.3.0 behind tests/interop/js/conform-client.mjs) on the
// JSON-RPC and REST client scenarios: every result passes or is a known failure of
// fixtures/interop/js-sdk-client-known-failures.yaml, whose every entry cites
// the spec sentence the SDK breaks (an entry that starts passing is XPASS and
// fails the run). Needs node and scripts/interop-setup.sh; without them the
// test fails and says so rather than skip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_client_js_sdk {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using a2a::testing::run_command;

namespace {

const std::string kSrc = A2A_SOURCE_DIR;
const std::string kJsDir = kSrc + "/tests/interop/js";
const std::string kKnown = kSrc + "/fixtures/interop/js-sdk-client-known-failures.yaml";

::testing::AssertionResult js_ready() {
  if (!fs::exists(kJsDir + "/node_modules/@a2a-js/sdk"))
    return ::testing::AssertionFailure() << "tests/interop/js/node_modules is missing: run scripts/interop-setup.sh";
  auto r = run_command({"node", "--version"}, 10000);
  if (r.exit_code != 0) return ::testing::AssertionFailure() << "node is not runnable: " << r.err;
  return ::testing::AssertionSuccess();
}


}  // namespace

class ClientJsSdk : public ::testing::TestWithParam<std::string> {};

TEST_P(ClientJsSdk, EveryClientScenarioPassesOrIsAKnownFailureThatCitesTheSpec) {
  ASSERT_TRUE(js_ready());
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "client";
  fs::create_directories(dir);
  fs::path json = dir / ("js-sdk-" + GetParam() + ".json");
  fs::remove(json);
  std::string cmd = "node " + kJsDir + "/conform-client.mjs --url {target} --binding {binding} --timeout-ms 5000";
  auto r = run_command({A2A_CONFORM, "client", "--binding", GetParam(), "--cmd", cmd, "-q", "--color", "never",
                        "--known-failures", kKnown, "--json", json.string(), kSrc + "/suites/client"},
                       600000);
  ASSERT_FALSE(r.timed_out) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(json);
  Json report = Json::parse(in, nullptr, false);
  ASSERT_TRUE(report.contains("scenarios")) << r.out << r.err;
  int passed = 0;
  for (const auto& s : report["scenarios"]) {
    std::string outcome = s["outcome"];
    EXPECT_TRUE(outcome == "PASS" || outcome == "XFAIL" || outcome == "SKIP")
        << s["id"] << " " << outcome << ": " << s.value("reason", "");
    passed += outcome == "PASS";
  }
  EXPECT_GE(passed, 3) << "the adapter runs at all";
}

INSTANTIATE_TEST_SUITE_P(Bindings, ClientJsSdk, ::testing::Values("jsonrpc", "rest"));

TEST(ClientJsSdkKnownFailures, EveryEntryQuotesTheSentenceTheSdkBreaks) {
  YAML::Node doc = YAML::LoadFile(kKnown);
  ASSERT_TRUE(doc["expected_failures"].IsSequence());
  for (const auto& e : doc["expected_failures"]) {
    std::string reason = e["reason"].as<std::string>("");
    EXPECT_NE(reason.find("\""), std::string::npos) << e["id"].as<std::string>("?") << ": quote the spec sentence";
    EXPECT_NE(reason.find("§"), std::string::npos) << e["id"].as<std::string>("?") << ": name the spec section";
  }
}

}  // namespace e2e_client_js_sdk
