// Runs `a2a-conform client` against a2a-ref-client (optionally with a fault)
// on one binding and returns the JSON report (tests of docs/client-conformance.md).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/e2e/run_command.hpp"
#include "tests/e2e/sanitized.hpp"

namespace a2a::testing {

struct ClientRun {
  CommandResult cmd;
  nlohmann::json report;
};

// profile: the stdio profile of both the runner (--profile) and
// a2a-ref-client (--profile); "" = their default (p46).
inline ClientRun run_client_suite(const std::string& binding, const std::string& suite, const std::string& tag,
                                  const std::string& client_flags = "", const std::string& profile = "") {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(A2A_BINARY_DIR) / "test-artifacts" / "client";
  fs::create_directories(dir);
  fs::path json = dir / (tag + "-" + binding + (profile.empty() ? "" : "-" + profile) + ".json");
  fs::remove(json);
  std::string target = binding == "stdio" ? "--agent {target}" : "--url {target} --binding {binding}";
  std::string prof = profile.empty() ? "" : " --profile " + profile;
  // A2A_META_BIN_DIR: another build's peers (tests/meta/fault_matrix_test.cpp).
  const char* bins = std::getenv("A2A_META_BIN_DIR");
  std::string ref_client = bins && *bins ? std::string(bins) + "/a2a-ref-client" : A2A_REF_CLIENT;
  std::string conform = bins && *bins ? std::string(bins) + "/a2a-conform" : A2A_CONFORM;
  std::string cmd = ref_client + prof + " " + client_flags + " --timeout-ms 5000 " + target + " script -";
  ClientRun r;
  // Most client scenarios wait on a timeout (the client's 5 s, a slow
  // handshake): several at once keep a fault-matrix row near 10 s, not 30.
  std::vector<std::string> argv = {conform, "client", "--cmd", cmd, "--binding", binding, "-q", "--color", "never",
                                   "-j", a2a::e2e::kSanitized ? "2" : "4", "--json", json.string()};
  if (!profile.empty()) argv.insert(argv.end(), {"--profile", profile});
  argv.push_back(suite);
  r.cmd = run_command(argv, 300000);
  std::ifstream in(json);
  if (in) r.report = nlohmann::json::parse(in, nullptr, false);
  return r;
}

}  // namespace a2a::testing
