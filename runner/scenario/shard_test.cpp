// Sharding: stable, disjoint, covering; the flag and the engines' variables.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "runner/core/shard_of.hpp"
#include "runner/scenario/shard.hpp"

namespace a2a::scenario {
namespace {

EnvFn env_of(std::map<std::string, std::string> vars) {
  return [vars](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

std::vector<scenario::Test> make_tests(int n) {
  std::vector<scenario::Test> out(n);
  for (int i = 0; i < n; ++i) out[i].id = "T-" + std::to_string(1000 + i);
  return out;
}

std::vector<const scenario::Test*> pointers(const std::vector<scenario::Test>& tests) {
  std::vector<const scenario::Test*> out;
  for (const auto& t : tests) out.push_back(&t);
  return out;
}

TEST(ShardHash, IsFnv1aSoItNeverChangesAcrossBuilds) {
  // Published FNV-1a 64 values: a change here re-deals every user's shards.
  EXPECT_EQ(core::fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(core::fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(core::fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(Shard, EveryTestLandsInExactlyOneShardOfN) {
  auto tests = make_tests(257);
  auto all = pointers(tests);
  for (int n : {1, 2, 3, 7, 16}) {
    std::multiset<const scenario::Test*> seen;
    for (int k = 1; k <= n; ++k) {
      Shard s;
      s.index = k;
      s.total = n;
      for (const auto* t : apply_shard(all, s)) seen.insert(t);
    }
    EXPECT_EQ(seen.size(), all.size()) << n << " shards";
    for (const auto* t : all) EXPECT_EQ(seen.count(t), 1u) << t->id << " in " << n << " shards";
  }
}

TEST(Shard, ATestKeepsItsShardWhateverElseIsSelected) {
  auto tests = make_tests(60);
  auto all = pointers(tests);
  std::vector<const scenario::Test*> some(all.begin() + 10, all.begin() + 30);
  Shard s;
  s.index = 2;
  s.total = 3;
  auto from_all = apply_shard(all, s);
  for (const auto* t : apply_shard(some, s))
    EXPECT_NE(std::find(from_all.begin(), from_all.end(), t), from_all.end()) << t->id;
}

TEST(Shard, KeepsSelectionOrderAndSplitsRoughlyEvenly) {
  auto tests = make_tests(300);
  auto all = pointers(tests);
  Shard s;
  s.total = 3;
  for (int k = 1; k <= 3; ++k) {
    s.index = k;
    auto part = apply_shard(all, s);
    EXPECT_GT(part.size(), 60u) << "shard " << k;
    EXPECT_TRUE(std::is_sorted(part.begin(), part.end())) << "shard " << k << " reorders the selection";
  }
}

TEST(Shard, OneShardIsTheWholeSelection) {
  auto tests = make_tests(5);
  auto all = pointers(tests);
  EXPECT_EQ(apply_shard(all, Shard{}), all);
}

struct ParseCase {
  std::string name, text;
  bool ok;
  int index, total;
  std::string error;  // part of the message when !ok
};

class ParseShard : public ::testing::TestWithParam<ParseCase> {};

TEST_P(ParseShard, AcceptsKOverNAndSaysWhatIsWrongOtherwise) {
  const auto& c = GetParam();
  auto s = parse_shard(c.text);
  ASSERT_EQ(s.ok(), c.ok) << c.text;
  if (c.ok) {
    EXPECT_EQ(s->index, c.index);
    EXPECT_EQ(s->total, c.total);
  } else {
    EXPECT_EQ(s.error().kind, core::ErrorKind::kInvalidArgument);
    EXPECT_NE(s.error().message.find(c.error), std::string::npos) << s.error().message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shard, ParseShard,
    ::testing::ValuesIn(std::vector<ParseCase>{
        {"FirstOfThree", "1/3", true, 1, 3, ""},
        {"LastOfThree", "3/3", true, 3, 3, ""},
        {"OneOfOne", "1/1", true, 1, 1, ""},
        {"ZeroBasedIsRefused", "0/3", false, 0, 0, "K must be"},
        {"KOverN", "4/3", false, 0, 0, "K must be"},
        {"NoSlash", "3", false, 0, 0, "expected K/N"},
        {"ZeroShards", "1/0", false, 0, 0, "N must be"},
        {"NotANumber", "a/b", false, 0, 0, "must be a whole number"},
        {"TrailingJunk", "1/3x", false, 0, 0, "N must be"},
        {"Negative", "-1/3", false, 0, 0, "K must be"},
    }),
    [](const auto& info) { return info.param.name; });

TEST(ResolveShard, NothingSetIsUnsharded) {
  auto s = resolve_shard("", env_of({}));
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->sharded());
  EXPECT_EQ(s->source, "");
}

TEST(ResolveShard, BazelIndexIsZeroBased) {
  auto s = resolve_shard("", env_of({{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "0"},
                                     {"TEST_SHARD_STATUS_FILE", "/tmp/x"}}));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->str(), "1/3");
  EXPECT_EQ(s->source, "TEST_TOTAL_SHARDS");
  EXPECT_EQ(s->status_file, "/tmp/x");
}

TEST(ResolveShard, GoogleTestVariablesWhenBazelsAreUnset) {
  auto s = resolve_shard("", env_of({{"GTEST_TOTAL_SHARDS", "4"}, {"GTEST_SHARD_INDEX", "3"}}));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->str(), "4/4");
  EXPECT_EQ(s->source, "GTEST_TOTAL_SHARDS");
}

TEST(ResolveShard, FlagWinsOverBazelWhichWinsOverGoogleTest) {
  auto env = env_of({{"TEST_TOTAL_SHARDS", "3"}, {"TEST_SHARD_INDEX", "1"},
                     {"GTEST_TOTAL_SHARDS", "5"}, {"GTEST_SHARD_INDEX", "4"}});
  EXPECT_EQ(resolve_shard("1/2", env)->str(), "1/2");
  EXPECT_EQ(resolve_shard("", env)->str(), "2/3");
}

TEST(ResolveShard, HalfSetOrOutOfRangeVariablesNameTheVariable) {
  auto half = resolve_shard("", env_of({{"TEST_TOTAL_SHARDS", "3"}}));
  ASSERT_FALSE(half.ok());
  EXPECT_NE(half.error().message.find("TEST_SHARD_INDEX is not set"), std::string::npos) << half.error().message;
  auto range = resolve_shard("", env_of({{"GTEST_TOTAL_SHARDS", "3"}, {"GTEST_SHARD_INDEX", "3"}}));
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.error().message.find("GTEST_SHARD_INDEX=3"), std::string::npos) << range.error().message;
  auto junk = resolve_shard("", env_of({{"TEST_TOTAL_SHARDS", "x"}, {"TEST_SHARD_INDEX", "0"}}));
  ASSERT_FALSE(junk.ok());
  EXPECT_NE(junk.error().message.find("TEST_TOTAL_SHARDS=x"), std::string::npos) << junk.error().message;
}

}  // namespace
}  // namespace a2a::scenario
