// `a2a-conform load` (docs/load.md): its flags and the command. The load
// itself lives in runner/load/, its reports in reports/load_*.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace a2a::cli {

struct LoadCli {
  std::string agent, url, binding, a2a_version, profile = "p46";
  bool insecure = false, allow_remote = false, quiet = false;
  std::vector<std::string> headers;
  std::string ops = "send", duration = "10s", warmup = "0", timeout = "10s";
  int connections = 0;  // 0: 4 in a closed loop, 16 workers in an open one
  double rate = 0;
  uint64_t requests = 0;
  int max_findings = 20;
  std::string json_path, html_path;
};

CLI::App* add_load_command(CLI::App& app, LoadCli& lc);
int cmd_load(const LoadCli& lc, const std::string& command_line);

// Whether a URL (http://HOST:PORT/..., ws://..., or gRPC's HOST:PORT) names
// this machine: localhost, 127.0.0.0/8 or ::1. load drives only such targets
// unless --allow-remote is given (docs/load.md "Only your own agent").
bool load_is_loopback_url(const std::string& url);

}  // namespace a2a::cli
