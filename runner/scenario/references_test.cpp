// Undefined {{variables}} found at load time, at the reference's place
// (references.hpp; docs/scenario-format.md §5 "Undefined variables").
#include <gtest/gtest.h>

#include "runner/scenario/loader.hpp"
#include "runner/scenario/references.hpp"
#include "runner/scenario/test_support.hpp"

namespace a2a::scenario::references_test {
namespace {

using testing::doc_with_tests;
using testing::TempDir;

const std::string kName = "dir/v.acts.yaml";

// The undefined references of `text` (a whole document).
std::vector<std::string> undefined(const std::string& text, const std::vector<std::string>& given = {}) {
  auto doc = parse_document_text(text, kName);
  EXPECT_TRUE(doc.ok()) << (doc ? "" : doc.error().message);
  if (!doc) return {"(did not load)"};
  return undefined_references(*doc, given);
}

// One test, `steps` written at the steps' indentation (the first step is on line 11).
std::string one_test(const std::string& steps, const std::string& header = "") {
  return header + doc_with_tests("      - id: T-1\n        name: t\n        level: may\n        steps:\n" + steps);
}

TEST(UndefinedReferences, AnUndefinedNameIsReportedAtItsBraces) {
  auto text = one_test("          - id: get\n            operation: get_task\n"
                       "            params:\n              id: \"{{task_id}}\"\n              other: x {{nope.a}}\n");
  auto problems = undefined(text);
  ASSERT_EQ(problems.size(), 2u);
  // Line 14: "              id: \"{{task_id}}\"": the quote is column 19, the braces 20.
  EXPECT_EQ(problems[0], kName + ":14:20: undefined variable {{task_id}} in test 'T-1': no document variable, "
                                 "--var NAME=VALUE, step of this test, profile.*, agent.*, env.NAME, webhookUrl or "
                                 "$uuid has this name");
  EXPECT_NE(problems[1].find(kName + ":15:24: undefined variable {{nope.a}}"), std::string::npos) << problems[1];
}

TEST(UndefinedReferences, WhatTheRunnerDefinesIsNotReported) {
  auto text = one_test(
      "          - id: send\n            operation: send_message\n"
      "            params: {message: {messageId: \"{{$uuid}}\", parts: [{text: \"{{greeting}} {{env.HOME}}\"}]}}\n"
      "          - id: get\n            operation: get_task\n"
      "            params: {id: \"{{send.result.id}}\", m: \"{{profile.methods.get_task}}\", s: \"{{agent.session_id}}\",\n"
      "                     u: \"{{webhookUrl}}\", t: \"{{ token }}\", h: \"{{send.response.history[0]}}\"}\n",
      "variables: {greeting: hello, token: t}\n");
  EXPECT_EQ(undefined(text), std::vector<std::string>{});
  // --var names count too: without `token` given, it is the one problem.
  auto text2 = one_test("          - id: get\n            operation: get_task\n            params: {id: \"{{token}}\"}\n");
  EXPECT_EQ(undefined(text2, {"token"}), std::vector<std::string>{});
  EXPECT_EQ(undefined(text2).size(), 1u);
}

TEST(UndefinedReferences, AStepWithoutACapturedNameIsExplained) {
  auto text = one_test("          - id: send\n            operation: get_task\n            params: {id: x}\n"
                       "          - id: get\n            operation: get_task\n            params: {id: \"{{send}}\"}\n");
  auto problems = undefined(text);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("'send' is a step of this test: name what it captured"), std::string::npos)
      << problems[0];
}

TEST(UndefinedReferences, AStepOfAnotherTestDoesNotDefineAName) {
  auto text = doc_with_tests(
      "      - id: T-1\n        name: t\n        level: may\n        steps:\n"
      "          - {id: send, operation: get_task, params: {id: x}}\n"
      "      - id: T-2\n        name: t\n        level: may\n        steps:\n"
      "          - {id: get, operation: get_task, params: {id: \"{{send.id}}\"}}\n");
  auto problems = undefined(text);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find(kName + ":16:58: "), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("in test 'T-2'"), std::string::npos) << problems[0];
}

TEST(UndefinedReferences, ATypoGetsADidYouMean) {
  auto text = one_test("          - id: get\n            operation: get_task\n            params: {id: \"{{taskid}}\"}\n",
                       "variables: {task_id: abc}\n");
  auto problems = undefined(text);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("(did you mean 'task_id'?)"), std::string::npos) << problems[0];
}

TEST(UndefinedReferences, AVariablesOwnReferenceIsReportedWhereItIsWrittenWhenUsed) {
  // `base` is used and refers to an undefined name; `unused` is never used.
  auto header = "variables:\n  base: \"{{SUT_BASE_URL}}/a2a\"\n  unused: \"{{NOPE}}\"\n";
  auto text = one_test("          - id: get\n            operation: get_task\n            params: {id: \"{{base}}\"}\n",
                       header);
  auto problems = undefined(text);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].substr(0, problems[0].find(" (used")),
            kName + ":2:10: undefined variable {{SUT_BASE_URL}} in variable 'base'");
  // --var SUT_BASE_URL defines it; --var base replaces the value altogether.
  EXPECT_EQ(undefined(text, {"SUT_BASE_URL"}), std::vector<std::string>{});
  EXPECT_EQ(undefined(text, {"base"}), std::vector<std::string>{});
}

TEST(UndefinedReferences, AVariableReferringToItselfIsACycle) {
  auto text = one_test("          - id: get\n            operation: get_task\n            params: {id: \"{{a}}\"}\n",
                       "variables: {a: \"{{b}}\", b: \"{{a}}\"}\n");
  auto problems = undefined(text);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("refers to itself (a cycle)"), std::string::npos) << problems[0];
}

TEST(UndefinedReferences, XAgentEnvOfTheTestAndOfXDefaultsIsChecked) {
  // These are resolved before the agent starts: a run reports them as ERROR
  // without reaching the agent.
  auto text = std::string("acts_version: \"1.0\"\nspec_version: \"1.0\"\n"
                          "x-defaults: {x-agent: {env: {A: \"{{missing_a}}\"}}}\n"
                          "suites:\n  - id: s\n    name: S\n    tests:\n"
                          "      - id: T-1\n        name: t\n        level: may\n"
                          "        x-agent: {env: {B: \"{{missing_b}}\"}}\n"
                          "        steps: [{id: get, operation: get_task, params: {id: x}}]\n");
  auto problems = undefined(text);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find(kName + ":3:34: undefined variable {{missing_a}}"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find(kName + ":11:29: undefined variable {{missing_b}}"), std::string::npos) << problems[1];
}

TEST(UndefinedReferences, AnIncludedFileSeesTheIncludersVariablesAndTheirPlaces) {
  TempDir dir;
  auto main = dir.write("main.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\n"
                                          "variables: {url: \"{{HOST}}/x\", id: abc}\ninclude: [inc.acts.yaml]\n");
  dir.write("inc.acts.yaml", one_test("          - {id: get, operation: get_task, params: {id: \"{{id}}\", u: \"{{url}}\"}}\n"));
  auto docs = load_with_includes(main);
  ASSERT_TRUE(docs.ok()) << docs.error().message;
  ASSERT_EQ(docs->size(), 2u);
  auto problems = undefined_references((*docs)[1], {});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find(main.generic_string() + ":3:19: undefined variable {{HOST}} in variable 'url'"),
            std::string::npos)
      << problems[0];
}

TEST(UndefinedReferences, BracesInNamesAndDescriptionsAreText) {
  auto text = doc_with_tests("      - id: T-1\n        name: \"{{not a reference}}\"\n        level: may\n"
                             "        description: \"{{nor this}}\"\n"
                             "        steps: [{id: get, operation: get_task, params: {\"{{key}}\": x, open: \"{{ no end\"}}]\n");
  EXPECT_EQ(undefined(text), std::vector<std::string>{});
}

}  // namespace
}  // namespace a2a::scenario::references_test
