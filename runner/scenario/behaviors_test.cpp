#include "runner/scenario/behaviors.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runner/scenario/loader.hpp"

namespace a2a::scenario {
namespace {

namespace fs = std::filesystem;

fs::path write_tmp(const std::string& name, const std::string& text) {
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "behaviors";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

TEST(Behaviors, ActsDefaultIsTheFourteenPrefixes) {
  auto b = Behaviors::acts_default();
  EXPECT_EQ(b.by_prefix.size(), 14u);
  EXPECT_NE(b.find("tck-long-running"), nullptr);
  EXPECT_EQ(b.find("tck-stream-error"), nullptr);
  // ACTS's own example delay when nothing is declared.
  EXPECT_EQ(b.delay_ms("tck-long-running"), 5000);
  EXPECT_EQ(b.delay_ms("tck-complete-task"), 0);
}

TEST(Behaviors, LoadsTheItkFormat) {
  auto p = write_tmp("ok.yaml", R"(acts_version: "1.0"
behaviors:
  - prefix: "tck-long-running"
    description: "slow"
    response_type: task
    terminal_state: TASK_STATE_COMPLETED
    delay_ms: 250
    streaming: false
    artifacts: [{text: "x"}]
  - {prefix: tck-stream-error, x-note: ours}
)");
  auto b = load_behaviors(p);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->by_prefix.size(), 2u);
  EXPECT_EQ(b->delay_ms("tck-long-running"), 250);
  EXPECT_EQ(b->find("tck-long-running")->terminal_state, "TASK_STATE_COMPLETED");
  EXPECT_EQ(b->file, p.string());
}

TEST(Behaviors, BadFilesSayWhereAndWhat) {
  auto b = load_behaviors(write_tmp("bad.yaml", "behaviors:\n  - {prefix: a, delay_ms: -5}\n  - {prefix: a}\n  - {prefx: b}\n"));
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("bad.yaml:2:"), std::string::npos) << b.error().message;
  EXPECT_NE(b.error().message.find("declared twice"), std::string::npos) << b.error().message;
  EXPECT_NE(b.error().message.find("prefx"), std::string::npos) << b.error().message;
  auto missing = load_behaviors(fs::path(A2A_BINARY_DIR) / "no-such-behaviors.yaml");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("--behaviors"), std::string::npos);
}

TEST(Behaviors, PrefixesComeFromTextAndMessageIdOfAgentBoundMessages) {
  auto doc = parse_document_text(R"(acts_version: "1.0"
spec_version: "1.0"
suites:
  - id: s
    name: s
    tests:
      - id: T-1
        name: t
        level: may
        requires_behaviors: [tck-cancel]
        steps:
          - {id: a, operation: send_message, params: {message: {role: ROLE_USER, parts: [{text: "tck-stream-error go"}]}}}
          - {id: b, operation: send_message, params: {message: {role: ROLE_USER, messageId: "tck-artifact-file-url-0001", parts: [{text: "plain"}]}}}
          - {id: c, operation: get_task, params: {id: x}, expect: {body: {status: {message: {parts: [{text: "tck-not-a-request"}]}}}}}
)", "t.acts.yaml");
  ASSERT_TRUE(doc) << doc.error().message;
  std::vector<std::string_view> known(std::begin(kActsPrefixes), std::end(kActsPrefixes));
  auto used = behaviors_used(doc->suites[0].tests[0], known);
  EXPECT_EQ(used, (std::vector<std::string>{"tck-cancel", "tck-stream-error", "tck-artifact-file-url"}));
}

// Our agent's file loads and declares every prefix our suites use.
TEST(Behaviors, RefAgentFileCoversTheSuites) {
  auto b = load_behaviors(fs::path(A2A_SOURCE_DIR) / "peers" / "a2a-ref-agent" / "sut-behaviors.yaml");
  ASSERT_TRUE(b) << b.error().message;
  for (auto p : kActsPrefixes) EXPECT_NE(b->find(p), nullptr) << p;
  std::vector<std::string_view> known;
  for (const auto& [p, _] : b->by_prefix) known.push_back(p);
  for (const auto& e : fs::recursive_directory_iterator(fs::path(A2A_SOURCE_DIR) / "suites")) {
    if (!e.path().string().ends_with(".acts.yaml")) continue;
    auto doc = load_document(e.path());
    ASSERT_TRUE(doc) << doc.error().message;
    for (const auto& s : doc->suites)
      for (const auto& t : s.tests)
        for (const auto& p : behaviors_used(t, known))
          EXPECT_NE(b->find(p), nullptr) << t.id << " uses " << p << ", which a2a-ref-agent does not declare";
  }
}

}  // namespace
}  // namespace a2a::scenario
