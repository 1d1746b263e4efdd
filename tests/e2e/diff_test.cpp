// `a2a-conform diff` end to end: the real runner against the reference agent
// over stdio, once clean and once with a fault that breaks lifecycle
// scenarios; the diff of the two exits 1 and names what regressed, the clean
// report against itself exits 0. Two short runs (a handful of scenarios
// without waits), so it stays cheap in CI.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_diff {

namespace fs = std::filesystem;
using a2a::testing::run_command;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;
// Breaks STDIO-LIFE-001..003 (fixtures/fault-matrix.yaml) at once, no waits.
const std::string kFault = "life-exit-nonzero-on-eof";

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// One run of STDIO-LIFE-001..003 and a framing scenario the fault leaves alone.
a2a::testing::CommandResult run_suite(const std::string& agent, const fs::path& json) {
  return run_command({kConform, "run", "--agent", agent, kSrc + "/suites/stdio", "--id", "STDIO-LIFE-00[1-3]", "--id",
                      "STDIO-FRAME-001", "-j2", "-q", "--color", "never", "--json", json.string()},
                     120000);
}

}  // namespace

TEST(DiffEndToEnd, AFaultRunAgainstACleanRunRegressesAndACleanRunAgainstItselfDoesNot) {
  fs::path dir = fresh_dir("diff-e2e");
  auto clean = run_suite(kAgent, dir / "clean.json");
  ASSERT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  auto fault = run_suite(kAgent + " --fault " + kFault, dir / "fault.json");
  ASSERT_EQ(fault.exit_code, 1) << fault.out << fault.err;

  auto regressed = run_command({kConform, "diff", (dir / "clean.json").string(), (dir / "fault.json").string(),
                                "--markdown", (dir / "diff.md").string(), "--json", (dir / "diff.json").string()},
                               30000);
  EXPECT_EQ(regressed.exit_code, 1) << regressed.out << regressed.err;
  EXPECT_NE(regressed.out.find("STDIO-LIFE-001  [must, stdio]  PASS -> FAIL"), std::string::npos) << regressed.out;
  EXPECT_NE(regressed.out.find("REGRESSED: 3 regressions"), std::string::npos) << regressed.out;
  std::ifstream js(dir / "diff.json");
  auto j = nlohmann::json::parse(js);
  ASSERT_EQ(j["regressions"].size(), 3u);
  EXPECT_EQ(j["regressions"][0]["new_outcome"], "FAIL");
  std::ifstream md(dir / "diff.md");
  std::string markdown((std::istreambuf_iterator<char>(md)), {});
  EXPECT_NE(markdown.find("| STDIO-LIFE-001 |"), std::string::npos) << markdown;

  auto same = run_command({kConform, "diff", (dir / "clean.json").string(), (dir / "clean.json").string()}, 30000);
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("NO REGRESSIONS: 0 regressions"), std::string::npos) << same.out;

  auto fixed = run_command({kConform, "diff", (dir / "fault.json").string(), (dir / "clean.json").string()}, 30000);
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out << fixed.err;
  EXPECT_NE(fixed.out.find("3 fixes"), std::string::npos) << fixed.out;
}

}  // namespace e2e_diff
