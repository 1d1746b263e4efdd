// Shared by `merge` and `diff`: one reader of our reports, so both accept the
// same files and say the same about the ones they refuse.
#include "runner/cli/report_input.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "reports/multi_report.hpp"

namespace a2a::cli {

namespace fs = std::filesystem;

namespace {

// A report larger than this is not one of ours (transcripts are capped).
constexpr std::uintmax_t kMaxReportBytes = 1ull << 30;

core::Expected<nlohmann::json> read_json(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return core::fail(core::ErrorKind::kNotFound, path + ": not found (or not a regular file)");
  if (fs::file_size(path, ec) > kMaxReportBytes)
    return core::fail(core::ErrorKind::kInvalidArgument, path + ": larger than 1 GiB, not a report");
  std::ifstream in(path, std::ios::binary);
  auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) return core::fail(core::ErrorKind::kParse, path + ": not valid JSON");
  return j;
}

// A combined index names its targets' own reports; it never names another
// index (read_report of a target file refuses one), so this recursion is one
// level deep.
core::Expected<void> read_index(const std::string& path, const nlohmann::json& j,
                                std::vector<result::MergeInput>& out) {
  if (!j.contains("targets") || !j["targets"].is_array())
    return core::fail(core::ErrorKind::kSchema, path + ": /targets must be an array");
  for (const auto& t : j["targets"]) {
    std::string report;
    if (t.is_object() && t.contains("files") && t["files"].is_array())
      for (const auto& f : t["files"])
        if (f.is_string() && fs::path(f.get<std::string>()).filename() == "report.json") report = f;
    if (report.empty())
      return core::fail(core::ErrorKind::kSchema,
                        path + ": target " + (t.is_object() ? t.value("id", "?") : std::string("?")) +
                            " lists no report.json (was it run with --report-dir?)");
    fs::path p = fs::path(report).is_absolute() ? fs::path(report) : fs::path(path).parent_path() / report;
    auto target = read_json(p.string());
    if (!target) return core::fail(target.error());
    if (target->is_object() && target->value("schema", "") == reports::kMultiResultSchema)
      return core::fail(core::ErrorKind::kSchema, p.string() + ": a combined index inside a combined index");
    auto run = result::parse_run_result(*target);
    if (!run) return core::fail(core::ErrorKind::kSchema, p.string() + ": " + run.error().message);
    out.push_back({p.string(), std::move(*run)});
  }
  return {};
}

}  // namespace

core::Expected<void> read_report(const std::string& path, std::vector<result::MergeInput>& out) {
  auto j = read_json(path);
  if (!j) return core::fail(j.error());
  if (j->is_object() && j->value("schema", "") == reports::kMultiResultSchema) return read_index(path, *j, out);
  auto run = result::parse_run_result(*j);
  if (!run) return core::fail(core::ErrorKind::kSchema, path + ": " + run.error().message);
  out.push_back({path, std::move(*run)});
  return {};
}

}  // namespace a2a::cli
