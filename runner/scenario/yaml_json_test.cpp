// YAML 1.2 core-schema typing: plain scalars get their type, quoted ones stay
// strings (ACTS assertions compare types: 1 is not "1").
#include <gtest/gtest.h>

#include <cmath>

#include "runner/scenario/yaml_json.hpp"

namespace a2a::scenario {
namespace {

struct ScalarCase {
  std::string name;
  std::string yaml;  // the value of key v
  nlohmann::json expected;
};

std::vector<ScalarCase> scalar_cases() {
  using J = nlohmann::json;
  return {
      {"QuotedNumberStaysString", "\"1.0\"", J("1.0")},
      {"SingleQuotedNumberStaysString", "'1'", J("1")},
      {"PlainIntegerIsInteger", "1", J(1)},
      {"NegativeInteger", "-42", J(-42)},
      {"LeadingZeroIsDecimal", "007", J(7)},
      {"HexInteger", "0x1F", J(31)},
      {"OctalInteger", "0o17", J(15)},
      {"PlainFloatIsFloat", "1.0", J(1.0)},
      {"ExponentFloat", "1e3", J(1000.0)},
      {"LeadingDotFloat", ".5", J(0.5)},
      {"NullWord", "null", J(nullptr)},
      {"Tilde", "~", J(nullptr)},
      {"EmptyValueIsNull", "", J(nullptr)},
      {"QuotedNullStaysString", "'null'", J("null")},
      {"TrueIsBool", "true", J(true)},
      {"CapitalFalseIsBool", "False", J(false)},
      {"QuotedTrueStaysString", "\"true\"", J("true")},
      {"YesIsAStringInYaml12", "yes", J("yes")},
      {"OnIsAStringInYaml12", "on", J("on")},
      {"UnderscoredDigitsAreAString", "1_000", J("1_000")},
      {"DateIsAString", "2024-01-01", J("2024-01-01")},
      {"EnumNameIsAString", "TASK_STATE_COMPLETED", J("TASK_STATE_COMPLETED")},
      {"ExplicitStrTag", "!!str 1", J("1")},
      {"ExplicitIntTagOnQuoted", "!!int \"3\"", J(3)},
      {"Int64Max", "9223372036854775807", J(int64_t{9223372036854775807})},
      {"Uint64Max", "18446744073709551615", J(uint64_t{18446744073709551615ull})},
      {"VersionLikeTextIsString", "1.0.1", J("1.0.1")},
      {"BlockLiteralIsString", "|\n  12\n", J("12\n")},
  };
}

class ScalarTyping : public ::testing::TestWithParam<ScalarCase> {};

TEST_P(ScalarTyping, FollowsTheCoreSchema) {
  YAML::Node root = YAML::Load("v: " + GetParam().yaml);
  nlohmann::json v = yaml_to_json(root)["v"];
  EXPECT_EQ(v.type(), GetParam().expected.type()) << v.dump();
  EXPECT_EQ(v, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Yaml, ScalarTyping, ::testing::ValuesIn(scalar_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(YamlJson, InfinityAndNanAreFloats) {
  auto j = yaml_to_json(YAML::Load("a: .inf\nb: -.Inf\nc: .nan\n"));
  EXPECT_TRUE(std::isinf(j["a"].get<double>()));
  EXPECT_LT(j["b"].get<double>(), 0);
  EXPECT_TRUE(std::isnan(j["c"].get<double>()));
}

TEST(YamlJson, OrderedConversionKeepsKeyOrder) {
  auto j = yaml_to_ordered_json(YAML::Load("z: 1\na: [x, {m: 2, b: 3}]\n"));
  EXPECT_EQ(j.dump(), R"({"z":1,"a":["x",{"m":2,"b":3}]})");
}

TEST(YamlJson, DescribeNamesTheJsonType) {
  auto n = YAML::Load("a: 1\nb: '1'\nc: [1]\nd: {x: 1}\ne: 1.5\nf: true\ng: ~\n");
  EXPECT_EQ(describe(n["a"]), "an integer");
  EXPECT_EQ(describe(n["b"]), "a string");
  EXPECT_EQ(describe(n["c"]), "a list");
  EXPECT_EQ(describe(n["d"]), "a map");
  EXPECT_EQ(describe(n["e"]), "a number");
  EXPECT_EQ(describe(n["f"]), "a boolean");
  EXPECT_EQ(describe(n["g"]), "null");
}

TEST(YamlJson, LocationsAreOneBased) {
  auto n = YAML::Load("a:\n  b: 1\n");
  auto where = location_of(n["a"]["b"], "f.yaml");
  EXPECT_EQ(where.str(), "f.yaml:2:6");
}

}  // namespace
}  // namespace a2a::scenario
