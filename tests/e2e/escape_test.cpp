// Nothing from input reaches the terminal raw (docs/runner.md "What reaches
// the terminal"): ESC, BEL, C1 controls, DEL, bidi overrides and invalid
// UTF-8 in scenario ids and names, include and file paths, the agent and
// client commands and option values go through every command, and the raw
// bytes of its stdout and stderr hold none of them. Each command is one short
// process (no agent ever starts), so the whole table takes about a second.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runner/core/escape.hpp"
#include "runner/core/utf8.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_escape {

using a2a::testing::run_command;
namespace fs = std::filesystem;

namespace {

const std::string kConform = A2A_CONFORM;

// Raw: ESC sequences (clear screen, window title), BEL, a C1 CSI, DEL, a
// right-to-left override and an isolate, and bytes that are not UTF-8.
const std::string kNasty = "\x1b[2J\x1b]0;pwned\x07\xc2\x9b" "31m\x7f\xe2\x80\xae\xe2\x81\xa6\xff\xfe";

// The same in YAML double-quote escapes (YAML text must be UTF-8).
const std::string kNastyYaml = "\\e[2J\\e]0;pwned\\a\\x9b31m\\x7f\\u202e\\u2066";

// The first raw control byte, bidi override or invalid UTF-8 in `out`, or "".
std::string first_raw_control(const std::string& out) {
  for (size_t i = 0; i < out.size();) {
    char32_t cp = 0;
    size_t n = a2a::core::decode_utf8(out, i, cp);
    if (n == 0) return "invalid UTF-8 at byte " + std::to_string(i) + ": " + a2a::core::escape_bytes(out.substr(i, 8));
    if (cp != '\n' && cp != '\t' && a2a::core::escaped_code_point(cp))
      return "code point " + std::to_string(cp) + " at byte " + std::to_string(i) + " near '" +
             a2a::core::escape_bytes(out.substr(i > 40 ? i - 40 : 0, 80)) + "'";
    i += n;
  }
  return "";
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

struct Row {
  std::string name;
  std::vector<std::string> args;
  std::string shows;  // evidence the nasty input was reached (escaped) in stdout or stderr
};

}  // namespace

TEST(TerminalOutput, EveryCommandEscapesControlBytesFromItsInput) {
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / ("escape-" + kNasty);
  fs::remove_all(dir);
  ASSERT_TRUE(fs::create_directories(dir));
  const std::string doc = dir / "nasty.acts.yaml";
  write(doc, "acts_version: \"1.0\"\nspec_version: \"1.0\"\nsuites:\n  - id: \"S-" + kNastyYaml +
                 "\"\n    name: \"suite " + kNastyYaml + "\"\n    tests:\n      - id: \"T-" + kNastyYaml +
                 "\"\n        name: \"name " + kNastyYaml + "\"\n        level: must\n        steps:\n"
                 "          - {id: get, operation: get_task, params: {id: \"x\"}}\n");
  const std::string includer = dir / "includer.acts.yaml";
  write(includer, "acts_version: \"1.0\"\nspec_version: \"1.0\"\ninclude: [\"gone-" + kNastyYaml + ".acts.yaml\"]\n");
  const std::string agent = (dir / ("agent-" + kNasty)).string();
  const std::string out = (dir / "out").string();
  const std::string report = out + "/report.json";
  // A bundle whose SHA256SUMS names a file that is not there (verify lists it).
  const fs::path bundle = dir / "bundle";
  ASSERT_TRUE(fs::create_directories(bundle));
  write(bundle / "SHA256SUMS", std::string(64, '0') + "  lost-" + kNasty + "\n");

  // In order: `run` writes the report that `merge` and `diff` read back.
  std::vector<Row> rows = {
      {"check", {"check", doc}, "\\x1b[2J"},
      {"check-include", {"check", includer}, "gone-\\x1b[2J"},
      {"check-missing-file", {"check", (dir / ("missing-" + kNasty + ".acts.yaml")).string()}, "missing-\\x1b[2J"},
      {"list", {"list", doc}, "T-\\x1b[2J"},
      {"requirements", {"requirements", doc}, "T-\\x1b[2J"},
      {"run", {"run", "--agent", agent, "--report-dir", out, doc}, "agent-\\x1b[2J"},
      {"run-loopback", {"run", "--binding", "loopback", doc}, "T-\\x1b[2J"},
      {"merge", {"merge", report}, "agent-\\x1b[2J"},
      {"diff", {"diff", report, report}, "escape-\\x1b[2J"},
      {"verify", {"verify", bundle.string()}, "lost-\\x1b[2J"},
      {"client", {"client", "--cmd", agent + " {target}"}, "agent-\\x1b[2J"},
      {"cli-bad-value", {"run", "--color", kNasty, "--agent", "x", doc}, "\\x1b[2J"},
      {"cli-bad-option", {"list", "--" + kNasty}, "\\x1b[2J"},
      {"cli-bad-level", {"list", "--level", kNasty, doc}, "\\x1b[2J"},
  };
  for (const auto& row : rows) {
    std::vector<std::string> argv = {kConform};
    argv.insert(argv.end(), row.args.begin(), row.args.end());
    auto r = run_command(argv, 30000);
    EXPECT_FALSE(r.timed_out) << row.name;
    EXPECT_NE(r.exit_code, -1) << row.name;
    EXPECT_EQ(first_raw_control(r.out), "") << row.name << " stdout";
    EXPECT_EQ(first_raw_control(r.err), "") << row.name << " stderr";
    EXPECT_NE((r.out + r.err).find(row.shows), std::string::npos)
        << row.name << ": the input was not shown; stdout:\n"
        << a2a::core::terminal_text(r.out.substr(0, 3000)) << "\nstderr:\n" << a2a::core::terminal_text(r.err);
  }
  // A folder named with control bytes is kept only to look into a failure.
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace e2e_escape
