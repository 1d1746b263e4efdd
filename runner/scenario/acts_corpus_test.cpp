// The 15 official ACTS files (../shared/acts) must load unchanged, with zero
// errors (DESIGN.md: the runner reads ACTS documents unchanged).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runner/scenario/loader.hpp"

namespace a2a::scenario {
namespace {

const std::filesystem::path kActsDir = std::filesystem::path(A2A_SHARED_DIR) / "acts";

struct ActsFile {
  std::string name;  // test case name
  std::string file;
  size_t suites;
  size_t tests;
  size_t steps;
};

std::vector<ActsFile> acts_files() {
  return {
      {"AuthSecurity", "auth-security.acts.yaml", 1, 12, 15},
      {"ClientParsing", "client-parsing.acts.yaml", 1, 8, 9},
      {"CoreOperations", "core-operations.acts.yaml", 1, 12, 20},
      {"DataTypes", "data-types.acts.yaml", 1, 7, 7},
      {"Discovery", "discovery.acts.yaml", 1, 10, 10},
      {"ErrorHandling", "error-handling.acts.yaml", 1, 14, 17},
      {"History", "history.acts.yaml", 1, 6, 17},
      {"MultiTurn", "multi-turn.acts.yaml", 1, 5, 11},
      {"Polling", "polling.acts.yaml", 1, 2, 7},
      {"PushNotifications", "push-notifications.acts.yaml", 1, 10, 25},
      {"Streaming", "streaming.acts.yaml", 1, 11, 15},
      {"Suite", "suite.acts.yaml", 0, 0, 0},
      {"TransportBindings", "transport-bindings.acts.yaml", 3, 9, 10},
      {"VersionNegotiation", "version-negotiation.acts.yaml", 1, 2, 2},
      {"WireFormat", "wire-format.acts.yaml", 1, 3, 4},
  };
}

constexpr size_t kOfficialTestCount = 111;

size_t step_count(const Document& doc) {
  size_t n = 0;
  for (const auto& s : doc.suites) {
    for (const auto& t : s.tests) n += t.steps.size();
  }
  return n;
}

class ActsFileTest : public ::testing::TestWithParam<ActsFile> {};

TEST_P(ActsFileTest, LoadsWithZeroErrorsAndExpectedCounts) {
  const ActsFile& f = GetParam();
  auto doc = load_document(kActsDir / f.file);
  ASSERT_TRUE(doc.ok()) << doc.error().str();
  EXPECT_EQ(doc->suites.size(), f.suites);
  EXPECT_EQ(doc->test_count(), f.tests);
  EXPECT_EQ(step_count(*doc), f.steps);
}

INSTANTIATE_TEST_SUITE_P(Official, ActsFileTest, ::testing::ValuesIn(acts_files()),
                         [](const auto& info) { return info.param.name; });

TEST(ActsCorpus, EveryFileInTheFolderIsCovered) {
  std::set<std::string> listed;
  for (const auto& f : acts_files()) listed.insert(f.file);
  for (const auto& entry : std::filesystem::directory_iterator(kActsDir)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".acts.yaml")) EXPECT_TRUE(listed.count(name)) << name << " is not in the table";
  }
}

TEST(ActsCorpus, SuiteFileIncludesResolveToAllOfficialTests) {
  auto docs = load_with_includes(kActsDir / "suite.acts.yaml");
  ASSERT_TRUE(docs.ok()) << docs.error().str();
  EXPECT_EQ(docs->size(), 15u);  // the master file and the 14 it includes
  size_t tests = 0;
  std::set<std::string> ids;
  for (const auto& d : *docs) {
    tests += d.test_count();
    for (const auto& s : d.suites) {
      for (const auto& t : s.tests) ids.insert(t.id);
    }
  }
  EXPECT_EQ(tests, kOfficialTestCount);
  EXPECT_EQ(ids.size(), kOfficialTestCount) << "test ids are unique across the suite";
}

TEST(ActsCorpus, IncludedDocumentsInheritTheMasterVariables) {
  auto docs = load_with_includes(kActsDir / "suite.acts.yaml");
  ASSERT_TRUE(docs.ok()) << docs.error().str();
  for (const auto& d : *docs) {
    bool found = false;
    for (const auto& [name, value] : d.variables) found = found || name == "baseUrl";
    EXPECT_TRUE(found) << d.file;
  }
}

TEST(ActsCorpus, PushConfigAliasesMapToCanonicalOperations) {
  auto doc = load_document(kActsDir / "push-notifications.acts.yaml");
  ASSERT_TRUE(doc.ok()) << doc.error().str();
  std::set<std::string> canonical, written;
  for (const auto& s : doc->suites) {
    for (const auto& t : s.tests) {
      for (const auto& st : t.steps) {
        canonical.insert(st.operation);
        if (!st.operation_written.empty()) written.insert(st.operation_written);
      }
    }
  }
  EXPECT_TRUE(canonical.count("create_push_config"));
  EXPECT_TRUE(written.count("set_push_notification_config"));
  EXPECT_FALSE(canonical.count("set_push_notification_config"));
}

TEST(ActsCorpus, ExpectShorthandWithoutBodyIsFoldedIntoBody) {
  auto doc = load_document(kActsDir / "streaming.acts.yaml");
  ASSERT_TRUE(doc.ok()) << doc.error().str();
  bool seen = false;
  for (const auto& s : doc->suites) {
    for (const auto& t : s.tests) {
      for (const auto& st : t.steps) {
        if (st.expect && st.expect->contains("body") && (*st.expect)["body"].contains("task") &&
            !st.expect->contains("status")) {
          seen = true;
        }
      }
    }
  }
  EXPECT_TRUE(seen);
}

TEST(ActsCorpus, RepeatUntilExpressionsParse) {
  auto doc = load_document(kActsDir / "polling.acts.yaml");
  ASSERT_TRUE(doc.ok()) << doc.error().str();
  int repeats = 0;
  for (const auto& t : doc->suites.at(0).tests) {
    for (const auto& st : t.steps) {
      if (!st.repeat) continue;
      ++repeats;
      EXPECT_EQ(st.repeat->until.path, "status.state");
    }
  }
  EXPECT_GT(repeats, 0);
}

}  // namespace
}  // namespace a2a::scenario
