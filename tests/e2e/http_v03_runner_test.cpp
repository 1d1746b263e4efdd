// The runner's A2A 0.3 profile end to end: a2a-conform against the reference
// agent serving 0.3 JSON-RPC beside 1.0 (--serve-0.3). Its card declares a
// 0.3 JSONRPC interface, so one run certifies jsonrpc, rest and jsonrpc@0.3;
// suites/a2a runs on jsonrpc@0.3 through the 0.3 translation and passes,
// operations with no 0.3 form are skipped, and a 0.3 fault fails there.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_http_v03_runner {

namespace fs = std::filesystem;
using a2a::testing::run_command;
using Json = nlohmann::json;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;

fs::path artifact(const std::string& name) {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "http-v03";
  fs::create_directories(d);
  return d / name;
}

Json read_json(const fs::path& p) {
  std::ifstream in(p);
  return Json::parse(in, nullptr, false);
}

struct Counts {
  std::map<std::string, int> pass, skip, other;
};

Counts count(const Json& report) {
  Counts c;
  for (const auto& s : report["scenarios"]) {
    std::string b = s.value("binding", ""), o = s.value("outcome", "");
    if (o == "PASS") ++c.pass[b];
    else if (o == "SKIP") ++c.skip[b];
    else ++c.other[b];
  }
  return c;
}

std::vector<std::string> run_args(const std::string& url, const fs::path& json) {
  return {kConform, "run", "--url", url, "--header", "Authorization: Bearer a2a-conform", "-j2", "-q", "--color",
          "never", "--json", json.string()};
}

}  // namespace

TEST(HttpV03Runner, BothVersionsAreCertifiedAndThe03InterfacePassesSuitesA2a) {
  a2a::testing::HttpPeer agent({kAgent, "--http", "0", "-q", "--serve-0.3"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  fs::path json = artifact("serve-0.3.json");
  auto argv = run_args(agent.url(), json);
  for (const char* p : {"/suites/a2a", "/suites/a2a-0.3", "/suites/http/version.acts.yaml"}) argv.push_back(kSrc + p);
  auto r = run_command(argv, 600000);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("binding jsonrpc@0.3: " + agent.url()), std::string::npos) << r.out;
  Json report = read_json(json);
  ASSERT_TRUE(report.contains("scenarios")) << r.out << r.err;
  EXPECT_EQ(report["bindings"], (Json{"jsonrpc", "rest", "jsonrpc@0.3"}));
  int list_skips = 0;
  for (const auto& s : report["scenarios"]) {
    std::string o = s["outcome"];
    EXPECT_TRUE(o == "PASS" || o == "SKIP") << s["id"] << " [" << s["binding"] << "]: " << o << " "
                                            << s.value("reason", "");
    std::string id = s["id"];
    if (id.starts_with("V03-")) {
      if (s["binding"] == "jsonrpc@0.3") EXPECT_EQ(o, "PASS") << id;
    }
  }
  // Not a SKIP: the interface's version has no such operation (not the target's choice).
  for (const auto& na : report.value("not_applicable", Json::array()))
    if (na.value("reason", "").find("list_tasks has no A2A 0.3 form") != std::string::npos)
      list_skips += static_cast<int>(na["ids"].size());
  EXPECT_GE(list_skips, 1) << "ListTasks scenarios do not apply to jsonrpc@0.3, with the reason";
  Counts c = count(report);
  EXPECT_GE(c.pass["jsonrpc@0.3"], 30) << "suites/a2a under the 0.3 profile plus suites/a2a-0.3";
  EXPECT_GE(c.pass["jsonrpc"], 30);
  std::cout << "jsonrpc " << c.pass["jsonrpc"] << " pass, rest " << c.pass["rest"] << " pass, jsonrpc@0.3 "
            << c.pass["jsonrpc@0.3"] << " pass / " << c.skip["jsonrpc@0.3"] << " skip\n";
}

TEST(HttpV03Runner, A03FaultFailsThe03InterfaceOnly) {
  a2a::testing::HttpPeer agent({kAgent, "--http", "0", "-q", "--serve-0.3", "--fault", "v03-no-final"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  fs::path json = artifact("no-final.json");
  auto argv = run_args(agent.url(), json);
  argv.push_back(kSrc + "/suites/a2a/streaming.acts.yaml");
  auto r = run_command(argv, 300000);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  Counts c = count(read_json(json));
  EXPECT_GE(c.other["jsonrpc@0.3"], 1);
  EXPECT_EQ(c.other["jsonrpc"], 0);
  EXPECT_EQ(c.other["rest"], 0);
  EXPECT_NE(r.out.find("lacks final:true"), std::string::npos) << r.out;
}

TEST(HttpV03Runner, ForcedVersionTestsA1_0OnlyCardAs03AndSaysSo) {
  a2a::testing::HttpPeer agent({kAgent, "--http", "0", "-q"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  fs::path json = artifact("forced.json");
  auto argv = run_args(agent.url(), json);
  argv.insert(argv.end(), {"--a2a-version", "0.3", "--binding", "jsonrpc", "--id", "A2A-CORE-001",
                           kSrc + "/suites/a2a/core.acts.yaml"});
  auto r = run_command(argv, 120000);
  ASSERT_FALSE(r.timed_out);
  EXPECT_NE(r.out.find("binding jsonrpc@0.3"), std::string::npos) << r.out;
  Json report = read_json(json);
  ASSERT_TRUE(report.contains("scenarios")) << r.out << r.err;
  ASSERT_EQ(report["scenarios"].size(), 1u);
  EXPECT_EQ(report["scenarios"][0]["binding"], "jsonrpc@0.3");
  // The agent serves only 1.0: a 0.3 request is refused with -32009.
  EXPECT_NE(report["scenarios"][0]["outcome"], "PASS");
  EXPECT_NE(report["scenarios"][0]["replay_command"].get<std::string>().find("--a2a-version 0.3"), std::string::npos);
}

}  // namespace e2e_http_v03_runner
