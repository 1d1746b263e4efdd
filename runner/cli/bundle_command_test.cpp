// `run --bundle` and `verify` through main_with_args on directories made by
// hand: which directories --bundle accepts (checked before any agent
// starts), verify's exit codes 0, 1 and 2, and regrade's refusal of a
// manifest that is not ours or names a path outside the bundle. The whole
// flow against a real agent is tests/e2e/bundle_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "runner/bundle/sums.hpp"
#include "runner/cli/bundle.hpp"
#include "runner/cli/cli.hpp"

// Named, not anonymous: the cli tests are built in unity batches.
namespace bundle_command_test {

namespace fs = std::filesystem;
using Json = nlohmann::json;

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "bundle-command" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

struct Ran {
  int code;
  std::string out, err;
};

Ran conform(std::vector<std::string> args) {
  args.insert(args.begin(), "a2a-conform");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  int code = a2a::cli::main_with_args(static_cast<int>(argv.size()), argv.data());
  std::string out = testing::internal::GetCapturedStdout();
  return {code, out, testing::internal::GetCapturedStderr()};
}

a2a::cli::Options with_bundle(const fs::path& dir, bool overwrite) {
  a2a::cli::Options o;
  o.bundle_dir = dir.string();
  o.bundle_overwrite = overwrite;
  return o;
}

// A bundle with a manifest of ours and two files, hashed.
fs::path small_bundle(const std::string& name, Json manifest = Json{{"schema", "a2a-conform-bundle"},
                                                                    {"schema_version", 1}}) {
  auto d = fresh_dir(name);
  put(d / "manifest.json", manifest.dump());
  put(d / "reports/report.json", "{}");
  EXPECT_TRUE(a2a::bundle::write_sums(d).ok());
  return d;
}

TEST(BundleDir, AnAbsentOrEmptyDirectoryIsTakenAnyOtherNeedsToHoldABundleAndOverwrite) {
  auto root = fresh_dir("dirs");
  EXPECT_EQ(a2a::cli::check_bundle_dir(with_bundle(root / "absent", false)), "");
  EXPECT_EQ(a2a::cli::check_bundle_dir(with_bundle(root, false)), "");
  put(root / "notes.txt", "mine");
  auto why = a2a::cli::check_bundle_dir(with_bundle(root, true));
  EXPECT_NE(why.find("not empty and holds no bundle"), std::string::npos) << why;
  auto old = small_bundle("earlier");
  why = a2a::cli::check_bundle_dir(with_bundle(old, false));
  EXPECT_NE(why.find("--bundle-overwrite replaces it"), std::string::npos) << why;
  EXPECT_EQ(a2a::cli::check_bundle_dir(with_bundle(old, true)), "");
  put(root / "file", "x");
  why = a2a::cli::check_bundle_dir(with_bundle(root / "file", false));
  EXPECT_NE(why.find("not a directory"), std::string::npos) << why;
}

TEST(BundleDir, RunRefusesANonEmptyDirectoryBeforeStartingTheAgent) {
  auto root = fresh_dir("run-refused");
  put(root / "notes.txt", "mine");
  fs::path marker = root / "agent-started";
  auto r = conform({"run", "--agent", "/bin/sh -c 'touch " + marker.string() + "'", "--bundle", root.string(), "-q"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("holds no bundle"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_TRUE(fs::exists(root / "notes.txt"));
}

TEST(VerifyCommand, ExitsZeroWhenIntactOneNamingAChangeAndTwoForNoBundle) {
  auto d = small_bundle("verify");
  auto ok = conform({"verify", d.string()});
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("verify: intact: 2 file(s)"), std::string::npos) << ok.out;

  put(d / "reports/report.json", "{ }");
  auto changed = conform({"verify", d.string()});
  EXPECT_EQ(changed.code, 1);
  EXPECT_NE(changed.out.find("CHANGED  reports/report.json"), std::string::npos) << changed.out;
  EXPECT_NE(changed.out.find("BUNDLE CHANGED: 1 changed, 0 missing, 0 added"), std::string::npos) << changed.out;

  auto none = conform({"verify", fresh_dir("empty").string()});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("SHA256SUMS"), std::string::npos) << none.err;
}

TEST(VerifyCommand, RegradeRefusesAManifestThatIsNotOursOrLeavesTheBundle) {
  auto other = small_bundle("not-ours", Json{{"schema", "something-else"}});
  auto r = conform({"verify", "--regrade", other.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("manifest.json: schema is not a2a-conform-bundle"), std::string::npos) << r.err;

  Json escaping = {{"schema", "a2a-conform-bundle"}, {"schema_version", 1}, {"role", "agent"},
                   {"inputs", {{"suites", {{{"path", "../../../etc/passwd"}}}}}}};
  auto d = small_bundle("escaping", escaping);
  put(d / "reports/report.json", R"({"schema": "a2a-conform-result", "schema_version": 2, "scenarios": []})");
  ASSERT_TRUE(a2a::bundle::write_sums(d).ok());
  r = conform({"verify", "--regrade", d.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a '..' segment"), std::string::npos) << r.err;
}

// A hand-made stdio bundle: one suite of one test, the p46 profile, and a
// report whose scenarios are given.
fs::path regrade_bundle(const std::string& name, const Json& scenarios) {
  auto d = fresh_dir(name);
  put(d / "inputs/suites/tiny.acts.yaml", R"(acts_version: "1.0"
spec_version: "1.0"
suites:
  - id: tiny
    name: tiny
    tests:
      - id: TINY-001
        name: get a task
        level: may
        steps:
          - id: get
            operation: get_task
            params: {id: t-1}
)");
  std::ifstream profile(fs::path(A2A_SOURCE_DIR) / "suites/profiles/p46.yaml");
  put(d / "inputs/profile.yaml", std::string(std::istreambuf_iterator<char>(profile), {}));
  Json manifest = {{"schema", "a2a-conform-bundle"}, {"schema_version", 1}, {"role", "agent"},
                   {"targets", {{{"key", "stdio"}, {"binding", "stdio"}}}},
                   {"options", {{"behaviors", "acts"}}},
                   {"inputs", {{"suites", {{{"path", "inputs/suites/tiny.acts.yaml"}}}},
                               {"profile", {{"path", "inputs/profile.yaml"}}}}},
                   {"transcripts", Json::array()}};
  put(d / "manifest.json", manifest.dump());
  put(d / "reports/report.json",
      Json{{"schema", "a2a-conform-result"}, {"schema_version", 2}, {"scenarios", scenarios}}.dump());
  EXPECT_TRUE(a2a::bundle::write_sums(d).ok());
  return d;
}

TEST(VerifyCommand, RegradeSetsAsideWhatEndedOnTheWireAndFlagsAnUnrecordedCall) {
  Json handshake_failed = {{"id", "TINY-001"}, {"binding", "stdio"}, {"outcome", "FAIL"}, {"level", "may"},
                           {"steps", {{{"id", "handshake"}, {"outcome", "FAIL"}}}}};
  auto d = regrade_bundle("regrade-handshake", Json::array({handshake_failed}));
  auto r = conform({"verify", "--regrade", d.string()});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1 scenario(s): the stdio handshake did not pass"), std::string::npos) << r.out;

  // A PASS whose call is not in the transcripts: the replay cannot answer,
  // so the re-derived verdict is an ERROR, never a pass.
  Json passed = {{"id", "TINY-001"}, {"binding", "stdio"}, {"outcome", "PASS"}, {"level", "may"}};
  Json unknown = {{"id", "TINY-404"}, {"binding", "stdio"}, {"outcome", "PASS"}, {"level", "may"}};
  d = regrade_bundle("regrade-unrecorded", Json::array({passed, unknown}));
  r = conform({"verify", "--regrade", d.string()});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NOT REPRODUCED  TINY-001  [stdio]  recorded PASS, re-derived ERROR: replay mismatch: get_task"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NOT REPRODUCED  TINY-404  [stdio]  recorded PASS: the recorded suite has no such scenario"),
            std::string::npos) << r.out;
}

TEST(BundleDir, SeveralTargetsAreRefusedWithBundle) {
  auto root = fresh_dir("several");
  auto r = conform({"run", "--agent", "/bin/true", "--agent", "/bin/false", "--bundle", (root / "b").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("run each target on its own"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(root / "b"));
}

}  // namespace bundle_command_test
