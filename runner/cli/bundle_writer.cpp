// `run --bundle DIR`: every report, the wire transcripts and the binding
// layer's calls per scenario, the agent card, the inputs (suite files,
// profile, behaviours, known failures), manifest.json and SHA256SUMS.
// The format is docs/bundle.md's.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <set>

#include "reports/json_report.hpp"
#include "runner/bundle/environment.hpp"
#include "runner/bundle/sha256.hpp"
#include "runner/bundle/sums.hpp"
#include "runner/cli/bundle.hpp"
#include "runner/engine/call_log.hpp"
#include "runner/scenario/profile.hpp"

#ifndef A2A_GIT_COMMIT
#define A2A_GIT_COMMIT ""
#endif

namespace a2a::cli {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

bool holds_bundle(const fs::path& dir) {
  std::ifstream in(dir / "manifest.json");
  if (!in) return false;
  auto j = Json::parse(in, nullptr, false);
  return j.is_object() && j.value("schema", std::string()) == kBundleSchema;
}

// Writes `bytes` to dir/rel and returns its manifest entry {path, sha256}.
core::Expected<Json> put(const fs::path& dir, const std::string& rel, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories((dir / rel).parent_path(), ec);
  if (auto w = reports::write_text_file((dir / rel).string(), bytes); !w) return core::fail(w.error());
  return Json{{"path", rel}, {"sha256", bundle::sha256_hex(bytes)}};
}

core::Expected<std::string> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return core::fail(core::ErrorKind::kNotFound, "cannot read " + p.string());
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A copy of an input file under inputs/; its entry names where it came from.
core::Expected<Json> copy_input(const fs::path& dir, const std::string& rel, const fs::path& from) {
  auto bytes = slurp(from);
  if (!bytes) return core::fail(bytes.error());
  auto e = put(dir, rel, *bytes);
  if (e) (*e)["original"] = from.string();
  return e;
}

// The suite files under inputs/suites/, at their paths relative to the
// deepest folder that holds them all, so includes still resolve.
core::Expected<Json> copy_suites(const fs::path& dir, const std::vector<scenario::Document>& docs) {
  std::vector<fs::path> files;
  std::set<std::string> seen;
  for (const auto& d : docs) {
    fs::path p = fs::weakly_canonical(d.file);
    if (seen.insert(p.string()).second) files.push_back(p);
  }
  fs::path root = files.empty() ? fs::path() : files.front().parent_path();
  for (const auto& f : files)
    while (!root.empty() && f.string().rfind(root.string() + "/", 0) != 0 && root != root.root_path())
      root = root.parent_path();
  Json out = Json::array();
  for (const auto& f : files) {
    auto e = copy_input(dir, "inputs/suites/" + fs::relative(f, root).generic_string(), f);
    if (!e) return core::fail(e.error());
    out.push_back(std::move(*e));
  }
  return out;
}

std::string file_safe(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out.substr(0, 80);
}

// transcripts/NNNN-BINDING-ID.json: the wire bytes (exact: text or base64,
// by the report's KEY / KEY_b64 rule) and the binding layer's calls.
core::Expected<Json> write_transcripts(const fs::path& dir, const result::RunResult& run,
                                       const engine::CallLog* log) {
  Json out = Json::array();
  for (size_t i = 0; i < run.scenarios.size(); ++i) {
    const auto& s = run.scenarios[i];
    Json wire = Json::array();
    for (const auto& e : s.transcript) {
      Json w = {{"t_ms", e.t_ms}, {"dir", e.dir}};
      result::put_text(w, "bytes", e.bytes);
      wire.push_back(std::move(w));
    }
    Json calls = Json::array();
    if (log)
      for (const auto& c : log->calls(s.id, s.binding))
        calls.push_back({{"operation", c.operation}, {"params", c.params}, {"answer", c.answer}});
    Json doc = {{"scenario", s.id},
                {"binding", s.binding},
                {"outcome", result::to_string(s.outcome)},
                {"wire", std::move(wire)},
                {"wire_dropped_bytes", s.transcript_dropped_bytes},
                {"calls", calls}};
    std::string num = std::to_string(i + 1);
    if (num.size() < 4) num.insert(0, 4 - num.size(), '0');
    auto e = put(dir, "transcripts/" + num + "-" + file_safe(s.binding) + "-" + file_safe(s.id) + ".json",
                 doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n");
    if (!e) return core::fail(e.error());
    (*e)["scenario"] = s.id;
    (*e)["binding"] = s.binding;
    (*e)["calls"] = calls.size();
    out.push_back(std::move(*e));
  }
  return out;
}

core::Expected<Json> write_all_reports(const Options& user, const result::RunResult& run, const fs::path& dir) {
  Options o;
  o.report_dir = (dir / "reports").string();
  o.markdown_path = (dir / "reports" / "summary.md").string();
  o.badge_path = (dir / "reports" / "badge.svg").string();
  if (auto w = write_reports(o, run); !w) return core::fail(w.error());
  Json out = Json::array();
  for (const auto& e : fs::directory_iterator(dir / "reports")) {
    auto h = bundle::sha256_file(e.path());
    if (!h) return core::fail(h.error());
    out.push_back({{"path", "reports/" + e.path().filename().string()}, {"sha256", *h}});
  }
  std::sort(out.begin(), out.end(), [](const Json& a, const Json& b) { return a["path"] < b["path"]; });
  return out;
}

Json targets_json(const engine::RunConfig& cfg) {
  Json out = Json::array();
  if (cfg.bindings.empty()) out.push_back({{"key", "stdio"}, {"binding", "stdio"}, {"url", ""}, {"tenant", ""},
                                           {"protocol_version", ""}});
  for (const auto& b : cfg.bindings)
    out.push_back({{"key", b.key()}, {"binding", b.binding}, {"url", b.url}, {"tenant", b.tenant},
                   {"protocol_version", b.protocol_version}});
  return out;
}

Json options_json(const Options& o, const engine::RunConfig& cfg) {
  // Header names only: their values are often credentials.
  Json header_names = Json::array();
  for (const auto& [name, value] : cfg.http_headers) header_names.push_back(name);
  return {{"profile", o.profile},
          {"header_names", std::move(header_names)},
          {"vars", o.vars},
          {"selection", {{"ids", o.ids}, {"tags", o.tags}, {"levels", o.levels}, {"sections", o.sections},
                         {"shard", o.shard}}},
          {"jobs", o.jobs},
          {"timeout_scale", o.timeout_scale},
          {"run_timeout_ms", o.run_timeout_ms},
          {"no_behaviors", o.no_behaviors},
          {"behaviors", o.no_behaviors ? "none" : o.behaviors_file.empty() ? "acts" : o.behaviors_file},
          {"agent_faults", cfg.agent_faults}};
}

// The inputs the run read: suites, the stdio profile, behaviours, known failures.
core::Expected<Json> write_inputs(const BundleRun& b, const fs::path& dir) {
  Json in = Json::object();
  auto suites = copy_suites(dir, b.selection.docs);
  if (!suites) return core::fail(suites.error());
  in["suites"] = std::move(*suites);
  auto ppath = scenario::find_profile(b.options.profile, {suites_root() / "profiles"});
  if (!ppath) return core::fail(ppath.error());
  auto profile = copy_input(dir, "inputs/profile.yaml", *ppath);
  if (!profile) return core::fail(profile.error());
  in["profile"] = std::move(*profile);
  in["behaviors"] = nullptr;
  const auto& bf = b.options.behaviors_file;
  if (!b.options.no_behaviors && !bf.empty() && bf != "acts") {
    auto e = copy_input(dir, "inputs/behaviors.yaml", bf);
    if (!e) return core::fail(e.error());
    in["behaviors"] = std::move(*e);
  }
  in["known_failures"] = nullptr;
  if (!b.options.known_failures.empty()) {
    auto e = copy_input(dir, "inputs/known-failures.yaml", b.options.known_failures);
    if (!e) return core::fail(e.error());
    in["known_failures"] = std::move(*e);
  }
  return in;
}

}  // namespace

std::string check_bundle_dir(const Options& o) {
  if (o.bundle_dir.empty()) return "";
  fs::path dir = o.bundle_dir;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return "";
  if (!fs::is_directory(dir, ec)) return "--bundle " + o.bundle_dir + ": exists and is not a directory";
  if (fs::is_empty(dir, ec)) return "";
  if (!holds_bundle(dir))
    return "--bundle " + o.bundle_dir + ": the directory is not empty and holds no bundle; give an empty or new one";
  if (!o.bundle_overwrite)
    return "--bundle " + o.bundle_dir + ": the directory holds an earlier bundle; --bundle-overwrite replaces it";
  return "";
}

core::Expected<std::string> write_bundle(const BundleRun& b) {
  fs::path dir = b.options.bundle_dir;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    if (!holds_bundle(dir) || !b.options.bundle_overwrite)
      return core::fail(core::ErrorKind::kInvalidArgument, check_bundle_dir(b.options));
    for (const auto& e : fs::directory_iterator(dir)) fs::remove_all(e.path(), ec);
  }
  fs::create_directories(dir, ec);
  if (ec) return core::fail(core::ErrorKind::kIo, "cannot create " + dir.string() + ": " + ec.message());
  Json m = {{"schema", kBundleSchema}, {"schema_version", kBundleSchemaVersion}};
  m["tool"] = {{"name", "a2a-conform"}, {"version", b.config.tool_version}, {"commit", A2A_GIT_COMMIT}};
  m["command_line"] = b.run.command_line;
  m["started_at"] = b.started_at;
  m["ended_at"] = b.ended_at;
  m["environment"] = bundle::environment_facts(false);
  m["target"] = b.run.target;
  m["role"] = b.run.role;
  m["targets"] = targets_json(b.config);
  m["options"] = options_json(b.options, b.config);
  auto inputs = write_inputs(b, dir);
  if (!inputs) return core::fail(inputs.error());
  m["inputs"] = std::move(*inputs);
  m["agent_card"] = nullptr;
  if (b.config.agent_card) {
    auto card = put(dir, "card/agent-card.json", b.config.agent_card->dump(2, ' ', false, Json::error_handler_t::replace) + "\n");
    if (!card) return core::fail(card.error());
    m["agent_card"] = std::move(*card);
  }
  auto reports = write_all_reports(b.options, b.run, dir);
  if (!reports) return core::fail(reports.error());
  m["reports"] = std::move(*reports);
  auto tr = write_transcripts(dir, b.run, b.config.call_log.get());
  if (!tr) return core::fail(tr.error());
  m["transcripts"] = std::move(*tr);
  m["verdict"] = {{"exit_code", b.run.exit_code()}, {"conformant", b.run.conformant()},
                  {"interrupted", b.run.interrupted.has_value()}, {"counts", result::counts_json(b.run.counts())}};
  if (auto e = put(dir, "manifest.json", m.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"); !e) return core::fail(e.error());
  if (auto w = bundle::write_sums(dir); !w) return core::fail(w.error());
  auto digest = bundle::sha256_file(dir / bundle::kSumsFile);
  if (!digest) return core::fail(digest.error());
  return *digest;
}

}  // namespace a2a::cli
