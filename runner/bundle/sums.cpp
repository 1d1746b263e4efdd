#include "runner/bundle/sums.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "runner/bundle/sha256.hpp"

namespace a2a::bundle {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxSumsBytes = 32u << 20;  // ~300k lines: far beyond kMaxFiles

bool is_hex64(std::string_view h) {
  return h.size() == 64 && std::all_of(h.begin(), h.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
         });
}

std::string lower(std::string s) {
  for (auto& c : s)
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

}  // namespace

std::string bad_path(std::string_view p) {
  if (p.empty()) return "an empty path";
  if (p.front() == '/') return "an absolute path";
  if (p.find('\n') != std::string_view::npos || p.find('\r') != std::string_view::npos)
    return "a line break in the path";
  if (p.find('\\') != std::string_view::npos) return "a backslash in the path";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find('/', start);
    if (end == std::string_view::npos) end = p.size();
    auto seg = p.substr(start, end - start);
    if (seg.empty()) return "an empty path segment";
    if (seg == "." || seg == "..") return "a '" + std::string(seg) + "' segment";
    start = end + 1;
  }
  return "";
}

std::string format_sums(std::vector<SumEntry> entries) {
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  std::string out;
  for (const auto& e : entries) out += e.hash + "  " + e.path + "\n";
  return out;
}

core::Expected<std::vector<SumEntry>> parse_sums(std::string_view text) {
  std::vector<SumEntry> out;
  std::set<std::string, std::less<>> seen;
  size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    auto where = std::string(kSumsFile) + " line " + std::to_string(line_no) + ": ";
    if (line.empty()) continue;
    if (line.size() < 67 || line[64] != ' ' || (line[65] != ' ' && line[65] != '*'))
      return core::fail(core::ErrorKind::kParse, where + "expected 64 hex digits, two spaces (or ' *') and a path");
    if (!is_hex64(line.substr(0, 64)))
      return core::fail(core::ErrorKind::kParse, where + "the hash is not 64 hex digits");
    std::string path(line.substr(66));
    if (auto why = bad_path(path); !why.empty())
      return core::fail(core::ErrorKind::kParse, where + why + " is not allowed in a bundle");
    if (!seen.insert(path).second) return core::fail(core::ErrorKind::kParse, where + path + " is listed twice");
    if (out.size() >= kMaxFiles)
      return core::fail(core::ErrorKind::kParse, where + "more than " + std::to_string(kMaxFiles) + " files");
    out.push_back({lower(std::string(line.substr(0, 64))), std::move(path)});
  }
  return out;
}

core::Expected<std::vector<std::string>> list_files(const fs::path& given) {
  std::vector<std::string> out;
  std::error_code ec;
  // Names relative to `dir` by their text alone: fs::relative would follow a
  // symbolic link and name its target.
  fs::path dir = given.lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();
  auto it = fs::recursive_directory_iterator(dir, ec);
  if (ec) return core::fail(core::ErrorKind::kNotFound, "cannot read " + dir.string() + ": " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return core::fail(core::ErrorKind::kIo, "cannot read " + dir.string() + ": " + ec.message());
    auto st = it->symlink_status(ec);
    std::string rel = it->path().lexically_relative(dir).generic_string();
    if (fs::is_directory(st)) continue;
    if (!fs::is_regular_file(st))
      return core::fail(core::ErrorKind::kSchema, rel + ": not a regular file (a bundle holds plain files only)");
    if (rel == kSumsFile) continue;
    if (out.size() >= kMaxFiles)
      return core::fail(core::ErrorKind::kSchema, "more than " + std::to_string(kMaxFiles) + " files under " +
                                                      dir.string());
    out.push_back(std::move(rel));
  }
  std::sort(out.begin(), out.end());
  return out;
}

core::Expected<void> write_sums(const fs::path& dir) {
  auto files = list_files(dir);
  if (!files) return core::fail(files.error());
  std::vector<SumEntry> entries;
  for (const auto& f : *files) {
    if (auto why = bad_path(f); !why.empty())
      return core::fail(core::ErrorKind::kSchema, f + ": " + why + " is not allowed in a bundle");
    auto h = sha256_file(dir / f);
    if (!h) return core::fail(h.error());
    entries.push_back({*h, f});
  }
  std::ofstream out(dir / kSumsFile, std::ios::binary | std::ios::trunc);
  out << format_sums(std::move(entries));
  out.close();
  if (!out) return core::fail(core::ErrorKind::kIo, "cannot write " + (dir / kSumsFile).string());
  return {};
}

core::Expected<VerifyReport> verify_sums(const fs::path& dir) {
  fs::path sums = dir / kSumsFile;
  std::error_code ec;
  auto size = fs::file_size(sums, ec);
  if (ec) return core::fail(core::ErrorKind::kNotFound, sums.string() + ": " + ec.message() + " (not a bundle?)");
  if (size > kMaxSumsBytes)
    return core::fail(core::ErrorKind::kSchema, sums.string() + ": larger than " +
                                                    std::to_string(kMaxSumsBytes >> 20) + " MiB");
  std::ifstream in(sums, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  auto entries = parse_sums(ss.str());
  if (!entries) return core::fail(entries.error().kind, sums.string() + ": " + entries.error().message);
  VerifyReport rep;
  std::set<std::string> listed;
  for (const auto& e : *entries) {
    listed.insert(e.path);
    auto st = fs::symlink_status(dir / e.path, ec);
    if (ec || !fs::is_regular_file(st)) {
      rep.missing.push_back(e.path);
      continue;
    }
    auto h = sha256_file(dir / e.path);
    ++rep.checked;
    if (!h || *h != e.hash) rep.changed.push_back(e.path);
  }
  auto present = list_files(dir);
  if (!present) return core::fail(present.error());
  for (const auto& f : *present)
    if (!listed.count(f)) rep.extra.push_back(f);
  return rep;
}

}  // namespace a2a::bundle
