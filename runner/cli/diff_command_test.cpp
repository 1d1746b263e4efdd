// `a2a-conform diff` through main_with_args on report files written by hand:
// both report shapes (one run, a combined index of several targets), the
// exit codes 0, 1 and 2, and errors that name the file and what is wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "runner/cli/cli.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A run of one target: id -> outcome, binding stdio.
Json run_json(const std::vector<std::pair<std::string, std::string>>& outcomes, const std::string& target = "./agent") {
  Json j = {{"schema", "a2a-conform-result"}, {"schema_version", 2}, {"target", target}, {"scenarios", Json::array()}};
  for (const auto& [id, outcome] : outcomes)
    j["scenarios"].push_back({{"id", id}, {"binding", "stdio"}, {"outcome", outcome}, {"level", "must"}});
  return j;
}

// A combined index whose targets' report.json files sit under DIR/targets/.
void write_index(const fs::path& dir, const std::vector<Json>& runs) {
  Json index = {{"schema", "a2a-conform-multi-result"}, {"schema_version", 1}, {"targets", Json::array()}};
  for (size_t i = 0; i < runs.size(); ++i) {
    std::string rel = "targets/" + std::to_string(i + 1) + "-agent/report.json";
    write(dir / rel, runs[i].dump());
    index["targets"].push_back({{"index", i + 1}, {"id", std::to_string(i + 1) + "-agent"}, {"files", {rel}}});
  }
  write(dir / "report.json", index.dump());
}

struct Outcome {
  int code;
  std::string out, err;
};

Outcome diff(std::vector<std::string> args) {
  args.insert(args.begin(), {"a2a-conform", "diff"});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int code = a2a::cli::main_with_args(static_cast<int>(argv.size()), argv.data());
  std::string out = testing::internal::GetCapturedStdout();
  return {code, out, testing::internal::GetCapturedStderr()};
}

}  // namespace

TEST(DiffCommand, ExitsOneWhenSomethingRegressedAndWritesMarkdownAndJson) {
  auto dir = fresh_dir("diff-command-single");
  write(dir / "old.json", run_json({{"A-1", "PASS"}, {"A-2", "PASS"}}).dump());
  write(dir / "new.json", run_json({{"A-1", "FAIL"}, {"A-2", "PASS"}}).dump());
  auto r = diff({(dir / "old.json").string(), (dir / "new.json").string(), "--markdown", (dir / "diff.md").string(),
                 "--json", (dir / "diff.json").string()});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("A-1  [must, stdio]  PASS -> FAIL"), std::string::npos) << r.out;
  std::ifstream md(dir / "diff.md");
  std::string text((std::istreambuf_iterator<char>(md)), {});
  EXPECT_NE(text.find("REGRESSED"), std::string::npos);
  std::ifstream js(dir / "diff.json");
  auto j = Json::parse(js);
  EXPECT_EQ(j["regressions"][0]["id"], "A-1");
}

TEST(DiffCommand, ExitsZeroForAReportAgainstItself) {
  auto dir = fresh_dir("diff-command-self");
  write(dir / "run.json", run_json({{"A-1", "FAIL"}, {"A-2", "PASS"}}).dump());
  auto r = diff({(dir / "run.json").string(), (dir / "run.json").string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("NO REGRESSIONS: 0 regressions"), std::string::npos) << r.out;
}

TEST(DiffCommand, ReadsCombinedReportsOfSeveralTargets) {
  auto old_dir = fresh_dir("diff-command-multi-old");
  auto new_dir = fresh_dir("diff-command-multi-new");
  write_index(old_dir, {run_json({{"A-1", "PASS"}}, "./a"), run_json({{"A-1", "FAIL"}}, "./b")});
  write_index(new_dir, {run_json({{"A-1", "PASS"}}, "./a"), run_json({{"A-1", "PASS"}}, "./b")});
  auto r = diff({(old_dir / "report.json").string(), (new_dir / "report.json").string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("target 2: A-1  [must, stdio]  FAIL -> PASS"), std::string::npos) << r.out;
}

TEST(DiffCommand, AOneTargetReportAndAOneTargetIndexCompare) {
  auto dir = fresh_dir("diff-command-mixed");
  write(dir / "old.json", run_json({{"A-1", "PASS"}}).dump());
  write_index(dir / "new", {run_json({{"A-1", "ERROR"}})});
  auto r = diff({(dir / "old.json").string(), (dir / "new" / "report.json").string()});
  EXPECT_EQ(r.code, 1) << r.err;
}

struct BadInput {
  const char* name;
  const char* content;  // nullptr: the file is missing
  const char* says;
};

class DiffCommandBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(DiffCommandBadInput, ExitsTwoNamingTheFile) {
  auto dir = fresh_dir(std::string("diff-command-bad-") + GetParam().name);
  write(dir / "good.json", run_json({{"A-1", "PASS"}}).dump());
  auto bad = dir / "bad.json";
  if (GetParam().content) write(bad, GetParam().content);
  auto r = diff({(dir / "good.json").string(), bad.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a2a-conform diff: NEW " + bad.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(GetParam().says), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Files, DiffCommandBadInput,
    ::testing::Values(BadInput{"Missing", nullptr, "not found"},
                      BadInput{"NotJson", "{\"schema\": ", "not valid JSON"},
                      BadInput{"NotAReport", "{\"schema\": \"something-else\"}", "/schema must be \"a2a-conform-result\""},
                      BadInput{"BadOutcome",
                               R"({"schema":"a2a-conform-result","schema_version":2,"scenarios":[{"id":"A","outcome":"MAYBE"}]})",
                               "outcome"},
                      BadInput{"IndexWithoutReports",
                               R"({"schema":"a2a-conform-multi-result","schema_version":1,"targets":[{"id":"1-x","files":[]}]})",
                               "lists no report.json"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(DiffCommand, DifferentNumbersOfTargetsAreAUsageError) {
  auto dir = fresh_dir("diff-command-targets");
  write(dir / "old.json", run_json({{"A-1", "PASS"}}).dump());
  write_index(dir / "new", {run_json({{"A-1", "PASS"}}), run_json({{"A-1", "PASS"}})});
  auto r = diff({(dir / "old.json").string(), (dir / "new" / "report.json").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("has 1 target(s)"), std::string::npos) << r.err;
}

TEST(DiffCommand, NeedsTwoFiles) {
  auto r = diff({"only-one.json"});
  EXPECT_EQ(r.code, 2);
}
