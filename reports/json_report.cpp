#include "reports/json_report.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "runner/result/utf8.hpp"

namespace a2a::reports {

using nlohmann::ordered_json;
using result::Level;
using result::Outcome;
using result::RunResult;
using result::ScenarioResult;
using result::to_valid_utf8;

void write_json_report(std::ostream& out, const RunResult& r) {
  out << result::to_json(r).dump(2) << "\n";
}

std::string_view acts_result(Outcome o) {
  switch (o) {
    case Outcome::kPass:
    case Outcome::kNonStrict:
    case Outcome::kInformational:
    case Outcome::kXFail: return "pass";
    case Outcome::kFail:
    case Outcome::kXPass:
    case Outcome::kTimeout: return "fail";
    case Outcome::kSkip: return "skip";
    case Outcome::kError: return "error";
  }
  return "error";
}

namespace {

// The ACTS outcome loses these distinctions; "x-outcome" keeps them.
bool needs_x_outcome(Outcome o) {
  return o != Outcome::kPass && o != Outcome::kFail && o != Outcome::kSkip && o != Outcome::kError;
}

std::string transport_of(const ScenarioResult& s, const RunResult& r) {
  if (!s.binding.empty()) return s.binding;
  return r.bindings.size() == 1 ? r.bindings.front() : "unspecified";
}

struct ActsCounts {
  int total = 0, passed = 0, failed = 0, skipped = 0, errors = 0;
  void add(Outcome o) {
    ++total;
    auto res = acts_result(o);
    if (res == "pass") ++passed;
    else if (res == "fail") ++failed;
    else if (res == "skip") ++skipped;
    else ++errors;
  }
  ordered_json json() const {
    return {{"total", total}, {"passed", passed}, {"failed", failed}, {"skipped", skipped},
            {"errors", errors}};
  }
};

ordered_json failure_json(const result::Failure& f) {
  ordered_json j = {{"message", to_valid_utf8(f.message)}};
  if (!f.step_id.empty()) j["step_id"] = to_valid_utf8(f.step_id);
  if (!f.expected.empty()) j["expected"] = to_valid_utf8(f.expected);
  if (!f.actual.empty()) j["actual"] = to_valid_utf8(f.actual);
  if (!f.assertion_path.empty()) j["assertion_path"] = to_valid_utf8(f.assertion_path);
  return j;
}

// failure-detail for a fail / error result: the recorded failure, or one
// made from the reason (a timeout or harness error has no assertion).
std::optional<ordered_json> test_failure(const ScenarioResult& s) {
  auto res = acts_result(s.outcome);
  if (res != "fail" && res != "error") return std::nullopt;
  if (s.failure) {
    ordered_json j = failure_json(*s.failure);
    if (!s.reason.empty() && s.failure->message.empty()) j["message"] = to_valid_utf8(s.reason);
    return j;
  }
  std::string message = !s.reason.empty() ? s.reason : std::string(to_string(s.outcome));
  return ordered_json{{"message", to_valid_utf8(message)}};
}

ordered_json step_json(const result::StepResult& st) {
  ordered_json j = {{"id", to_valid_utf8(st.id)},
                    {"result", acts_result(st.outcome)},
                    {"duration_ms", st.duration_ms}};
  if (st.failure) j["failure"] = failure_json(*st.failure);
  if (needs_x_outcome(st.outcome)) j["x-outcome"] = to_string(st.outcome);
  return j;
}

ordered_json test_json(const ScenarioResult& s) {
  ordered_json j = {{"id", to_valid_utf8(s.id)},
                    {"name", to_valid_utf8(s.name)},
                    {"level", to_string(s.level)},
                    {"result", acts_result(s.outcome)},
                    {"duration_ms", s.duration_ms}};
  if (s.outcome == Outcome::kSkip) j["skip_reason"] = to_valid_utf8(s.reason);
  if (auto f = test_failure(s)) j["failure"] = *f;
  if (!s.steps.empty()) {
    j["steps"] = ordered_json::array();
    for (const auto& st : s.steps) j["steps"].push_back(step_json(st));
  }
  if (needs_x_outcome(s.outcome)) {
    j["x-outcome"] = to_string(s.outcome);
    std::string note = !s.reason.empty() ? s.reason : s.failure ? s.failure->message : "";
    if (!note.empty()) j["x-note"] = to_valid_utf8(note);
  }
  return j;
}

ordered_json summary_json(const std::vector<const ScenarioResult*>& tests, long long duration) {
  ActsCounts all;
  ActsCounts by[3];
  for (const auto* s : tests) {
    all.add(s->outcome);
    by[static_cast<int>(s->level)].add(s->outcome);
  }
  ordered_json j = all.json();
  j["duration_ms"] = duration;
  j["by_level"] = ordered_json::object();
  for (Level l : result::kAllLevels) j["by_level"][std::string(to_string(l))] = by[static_cast<int>(l)].json();
  return j;
}

ordered_json suites_json(const std::vector<const ScenarioResult*>& tests) {
  ordered_json suites = ordered_json::array();
  std::map<std::string, size_t> index;
  for (const auto* s : tests) {
    auto [it, fresh] = index.emplace(s->suite_id, suites.size());
    if (fresh) {
      std::string name = s->suite_name.empty() ? s->suite_id : s->suite_name;
      suites.push_back({{"id", to_valid_utf8(s->suite_id)}, {"name", to_valid_utf8(name)},
                        {"tests", ordered_json::array()}});
    }
    suites[it->second]["tests"].push_back(test_json(*s));
  }
  return suites;
}

ordered_json sdk_json(const ActsOptions& o) {
  ordered_json sdk = {{"name", to_valid_utf8(o.sdk_name)},
                      {"version", to_valid_utf8(o.sdk_version)},
                      {"language", to_valid_utf8(o.sdk_language)}};
  if (!o.sdk_repository.empty()) sdk["repository"] = to_valid_utf8(o.sdk_repository);
  return sdk;
}

}  // namespace

std::vector<std::string> acts_transports(const RunResult& r) {
  std::vector<std::string> out;
  for (const auto& s : r.scenarios) {
    std::string t = transport_of(s, r);
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

ordered_json acts_report(const RunResult& r, std::string_view transport, const ActsOptions& o) {
  std::vector<const ScenarioResult*> tests;
  for (const auto& s : r.scenarios)
    if (transport_of(s, r) == transport) tests.push_back(&s);
  ordered_json j = {{"acts_version", o.acts_version},
                    {"spec_version", o.spec_version},
                    {"generated_at", o.generated_at.empty() ? utc_now_rfc3339() : o.generated_at},
                    {"sdk", sdk_json(o)},
                    {"transport", to_valid_utf8(transport)}};
  if (!o.environment.empty()) {
    j["environment"] = ordered_json::object();
    for (const auto& [k, v] : o.environment) j["environment"][to_valid_utf8(k)] = to_valid_utf8(v);
  }
  j["summary"] = summary_json(tests, r.duration_ms);
  j["suites"] = suites_json(tests);
  j["x-tool"] = {{"name", "a2a-conform"}, {"version", to_valid_utf8(r.tool_version)}};
  if (!r.profiles.empty()) j["x-profiles"] = ordered_json::array();
  for (const auto& p : r.profiles) j["x-profiles"].push_back(to_valid_utf8(p));
  // What was certified, as in our own report (role, profile, target).
  j["x-role"] = to_valid_utf8(r.role);
  if (!r.profile.empty()) j["x-profile"] = to_valid_utf8(r.profile);
  j["x-target"] = to_valid_utf8(r.target);
  return j;
}

namespace {

std::string file_safe(std::string_view s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-') ? c : '-';
  return out.empty() ? "unknown" : out;
}

// "2025-05-25T21:00:00.123Z" -> "20250525T210000Z": drop separators and fraction.
std::string basic_timestamp(std::string_view rfc3339) {
  std::string out;
  bool fraction = false;
  for (char c : rfc3339) {
    if (c == '.') fraction = true;
    else if (std::isdigit(static_cast<unsigned char>(c))) { if (!fraction) out += c; }
    else if (c == 'T' || c == 't') out += 'T';
    else if (c == 'Z' || c == 'z') out += 'Z';
    else if (c == '+' || (c == '-' && out.find('T') != std::string::npos)) break;  // offset
  }
  return file_safe(out);
}

}  // namespace

std::string acts_report_file_name(std::string_view sdk, std::string_view transport,
                                  std::string_view generated_at) {
  return "acts-report-" + file_safe(sdk) + "-" + file_safe(transport) + "-" +
         basic_timestamp(generated_at) + ".json";
}

std::string utc_now_rfc3339() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

core::Expected<void> write_text_file(const std::string& path, std::string_view content) {
  // A report appears whole or not at all (a second signal ends the runner
  // at once, maybe mid-write): written beside its place, then renamed over
  // it. A path that is not a regular file (/dev/stdout, a FIFO) is written
  // in place.
  struct stat st {};
  bool in_place = ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
  std::string tmp = in_place ? path : path + ".tmp." + std::to_string(::getpid());
  std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
  if (f) f.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (f) f.close();
  if (!f) {
    int err = errno;
    if (!in_place) ::unlink(tmp.c_str());
    return core::fail(core::ErrorKind::kIo, "cannot write " + path + ": " + std::strerror(err));
  }
  if (!in_place && ::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return core::fail(core::ErrorKind::kIo, "cannot write " + path + ": " + std::strerror(err));
  }
  return {};
}

core::Expected<std::vector<std::string>> write_acts_reports(const std::string& dir,
                                                            const RunResult& r, ActsOptions o) {
  if (o.generated_at.empty()) o.generated_at = utc_now_rfc3339();
  std::vector<std::string> written;
  for (const auto& t : acts_transports(r)) {
    std::string path = dir + "/" + acts_report_file_name(o.sdk_name, t, o.generated_at);
    auto ok = write_text_file(path, acts_report(r, t, o).dump(2) + "\n");
    if (!ok) return core::fail(ok.error());
    written.push_back(path);
  }
  return written;
}

}  // namespace a2a::reports
