// A signal to the runner (docs/runner.md "Interrupted runs"): it stops
// starting scenarios, ends every agent it started (their setsid descendants
// included), writes every report marked interrupted with the results so far
// and exits 128 + the signal; a second signal exits at once.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "runner/transport/stdio_process.hpp"
#include "runner/transport/transport_test_util.hpp"
#include "tests/e2e/run_command.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_interrupt {

namespace fs = std::filesystem;
using a2a::core::Deadline;
using a2a::core::Millis;
using a2a::transport::ReadResult;
using a2a::transport::SpawnOptions;
using a2a::transport::StdioProcess;

const std::string kConform = A2A_CONFORM;
const std::string kAgent = A2A_REF_AGENT;
const std::string kSrc = A2A_SOURCE_DIR;

fs::path fresh_dir(const std::string& tag) {
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "interrupt" / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// An agent that never answers and ignores SIGTERM, with a child in its group
// and a grandchild in a session of its own that ignores SIGTERM too; each
// appends its pid to `pids`.
fs::path write_hanging_agent(const fs::path& dir) {
  fs::path script = dir / "hanging-agent.sh";
  fs::path pids = dir / "pids";
  std::ofstream(script) << "#!/bin/sh\n"
                           "trap '' TERM\n"
                           "echo $$ >> '" << pids.string() << "'\n"
                           "setsid sh -c 'trap \"\" TERM; echo $$ >> \"" << pids.string() << "\"; exec sleep 120' &\n"
                           "sleep 120 &\n"
                           "echo $! >> '" << pids.string() << "'\n"
                           "wait\n";
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

std::vector<int> read_pids(const fs::path& file) {
  std::vector<int> out;
  std::ifstream in(file);
  int pid;
  while (in >> pid) out.push_back(pid);
  return out;
}

// Waits (bounded) until every pid is dead; returns those still alive.
std::vector<int> survivors(const std::vector<int>& pids) {
  auto deadline = Deadline::after(Millis(5000));
  std::vector<int> alive;
  do {
    alive.clear();
    for (int p : pids)
      if (!a2a::transport::testing::process_gone(p)) alive.push_back(p);
    if (alive.empty()) break;
    std::this_thread::sleep_for(Millis(50));
  } while (!deadline.expired());
  return alive;
}

struct Runner {
  std::unique_ptr<StdioProcess> proc;
  std::string out;

  explicit Runner(const std::vector<std::string>& argv) {
    SpawnOptions o;
    o.argv = argv;
    o.stderr_keep_bytes = 1 << 20;
    auto p = StdioProcess::spawn(o);
    EXPECT_TRUE(static_cast<bool>(p)) << (p ? std::string() : p.error().message);
    if (p) proc = std::move(*p);
    if (proc) proc->close_stdin();
  }
  // Reads stdout until `pred` holds or the deadline passes.
  bool read_until(const std::function<bool(const std::string&)>& pred, Millis within) {
    auto deadline = Deadline::after(within);
    while (!pred(out)) {
      auto rd = proc->read_some(deadline);
      if (rd.status != ReadResult::Status::kData) return pred(out);
      out += rd.data;
    }
    return true;
  }
  void signal(int sig) const { ::kill(proc->pid(), sig); }
  // Reads to EOF, then the exit code (-1: killed, or still running after `within`).
  int finish(Millis within) {
    read_until([](const std::string&) { return false; }, within);
    auto st = proc->wait_exit(Deadline::after(Millis(1000)));
    if (!st) {
      proc->kill_now();
      return -1;
    }
    return st->exited ? st->code : -1;
  }
};

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in, nullptr, false);
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct SignalCase {
  int sig;
  const char* name;
  int exit_code;
};

class InterruptBy : public ::testing::TestWithParam<SignalCase> {};

// A signal 3 s into a run against an agent that hangs.
TEST_P(InterruptBy, HangingAgentGivesInterruptedReportsAndNoSurvivor) {
  const auto& c = GetParam();
  auto dir = fresh_dir(c.name);
  auto agent = write_hanging_agent(dir);
  Runner r({kConform, "run", "--color", "never", "-j2", "--agent", agent.string(), "--report-dir",
            (dir / "out").string(), kSrc + "/suites/stdio"});
  ASSERT_TRUE(r.proc);
  // The agent has started (its pids are written) before the signal.
  auto started = Deadline::after(Millis(20000));
  while (read_pids(dir / "pids").size() < 3 && !started.expired()) std::this_thread::sleep_for(Millis(50));
  std::this_thread::sleep_for(Millis(3000));
  r.signal(c.sig);
  int code = r.finish(Millis(30000));
  EXPECT_EQ(code, c.exit_code) << r.out.substr(0, 3000) << r.proc->stderr_text();
  EXPECT_NE(r.out.find("INTERRUPTED"), std::string::npos) << r.out.substr(0, 3000);

  auto report = read_json(dir / "out" / "report.json");
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["interrupted"]["signal"], c.name);
  EXPECT_EQ(report["exit_code"], c.exit_code);
  EXPECT_EQ(report["conformant"], false);
  EXPECT_GT(report["interrupted"]["not_run"].get<long long>(), 0);
  EXPECT_NE(read_text(dir / "out" / "report.html").find("Interrupted."), std::string::npos);
  EXPECT_NE(read_text(dir / "out" / "junit.xml").find("name=\"interrupted\""), std::string::npos);

  auto pids = read_pids(dir / "pids");
  EXPECT_GE(pids.size(), 3u);
  auto alive = survivors(pids);
  EXPECT_TRUE(alive.empty()) << alive.size() << " process(es) of the agent survived, first pid " << alive.front();
  for (int p : alive) ::kill(p, SIGKILL);  // ours: started by this test's agent
}

INSTANTIATE_TEST_SUITE_P(Interrupt, InterruptBy,
                         ::testing::Values(SignalCase{SIGINT, "SIGINT", 130}, SignalCase{SIGTERM, "SIGTERM", 143},
                                           SignalCase{SIGHUP, "SIGHUP", 129}),
                         [](const auto& info) { return std::string(info.param.name); });

// Results that finished before the signal are kept; the rest are counted.
TEST(Interrupt, SigtermKeepsTheResultsSoFar) {
  auto dir = fresh_dir("sigterm");
  Runner r({kConform, "run", "--color", "never", "-j2", "--agent", kAgent, "--json", (dir / "r.json").string(),
            kSrc + "/suites/stdio", kSrc + "/suites/a2a"});
  ASSERT_TRUE(r.proc);
  ASSERT_TRUE(r.read_until([](const std::string& s) { return count(s, "PASS") >= 10; }, Millis(60000))) << r.out;
  r.signal(SIGTERM);
  EXPECT_EQ(r.finish(Millis(30000)), 143) << r.out.substr(0, 3000);
  auto report = read_json(dir / "r.json");
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["interrupted"]["signal"], "SIGTERM");
  auto ran = report["scenarios"].size();
  EXPECT_GE(ran, 10u);
  EXPECT_GT(report["interrupted"]["not_run"].get<long long>(), 0);
  for (const auto& s : report["scenarios"]) EXPECT_EQ(s["outcome"], "PASS") << s.dump();
}

// A second signal exits at once, without waiting for the grace period or
// writing reports; the agents are still killed.
TEST(Interrupt, SecondSignalExitsAtOnce) {
  auto dir = fresh_dir("twice");
  auto agent = write_hanging_agent(dir);
  Runner r({kConform, "run", "--color", "never", "--agent", agent.string(), "--json", (dir / "r.json").string(),
            kSrc + "/suites/stdio"});
  ASSERT_TRUE(r.proc);
  auto started = Deadline::after(Millis(20000));
  while (read_pids(dir / "pids").size() < 3 && !started.expired()) std::this_thread::sleep_for(Millis(50));
  r.signal(SIGHUP);
  std::this_thread::sleep_for(Millis(200));
  r.signal(SIGHUP);
  EXPECT_EQ(r.finish(Millis(30000)), 129) << r.out.substr(0, 3000) << r.proc->stderr_text();
  // The second signal's own path ran (not the first's, which also exits 129).
  EXPECT_NE(r.proc->stderr_text().find("again"), std::string::npos) << r.proc->stderr_text();
  // The run may have got as far as its reports while the agents were being
  // killed (a slow build does); a report is then whole, never cut short.
  if (fs::exists(dir / "r.json")) {
    auto report = read_json(dir / "r.json");
    ASSERT_TRUE(report.is_object()) << "a partial report: " << read_text(dir / "r.json").substr(0, 300);
    EXPECT_EQ(report["interrupted"]["signal"], "SIGHUP");
  }
  auto alive = survivors(read_pids(dir / "pids"));
  EXPECT_TRUE(alive.empty()) << alive.size() << " process(es) of the agent survived";
  for (int p : alive) ::kill(p, SIGKILL);
}

}  // namespace e2e_interrupt
