// The loader's bounds (limits.hpp, docs/scenario-format.md "Limits"): each
// limit at its edge (the limit itself loads, one more is refused at the node
// that crossed it), and the alias bomb of issue 18 refused without expanding.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>

#include <gtest/gtest.h>

#include "runner/scenario/loader.hpp"
#include "runner/scenario/parse_support.hpp"
#include "runner/scenario/test_support.hpp"

#ifndef A2A_SOURCE_DIR
#define A2A_SOURCE_DIR "."
#endif

namespace a2a::scenario::limits_test {
namespace {

using testing::TempDir;

const std::string kName = "dir/l.yaml";

// Loads `yaml` under `limits`: "" when it loads, else the error message.
std::string problem(std::string_view yaml, const LoadLimits& limits) {
  auto r = detail::parse_yaml_text(yaml, kName, limits);
  return r ? "" : r.error().message;
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

TEST(LoadLimits, NodesAtTheLimitLoadAndOneMoreIsRefusedAtThatNode) {
  LoadLimits l;
  l.max_nodes = 4;  // the list and its three items
  EXPECT_EQ(problem("[a, b, c]", l), "");
  l.max_nodes = 3;
  EXPECT_EQ(problem("[a, b, c]", l),
            kName + ":1:8: more than 3 YAML nodes (scenario limit --max-scenario-nodes)");
}

TEST(LoadLimits, DepthAtTheLimitLoadsAndOneLevelMoreIsRefused) {
  LoadLimits l;
  l.max_depth = 3;
  EXPECT_EQ(problem("[[[x]]]", l), "");
  l.max_depth = 2;
  EXPECT_EQ(problem("[[[x]]]", l), kName + ":1:3: lists and maps nested deeper than 2 levels "
                                           "(scenario limit; docs/scenario-format.md \"Limits\")");
}

TEST(LoadLimits, DeepNestingIsRefusedByTheLimitNotByTheParsersOwnGuard) {
  // yaml-cpp's own guard says only "bad file" past its depth.
  std::string deep(3000, '[');
  auto msg = problem(deep + "x" + std::string(3000, ']'), LoadLimits{});
  EXPECT_NE(msg.find(kName + ":1:65: lists and maps nested deeper than 64 levels"), std::string::npos) << msg;
}

TEST(LoadLimits, AliasesAtTheLimitLoadAndOneMoreIsRefused) {
  LoadLimits l;
  l.max_aliases = 2;
  EXPECT_EQ(problem("{a: &x 1, b: *x, c: *x}", l), "");
  l.max_aliases = 1;
  EXPECT_EQ(problem("{a: &x 1, b: *x, c: *x}", l),
            kName + ":1:21: more than 1 aliases (scenario limit; docs/scenario-format.md \"Limits\")");
}

TEST(LoadLimits, AnAliasCountsAsTheNodesItStandsFor) {
  // map, key a, list of 3, key b, and *x standing for 4 nodes: 11.
  const std::string yaml = "a: &x [1, 2, 3]\nb: *x\n";
  LoadLimits l;
  l.max_nodes = 11;
  EXPECT_EQ(problem(yaml, l), "");
  l.max_nodes = 10;
  EXPECT_EQ(problem(yaml, l), kName + ":2:4: with this alias expanded, the document has more than 10 YAML nodes "
                                      "(scenario limit --max-scenario-nodes; an alias counts as the nodes it "
                                      "stands for, and is not expanded)");
}

TEST(LoadLimits, AnAliasCountsAsTheTextItStandsFor) {
  // Keys a, b, c and three times ten letters: 33 bytes of text in a 29-byte file.
  const std::string yaml = "a: &x abcdefghij\nb: *x\nc: *x\n";
  LoadLimits l;
  l.max_bytes = 33;
  EXPECT_EQ(problem(yaml, l), "");
  l.max_bytes = 32;
  auto msg = problem(yaml, l);
  EXPECT_NE(msg.find(kName + ":3:4: with this alias expanded, the document has more than 32 bytes of string text"),
            std::string::npos) << msg;
}

TEST(LoadLimits, AStringAtTheLimitLoadsAndOneByteMoreIsRefused) {
  LoadLimits l;
  l.max_scalar_bytes = 6;
  EXPECT_EQ(problem("k: abcdef", l), "");
  l.max_scalar_bytes = 5;
  auto msg = problem("k: abcdef", l);
  EXPECT_NE(msg.find(kName + ":1:4: a string of 6 bytes, over the limit of 5 bytes"), std::string::npos) << msg;
}

TEST(LoadLimits, TextAtTheByteLimitLoadsAndOneByteMoreIsRefused) {
  const std::string yaml = "k: v\n";
  LoadLimits l;
  l.max_bytes = yaml.size();
  EXPECT_EQ(problem(yaml, l), "");
  l.max_bytes = yaml.size() - 1;
  EXPECT_EQ(problem(yaml, l), kName + ":1:1: the file is 5 bytes, over the limit of 4 bytes "
                                      "(scenario limit --max-scenario-bytes)");
}

TEST(LoadLimits, AnAliasInsideTheNodeItNamesIsACycleNotARecursion) {
  auto msg = problem("a: &x [1, *x]\n", LoadLimits{});
  EXPECT_EQ(msg, kName + ":1:11: an alias inside the node its anchor names (a cycle)");
}

TEST(LoadLimits, AFileLargerThanTheLimitIsRefusedFromItsSize) {
  TempDir dir;
  std::string doc = testing::doc_with_tests("      - {id: T, name: t, level: may, steps: [{id: g, operation: get_task, params: {id: x}}]}\n");
  auto path = dir.write("big.acts.yaml", doc);
  LoadLimits l;
  l.max_bytes = doc.size();
  auto at_limit = load_document(path, l);
  EXPECT_TRUE(at_limit.ok()) << at_limit.error().message;
  l.max_bytes = doc.size() - 1;
  auto r = load_document(path, l);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::kIo);
  EXPECT_EQ(r.error().message, path.generic_string() + ":1:1: the file is " + std::to_string(doc.size()) +
                                   " bytes, over the limit of " + std::to_string(doc.size() - 1) +
                                   " bytes (scenario limit --max-scenario-bytes)");
}

TEST(LoadLimits, AFifoIsRefusedAsNotARegularFileWithoutBlocking) {
  TempDir dir;
  auto fifo = dir.path() / "pipe.acts.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = load_document(fifo);  // opening a FIFO for reading would block
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::kIo);
  EXPECT_EQ(r.error().message, fifo.generic_string() + ": is a FIFO (named pipe), not a regular file");
  // Included, it is the same error, not "not found".
  auto main = dir.write("main.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude: [pipe.acts.yaml]\n");
  auto all = load_with_includes(main);
  ASSERT_FALSE(all.ok());
  EXPECT_NE(all.error().message.find("is a FIFO (named pipe), not a regular file"), std::string::npos)
      << all.error().message;
}

TEST(LoadLimits, TheAliasBombIsRefusedInMillisecondsWithoutBeingExpanded) {
  const std::string path = std::string(A2A_SOURCE_DIR) + "/fixtures/scenarios/refused/alias-bomb.acts.yaml";
  long rss_before = peak_rss_kib();
  auto t0 = std::chrono::steady_clock::now();
  auto r = load_with_includes(path);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(r.ok());
  // Levels a to e add up to 123,350 nodes; the first alias of level f (it
  // stands for 111,111) crosses 200,000 and is refused.
  EXPECT_NE(r.error().message.find("alias-bomb.acts.yaml:21:22: "), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("with this alias expanded, the document has more than 200000 YAML nodes"),
            std::string::npos)
      << r.error().message;
  // Expanded, it would be 10^9 strings: minutes and tens of gigabytes.
  EXPECT_LT(ms, 1000);
  EXPECT_LT(peak_rss_kib() - rss_before, 20 * 1024) << "the peak resident set grew: the aliases were expanded";
}

}  // namespace
}  // namespace a2a::scenario::limits_test
