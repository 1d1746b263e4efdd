// Inputs fuzz/fuzz_scenario.cpp found (docs/fuzzing.md), kept as unit tests:
// the loader must end with a located error for each, one problem per line.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "runner/scenario/loader.hpp"

namespace a2a::scenario {
namespace {

const std::string kName = "dir/fuzz.acts.yaml";

// Every line of the message starts with the file name, as loader.hpp promises.
void expect_every_line_located(const std::string& message) {
  size_t start = 0;
  while (start <= message.size()) {
    size_t end = message.find('\n', start);
    if (end == std::string::npos) end = message.size();
    std::string_view line(message.data() + start, end - start);
    EXPECT_TRUE(line.starts_with(kName + ":")) << "unlocated line '" << line << "' in:\n" << message;
    start = end + 1;
  }
}

TEST(FuzzRegression, LeadingCommaIsASyntaxErrorNotAnEndlessLoop) {
  // yaml-cpp 0.7's LoadAll loops forever on this, growing a null document
  // per turn (jbeder/yaml-cpp#1040); the loader must stop with an error.
  auto r = parse_document_text(",: x", kName);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::kParse);
  EXPECT_EQ(r.error().message, kName + ":1:1: YAML syntax error: unexpected token");
}

TEST(FuzzRegression, CommaAfterADocumentIsLocatedAtItsLine) {
  auto r = parse_document_text("acts_version: \"1.0\"\n\n  ,\n", kName);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::kParse);
  EXPECT_NE(r.error().message.find(kName + ":3:"), std::string::npos) << r.error().message;
}

TEST(FuzzRegression, TwoDocumentsStillNamedWithTheSecondOnesLine) {
  auto r = parse_document_text("a: 1\n---\nb: 2\n", kName);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, kName + ":3: a scenario file holds one YAML document (found 2)");
}

TEST(FuzzRegression, QuotedKeyWithLineBreakStaysOnOneErrorLine) {
  // The unknown key is quoted back in the message; its "\n" must not start
  // a new, unlocated line.
  auto r = parse_document_text("acts_version: \"1.0\"\n\"a\\nb\": 1\n", kName);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("unknown key 'a\\nb'"), std::string::npos) << r.error().message;
  expect_every_line_located(r.error().message);
}

TEST(FuzzRegression, YamlSyntaxMessageQuotingACarriageReturnIsEscaped) {
  auto r = parse_document_text("a: \"x\\\ry\"\n", kName);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::kParse);
  EXPECT_EQ(r.error().message.find('\r'), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("unknown escape character: \\r"), std::string::npos) << r.error().message;
  expect_every_line_located(r.error().message);
}

}  // namespace
}  // namespace a2a::scenario
