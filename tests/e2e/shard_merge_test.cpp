// Sharding and merging, end to end: `run --shard K/N` on the real runner and
// reference agent, then `merge` of the shards' report.json files, compared
// with one unsharded run of the same selection; the Bazel and GoogleTest
// variables pick the same shard as --shard; a missing or doubled shard is an
// error that names it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_shard_merge {

namespace fs = std::filesystem;
using a2a::testing::run_command;
using Json = nlohmann::json;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;
// Breaks STDIO-LIFE-001..003 and FRAME-024 (fixtures/fault-matrix.yaml): the merged
// verdict must carry a failure found by one shard.
const std::string kFaulty = kAgent + " --fault life-exit-nonzero-on-eof";  // four MUST failures, no waits

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Json read_json(const fs::path& p) {
  std::ifstream in(p);
  return Json::parse(in);
}

std::vector<std::string> args(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// suites/stdio's lifecycle and framing files: enough scenarios (about 40)
// for three shards to be non-trivial, a few seconds each.
std::vector<std::string> stdio_selection() {
  return {kSrc + "/suites/stdio", "--id", "STDIO-LIFE-*", "--id", "STDIO-FRAME-0[0-2]*", "-j2", "-q", "--color", "never"};
}

// (id@binding) -> outcome, in report order.
std::vector<std::pair<std::string, std::string>> outcomes(const Json& report) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& s : report["scenarios"])
    out.emplace_back(s["id"].get<std::string>() + "@" + s["binding"].get<std::string>(), s["outcome"]);
  return out;
}

std::set<std::string> ids_of_list(const std::string& out) {
  std::set<std::string> ids;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) ids.insert(line.substr(0, line.find(' ')));
  return ids;
}

}  // namespace

TEST(ShardMerge, ThreeShardsMergedEqualOneUnshardedRun) {
  fs::path dir = fresh_dir("shard-merge-stdio");
  auto whole = run_command(args({kConform, "run", "--agent", kFaulty, "--json", (dir / "whole.json").string()},
                                stdio_selection()),
                           240000);
  ASSERT_FALSE(whole.timed_out);
  ASSERT_EQ(whole.exit_code, 1) << whole.out << whole.err;
  size_t sum = 0;
  for (int k = 1; k <= 3; ++k) {
    auto part = "s" + std::to_string(k) + ".json";
    auto r = run_command(args({kConform, "run", "--agent", kFaulty, "--shard", std::to_string(k) + "/3", "--json",
                               (dir / part).string()},
                              stdio_selection()),
                         240000);
    ASSERT_FALSE(r.timed_out);
    ASSERT_NE(r.exit_code, 2) << r.out << r.err;
    auto j = read_json(dir / part);
    EXPECT_EQ(j["shard"]["index"], k);
    EXPECT_EQ(j["shard"]["total"], 3);
    EXPECT_GT(j["scenarios"].size(), 3u) << "shard " << k << " is nearly empty";
    sum += j["scenarios"].size();
  }
  auto unsharded = read_json(dir / "whole.json");
  EXPECT_EQ(sum, unsharded["scenarios"].size()) << "the shards must cover the selection exactly once";

  fs::path out = dir / "merged";
  auto m = run_command({kConform, "merge", (dir / "s3.json").string(), (dir / "s1.json").string(),
                        (dir / "s2.json").string(), "--report-dir", out.string(), "-q", "--color", "never"},
                       60000);
  EXPECT_EQ(m.exit_code, whole.exit_code) << m.out << m.err;
  auto merged = read_json(out / "report.json");
  EXPECT_EQ(outcomes(merged), outcomes(unsharded)) << "per-scenario outcomes or their order differ";
  EXPECT_EQ(merged["exit_code"], unsharded["exit_code"]);
  EXPECT_EQ(merged["conformant"], unsharded["conformant"]);
  EXPECT_EQ(merged["counts"], unsharded["counts"]);
  EXPECT_FALSE(merged.contains("shard")) << "a merged report is a whole run";
  EXPECT_EQ(merged["command_line"].get<std::string>().find("--shard"), std::string::npos);
  for (const char* f : {"junit.xml", "report.html"}) EXPECT_TRUE(fs::exists(out / f)) << f;
  bool acts = false;
  for (const auto& e : fs::directory_iterator(out)) acts = acts || e.path().filename().string().starts_with("acts-");
  EXPECT_TRUE(acts) << "no ACTS report in " << out;
  EXPECT_NE(m.out.find("passed"), std::string::npos) << m.out;

  // One shard of three missing: named, with its scenarios; exit 2.
  auto missing = run_command({kConform, "merge", (dir / "s1.json").string(), (dir / "s3.json").string(), "-q"}, 60000);
  EXPECT_EQ(missing.exit_code, 2) << missing.out << missing.err;
  EXPECT_NE(missing.err.find("shard 2/3 is missing"), std::string::npos) << missing.err;
  // The same shard twice: both the shard and its scenarios are doubled.
  auto twice = run_command({kConform, "merge", (dir / "s1.json").string(), (dir / "s2.json").string(),
                            (dir / "s3.json").string(), (dir / "s2.json").string(), "-q"},
                           60000);
  EXPECT_EQ(twice.exit_code, 2) << twice.out << twice.err;
  EXPECT_NE(twice.err.find("shard 2/3 is given twice"), std::string::npos) << twice.err;
  EXPECT_NE(twice.err.find(" is in both "), std::string::npos) << twice.err;
}

TEST(ShardMerge, BazelAndGoogleTestVariablesPickTheSameShardAsTheFlag) {
  std::vector<std::string> list = {kConform, "list", kSrc + "/suites/stdio", kSrc + "/suites/a2a"};
  auto flag = run_command(args(list, {"--shard", "2/3"}), 30000);
  ASSERT_EQ(flag.exit_code, 0) << flag.err;
  auto bazel = run_command(list, 30000, {{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "1"}});
  ASSERT_EQ(bazel.exit_code, 0) << bazel.err;
  auto gtest = run_command(list, 30000, {{"GTEST_TOTAL_SHARDS", "3"}, {"GTEST_SHARD_INDEX", "1"}});
  ASSERT_EQ(gtest.exit_code, 0) << gtest.err;
  auto all = run_command(list, 30000);
  EXPECT_GT(ids_of_list(flag.out).size(), 10u);
  EXPECT_EQ(ids_of_list(bazel.out), ids_of_list(flag.out));
  EXPECT_EQ(ids_of_list(gtest.out), ids_of_list(flag.out));
  EXPECT_LT(ids_of_list(flag.out).size(), ids_of_list(all.out).size());
  // N=1 is the unsharded selection.
  auto one = run_command(args(list, {"--shard", "1/1"}), 30000);
  EXPECT_EQ(one.out, all.out);
  // Bazel's protocol: a sharded run touches TEST_SHARD_STATUS_FILE.
  fs::path dir = fresh_dir("shard-bazel");
  fs::path status = dir / "shard-status";
  auto run = run_command({kConform, "run", "--agent", kAgent, kSrc + "/suites/stdio", "--id", "STDIO-LIFE-00[1-4]",
                          "-q", "--json", (dir / "r.json").string()},
                         60000,
                         {{"TEST_TOTAL_SHARDS", "2"}, {"TEST_SHARD_INDEX", "0"},
                          {"TEST_SHARD_STATUS_FILE", status.string()}});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(fs::exists(status)) << "TEST_SHARD_STATUS_FILE was not touched";
  EXPECT_EQ(read_json(dir / "r.json")["shard"]["index"], 1);
  // A bad variable is a usage error that names it.
  auto bad = run_command(list, 30000, {{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "3"}});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("TEST_SHARD_INDEX=3"), std::string::npos) << bad.err;
}

TEST(ShardMerge, UrlShardsKeepEveryBindingAndMergeInUnshardedOrder) {
  a2a::testing::HttpPeer http({kAgent, "--http", "0", "-q"});
  ASSERT_TRUE(http.ok()) << http.error();
  fs::path dir = fresh_dir("shard-merge-http");
  std::vector<std::string> sel = {kSrc + "/suites/a2a", "--id", "A2A-CORE-00*", "-j2", "-q", "--color", "never"};
  auto whole = run_command(args({kConform, "run", "--url", http.url(), "--json", (dir / "whole.json").string()}, sel),
                           240000);
  ASSERT_EQ(whole.exit_code, 0) << whole.out << whole.err;
  std::vector<std::string> merge = {kConform, "merge", "-q", "--json", (dir / "merged.json").string(), "--markdown",
                                    (dir / "merged.md").string()};
  for (int k = 1; k <= 2; ++k) {
    auto part = (dir / ("s" + std::to_string(k) + ".json")).string();
    auto r = run_command(
        args({kConform, "run", "--url", http.url(), "--shard", std::to_string(k) + "/2", "--json", part}, sel),
        240000);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    merge.push_back(part);
  }
  auto m = run_command(merge, 60000);
  EXPECT_EQ(m.exit_code, 0) << m.out << m.err;
  auto unsharded = read_json(dir / "whole.json"), merged = read_json(dir / "merged.json");
  EXPECT_EQ(outcomes(merged), outcomes(unsharded));
  EXPECT_EQ(merged["bindings"], unsharded["bindings"]);
  EXPECT_GE(merged["bindings"].size(), 2u);
  // --markdown: the verdict, then a support matrix with a column per binding
  // and one row per requirement, whatever binding it ran on.
  auto md = read_text(dir / "merged.md");
  EXPECT_EQ(md.rfind("## A2A conformance: CONFORMANT", 0), 0u) << md;
  std::string header = "| Requirement | Level | Title |";
  for (const auto& b : merged["bindings"]) header += " " + b.get<std::string>() + " |";
  EXPECT_NE(md.find(header + "\n"), std::string::npos) << md;
  std::set<std::string> ids;
  for (const auto& s : merged["scenarios"]) ids.insert(s["id"].get<std::string>());
  for (const auto& id : ids) EXPECT_EQ(md.find("| " + id + " |") != std::string::npos, true) << id << "\n" << md;
  size_t rows = 0;
  for (size_t p = md.find("\n| A2A-"); p != std::string::npos; p = md.find("\n| A2A-", p + 1)) ++rows;
  EXPECT_EQ(rows, ids.size()) << md;
}

TEST(ShardMerge, ReportsOfTwoTargetsMergeIntoACombinedReport) {
  fs::path dir = fresh_dir("shard-merge-targets");
  std::vector<std::string> sel = {kSrc + "/suites/stdio", "--id", "STDIO-LIFE-00[1-2]", "-q", "--color", "never"};
  auto a = run_command(args({kConform, "run", "--agent", kAgent, "--json", (dir / "a.json").string()}, sel), 60000);
  auto b = run_command(args({kConform, "run", "--agent", kFaulty, "--json", (dir / "b.json").string()}, sel), 60000);
  ASSERT_EQ(a.exit_code, 0) << a.out << a.err;
  ASSERT_EQ(b.exit_code, 1) << b.out << b.err;
  fs::path out = dir / "out";
  auto m = run_command({kConform, "merge", (dir / "a.json").string(), (dir / "b.json").string(), "--report-dir",
                        out.string(), "--markdown", (out / "summary.md").string(), "-q", "--color", "never"},
                       60000);
  EXPECT_EQ(m.exit_code, 1) << m.out << m.err;
  auto index = read_json(out / "report.json");
  ASSERT_EQ(index["targets"].size(), 2u);
  EXPECT_EQ(index["targets"][0]["target"], kAgent);
  EXPECT_EQ(index["targets"][1]["target"], kFaulty);
  EXPECT_EQ(index["targets"][1]["exit_code"], 1);
  auto md = read_text(out / "summary.md");
  EXPECT_EQ(md.rfind("## A2A conformance: NOT CONFORMANT \xe2\x80\x94 2 targets\n", 0), 0u) << md;
  EXPECT_NE(md.find("### 1. A2A conformance: CONFORMANT"), std::string::npos) << md;
  EXPECT_NE(md.find("### 2. A2A conformance: NOT CONFORMANT"), std::string::npos) << md;
  EXPECT_NE(md.find("| Requirement | Level | Title | stdio (p46) | Reason |"), std::string::npos) << md;
  // The combined index reads back as input: the same targets again.
  auto again = run_command({kConform, "merge", (out / "report.json").string(), "-q"}, 60000);
  EXPECT_EQ(again.exit_code, 1) << again.out << again.err;
  // Not a report at all: a clear usage error naming the file.
  std::ofstream(dir / "junk.json") << "{\"hello\": 1}";
  auto junk = run_command({kConform, "merge", (dir / "junk.json").string()}, 30000);
  EXPECT_EQ(junk.exit_code, 2);
  EXPECT_NE(junk.err.find("junk.json"), std::string::npos) << junk.err;
}

}  // namespace e2e_shard_merge
