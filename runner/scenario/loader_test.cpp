// Loader validation: every problem is an Expected error of the right kind with
// file:line:column, and all problems of a file come back at once.
#include <gtest/gtest.h>

#include <algorithm>

#include "runner/scenario/loader.hpp"
#include "runner/scenario/test_support.hpp"

namespace a2a::scenario {
namespace {

using core::ErrorKind;
using testing::doc_with_tests;
using testing::TempDir;

// Lines 1-6 come from doc_with_tests; a test's own lines start at 7.
const std::string kOneTest = R"Y(      - id: T-1
        name: one
        level: must
        steps:
)Y";

struct BadCase {
  std::string name;
  std::string yaml;
  ErrorKind kind;
  std::string expected;  // substring of the message, location included
};

std::vector<BadCase> bad_cases() {
  const std::string op = "          - id: send\n            operation: send_message\n            params: {}\n";
  return {
      {"TypoInStepKeySuggestsClosest",
       doc_with_tests(kOneTest + op + "            exepct: {status: 200}\n"), ErrorKind::kSchema,
       ":14:13: unknown key 'exepct' in step 'send' (did you mean 'expect'?)"},
      {"TypoInTestKeySuggestsClosest",
       doc_with_tests("      - id: T-1\n        name: one\n        levle: must\n        level: must\n"
                      "        steps:\n" + op),
       ErrorKind::kSchema, ":9:9: unknown key 'levle' in test 'T-1' (did you mean 'level'?)"},
      {"WrongLevelNamesTheAllowedValues",
       doc_with_tests("      - id: T-1\n        name: one\n        level: mandatory\n        steps:\n" + op),
       ErrorKind::kSchema, ":9:16: 'level' must be one of must, should, may (got 'mandatory')"},
      {"StepsMustBeAList",
       doc_with_tests("      - id: T-1\n        name: one\n        level: must\n        steps: {a: 1}\n"),
       ErrorKind::kSchema, ":10:16: 'steps' must be a list (got a map) in test 'T-1'"},
      {"MissingNameIsReported",
       doc_with_tests("      - id: T-1\n        level: must\n        steps:\n" + op), ErrorKind::kSchema,
       ":7:9: missing required key 'name' in test 'T-1'"},
      {"DuplicateStepIdsInATest", doc_with_tests(kOneTest + op + op), ErrorKind::kSchema,
       ":14:17: duplicate step id 'send' in test 'T-1' (first at line 11)"},
      {"DuplicateTestIdsInADocument",
       doc_with_tests(kOneTest + op + kOneTest + op), ErrorKind::kSchema,
       ":14:13: duplicate test id 'T-1' in document (first at line 7)"},
      {"UnknownOperationSuggestsClosest",
       doc_with_tests(kOneTest + "          - id: send\n            operation: send_mesage\n            params: {}\n"),
       ErrorKind::kSchema, ":12:24: unknown operation 'send_mesage' in step 'send' (did you mean 'send_message'?)"},
      {"StepWithoutAction", doc_with_tests(kOneTest + "          - id: idle\n            description: x\n"),
       ErrorKind::kSchema, ":11:13: step 'idle' has no action"},
      {"StepWithSeveralActions",
       doc_with_tests(kOneTest + op + "            x-sleep: 10\n"), ErrorKind::kSchema,
       ":11:13: step 'send' has several actions (operation, x-sleep)"},
      {"ExpectAndExpectErrorTogether",
       doc_with_tests(kOneTest + op + "            expect: {status: 200}\n"
                                      "            expect_error: {error_type: TaskNotFoundError}\n"),
       ErrorKind::kSchema, ":15:27: 'expect' and 'expect_error' are mutually exclusive in step 'send'"},
      {"UnknownErrorTypeSuggestsClosest",
       doc_with_tests(kOneTest + op + "            expect_error: {error_type: TaskNotFound}\n"),
       ErrorKind::kSchema, "(got 'TaskNotFound') in 'expect_error' of step 'send' (did you mean 'TaskNotFoundError'?)"},
      {"CaptureValueMustBeAString",
       doc_with_tests(kOneTest + op + "            capture: {taskId: 1}\n"), ErrorKind::kSchema,
       ":14:31: capture value for 'taskId' must be a string (a dot-path; got an integer)"},
      {"RepeatWithoutUntil",
       doc_with_tests(kOneTest + op + "            repeat: {max_attempts: 3}\n"), ErrorKind::kSchema,
       ":14:21: missing required key 'until' in 'repeat' of step 'send'"},
      {"UntilThatDoesNotParse",
       doc_with_tests(kOneTest + op + "            repeat: {until: \"status.state = DONE\"}\n"),
       ErrorKind::kSchema, ":14:29: cannot parse until expression 'status.state = DONE'"},
      {"UnknownHandshakeFormSuggestsClosest",
       doc_with_tests(kOneTest + "          - id: hs\n            x-handshake: acept\n"), ErrorKind::kSchema,
       ":12:26: unknown x-handshake form 'acept' (expected accept, reject, {variant: V}, {ack: ...} or "
       "{ack_raw: \"...\"}) in step 'hs' (did you mean 'accept'?)"},
      {"ExpectShorthandTypoIsNotFoldedIntoBody",
       doc_with_tests(kOneTest + op + "            expect: {bdoy: {}}\n"), ErrorKind::kSchema,
       ":14:22: unknown key 'bdoy' in 'expect' of step 'send' (did you mean 'body'?)"},
      {"TransportOutsideTheBindingList",
       doc_with_tests("      - id: T-1\n        name: one\n        level: must\n        transport: [http]\n"
                      "        steps:\n" + op),
       ErrorKind::kSchema, ":10:21: 'transport' items must be one of jsonrpc, grpc, rest (got 'http')"},
      {"UnknownBinding",
       doc_with_tests("      - id: T-1\n        name: one\n        level: must\n        x-binding: stdoi\n"
                      "        steps:\n" + op),
       ErrorKind::kSchema, "(got 'stdoi') in test 'T-1' (did you mean 'stdio'?)"},
      {"HeaderValueMustBeAString",
       doc_with_tests(kOneTest + "          - id: r\n            raw: {method: GET, path: /, headers: {A2A-Version: 1.0}}\n"
                                 "          - {id: o, operation: get_task, params: {}}\n"),
       ErrorKind::kSchema, "'A2A-Version' must be a string (got a number; quote it: \"1.0\")"},
      {"UnquotedActsVersionIsNotText",
       "acts_version: 1.0\nspec_version: \"1.0\"\ninclude: [a.acts.yaml]\n", ErrorKind::kSchema,
       ":1:15: 'acts_version' must be a string (got a number; quote it: \"1.0\") in document"},
      {"UnsupportedActsMajorVersion",
       "acts_version: \"2.0\"\nspec_version: \"1.0\"\ninclude: [a.acts.yaml]\n", ErrorKind::kSchema,
       ":1:15: unsupported acts_version '2.0' (this runner reads ACTS 1.x)"},
      {"DocumentWithoutSuitesOrInclude", "acts_version: \"1.0\"\nspec_version: \"1.0\"\n",
       ErrorKind::kSchema, ":1:1: a document needs 'suites' or 'include'"},
      {"TypoAtDocumentLevel",
       "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude: [a.acts.yaml]\nsuits: []\n",
       ErrorKind::kSchema, ":4:1: unknown key 'suits' in document (did you mean 'suites'?)"},
      {"YamlSyntaxErrorIsParseWithMark", "acts_version: \"1.0\"\nsuites: [a,\nb: 2\n", ErrorKind::kParse,
       ":4:1: YAML syntax error: end of sequence flow not found"},
      {"SendBytesFillAbove256MiB",
       doc_with_tests(kOneTest + "          - id: big\n            x-send-bytes: {fill: \"ab\", count: 134217729}\n"),
       ErrorKind::kSchema, "x-send-bytes fill of 134217729 x 2 bytes exceeds the 256 MiB limit"},
      {"SendBytesBadEscape",
       doc_with_tests(kOneTest + "          - id: b\n            x-send-bytes: 'a\\q'\n"), ErrorKind::kSchema,
       ":12:27: bad escape in 'x-send-bytes': unknown escape \\q"},
      {"SendBytesMissingFixtureIsNotFound",
       doc_with_tests(kOneTest + "          - id: b\n            x-send-bytes: {file: nope.bin}\n"),
       ErrorKind::kNotFound, ":12:34: x-send-bytes file 'nope.bin' not found"},
      {"GradeOutsideTheList",
       doc_with_tests(kOneTest + "          - id: g\n            x-close-stdin: true\n            x-grades:\n"
                                 "              - grade: passed\n                x-expect-eof: {}\n"),
       ErrorKind::kSchema, ":14:24: 'grade' must be one of pass, non_strict, informational, fail (got 'passed')"},
      {"ConcurrentBranchMustBeAList",
       doc_with_tests(kOneTest + "          - id: c\n            x-concurrent:\n              - {id: a, x-sleep: 1}\n"),
       ErrorKind::kSchema, ":13:17: each branch of 'x-concurrent' in step 'c' must be a non-empty list of steps"},
      {"WireStepsContradictAnotherBinding",
       doc_with_tests("      - id: T-1\n        name: one\n        level: must\n        x-binding: rest\n"
                      "        steps:\n          - {id: a, x-sleep: 1}\n"),
       ErrorKind::kSchema, ":10:20: stdio wire steps (x-...) need x-binding stdio, not 'rest' in test 'T-1'"},
      {"RawOnlyTestNeedsTransport",
       doc_with_tests(kOneTest + "          - id: r\n            raw: {method: GET, path: /}\n"), ErrorKind::kSchema,
       ":11:11: a test of raw steps only must list 'transport' (ACTS §4.4) in test 'T-1'"},
      {"ExpectStreamTypoSuggestsClosest",
       doc_with_tests(kOneTest + "          - id: s\n            x-expect-stream: {id: 1, finale: {}}\n"),
       ErrorKind::kSchema, ":12:38: unknown key 'finale' in 'x-expect-stream' of step 's' (did you mean 'final'?)"},
      {"ExpectResponseResultAndErrorExclusive",
       doc_with_tests(kOneTest + "          - id: r\n            x-expect-response: {id: 1, result: {}, error: {}}\n"),
       ErrorKind::kSchema, ":12:59: 'result' and 'error' are mutually exclusive in 'x-expect-response' of step 'r'"},
      {"EmptyExpectErrorNamesNothing",
       doc_with_tests(kOneTest + op + "            expect_error: {}\n"), ErrorKind::kSchema,
       "'expect_error' of step 'send' must name at least error_type, code or message"},
      {"SilenceNeedsMs",
       doc_with_tests(kOneTest + "          - id: q\n            x-expect-silence: {stream: stderr}\n"),
       ErrorKind::kSchema, "missing required key 'ms' in 'x-expect-silence' of step 'q'"},
      {"StepIdsAreUniqueAcrossBranches",
       doc_with_tests(kOneTest + "          - id: c\n            x-concurrent:\n              - - {id: c, x-sleep: 1}\n"),
       ErrorKind::kSchema, ":13:24: duplicate step id 'c' in test 'T-1' (first at line 11)"},
  };
}

class LoaderRejects : public ::testing::TestWithParam<BadCase> {};

TEST_P(LoaderRejects, WithKindAndLocation) {
  TempDir dir;
  auto path = dir.write("doc.acts.yaml", GetParam().yaml);
  auto doc = load_document(path);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().kind, GetParam().kind) << doc.error().str();
  EXPECT_NE(doc.error().message.find(GetParam().expected), std::string::npos)
      << "expected: " << GetParam().expected << "\nactual:   " << doc.error().message;
  EXPECT_NE(doc.error().message.find(path.generic_string() + ":"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Validation, LoaderRejects, ::testing::ValuesIn(bad_cases()),
                         [](const auto& info) { return info.param.name; });

TEST(Loader, CollectsEveryErrorOfAFileSortedByLine) {
  TempDir dir;
  // Found in this order: document key (line 14), level (9), step key (13).
  auto path = dir.write("doc.acts.yaml", doc_with_tests(kOneTest.substr(0, kOneTest.find("        level")) +
                                                        "        level: often\n        steps:\n"
                                                        "          - id: s\n            x-sleep: 1\n"
                                                        "            nte: x\n") +
                                             "x-defautls: {}\n");
  auto doc = load_document(path);
  ASSERT_FALSE(doc.ok());
  const std::string& m = doc.error().message;
  EXPECT_EQ(doc.error().kind, ErrorKind::kSchema);
  EXPECT_FALSE(doc.error().where.known()) << "locations live in the message lines";
  EXPECT_EQ(std::count(m.begin(), m.end(), '\n'), 2) << m;
  auto l9 = m.find(":9:16:"), l13 = m.find(":13:13: unknown key 'nte'"), l14 = m.find(":14:1:");
  ASSERT_NE(l9, std::string::npos) << m;
  ASSERT_NE(l13, std::string::npos) << m;
  ASSERT_NE(l14, std::string::npos) << m;
  EXPECT_LT(l9, l13);
  EXPECT_LT(l13, l14);
}

TEST(Loader, MissingFileIsNotFound) {
  TempDir dir;
  auto doc = load_document(dir.path() / "absent.acts.yaml");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().kind, ErrorKind::kNotFound);
}

TEST(Loader, ReadsAMinimalDocumentIntoTheModel) {
  TempDir dir;
  auto path = dir.write("doc.acts.yaml", R"Y(acts_version: "1.0"
spec_version: "1.0"
variables: {zeta: "1", alpha: "2"}
suites:
  - id: s
    name: S
    tags: [core]
    tests:
      - id: T-1
        name: one
        description: does one thing
        spec_ref: "A2A spec §3.1"
        level: should
        tags: [core, extra]
        requires_behaviors: [tck-complete-task]
        steps:
          - id: send
            operation: send_message
            params: {message: {role: ROLE_USER, parts: [{text: hi}]}}
            capture: {taskId: task.id, ctx: task.contextId}
            expect: {status: 200, body: {task: {id: {type: string}}}}
          - id: poll
            delay_ms: 50
            operation: get_task
            params: {id: "{{send.taskId}}", historyLength: 0}
            repeat: {until: "status.state in [TASK_STATE_COMPLETED, 'TASK_STATE_FAILED']", backoff: linear}
)Y");
  auto doc = load_document(path);
  ASSERT_TRUE(doc.ok()) << doc.error().str();
  ASSERT_EQ(doc->variables.size(), 2u);
  EXPECT_EQ(doc->variables[0].first, "zeta") << "variables keep file order";
  const scenario::Test& t = doc->suites.at(0).tests.at(0);
  EXPECT_EQ(t.level, Level::kShould);
  EXPECT_EQ(t.tags, (std::vector<std::string>{"core", "extra"}));
  EXPECT_EQ(t.suite_id, "s");
  EXPECT_EQ(t.where.line, 9);
  EXPECT_TRUE(t.reuse) << "only abstract operations";
  ASSERT_EQ(t.steps.size(), 2u);
  const Step& send = t.steps[0];
  EXPECT_EQ(send.kind, StepKind::kOperation);
  EXPECT_EQ(send.where.line, 17);
  EXPECT_EQ(send.expect_where.line, 21);
  EXPECT_EQ(send.capture, (StringPairs{{"taskId", "task.id"}, {"ctx", "task.contextId"}}));
  EXPECT_EQ((*send.expect)["status"], 200);
  const Step& poll = t.steps[1];
  EXPECT_EQ(poll.delay_ms, 50);
  EXPECT_TRUE(poll.params["historyLength"].is_number_integer());
  ASSERT_TRUE(poll.repeat.has_value());
  EXPECT_EQ(poll.repeat->max_attempts, 10);
  EXPECT_EQ(poll.repeat->delay_ms, 1000);
  EXPECT_EQ(poll.repeat->backoff, Backoff::kLinear);
  EXPECT_EQ(poll.repeat->until.value, (Json{"TASK_STATE_COMPLETED", "TASK_STATE_FAILED"}));
}

TEST(Loader, IncludesResolveRelativeToTheIncludingFile) {
  TempDir dir;
  dir.write("master.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\nvariables: {v: m}\n"
                                "include: [sub/a.acts.yaml]\n");
  dir.write("sub/a.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude: [b.acts.yaml]\n");
  dir.write("sub/b.acts.yaml", doc_with_tests(kOneTest + "          - {id: z, x-sleep: 1}\n"));
  auto docs = load_with_includes(dir.path() / "master.acts.yaml");
  ASSERT_TRUE(docs.ok()) << docs.error().str();
  ASSERT_EQ(docs->size(), 3u);
  EXPECT_EQ(docs->at(2).test_count(), 1u);
  EXPECT_EQ(docs->at(2).variables, (StringPairs{{"v", "m"}}));
}

TEST(Loader, IncludeCycleNamesTheChain) {
  TempDir dir;
  dir.write("a.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude: [b.acts.yaml]\n");
  dir.write("b.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude:\n  - a.acts.yaml\n");
  auto docs = load_with_includes(dir.path() / "a.acts.yaml");
  ASSERT_FALSE(docs.ok());
  EXPECT_EQ(docs.error().kind, ErrorKind::kSchema);
  const std::string& m = docs.error().message;
  EXPECT_NE(m.find("b.acts.yaml:4:5: include cycle: "), std::string::npos) << m;
  EXPECT_NE(m.find("a.acts.yaml -> "), std::string::npos) << m;
  EXPECT_NE(m.find("b.acts.yaml -> "), std::string::npos) << m;
}

TEST(Loader, MissingIncludeIsNotFoundAtTheIncludersLine) {
  TempDir dir;
  dir.write("a.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude:\n  - gone.acts.yaml\n");
  auto docs = load_with_includes(dir.path() / "a.acts.yaml");
  ASSERT_FALSE(docs.ok());
  EXPECT_EQ(docs.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(docs.error().message.find("a.acts.yaml:4:5: included file 'gone.acts.yaml' not found"),
            std::string::npos)
      << docs.error().message;
}

TEST(Loader, ADiamondIncludeIsLoadedOnce) {
  TempDir dir;
  dir.write("a.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude: [b.acts.yaml, c.acts.yaml]\n");
  dir.write("b.acts.yaml", "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude: [c.acts.yaml]\n");
  dir.write("c.acts.yaml", doc_with_tests(kOneTest + "          - {id: z, x-sleep: 1}\n"));
  auto docs = load_with_includes(dir.path() / "a.acts.yaml");
  ASSERT_TRUE(docs.ok()) << docs.error().str();
  EXPECT_EQ(docs->size(), 3u);
}

}  // namespace
}  // namespace a2a::scenario
