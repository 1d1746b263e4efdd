// The command line of a2a-conform as data, shared by its commands
// (cli.cpp: flags; commands.cpp: check, list, reports; run_command.cpp: run
// and client). Only main_with_args picks the exit code it returns.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "reports/markdown.hpp"
#include "runner/core/escape.hpp"
#include "runner/core/expected.hpp"
#include "runner/result/result.hpp"
#include "runner/scenario/loader.hpp"
#include "runner/scenario/selection.hpp"
#include "runner/scenario/shard.hpp"

namespace a2a::cli {

inline constexpr int kExitUsage = 2;

// One target named on the command line, in command-line order.
struct TargetSpec {
  std::string kind;   // "agent" (--agent), "url" (--url), "client" (client --cmd)
  std::string value;
};

struct Options {
  std::vector<std::string> paths;
  // The target of one run (with several, each run gets a copy with one set:
  // targets.hpp with_target).
  std::string agent;
  std::string url;
  // Every --agent, --url, --cmd as given (repeatable), and all of them in
  // command-line order.
  std::vector<std::string> agents, urls, client_cmds;
  std::vector<TargetSpec> targets;
  bool client_run = false;   // the `client` command
  std::vector<std::string> bindings;
  std::vector<std::string> loopback_faults;  // --loopback-fault: faults of the in-process agent
  std::string a2a_version;  // --a2a-version: "0.3" | "1.0" | "" (as the card says)
  bool insecure = false;
  std::vector<std::string> headers;
  std::vector<std::string> vars;  // NAME=VALUE
  std::string profile = "p46";
  std::vector<std::string> ids, tags, levels, sections;
  std::string shard;  // --shard K/N ("" = the engines' variables, else unsharded)
  int jobs = 1;
  double timeout_scale = 1.0;
  int run_timeout_ms = 0;
  std::string known_failures;
  std::string report_dir;
  std::string json_path, junit_path, html_path, acts_dir;
  std::string badge_path;  // --badge FILE.svg (reports/badge.hpp)
  bool no_behaviors = false;
  std::string behaviors_file;  // --behaviors (or $A2A_BEHAVIORS)
  bool reuse = false;
  bool check_only = false;
  scenario::LoadLimits limits;  // --max-scenario-bytes, --max-scenario-nodes
  bool allow_unquoted = false;
  // --markdown: run / client / merge: the summary (reports/markdown.hpp);
  // requirements: the table; diff: the diff.
  std::string markdown_path;
  // run --bundle DIR: the certification bundle (docs/bundle.md);
  // --bundle-overwrite replaces an earlier bundle in DIR.
  std::string bundle_dir;
  bool bundle_overwrite = false;
  bool quiet = false;
  std::string color = "auto";
  std::string client_cmd;    // `client --cmd`: the client under test
  std::string client_binding = "stdio";
  std::string agent_double;  // default: a2a-agent-double beside this executable
};

std::filesystem::path suites_root();
// Folders stand for the scenario files under them; no paths: every suite
// (`client`: suites/client). A folder holding no *.acts.yaml file is an
// error (a misspelt path must not pass as "0 tests").
core::Expected<std::vector<std::string>> expand_paths(const std::vector<std::string>& paths, bool client = false);
// Loads every file (and its includes) once, within `limits`; all problems at once.
core::Expected<std::vector<scenario::Document>> load_all(const std::vector<std::string>& paths,
                                                         const scenario::LoadLimits& limits = {});
// expand_paths then load_all, with o.paths and o.limits.
core::Expected<std::vector<scenario::Document>> load_scenarios(const Options& o, bool client = false);
scenario::Selection selection_of(const Options& o);
// The selected tests of `docs` in this run's shard (--shard, else Bazel's or
// GoogleTest's variables); `all` gets the whole selection's ids when given.
core::Expected<std::vector<const scenario::Test*>> select_shard(const Options& o,
                                                                 const std::vector<scenario::Document>& docs,
                                                                 scenario::Shard* shard = nullptr,
                                                                 std::vector<std::string>* all = nullptr);
core::Expected<void> write_reports(const Options& o, const result::RunResult& run);
// --markdown's options: the rows a long matrix leaves out are in `html`
// (else `json`), named as the user gave it.
reports::MarkdownOptions markdown_options(const std::string& html, const std::string& json);

int cmd_check(const Options& o);
int cmd_requirements(const Options& o);  // requirements_command.cpp
int cmd_list(const Options& o);
// `run` and `client`.
int cmd_run(const Options& o, const std::string& command_line);
// `merge`: shard (or per-target) report.json files joined (merge_command.cpp).
int cmd_merge(const Options& o, const std::vector<std::string>& files, const std::string& command_line);
// `diff`: two runs' report.json files compared (diff_command.cpp); --markdown
// and --json name its report files.
int cmd_diff(const Options& o, const std::string& old_file, const std::string& new_file);

}  // namespace a2a::cli
