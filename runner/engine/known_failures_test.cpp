// load_known_failures reads a file that comes with a suite from strangers:
// it is parsed under the scenario files' bounds and every shape error is a
// located error, never an exception or unbounded memory.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "runner/engine/run.hpp"

namespace a2a::engine {
namespace {

class KnownFailuresFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("a2a-kf-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& text) {
    auto p = dir_ / "known.yaml";
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::filesystem::path dir_;
};

TEST_F(KnownFailuresFile, ReadsIdsReasonsAndBindings) {
  auto kf = load_known_failures(write("expected_failures:\n  - id: A-1\n    reason: r\n    binding: rest\n  - id: B-*\n"));
  ASSERT_TRUE(kf) << kf.error().message;
  ASSERT_EQ(kf->size(), 2u);
  EXPECT_EQ((*kf)[0].id, "A-1");
  EXPECT_EQ((*kf)[0].reason, "r");
  EXPECT_EQ((*kf)[0].binding, "rest");
  EXPECT_EQ((*kf)[1].id, "B-*");
  EXPECT_EQ((*kf)[1].reason, "");
}

TEST_F(KnownFailuresFile, MissingFileSaysSo) {
  auto kf = load_known_failures((dir_ / "nope.yaml").string());
  ASSERT_FALSE(kf);
  EXPECT_EQ(kf.error().kind, core::ErrorKind::kNotFound);
  EXPECT_NE(kf.error().message.find("known-failures file not found"), std::string::npos);
}

TEST_F(KnownFailuresFile, AliasBombIsRefusedWithoutExpanding) {
  // Nine levels of ten aliases each: 10^9 nodes if expanded.
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k ? ", " : "") + prev;
    text += "]\n";
  }
  text += "expected_failures: []\n";
  auto kf = load_known_failures(write(text));
  ASSERT_FALSE(kf);
  EXPECT_EQ(kf.error().kind, core::ErrorKind::kParse) << kf.error().message;
}

TEST_F(KnownFailuresFile, FolderIsNotAFile) {
  auto kf = load_known_failures(dir_.string());
  ASSERT_FALSE(kf);
  EXPECT_NE(kf.error().kind, core::ErrorKind::kNotFound);
}

TEST_F(KnownFailuresFile, NonStringReasonIsALocatedSchemaError) {
  auto kf = load_known_failures(write("expected_failures:\n  - id: A-1\n    reason: [1, 2]\n"));
  ASSERT_FALSE(kf);
  EXPECT_EQ(kf.error().kind, core::ErrorKind::kSchema);
  EXPECT_NE(kf.error().message.find("'reason' must be a string"), std::string::npos) << kf.error().message;
  EXPECT_EQ(kf.error().where.line, 3);
}

}  // namespace
}  // namespace a2a::engine
