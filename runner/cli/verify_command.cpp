// `a2a-conform verify DIR [--regrade]` (docs/bundle.md): the hashes of a
// certification bundle, then, with --regrade, every verdict re-derived from
// the recorded calls with the recorded suite through the replay binding.
#include <fstream>
#include <iostream>
#include <map>

#include "runner/bindings/replay/replay_binding.hpp"
#include "runner/bundle/sha256.hpp"
#include "runner/bundle/sums.hpp"
#include "runner/cli/bundle.hpp"
#include "runner/core/escape.hpp"
#include "runner/engine/binding_registry.hpp"
#include "runner/engine/replay_run.hpp"
#include "runner/engine/run.hpp"
#include "runner/engine/scenario_runner.hpp"

namespace a2a::cli {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr size_t kMaxBundleJson = 64u << 20;  // one report or transcript file (a transcript keeps at most 4 MiB of bytes)

core::Expected<Json> read_bundle_json(const fs::path& dir, const std::string& rel) {
  if (auto why = bundle::bad_path(rel); !why.empty())
    return core::fail(core::ErrorKind::kSchema, "manifest.json names " + rel + ": " + why);
  std::error_code ec;
  auto size = fs::file_size(dir / rel, ec);
  if (ec) return core::fail(core::ErrorKind::kNotFound, rel + ": " + ec.message());
  if (size > kMaxBundleJson) return core::fail(core::ErrorKind::kSchema, rel + ": larger than 64 MiB");
  std::ifstream in(dir / rel, std::ios::binary);
  auto j = Json::parse(in, nullptr, false);
  if (j.is_discarded()) return core::fail(core::ErrorKind::kParse, rel + ": not valid JSON");
  return j;
}

// What a regrade works from: the recorded run and the inputs it read.
struct Recorded {
  Json manifest;
  result::RunResult run;
  std::vector<scenario::Document> docs;
  engine::RunConfig config;
  std::map<std::string, engine::BindingTarget> targets;  // by key
};

std::string str(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::vector<std::string> strings(const Json& j) {
  std::vector<std::string> out;
  if (j.is_array())
    for (const auto& e : j)
      if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

// The path of an input the manifest names ("" when it names none).
std::string input_path(const Json& m, const char* which) {
  const Json& in = m.value("inputs", Json::object());
  return in.is_object() && in.contains(which) ? str(in[which], "path") : std::string();
}

core::Expected<void> load_config(const fs::path& dir, Recorded& rec) {
  const Json& m = rec.manifest;
  const Json opts = m.value("options", Json::object());
  auto& cfg = rec.config;
  auto profile = scenario::load_profile(dir / input_path(m, "profile"));
  if (!profile) return core::fail(profile.error());
  cfg.profile = *profile;
  std::string behaviors = str(opts, "behaviors");
  cfg.assume_behaviors = behaviors != "none";
  if (auto bp = input_path(m, "behaviors"); !bp.empty()) {
    auto b = scenario::load_behaviors(dir / bp);
    if (!b) return core::fail(b.error());
    cfg.behaviors = std::move(*b);
  }
  if (auto kp = input_path(m, "known_failures"); !kp.empty()) {
    auto kf = engine::load_known_failures((dir / kp).string());
    if (!kf) return core::fail(kf.error());
    cfg.known_failures = *kf;
  }
  if (opts.contains("timeout_scale") && opts["timeout_scale"].is_number())
    cfg.timeout_scale = opts["timeout_scale"].get<double>();
  // Which credentials were sent matters to a SKIP rule; their values were not recorded.
  for (const auto& name : strings(opts.value("header_names", Json::array())))
    cfg.http_headers.emplace_back(name, "(not recorded)");
  if (auto cp = str(m.value("agent_card", Json()), "path"); !cp.empty()) {
    auto card = read_bundle_json(dir, cp);
    if (!card) return core::fail(card.error());
    cfg.agent_card = std::move(*card);
  }
  cfg.command_line = str(m, "command_line");
  for (const auto& t : m.value("targets", Json::array())) {
    engine::BindingTarget b{str(t, "binding"), str(t, "url"), str(t, "tenant"), str(t, "protocol_version")};
    rec.targets[b.key()] = b;
    if (b.binding != "stdio") cfg.bindings.push_back(b);
  }
  return {};
}

core::Expected<Recorded> load_recorded(const fs::path& dir) {
  Recorded rec;
  auto m = read_bundle_json(dir, "manifest.json");
  if (!m) return core::fail(m.error());
  if (str(*m, "schema") != kBundleSchema)
    return core::fail(core::ErrorKind::kSchema, "manifest.json: schema is not " + std::string(kBundleSchema));
  if (m->value("schema_version", 0) > kBundleSchemaVersion)
    return core::fail(core::ErrorKind::kSchema, "manifest.json: schema_version " +
                                                    std::to_string(m->value("schema_version", 0)) +
                                                    " is newer than this a2a-conform reads");
  if (str(*m, "role") == "client")
    return core::fail(core::ErrorKind::kSchema, "a client run's bundle cannot be regraded yet");
  rec.manifest = std::move(*m);
  auto report = read_bundle_json(dir, "reports/report.json");
  if (!report) return core::fail(report.error());
  auto run = result::parse_run_result(*report);
  if (!run) return core::fail(core::ErrorKind::kSchema, "reports/report.json: " + run.error().message);
  rec.run = std::move(*run);
  std::vector<std::string> suites;
  for (const auto& s : rec.manifest["inputs"].value("suites", Json::array())) {
    auto p = str(s, "path");
    if (auto why = bundle::bad_path(p); !why.empty())
      return core::fail(core::ErrorKind::kSchema, "manifest.json suite path '" + p + "': " + why);
    suites.push_back((dir / p).string());
  }
  auto docs = load_all(suites);
  if (!docs) return core::fail(docs.error());
  rec.docs = std::move(*docs);
  apply_vars(strings(rec.manifest["options"].value("vars", Json::array())), rec.docs);
  if (auto c = load_config(dir, rec); !c) return core::fail(c.error());
  return rec;
}

core::Expected<std::shared_ptr<bindings::ReplayBook>> load_book(const fs::path& dir, const Json& manifest) {
  auto book = std::make_shared<bindings::ReplayBook>();
  for (const auto& t : manifest.value("transcripts", Json::array())) {
    auto doc = read_bundle_json(dir, str(t, "path"));
    if (!doc) return core::fail(doc.error());
    std::vector<engine::RecordedCall> calls;
    for (const auto& c : doc->value("calls", Json::array()))
      calls.push_back({str(c, "operation"), c.value("params", Json()), c.value("answer", Json())});
    book->add(str(*doc, "scenario"), str(*doc, "binding"), std::move(calls));
  }
  return book;
}

const scenario::Test* find_test(const std::vector<scenario::Document>& docs, const std::string& id) {
  for (const auto& d : docs)
    for (const auto& s : d.suites)
      for (const auto& t : s.tests)
        if (t.id == id) return &t;
  return nullptr;
}

struct Tally {
  int same = 0;
  std::vector<std::string> differences;
  std::map<std::string, int> not_derived;  // reason -> count
};

// One recorded scenario: its verdict re-derived and compared.
void regrade_one(const result::ScenarioResult& was, const Recorded& rec, bindings::ReplayBook& book, Tally& tally) {
  const std::string head = was.id + "  [" + was.binding + "]  recorded " + std::string(result::to_string(was.outcome));
  const scenario::Test* t = find_test(rec.docs, was.id);
  if (!t) return tally.differences.push_back(head + ": the recorded suite has no such scenario");
  auto target = rec.targets.find(was.binding);
  if (target == rec.targets.end())
    return tally.differences.push_back(head + ": the manifest lists no " + was.binding + " target");
  if (was.reason.starts_with("not run: the target is broken")) {
    ++tally.not_derived["not run (the run's diagnosis of a broken target)"];
    return;
  }
  // The process and the stdio handshake are on the wire, not the binding
  // layer: a scenario that ended there made no call to replay.
  if (was.reason.starts_with("could not start the agent")) {
    ++tally.not_derived["the agent did not start (on the wire, not replayed)"];
    return;
  }
  for (const auto& st : was.steps)
    if (st.id == "handshake" && st.outcome != result::Outcome::kPass) {
      ++tally.not_derived["the stdio handshake did not pass (on the wire, not replayed)"];
      return;
    }
  const engine::BindingTarget* tp = target->second.binding == "stdio" ? nullptr : &target->second;
  result::ScenarioResult now;
  if (auto why = engine::skip_reason(*t, rec.config, tp); !why.empty()) {
    now = engine::describe(*t, rec.config, tp);
    now.outcome = result::Outcome::kSkip;
    now.reason = why;
    engine::apply_known_failures(now, rec.config.known_failures);
  } else if (auto nr = engine::not_replayable(*t); !nr.empty()) {
    bool wire = nr.find(" step (bytes on the wire") != std::string::npos;
    ++tally.not_derived["not on the binding layer: " + (wire ? std::string("raw wire or HTTP steps") : nr)];
    return;
  } else {
    now = engine::run_replayed_scenario(*t, rec.config, target->second);
    auto mism = book.mismatches(was.id, was.binding);
    if (!mism.empty()) {
      now.outcome = result::Outcome::kError;
      now.reason = mism.front() + (mism.size() > 1 ? " (and " + std::to_string(mism.size() - 1) + " more)" : "");
    }
  }
  if (now.outcome == was.outcome) {
    ++tally.same;
    return;
  }
  if (was.outcome == result::Outcome::kTimeout) {
    ++tally.not_derived["timing: a recorded TIMEOUT is not re-derived"];
    return;
  }
  tally.differences.push_back(head + ", re-derived " + std::string(result::to_string(now.outcome)) +
                              (now.reason.empty() ? "" : ": " + now.reason.substr(0, 400)));
}

int regrade(const fs::path& dir) {
  auto rec = load_recorded(dir);
  if (!rec) {
    std::cerr << "a2a-conform verify --regrade: " << core::terminal_text(rec.error().message) << "\n";
    return kExitUsage;
  }
  auto book = load_book(dir, rec->manifest);
  if (!book) {
    std::cerr << "a2a-conform verify --regrade: " << core::terminal_text(book.error().message) << "\n";
    return kExitUsage;
  }
  for (const auto& [key, target] : rec->targets) {
    const engine::OperationBinding* real = engine::find_binding(key);
    if (!real) {
      std::cerr << "a2a-conform verify --regrade: this build has no " << core::terminal_line(key) << " binding to replay\n";
      return kExitUsage;
    }
    engine::register_binding(bindings::replay_binding(*real, *book));
  }
  Tally tally;
  for (const auto& s : rec->run.scenarios) regrade_one(s, *rec, **book, tally);
  for (const auto& d : tally.differences) std::cout << "NOT REPRODUCED  " << core::terminal_line(d) << "\n";
  int not_derived = 0;
  for (const auto& [why, n] : tally.not_derived) {
    std::cout << "not re-derived: " << n << " scenario(s): " << core::terminal_line(why) << "\n";
    not_derived += n;
  }
  std::cout << "regrade: " << tally.same << " verdict(s) reproduced, " << tally.differences.size()
            << " not reproduced, " << not_derived << " not re-derived (of " << rec->run.scenarios.size() << ")\n";
  return tally.differences.empty() ? 0 : 1;
}

}  // namespace

int cmd_verify(const std::string& dir, bool regrade_too) {
  auto rep = bundle::verify_sums(dir);
  if (!rep) {
    std::cerr << "a2a-conform verify: " << core::terminal_text(rep.error().message) << "\n";
    return kExitUsage;
  }
  for (const auto& f : rep->changed) std::cout << "CHANGED  " << core::terminal_line(f) << "\n";
  for (const auto& f : rep->missing) std::cout << "MISSING  " << core::terminal_line(f) << "\n";
  for (const auto& f : rep->extra) std::cout << "ADDED    " << core::terminal_line(f) << " (not in SHA256SUMS)\n";
  if (!rep->intact()) {
    std::cout << "verify: BUNDLE CHANGED: " << rep->changed.size() << " changed, " << rep->missing.size()
              << " missing, " << rep->extra.size() << " added\n";
    return 1;
  }
  auto digest = bundle::sha256_file(fs::path(dir) / bundle::kSumsFile);
  std::cout << "verify: intact: " << rep->checked << " file(s) match SHA256SUMS (its sha256: "
            << (digest ? *digest : std::string("?")) << ")\n";
  return regrade_too ? regrade(dir) : 0;
}

}  // namespace a2a::cli
