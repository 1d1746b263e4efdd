// What a run certified (role, profile, target), for every report, and one
// target's options out of several.
#include <algorithm>

#include "runner/cli/targets.hpp"

namespace a2a::cli {

namespace {

// The A2A version an HTTP interface was tested as: its card's
// protocolVersion; a forced binding has none, so a "binding@version" key
// (0.3 interfaces are keyed "jsonrpc@0.3") or else the runner's 1.0.
std::string version_of(const engine::BindingTarget& b) {
  if (!b.protocol_version.empty()) return b.protocol_version;
  auto at = b.binding.find('@');
  return at == std::string::npos ? std::string("1.0") : b.binding.substr(at + 1);
}

}  // namespace

TargetDescription describe_target(const Options& o, const engine::RunConfig& cfg) {
  TargetDescription d;
  bool client = o.client_run || !o.client_cmd.empty();
  d.role = client ? "client" : "agent";
  d.target = client ? o.client_cmd : !o.url.empty() ? o.url : o.agent;
  // An in-process agent (--binding loopback) is named by its interface.
  if (d.target.empty() && cfg.in_process_agent && !cfg.bindings.empty()) d.target = cfg.bindings.front().url;
  // A URL target whose discovery failed tested no version: its profile stays "".
  bool http = !client && !o.url.empty();
  for (const auto& b : cfg.bindings) {
    if (b.binding == "stdio") continue;
    http = true;
    std::string v = version_of(b);
    if (std::find(d.protocol_versions.begin(), d.protocol_versions.end(), v) == d.protocol_versions.end())
      d.protocol_versions.push_back(v);
  }
  if (!http) {
    d.profile = cfg.profile.name.empty() ? o.profile : cfg.profile.name;
    return d;
  }
  for (const auto& v : d.protocol_versions) d.profile += (d.profile.empty() ? "" : ", ") + v;
  return d;
}

void stamp_target(result::RunResult& run, const TargetDescription& d) {
  run.role = d.role;
  run.profile = d.profile;
  run.protocol_versions = d.protocol_versions;
  run.target = d.target;
}

Options with_target(const Options& o, const TargetSpec& t) {
  Options one = o;
  one.targets = t.kind.empty() ? std::vector<TargetSpec>{} : std::vector<TargetSpec>{t};
  if (t.kind == "agent") one.agent = t.value;
  if (t.kind == "url") one.url = t.value;
  if (t.kind == "client") one.client_cmd = t.value;
  return one;
}

}  // namespace a2a::cli
