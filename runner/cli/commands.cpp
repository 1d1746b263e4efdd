// a2a-conform's commands that start no peer (check, list) and the pieces
// every run shares: scenario paths, loading, selection, report writing.
#include "runner/cli/options.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <map>

#include "reports/badge.hpp"
#include "reports/html.hpp"
#include "reports/markdown.hpp"
#include "reports/json_report.hpp"
#include "reports/junit.hpp"
#include "runner/cli/assertion_check.hpp"
#include "runner/core/escape.hpp"
#include "runner/scenario/references.hpp"

#ifndef A2A_SOURCE_DIR
#define A2A_SOURCE_DIR "."
#endif

namespace a2a::cli {

namespace fs = std::filesystem;

// The suites and profiles: ./suites in a checkout, else beside an installed
// a2a-conform (PREFIX/bin/../share/a2a-conform/suites, where `cmake
// --install` and the .deb put them), else the source tree it was built from.
fs::path suites_root() {
  if (fs::exists("suites/profiles")) return "suites";
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "a2a-conform" / "suites";
    if (fs::exists(installed / "profiles", ec)) return installed;
  }
  return fs::path(A2A_SOURCE_DIR) / "suites";
}

// Every *.acts.yaml under a folder, sorted (profiles are *.yaml, not *.acts.yaml).
std::vector<std::string> files_under(const fs::path& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    auto p = it->path().string();
    if (p.ends_with(".acts.yaml")) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Folders given on the command line stand for the scenario files under them.
core::Expected<std::vector<std::string>> expand_paths(const std::vector<std::string>& paths, bool client) {
  if (paths.empty()) {
    fs::path root = client ? suites_root() / "client" : suites_root();
    auto files = files_under(root);
    if (files.empty())
      return core::fail(core::ErrorKind::kNotFound, root.string() + ": no *.acts.yaml scenario file under this folder");
    return files;
  }
  std::vector<std::string> out;
  std::string problems;
  for (const auto& p : paths) {
    if (fs::is_directory(p)) {
      auto files = files_under(p);
      if (files.empty())
        problems += (problems.empty() ? "" : "\n") + core::escape_bytes(p) +
                    ": no *.acts.yaml scenario file under this folder (scenario files are named NAME.acts.yaml)";
      out.insert(out.end(), files.begin(), files.end());
    } else {
      out.push_back(p);
    }
  }
  if (!problems.empty()) return core::fail(core::ErrorKind::kNotFound, problems);
  return out;
}

core::Expected<std::vector<scenario::Document>> load_scenarios(const Options& o, bool client) {
  auto paths = expand_paths(o.paths, client);
  if (!paths) return core::fail(paths.error());
  return load_all(*paths, o.limits);
}

// Loads every file (and its includes) once; all problems at once.
core::Expected<std::vector<scenario::Document>> load_all(const std::vector<std::string>& paths,
                                                         const scenario::LoadLimits& limits) {
  std::vector<scenario::Document> docs;
  std::string problems;
  std::set<std::string> seen;
  for (const auto& p : paths) {
    auto d = scenario::load_with_includes(p, limits);
    if (!d) {
      problems += (problems.empty() ? "" : "\n") + d.error().str();
      continue;
    }
    for (auto& doc : *d) {
      if (!seen.insert(fs::weakly_canonical(doc.file).string()).second) continue;
      for (auto& su : doc.suites)
        for (auto& t : su.tests) t.variables = doc.variables;
      docs.push_back(std::move(doc));
    }
  }
  if (!problems.empty()) return core::fail(core::ErrorKind::kSchema, problems);
  // Test ids must be unique across the run: they key results and known failures.
  std::map<std::string, std::string> ids;
  for (const auto& d : docs)
    for (const auto& s : d.suites)
      for (const auto& t : s.tests) {
        auto [it, fresh] = ids.emplace(t.id, t.where.str());
        if (!fresh)
          problems += (problems.empty() ? "" : "\n") + t.where.str() + ": error[schema]: test id " +
                      t.id + " is also defined at " + it->second;
      }
  // Assertion problems join the duplicate ids: every mistake at once.
  std::string assertions = check_assertions(docs);
  if (!assertions.empty()) problems += (problems.empty() ? "" : "\n") + assertions;
  if (!problems.empty()) return core::fail(core::ErrorKind::kSchema, problems);
  return docs;
}

scenario::Selection selection_of(const Options& o) {
  scenario::Selection sel;
  sel.ids = o.ids;
  sel.tags = o.tags;
  sel.sections = o.sections;
  for (const auto& l : o.levels)
    if (auto lv = scenario::level_from(l)) sel.levels.push_back(*lv);
  return sel;
}

core::Expected<std::vector<const scenario::Test*>> select_shard(const Options& o,
                                                                 const std::vector<scenario::Document>& docs,
                                                                 scenario::Shard* shard_out,
                                                                 std::vector<std::string>* all) {
  auto shard = scenario::resolve_shard(o.shard, scenario::process_env());
  if (!shard) return core::fail(shard.error());
  auto tests = scenario::select_tests(docs, selection_of(o));
  if (all)
    for (const auto* t : tests) all->push_back(t->id);
  if (shard_out) *shard_out = *shard;
  return scenario::apply_shard(tests, *shard);
}

// The wire profiles in suites/profiles, which {{profile.PATH}} is checked against.
core::Expected<std::vector<scenario::Profile>> shipped_profiles() {
  std::vector<scenario::Profile> out;
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(suites_root() / "profiles", ec))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto p = scenario::load_profile(f);
    if (!p) return core::fail(p.error());
    out.push_back(std::move(*p));
  }
  return out;
}

// The names --var NAME=VALUE defines.
std::vector<std::string> var_names(const Options& o) {
  std::vector<std::string> out;
  for (const auto& v : o.vars) out.push_back(v.substr(0, v.find('=')));
  return out;
}

// What a run would only meet as a scenario's ERROR, once it got there:
// undefined variables and profile paths, printed one per line; their count.
size_t report_unresolvable(const Options& o, const std::vector<scenario::Document>& docs) {
  std::vector<std::string> lines;
  for (const auto& d : docs)
    for (auto& problem : scenario::undefined_references(d, var_names(o))) lines.push_back(std::move(problem));
  if (auto profiles = shipped_profiles(); !profiles) {
    lines.push_back(profiles.error().str());
  } else {
    std::istringstream missing(check_profile_references(docs, *profiles));
    for (std::string line; std::getline(missing, line);) lines.push_back(line);
  }
  for (const auto& line : lines) std::cerr << core::escape_bytes(line) << "\n";
  return lines.size();
}

int cmd_check(const Options& o) {
  auto docs = load_scenarios(o, o.client_run);
  if (!docs) {
    std::cerr << core::terminal_text(docs.error().message) << "\n";
    return kExitUsage;
  }
  if (size_t unresolved = report_unresolvable(o, *docs)) {
    std::cerr << unresolved << " reference(s) a run could not resolve (--var NAME=VALUE defines a variable for every scenario)\n";
    return kExitUsage;
  }
  size_t n = 0, unquoted = 0;
  for (const auto& d : *docs) n += d.test_count();
  // The requirement registry (docs/requirements.md): every must/should test
  // says which normative sentence backs it. ACTS documents from elsewhere
  // have none: --allow-unquoted accepts them.
  if (!o.allow_unquoted) {
    for (const auto& d : *docs)
      for (const auto& s : d.suites)
        for (const auto& t : s.tests) {
          if (t.level == scenario::Level::kMay || !t.quotes.empty()) continue;
          std::cerr << core::terminal_line(t.where.str()) << ": test '" << core::terminal_line(t.id)
                    << "' is level " << scenario::to_string(t.level)
                    << " but has no x-requirement (the normative sentence it enforces; docs/requirements.md)\n";
          ++unquoted;
        }
  }
  if (unquoted) {
    std::cerr << unquoted << " test(s) without x-requirement (--allow-unquoted accepts them)\n";
    return kExitUsage;
  }
  std::cout << "ok: " << docs->size() << " file(s), " << n << " test(s)\n";
  return 0;
}

int cmd_list(const Options& o) {
  auto docs = load_scenarios(o);
  if (!docs) {
    std::cerr << core::terminal_text(docs.error().message) << "\n";
    return kExitUsage;
  }
  auto tests = select_shard(o, *docs);
  if (!tests) {
    std::cerr << "a2a-conform list: " << core::terminal_text(tests.error().message) << "\n";
    return kExitUsage;
  }
  for (const auto* t : *tests)
    std::cout << core::terminal_line(t->id) << "  [" << scenario::to_string(t->level) << "]  "
              << core::terminal_line(t->name) << "  (" << core::terminal_line(t->where.str()) << ")\n";
  return 0;
}

reports::MarkdownOptions markdown_options(const std::string& html, const std::string& json) {
  reports::MarkdownOptions mo;
  mo.full_report = !html.empty() ? html : !json.empty() ? json : "the HTML report (--html)";
  return mo;
}

core::Expected<void> write_reports(const Options& o, const result::RunResult& run) {
  std::string dir = o.report_dir;
  auto path_or = [&](const std::string& explicit_path, const char* name) {
    if (!explicit_path.empty()) return explicit_path;
    return dir.empty() ? std::string() : (fs::path(dir) / name).string();
  };
  if (!dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return core::fail(core::ErrorKind::kIo, "cannot create report dir " + dir + ": " + ec.message());
  }
  auto write = [](const std::string& path, const std::function<void(std::ostream&)>& fn) -> core::Expected<void> {
    if (path.empty()) return {};
    std::ostringstream ss;
    fn(ss);
    return reports::write_text_file(path, ss.str());
  };
  if (auto r = write(path_or(o.json_path, "report.json"), [&](std::ostream& os) { reports::write_json_report(os, run); }); !r) return r;
  if (auto r = write(path_or(o.junit_path, "junit.xml"), [&](std::ostream& os) { reports::write_junit(os, run); }); !r) return r;
  if (auto r = write(path_or(o.html_path, "report.html"), [&](std::ostream& os) { reports::write_html(os, run); }); !r) return r;
  if (auto r = write(o.badge_path, [&](std::ostream& os) { reports::write_badge(os, reports::badge_text(run)); }); !r)
    return r;
  std::string html = path_or(o.html_path, "report.html"), json = path_or(o.json_path, "report.json");
  if (auto r = write(o.markdown_path,
                     [&](std::ostream& os) { reports::write_markdown(os, run, markdown_options(html, json)); });
      !r)
    return r;
  std::string acts = !o.acts_dir.empty() ? o.acts_dir : dir;
  if (!acts.empty()) {
    reports::ActsOptions ao;
    ao.sdk_name = "agent";
    if (auto r = reports::write_acts_reports(acts, run, ao); !r) return core::fail(r.error());
  }
  return {};
}

}  // namespace a2a::cli
