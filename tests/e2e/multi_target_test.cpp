// Several targets in one invocation: `run --agent A --agent B` runs each in
// turn with the same selection, writes one combined report.html, report.json
// and junit.xml plus each target's own reports in targets/N-NAME/, and exits
// with the worst code over targets.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_multi_target {

namespace fs = std::filesystem;
using a2a::testing::run_command;
using Json = nlohmann::json;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;
// Breaks STDIO-LIFE-001 and -002 (fixtures/fault-matrix.yaml), not A2A-CORE-001.
const std::string kFault = "life-exit-nonzero-on-eof";  // fails STDIO-LIFE-001/002 at MUST level, at once

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / name;
  fs::remove_all(d);
  return d;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> selection() {
  return {"--id", "STDIO-LIFE-001", "--id", "STDIO-LIFE-002", "--id", "A2A-CORE-001", "-q", "--color", "never"};
}

std::vector<std::string> args(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

}  // namespace

TEST(MultiTarget, TwoAgentsGiveOneCombinedReportAndTheWorstExitCode) {
  fs::path out = fresh_dir("multi-target");
  auto r = run_command(args({kConform, "run", "--agent", kAgent, "--agent", kAgent + " --fault " + kFault,
                             "--report-dir", out.string()},
                            selection()),
                       120000);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  // Console: a header per target, then the table.
  EXPECT_NE(r.out.find("=== target 1/2: agent " + kAgent + " (profile p46)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("=== target 2/2: agent " + kAgent + " --fault " + kFault), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CONFORMANT      " + kAgent + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NOT CONFORMANT  " + kAgent + " --fault " + kFault + "\n"), std::string::npos) << r.out;

  // Per-target reports, named predictably.
  fs::path t1 = out / "targets" / "1-a2a-ref-agent", t2 = out / "targets" / "2-a2a-ref-agent-fault-life-exit-nonzero-on";
  for (const auto& dir : {t1, t2}) {
    EXPECT_TRUE(fs::exists(dir / "report.json")) << dir;
    EXPECT_TRUE(fs::exists(dir / "junit.xml")) << dir;
    bool acts = false;
    for (const auto& e : fs::directory_iterator(dir)) acts = acts || e.path().filename().string().starts_with("acts-report-");
    EXPECT_TRUE(acts) << dir;
  }
  EXPECT_FALSE(fs::exists(t1 / "report.html"));
  auto one = Json::parse(read_text(t2 / "report.json"));
  EXPECT_EQ(one["schema"], "a2a-conform-result");
  EXPECT_EQ(one["role"], "agent");
  EXPECT_EQ(one["profile"], "p46");
  EXPECT_EQ(one["target"], kAgent + " --fault " + kFault);
  EXPECT_EQ(one["counts"]["failed"], 2);

  // The combined index: both targets, their verdicts, files that exist.
  auto index = Json::parse(read_text(out / "report.json"));
  EXPECT_EQ(index["schema"], "a2a-conform-multi-result");
  EXPECT_EQ(index["exit_code"], 1);
  ASSERT_EQ(index["targets"].size(), 2u);
  EXPECT_EQ(index["targets"][0]["verdict"], "CONFORMANT");
  EXPECT_EQ(index["targets"][0]["counts"]["passed"], 3);
  EXPECT_EQ(index["targets"][1]["verdict"], "NOT CONFORMANT");
  EXPECT_EQ(index["targets"][1]["counts"]["failed"], 2);
  for (const auto& t : index["targets"]) {
    ASSERT_GE(t["files"].size(), 3u) << t.dump();
    for (const auto& f : t["files"]) EXPECT_TRUE(fs::exists(out / f.get<std::string>())) << f;
  }

  // One HTML page: the overview rows with the verdicts, a section per target.
  std::string html = read_text(out / "report.html");
  EXPECT_NE(html.find("data-verdict=\"CONFORMANT\"><td>1</td><td>agent</td><td>p46</td><td><a href=\"#t1\"><code>" +
                      kAgent + "</code>"),
            std::string::npos);
  EXPECT_NE(html.find("data-verdict=\"NOT CONFORMANT\"><td>2</td><td>agent</td><td>p46</td><td><a href=\"#t2\"><code>" +
                      kAgent + " --fault " + kFault + "</code>"),
            std::string::npos);
  EXPECT_NE(html.find("<section class=\"scope target\" id=\"t1\""), std::string::npos);
  EXPECT_NE(html.find("<section class=\"scope target\" id=\"t2\""), std::string::npos);
  EXPECT_NE(html.find("id=\"t2-s-0\""), std::string::npos);

  // One JUnit testsuite per target.
  std::string xml = read_text(out / "junit.xml");
  EXPECT_NE(xml.find("<testsuite name=\"1-a2a-ref-agent\" tests=\"3\" failures=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testsuite name=\"2-a2a-ref-agent-fault-life-exit-nonzero-on\" tests=\"3\" failures=\"2\""),
            std::string::npos)
      << xml;
}

TEST(MultiTarget, OneTargetKeepsTheSingleLayout) {
  fs::path out = fresh_dir("multi-target-single");
  auto r = run_command(args({kConform, "run", "--agent", kAgent, "--report-dir", out.string()}, selection()), 120000);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("testing agent " + kAgent + " (profile p46)"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "targets"));
  auto report = Json::parse(read_text(out / "report.json"));
  EXPECT_EQ(report["schema"], "a2a-conform-result");
  EXPECT_EQ(report["role"], "agent");
  EXPECT_TRUE(fs::exists(out / "junit.xml"));
  EXPECT_TRUE(fs::exists(out / "report.html"));
}

TEST(MultiTarget, ExplicitReportPathsGetTheCombinedForm) {
  fs::path out = fresh_dir("multi-target-explicit");
  fs::create_directories(out);
  auto r = run_command(args({kConform, "run", "--agent", kAgent, "--agent", kAgent, "--json", (out / "all.json").string(),
                             "--html", (out / "all.html").string()},
                            selection()),
                       120000);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto index = Json::parse(read_text(out / "all.json"));
  EXPECT_EQ(index["schema"], "a2a-conform-multi-result");
  EXPECT_EQ(index["targets"].size(), 2u);
  EXPECT_EQ(index["targets"][1]["id"], "2-a2a-ref-agent");
  EXPECT_NE(read_text(out / "all.html").find("id=\"t2\""), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "targets"));
}

TEST(MultiTarget, UrlOnlyFlagsWithoutAUrlTargetAreAUsageError) {
  auto r = run_command(args({kConform, "run", "--agent", kAgent, "--agent", kAgent, "--header", "X-A: b"}, selection()),
                       30000);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--header only applies to --url targets"), std::string::npos) << r.err;
}

TEST(MultiTarget, TwoClientsAreTestedInTurn) {
  fs::path out = fresh_dir("multi-target-client");
  std::string client = std::string(A2A_REF_CLIENT) + " --timeout-ms 5000 --agent {target} script -";
  auto r = run_command({kConform, "client", "--cmd", client, "--cmd", client, "--id", "CLIENT-STDIO-HS-001", "-q",
                        "--color", "never", "--report-dir", out.string()},
                       120000);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto index = Json::parse(read_text(out / "report.json"));
  ASSERT_EQ(index["targets"].size(), 2u);
  EXPECT_EQ(index["targets"][0]["role"], "client");
  EXPECT_EQ(index["targets"][0]["target"], client);
  EXPECT_EQ(index["targets"][1]["verdict"], "CONFORMANT");
  EXPECT_NE(r.out.find("=== target 2/2: client " + client), std::string::npos) << r.out;
}

// A stdio agent and an HTTP agent in one run: each report names its profile,
// the wire profile for stdio, the A2A version of the interfaces over HTTP.
TEST(MultiTarget, AStdioAndAnHttpTargetEachStateTheirProfile) {
  a2a::testing::HttpPeer http({kAgent, "--http", "0", "-q"});
  ASSERT_TRUE(http.url().starts_with("http://127.0.0.1:")) << "agent did not say where it listens";
  fs::path out = fresh_dir("multi-target-mixed");
  auto r = run_command({kConform, "run", "--url", http.url(), "--agent", kAgent, "--id", "HTTP-SMOKE-001", "-q",
                        "--color", "never", "--report-dir", out.string(), kSrc + "/suites/http/smoke.acts.yaml"},
                       120000);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("=== target 1/2: agent " + http.url() + " (profile 1.0)"), std::string::npos) << r.out;
  auto index = Json::parse(read_text(out / "report.json"));
  ASSERT_EQ(index["targets"].size(), 2u);
  EXPECT_EQ(index["targets"][0]["target"], http.url());  // command-line order
  EXPECT_EQ(index["targets"][0]["profile"], "1.0");
  EXPECT_EQ(index["targets"][0]["protocol_versions"], (Json{"1.0"}));
  EXPECT_EQ(index["targets"][0]["counts"]["passed"], 2);  // jsonrpc and rest
  EXPECT_EQ(index["targets"][1]["target"], kAgent);
  EXPECT_EQ(index["targets"][1]["profile"], "p46");
  // Its one HTTP-only scenario does not apply to a stdio target: not a SKIP.
  EXPECT_EQ(index["targets"][1]["counts"]["skipped"], 0);
  auto stdio_own = Json::parse(read_text(out / index["targets"][1]["files"][0].get<std::string>()));
  ASSERT_EQ(stdio_own["not_applicable"].size(), 1u) << stdio_own.dump(1).substr(0, 2000);
  EXPECT_EQ(stdio_own["not_applicable"][0]["count"], 1);
  auto own = Json::parse(read_text(out / index["targets"][0]["files"][0].get<std::string>()));
  EXPECT_EQ(own["profile"], "1.0");
  EXPECT_EQ(own["role"], "agent");
}

}  // namespace e2e_multi_target
