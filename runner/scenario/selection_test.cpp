// Test selection: id globs (OR-ed, '!' excludes), tags, levels, sections, bindings.
#include <gtest/gtest.h>

#include "runner/scenario/selection.hpp"

namespace a2a::scenario {
namespace {

struct GlobCase {
  std::string name;
  std::string pattern;
  std::string text;
  bool match;
};

class Glob : public ::testing::TestWithParam<GlobCase> {};

TEST_P(Glob, MatchesTheWholeId) {
  EXPECT_EQ(glob_match(GetParam().pattern, GetParam().text), GetParam().match);
}

INSTANTIATE_TEST_SUITE_P(
    Selection, Glob,
    ::testing::ValuesIn(std::vector<GlobCase>{
        {"StarSuffix", "STDIO-FRAME-*", "STDIO-FRAME-004", true},
        {"StarSuffixOtherArea", "STDIO-FRAME-*", "STDIO-HS-001", false},
        {"Exact", "CORE-SEND-001", "CORE-SEND-001", true},
        {"ExactIsWhole", "CORE-SEND-00", "CORE-SEND-001", false},
        {"StarInside", "*-SEND-*", "CORE-SEND-002", true},
        {"QuestionMarkIsOneChar", "CORE-SEND-00?", "CORE-SEND-003", true},
        {"QuestionMarkNeedsAChar", "CORE-SEND-00?", "CORE-SEND-00", false},
        {"ClassRange", "CORE-SEND-00[1-2]", "CORE-SEND-002", true},
        {"ClassRangeMiss", "CORE-SEND-00[1-2]", "CORE-SEND-003", false},
        {"NegatedClass", "CORE-SEND-00[!1]", "CORE-SEND-002", true},
        {"CaseSensitive", "core-*", "CORE-SEND-001", false},
        {"StarMatchesEmpty", "CORE*", "CORE", true},
        {"BacktracksAcrossStars", "*A*B", "xAyAzB", true},
        {"UnclosedBracketIsLiteral", "A[1", "A[1", true},
    }),
    [](const auto& info) { return info.param.name; });

scenario::Test make_test(std::string id, Level level, std::vector<std::string> tags, std::string spec_ref,
               std::string binding, std::vector<std::string> transport = {}) {
  scenario::Test t;
  t.id = std::move(id);
  t.level = level;
  t.tags = std::move(tags);
  t.spec_ref = std::move(spec_ref);
  t.binding = std::move(binding);
  t.transport = std::move(transport);
  return t;
}

std::vector<Document> sample() {
  Document d;
  Suite s;
  s.tests = {
      make_test("STDIO-FRAME-001", Level::kMust, {"framing"}, "stdio-binding.md §2.2", "stdio"),
      make_test("STDIO-FRAME-004", Level::kShould, {"framing", "negative"}, "stdio-binding.md §8.2 F4",
                "stdio"),
      make_test("STDIO-HS-001", Level::kMust, {"handshake"}, "stdio-binding.md §3.2", "stdio"),
      make_test("CORE-SEND-001", Level::kMust, {"core"}, "A2A spec §3.1.1", ""),
      make_test("JSONRPC-ERR-001", Level::kMay, {"core", "jsonrpc"}, "JSON-RPC 2.0 §5", "", {"jsonrpc"}),
  };
  d.suites.push_back(s);
  return {d};
}

std::vector<std::string> ids_of(const std::vector<Document>& docs, const Selection& s) {
  std::vector<std::string> out;
  for (const scenario::Test* t : select_tests(docs, s)) out.push_back(t->id);
  return out;
}

using Ids = std::vector<std::string>;

TEST(Selection, EmptySelectionKeepsEverything) {
  auto docs = sample();
  EXPECT_EQ(ids_of(docs, {}).size(), 5u);
  EXPECT_TRUE(Selection{}.empty());
}

TEST(Selection, IdGlobsAreOred) {
  auto docs = sample();
  Selection s;
  s.ids = {"STDIO-FRAME-*", "CORE-*"};
  EXPECT_EQ(ids_of(docs, s), (Ids{"STDIO-FRAME-001", "STDIO-FRAME-004", "CORE-SEND-001"}));
}

TEST(Selection, ExclusionWinsOverInclusion) {
  auto docs = sample();
  Selection s;
  s.ids = {"STDIO-*", "!*-004"};
  EXPECT_EQ(ids_of(docs, s), (Ids{"STDIO-FRAME-001", "STDIO-HS-001"}));
}

TEST(Selection, OnlyExclusionsStartFromEverything) {
  auto docs = sample();
  Selection s;
  s.ids = {"!STDIO-*"};
  EXPECT_EQ(ids_of(docs, s), (Ids{"CORE-SEND-001", "JSONRPC-ERR-001"}));
}

TEST(Selection, TagsIncludeAndExclude) {
  auto docs = sample();
  Selection s;
  s.tags = {"framing", "core", "!negative"};
  EXPECT_EQ(ids_of(docs, s), (Ids{"STDIO-FRAME-001", "CORE-SEND-001", "JSONRPC-ERR-001"}));
}

TEST(Selection, LevelsFilter) {
  auto docs = sample();
  Selection s;
  s.levels = {Level::kShould, Level::kMay};
  EXPECT_EQ(ids_of(docs, s), (Ids{"STDIO-FRAME-004", "JSONRPC-ERR-001"}));
}

TEST(Selection, SectionIsACaseInsensitiveSubstringOfSpecRef) {
  auto docs = sample();
  Selection s;
  s.sections = {"§8.2", "json-rpc"};
  EXPECT_EQ(ids_of(docs, s), (Ids{"STDIO-FRAME-004", "JSONRPC-ERR-001"}));
}

TEST(Selection, BindingUsesXBindingThenTransportThenAll) {
  auto docs = sample();
  Selection s;
  s.bindings = {"jsonrpc"};
  EXPECT_EQ(ids_of(docs, s), (Ids{"CORE-SEND-001", "JSONRPC-ERR-001"}));
  s.bindings = {"stdio"};
  EXPECT_EQ(ids_of(docs, s), (Ids{"STDIO-FRAME-001", "STDIO-FRAME-004", "STDIO-HS-001", "CORE-SEND-001"}));
}

TEST(Selection, FiltersAreAnded) {
  auto docs = sample();
  Selection s;
  s.ids = {"STDIO-*"};
  s.levels = {Level::kMust};
  s.tags = {"handshake"};
  EXPECT_EQ(ids_of(docs, s), (Ids{"STDIO-HS-001"}));
}

TEST(Selection, SplitListTrimsAndDropsBlanks) {
  EXPECT_EQ(split_list(" a, b,,c ,"), (Ids{"a", "b", "c"}));
  EXPECT_TRUE(split_list("").empty());
}

}  // namespace
}  // namespace a2a::scenario
