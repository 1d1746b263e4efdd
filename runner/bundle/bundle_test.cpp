#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runner/bundle/environment.hpp"
#include "runner/bundle/sha256.hpp"
#include "runner/bundle/sums.hpp"

namespace a2a::bundle {
namespace {

namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "bundle-unit" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void put(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

TEST(Sha256, MatchesTheFips180Vectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, HashesAFileLargerThanOneBlockLikeItsBytes) {
  auto d = fresh("big");
  std::string bytes(200000, 'x');
  bytes[123456] = '\0';
  put(d / "f", bytes);
  auto h = sha256_file(d / "f");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(*h, sha256_hex(bytes));
  EXPECT_FALSE(sha256_file(d / "absent").ok());
}

TEST(Sums, FormatsSortedSha256sumLines) {
  std::string h(64, 'a');
  EXPECT_EQ(format_sums({{h, "b/x.json"}, {h, "a.txt"}}), h + "  a.txt\n" + h + "  b/x.json\n");
}

TEST(Sums, ParsesTextAndBinaryModeLines) {
  std::string h(64, 'F');
  auto e = parse_sums(h + "  a.txt\n" + h + " *dir/b c.bin\n");
  ASSERT_TRUE(e.ok()) << e.error().message;
  ASSERT_EQ(e->size(), 2u);
  EXPECT_EQ((*e)[0].hash, std::string(64, 'f'));
  EXPECT_EQ((*e)[1].path, "dir/b c.bin");
}

struct BadSums {
  const char* name;
  std::string text;
  const char* says;
};

class SumsRefuses : public ::testing::TestWithParam<BadSums> {};

TEST_P(SumsRefuses, NamingTheLineAndTheProblem) {
  auto e = parse_sums(GetParam().text);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find(GetParam().says), std::string::npos) << e.error().message;
}

const std::string kH(64, '0');
INSTANTIATE_TEST_SUITE_P(
    Lines, SumsRefuses,
    ::testing::Values(BadSums{"ShortHash", "abc  x\n", "line 1: expected 64 hex digits"},
                      BadSums{"NotHex", std::string(64, 'g') + "  x\n", "line 1: the hash is not 64 hex digits"},
                      BadSums{"Absolute", kH + "  /etc/passwd\n", "an absolute path"},
                      BadSums{"DotDot", kH + "  a/../../x\n", "a '..' segment"},
                      BadSums{"Twice", kH + "  a\n" + kH + "  a\n", "line 2: a is listed twice"},
                      BadSums{"OneSpace", kH + " a\n", "line 1: expected"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(BundleVerify, AnIntactTreeVerifiesAndEveryKindOfChangeIsNamed) {
  auto d = fresh("tree");
  put(d / "manifest.json", "{}");
  put(d / "reports/report.json", "{\"a\":1}");
  put(d / "transcripts/0001.json", "bytes");
  ASSERT_TRUE(write_sums(d).ok());
  auto ok = verify_sums(d);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_TRUE(ok->intact());
  EXPECT_EQ(ok->checked, 3u);

  put(d / "reports/report.json", "{\"a\":2}");  // same size, one byte changed
  fs::remove(d / "transcripts/0001.json");
  put(d / "added.txt", "x");
  auto bad = verify_sums(d);
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(bad->intact());
  EXPECT_EQ(bad->changed, std::vector<std::string>{"reports/report.json"});
  EXPECT_EQ(bad->missing, std::vector<std::string>{"transcripts/0001.json"});
  EXPECT_EQ(bad->extra, std::vector<std::string>{"added.txt"});
}

TEST(BundleVerify, AMissingOrMalformedSumsFileIsAnError) {
  auto d = fresh("nosums");
  put(d / "a", "x");
  auto none = verify_sums(d);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("not a bundle"), std::string::npos);
  put(d / "SHA256SUMS", "garbage\n");
  auto bad = verify_sums(d);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("SHA256SUMS line 1"), std::string::npos) << bad.error().message;
}

TEST(BundleVerify, ASymlinkInTheTreeIsRefusedWhenWritingSums) {
  auto d = fresh("link");
  put(d / "a", "x");
  fs::create_symlink("/etc/hostname", d / "l");
  auto w = write_sums(d);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("l: not a regular file"), std::string::npos) << w.error().message;
}

TEST(BundleEnvironment, NamesTheKernelAndLeavesTheHostnameOutUnlessAsked) {
  auto j = environment_facts(false);
  EXPECT_TRUE(j.contains("os"));
  EXPECT_TRUE(j.contains("kernel"));
  EXPECT_FALSE(j.contains("hostname"));
  EXPECT_TRUE(environment_facts(true).contains("hostname"));
}

}  // namespace
}  // namespace a2a::bundle
