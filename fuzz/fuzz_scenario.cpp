// Fuzzes the scenario loader (runner/scenario/loader.hpp) on YAML text, not
// files: parse_document_text under a name in a folder that does not exist, so
// `x-send-bytes: {file: ...}` fixtures resolve to nothing. Invariants: no
// exception escapes; the result is a Document or an Error whose every line is
// located in the named file; loading is deterministic.
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "runner/scenario/loader.hpp"

namespace {

using a2a::fuzz::show;

const std::string kName = "/nonexistent-a2a-fuzz/fuzz.acts.yaml";

// "name:LINE:COL: ...", "name:LINE: ..." or, for whole-file problems, "name: ...".
bool located(std::string_view line) {
  if (!line.starts_with(kName + ":")) return false;
  line.remove_prefix(kName.size() + 1);
  return !line.empty() && (line.front() == ' ' || (line.front() >= '1' && line.front() <= '9'));
}

std::string summary(const a2a::core::Expected<a2a::scenario::Document>& r) {
  if (!r) return "error: " + r.error().message;
  std::string s = "ok: " + std::to_string(r->suites.size()) + " suites, " + std::to_string(r->test_count()) + " tests";
  for (const auto& suite : r->suites)
    for (const auto& t : suite.tests) s += "\n" + t.id + " @" + std::to_string(t.where.line);
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto first = a2a::scenario::parse_document_text(text, kName);
  if (!first) {
    const std::string& msg = first.error().message;
    A2A_FUZZ_CHECK(!msg.empty(), "empty error for '" + show(text) + "'");
    size_t start = 0;
    while (start <= msg.size()) {
      size_t end = msg.find('\n', start);
      if (end == std::string::npos) end = msg.size();
      std::string_view line(msg.data() + start, end - start);
      A2A_FUZZ_CHECK(located(line), "unlocated error line '" + show(line) + "' for input '" + show(text) + "'");
      start = end + 1;
    }
  } else {
    size_t tests = 0;
    for (const auto& suite : first->suites) {
      for (const auto& t : suite.tests) {
        A2A_FUZZ_CHECK(t.where.line >= 1, "test '" + show(t.id) + "' has no line");
        ++tests;
      }
    }
    A2A_FUZZ_CHECK(tests == first->test_count(), "test_count() disagrees");
  }
  auto second = a2a::scenario::parse_document_text(text, kName);
  A2A_FUZZ_CHECK(summary(first) == summary(second), "not deterministic:\n" + summary(first) + "\n---\n" + summary(second));
  return 0;
}
