// x-send-bytes {file: ...} given something that is not a regular file: the
// loader says what it is (and never opens it: a FIFO would block the load).
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "runner/scenario/loader.hpp"
#include "runner/scenario/test_support.hpp"

namespace a2a::scenario {
namespace {

using testing::doc_with_tests;
using testing::TempDir;

std::string with_fixture(const std::string& file) {
  return doc_with_tests("      - id: T-1\n        name: one\n        level: must\n        steps:\n"
                        "          - id: b\n            x-send-bytes: {file: '" + file + "'}\n");
}

TEST(FixtureFile, AFifoIsNamedAsOneAndNotOpened) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "pipe.bin").c_str(), 0600), 0);
  auto doc = load_document(dir.write("doc.acts.yaml", with_fixture("pipe.bin")));
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message.find(":12:34: x-send-bytes file 'pipe.bin' is a FIFO (named pipe), not a regular file"),
            std::string::npos) << doc.error().message;
  EXPECT_EQ(doc.error().message.find("not found"), std::string::npos) << doc.error().message;
}

TEST(FixtureFile, ADeviceAndAFolderAreNamed) {
  TempDir dir;
  auto dev = load_document(dir.write("dev.acts.yaml", with_fixture("/dev/null")));
  ASSERT_FALSE(dev.ok());
  EXPECT_NE(dev.error().message.find("'/dev/null' is a character device, not a regular file"), std::string::npos)
      << dev.error().message;
  std::filesystem::create_directories(dir.path() / "folder");
  auto folder = load_document(dir.write("dir.acts.yaml", with_fixture("folder")));
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().message.find("'folder' is a folder"), std::string::npos) << folder.error().message;
}

}  // namespace
}  // namespace a2a::scenario
