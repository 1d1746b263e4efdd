// The certification bundle end to end (docs/bundle.md): the real runner
// writes a bundle of a short stdio run against the reference agent, `verify`
// finds it intact (and `sha256sum -c` agrees), names a changed report byte
// and a changed transcript byte, and `--regrade` reproduces every verdict of
// a clean run and of a fault run; a report whose verdict was doctored (and
// its SHA256SUMS recomputed to hide it) passes the hash check but not the
// regrade. Over HTTP, a REST run regrades through the REST binding's own
// error reading. Four or five scenarios without waits per run, so it stays cheap.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/e2e/http_peer.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_bundle {

namespace fs = std::filesystem;
using a2a::testing::CommandResult;
using a2a::testing::run_command;

namespace {

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;
// Fails A2A-CORE-005 (fixtures/fault-matrix.yaml): unknown task ids get -32603.
const std::string kFault = "err-not-found-code";

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::path(A2A_BINARY_DIR) / "test-artifacts" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Abstract operations (re-derivable) and one stdio framing scenario (raw
// bytes: bundled, but not re-derivable from the binding layer).
CommandResult run_bundled(const std::string& agent, const fs::path& bundle) {
  return run_command({kConform, "run", "--agent", agent, kSrc + "/suites/a2a/core.acts.yaml",
                      kSrc + "/suites/stdio", "--id", "A2A-CORE-00[125]", "--id", "A2A-CORE-010", "--id",
                      "STDIO-FRAME-001", "-j2", "-q", "--color", "never", "--bundle", bundle.string()},
                     120000);
}

CommandResult verify(const fs::path& bundle, bool regrade = false) {
  std::vector<std::string> argv{kConform, "verify", bundle.string()};
  if (regrade) argv.push_back("--regrade");
  return run_command(argv, 120000);
}

CommandResult sh(const std::string& script) { return run_command({"/bin/sh", "-c", script}, 30000); }

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

// Flips one byte of a file, runs verify, puts the byte back.
CommandResult verify_with_byte_changed(const fs::path& bundle, const fs::path& file, size_t at) {
  std::string bytes = read(file), original = bytes;
  bytes[at] = bytes[at] == 'x' ? 'y' : 'x';
  write(file, bytes);
  auto r = verify(bundle);
  write(file, original);
  return r;
}

}  // namespace

TEST(BundleEndToEnd, ACleanRunsBundleVerifiesNamesEachTamperedFileAndRegradesToItsVerdicts) {
  fs::path dir = fresh_dir("bundle-e2e");
  fs::path bundle = dir / "clean";
  auto run = run_bundled(kAgent, bundle);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("bundle: " + bundle.string()), std::string::npos) << run.out;
  for (const char* f : {"manifest.json", "SHA256SUMS", "reports/report.json", "reports/report.html",
                        "reports/junit.xml", "reports/summary.md", "reports/badge.svg", "inputs/profile.yaml"})
    EXPECT_TRUE(fs::exists(bundle / f)) << f;
  auto manifest = nlohmann::json::parse(read(bundle / "manifest.json"));
  EXPECT_EQ(manifest["schema"], "a2a-conform-bundle");
  EXPECT_EQ(manifest["transcripts"].size(), 5u);
  EXPECT_FALSE(manifest["inputs"]["suites"].empty());
  EXPECT_FALSE(manifest["environment"]["kernel"].get<std::string>().empty());

  auto ok = verify(bundle);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("verify: intact"), std::string::npos) << ok.out;
  auto coreutils = sh("cd '" + bundle.string() + "' && sha256sum -c --quiet SHA256SUMS");
  EXPECT_EQ(coreutils.exit_code, 0) << coreutils.out << coreutils.err;

  auto report = verify_with_byte_changed(bundle, bundle / "reports/report.json", 10);
  EXPECT_EQ(report.exit_code, 1) << report.out;
  EXPECT_NE(report.out.find("CHANGED  reports/report.json"), std::string::npos) << report.out;
  fs::path transcript = bundle / manifest["transcripts"][0]["path"].get<std::string>();
  auto wire = verify_with_byte_changed(bundle, transcript, 20);
  EXPECT_EQ(wire.exit_code, 1) << wire.out;
  EXPECT_NE(wire.out.find("CHANGED  " + manifest["transcripts"][0]["path"].get<std::string>()), std::string::npos)
      << wire.out;

  auto regrade = verify(bundle, true);
  EXPECT_EQ(regrade.exit_code, 0) << regrade.out << regrade.err;
  EXPECT_NE(regrade.out.find("regrade: 4 verdict(s) reproduced, 0 not reproduced, 1 not re-derived"),
            std::string::npos) << regrade.out;

  auto again = run_bundled(kAgent, bundle);
  EXPECT_EQ(again.exit_code, 2) << again.out << again.err;
  EXPECT_NE(again.err.find("--bundle-overwrite"), std::string::npos) << again.err;
}

TEST(BundleEndToEnd, AFaultRunsFailsAreReproducedAndADoctoredVerdictIsNot) {
  fs::path dir = fresh_dir("bundle-e2e-fault");
  fs::path bundle = dir / "fault";
  auto run = run_bundled(kAgent + " --fault " + kFault, bundle);
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  auto regrade = verify(bundle, true);
  EXPECT_EQ(regrade.exit_code, 0) << regrade.out << regrade.err;
  EXPECT_NE(regrade.out.find("4 verdict(s) reproduced, 0 not reproduced"), std::string::npos) << regrade.out;

  // A forger turns the FAIL into a PASS and recomputes SHA256SUMS: the hashes
  // hold, the evidence does not back the verdict.
  auto report = nlohmann::json::parse(read(bundle / "reports/report.json"));
  bool doctored = false;
  for (auto& s : report["scenarios"])
    if (s["id"] == "A2A-CORE-005" && s["outcome"] == "FAIL") {
      s["outcome"] = "PASS";
      doctored = true;
    }
  ASSERT_TRUE(doctored) << "A2A-CORE-005 did not FAIL under " << kFault;
  write(bundle / "reports/report.json", report.dump(2));
  auto resum = sh("cd '" + bundle.string() +
                  "' && find . -type f ! -name SHA256SUMS | sed 's|^\\./||' | LC_ALL=C sort | xargs sha256sum > SHA256SUMS");
  ASSERT_EQ(resum.exit_code, 0) << resum.err;
  auto caught = verify(bundle, true);
  EXPECT_EQ(caught.exit_code, 1) << caught.out << caught.err;
  EXPECT_NE(caught.out.find("verify: intact"), std::string::npos) << caught.out;
  EXPECT_NE(caught.out.find("NOT REPRODUCED  A2A-CORE-005  [stdio]  recorded PASS, re-derived FAIL"),
            std::string::npos) << caught.out;
}

TEST(BundleEndToEnd, ARestRunRegradesThroughTheRestBindingsErrorReading) {
  a2a::testing::HttpPeer agent({kAgent, "--http", "0", "-q"});
  ASSERT_TRUE(agent.ok()) << agent.error();
  fs::path bundle = fresh_dir("bundle-e2e-rest") / "rest";
  auto run = run_command({kConform, "run", "--url", agent.url(), "--binding", "rest",
                          kSrc + "/suites/a2a/core.acts.yaml", "--id", "A2A-CORE-00[125]", "--id", "A2A-CORE-010",
                          "-j2", "-q", "--color", "never", "--bundle", bundle.string()},
                         120000);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(fs::exists(bundle / "card/agent-card.json"));
  auto regrade = verify(bundle, true);
  EXPECT_EQ(regrade.exit_code, 0) << regrade.out << regrade.err;
  EXPECT_NE(regrade.out.find("regrade: 4 verdict(s) reproduced, 0 not reproduced, 0 not re-derived"),
            std::string::npos) << regrade.out;
}

}  // namespace e2e_bundle
