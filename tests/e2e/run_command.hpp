// Runs a command to completion for a test: its exit status and everything it
// wrote, bounded by a deadline (the child's process group is killed on expiry).
#pragma once

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/transport/stdio_process.hpp"

namespace a2a::testing {

// The runs in these tests certify our own peers, whose behaviours beyond ACTS
// §11.2 (suites/behaviors.md) are declared in sut-behaviors.yaml: the runner
// reads it through $A2A_BEHAVIORS unless a test passes --behaviors (interop
// tests pass `--behaviors acts`: an SDK agent declares nothing).
#ifdef A2A_SOURCE_DIR
inline const bool kRefAgentBehaviorsDeclared = [] {
  ::setenv("A2A_BEHAVIORS", A2A_SOURCE_DIR "/peers/a2a-ref-agent/sut-behaviors.yaml", 0);
  return true;
}();
#endif

struct CommandResult {
  int exit_code = -1;       // -1 when killed or timed out
  bool timed_out = false;
  std::string out;          // stdout
  std::string err;          // stderr (head)
  long max_rss_kib = -1;    // the command's peak resident set (from wait4), -1 unknown
  long elapsed_ms = 0;      // from spawn to reap
};

inline CommandResult run_command(const std::vector<std::string>& argv, int timeout_ms,
                                 std::map<std::string, std::string> env = {}) {
  CommandResult r;
  transport::SpawnOptions o;
  o.argv = argv;
  o.env_set = std::move(env);
  o.stderr_keep_bytes = 1 << 20;
  auto p = transport::StdioProcess::spawn(o);
  if (!p) {
    r.err = p.error().message;
    return r;
  }
  (*p)->close_stdin();
  auto t0 = core::Clock::now();
  auto deadline = core::Deadline::after(core::Millis(timeout_ms));
  for (;;) {
    auto rd = (*p)->read_some(deadline);
    if (rd.status == transport::ReadResult::Status::kData) {
      r.out += rd.data;
      continue;
    }
    r.timed_out = rd.status == transport::ReadResult::Status::kTimeout;
    break;
  }
  auto st = r.timed_out ? (*p)->kill_now() : (*p)->shutdown(core::Millis(5000), core::Millis(1000));
  r.err = (*p)->stderr_text();
  r.max_rss_kib = st.max_rss_kib;
  r.elapsed_ms = static_cast<long>(std::chrono::duration_cast<core::Millis>(core::Clock::now() - t0).count());
  if (st.exited && !r.timed_out) r.exit_code = st.code;
  return r;
}

#ifdef A2A_BINARY_DIR
// An empty folder for a test's reports: BUILD/test-artifacts/NAME (NAME may
// have subfolders), emptied first.
inline std::filesystem::path fresh_artifact_dir(const std::string& name) {
  std::filesystem::path d = std::filesystem::path(A2A_BINARY_DIR) / "test-artifacts" / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}
#endif

// A JSON file a command wrote; a discarded value when it is missing or not JSON.
inline nlohmann::json read_json_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in, nullptr, false);
}

}  // namespace a2a::testing
