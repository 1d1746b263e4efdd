// a2a-ref-agent: the reference A2A agent of the conformance suite, served
// over stdio. Only this file picks exit codes and reads the environment.
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "peers/a2a-ref-agent/behaviour.hpp"
#include "peers/a2a-ref-agent/exit_codes.hpp"
#include "peers/a2a-ref-agent/faults.hpp"
#include "peers/a2a-ref-agent/stdio_server.hpp"

namespace {

using namespace a2a::agent;

std::string help_footer() {
  std::ostringstream os;
  os << "\nThe agent speaks A2A 1.0 over the stdio binding (profile p46: Content-Length frames,\n"
        "handshake/handshakeAck, slash method names, event/streamResponse notifications).\n"
        "It implements all 11 operations; what a task does is chosen in-band by the text of\n"
        "the first text part (else the messageId) starting with one of these prefixes:\n\n";
  for (const auto& b : all_behaviours()) {
    std::string name = b.prefix.empty() ? "(no prefix)" : std::string(b.prefix);
    os << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ') << b.description << "\n";
  }
  os << "\nA blocking send of tck-cancel returns the WORKING task after --max-block-ms.\n"
        "\nExit codes:\n"
        "  0   clean end: stdin EOF, handshake rejected, or stdin closed before the ack\n"
        "  1   clean EOF with --fault life-exit-nonzero-on-eof\n"
        "  2   protocol error: bad/late handshakeAck, fatal framing error, EOF inside a frame\n"
        "  3   stdout unwritable (broken pipe or write timeout)\n"
        "  64  usage error\n"
        "  70  --fault life-crash-mid-frame\n"
        "\nEnvironment: A2A_SESSION_ID (non-empty) is echoed as the handshake sessionId.\n"
        "Diagnostics go to stderr; stdout carries frames only. See docs/ref-agent.md.\n";
  return os.str();
}

void list_faults() {
  for (const auto& f : all_faults()) {
    std::cout << f.name << "\n    defect: " << f.defect << "\n    breaks: " << f.breaks << "\n";
  }
}

std::string interface_url(const Profile& p) {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return p.interface_url;
  return "stdio://" + std::string(path, static_cast<size_t>(n)) + "?--profile&" + p.name;  // PR #46 URL form
}

struct Cli {
  std::string profile = "p46";
  std::vector<std::string> faults;
  bool list = false;
  bool quiet = false;
  int long_running_ms = 1000;
  int max_block_ms = 60000;
  int ack_timeout_ms = 10000;
};

void add_options(CLI::App& app, Cli& cli) {
  app.add_option("--profile", cli.profile, "Wire profile (only p46 for now)")
      ->check(CLI::IsMember(profile_names()))
      ->capture_default_str();
  app.add_option("--fault", cli.faults, "Inject a defect (repeatable); see --list-faults")->take_all();
  app.add_flag("--list-faults", cli.list, "Print every fault with the requirement it breaks, then exit");
  app.add_option("--long-running-ms", cli.long_running_ms, "Delay of tck-long-running (delay=NNN in the text overrides)")
      ->check(CLI::Range(0, 60000))
      ->capture_default_str();
  app.add_option("--max-block-ms", cli.max_block_ms, "Longest wait of a blocking SendMessage")
      ->check(CLI::Range(0, 3600000))
      ->capture_default_str();
  app.add_option("--ack-timeout-ms", cli.ack_timeout_ms, "How long to wait for the handshakeAck")
      ->check(CLI::Range(1, 3600000))
      ->capture_default_str();
  app.add_flag("-q,--quiet", cli.quiet, "No diagnostics on stderr");
  app.set_version_flag("--version", "a2a-ref-agent " + std::string(kAgentVersion));
  app.footer(help_footer());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"a2a-ref-agent: the reference A2A 1.0 agent of the a2a-conformance suite (stdio binding)"};
  Cli cli;
  add_options(app, cli);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (cli.list) {
    list_faults();
    return kExitOk;
  }
  Profile profile = *profile_by_name(cli.profile);
  ServerOptions opt = default_server_options(profile);
  for (const auto& name : cli.faults) {
    auto f = fault_from_name(name);
    if (!f) {
      std::cerr << "a2a-ref-agent: unknown fault '" << name << "' (run with --list-faults for the list)\n";
      return kExitUsage;
    }
    opt.faults.add(*f);
  }
  if (const char* sid = std::getenv("A2A_SESSION_ID")) opt.session_env = sid;
  opt.ack_timeout = a2a::core::Millis(cli.ack_timeout_ms);
  opt.agent.long_running = a2a::core::Millis(cli.long_running_ms);
  opt.agent.max_block = a2a::core::Millis(cli.max_block_ms);
  opt.agent.interfaces = a2a::agent::Json::array(
      {{{"url", interface_url(profile)}, {"protocolBinding", profile.protocol_binding}, {"protocolVersion", "1.0"}}});
  opt.log_fd = cli.quiet ? -1 : STDERR_FILENO;
  return serve_stdio(STDIN_FILENO, STDOUT_FILENO, opt);
}
