// Loader internals: the parse_*.cpp files turn one YAML tree into the model,
// recording every problem in a Diagnostics instead of stopping at the first.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "runner/scenario/model.hpp"
#include "runner/scenario/parse_support.hpp"

namespace a2a::scenario::detail {

// Limits that keep a typo from turning into a runaway test.
inline constexpr int64_t kMaxMillis = 3'600'000;           // one hour
inline constexpr int64_t kMaxSendBytes = 256LL << 20;      // 256 MiB
inline constexpr int64_t kMaxFanOut = 1024;

// Step ids already used in the current test (branches included).
struct StepIds {
  std::string test_label;
  std::map<std::string, core::SourceLocation> seen;
};

struct ParseContext {
  Diagnostics& diags;
  std::filesystem::path base_dir;  // the document's folder (x-send-bytes {file})
  std::string_view source;         // the document text (to re-read quoted scalars)
};

Document parse_document(const YAML::Node& root, ParseContext& ctx);

// parse_references.cpp: every `{{expr}}` in the string values under `node`
// (`variable`: the document variable whose value it is, else "").
void collect_references(const YAML::Node& node, const ParseContext& ctx, std::vector<VarRef>& out,
                        const std::string& variable = {});

// parse_step.cpp
std::vector<Step> parse_steps(const YAML::Node& list, ParseContext& ctx, StepIds& ids);
// expect / expect_error / expect_stream of an operation or raw step (`raw`:
// expect may hold headers).
void parse_expectations(const MapReader& m, Step& step, bool raw = false);
// `raw`: the expect block of a raw step, which may also hold `headers`.
std::optional<Json> parse_expect(const YAML::Node& node, const std::string& owner, Diagnostics& d,
                                 bool raw = false);
std::optional<Json> parse_expect_error(const YAML::Node& node, const std::string& owner,
                                       Diagnostics& d);
// `extra` lists keys allowed besides the ACTS expect-stream keys; `what` names
// the block in messages (x-expect-stream reuses this).
std::optional<Json> parse_expect_stream(const YAML::Node& node, const std::string& owner,
                                        Diagnostics& d, Keys extra = {},
                                        std::string_view what = "expect_stream");
StringPairs parse_capture(const MapReader& m);
Json parse_named_assertions(const MapReader& m, std::string_view key);
// Canonical ACTS name for `name` (aliases resolved), or nullopt (error recorded).
std::optional<std::string> resolve_operation(const MapReader& m, std::string_view key,
                                             std::string* written);

// parse_raw.cpp
void parse_raw_step(const MapReader& m, Step& step, ParseContext& ctx);

// parse_wire.cpp
// Decodes the byte string at `key` (escapes, double quotes re-read from the
// source); records an error and returns false when it cannot.
bool bytes_field(const MapReader& m, std::string_view key, const ParseContext& ctx, std::string& out);
void parse_wire_step(const MapReader& m, WireActionType type, Step& step, ParseContext& ctx);
void parse_grades(const MapReader& m, Step& step, ParseContext& ctx);
void parse_concurrent(const MapReader& m, Step& step, ParseContext& ctx, StepIds& ids);

}  // namespace a2a::scenario::detail
