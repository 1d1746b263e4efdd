#include "runner/scenario/behaviors.hpp"

#include <algorithm>
#include <functional>

#include <yaml-cpp/yaml.h>

#include "runner/scenario/parse_support.hpp"
#include "runner/scenario/yaml_json.hpp"

namespace a2a::scenario {

bool is_acts_prefix(std::string_view prefix) {
  return std::find(std::begin(kActsPrefixes), std::end(kActsPrefixes), prefix) != std::end(kActsPrefixes);
}

const Behavior* Behaviors::find(std::string_view prefix) const {
  auto it = by_prefix.find(prefix);
  return it == by_prefix.end() ? nullptr : &it->second;
}

Behaviors Behaviors::acts_default() {
  Behaviors b;
  for (auto p : kActsPrefixes) b.by_prefix.emplace(std::string(p), Behavior{std::string(p), "ACTS §11.2", "", "", {}, {}});
  return b;
}

int Behaviors::delay_ms(std::string_view prefix) const {
  const Behavior* b = find(prefix);
  if (b && b->delay_ms) return *b->delay_ms;
  return prefix == "tck-long-running" ? kDefaultLongRunningMs : 0;
}

namespace {

constexpr std::string_view kFileKeys[] = {"acts_version", "behaviors"};
constexpr std::string_view kBehaviorKeys[] = {"prefix", "description", "response_type", "terminal_state",
                                             "delay_ms", "streaming", "artifacts"};
constexpr std::string_view kResponseTypes[] = {"task", "message"};

}  // namespace

core::Expected<Behaviors> load_behaviors(const std::filesystem::path& path) {
  auto text = detail::read_text_file(path);
  if (!text) return core::fail(text.error().kind, "--behaviors: " + text.error().message);
  auto root = detail::parse_yaml_text(*text, path.string());
  if (!root) return core::fail(root.error());
  detail::Diagnostics diags(path.string());
  Behaviors out;
  out.file = path.string();
  detail::MapReader doc(*root, "the behaviours file", diags);
  if (doc.is_map()) {
    doc.check_keys(kFileKeys, true);
    doc.require("behaviors");
    if (doc.expect_list("behaviors", true)) {
      size_t i = 0;
      for (const auto& n : doc.get("behaviors")) {
        detail::MapReader m(n, "behaviour #" + std::to_string(++i), diags);
        if (!m.is_map()) continue;
        m.check_keys(kBehaviorKeys, true);
        Behavior b;
        b.prefix = m.string("prefix", true).value_or("");
        b.description = m.string("description").value_or("");
        b.response_type = m.one_of("response_type", kResponseTypes).value_or("");
        b.terminal_state = m.string("terminal_state").value_or("");
        if (auto d = m.integer("delay_ms", 0, 600000)) b.delay_ms = static_cast<int>(*d);
        b.streaming = m.boolean("streaming");
        if (!b.prefix.empty() && !out.by_prefix.emplace(b.prefix, b).second)
          m.error("prefix", "prefix '" + b.prefix + "' is declared twice");
      }
    }
  }
  if (!diags.empty()) return core::fail(diags.to_error());
  return out;
}

namespace {

std::string longest_known(std::string_view s, const std::vector<std::string_view>& known) {
  std::string_view best;
  for (auto k : known)
    if (s.starts_with(k) && k.size() > best.size()) best = k;
  return std::string(best);
}

void scan(const Json& j, const std::vector<std::string_view>& known, std::vector<std::string>& out) {
  auto add = [&](std::string p) {
    if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  };
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (!s.starts_with("tck-")) continue;
        if (k == "text") add(s.substr(0, s.find_first_of(" \t\r\n")));
        else if (k == "messageId") add(longest_known(s, known));
      } else {
        scan(v, known, out);
      }
    }
  } else if (j.is_array()) {
    for (const auto& v : j) scan(v, known, out);
  }
}

}  // namespace

std::vector<std::string> behaviors_used(const Test& test, const std::vector<std::string_view>& known) {
  std::vector<std::string> out;
  for (const auto& b : test.requires_behaviors)
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
  if (test.role == Role::kClient) return out;
  for_each_step(test.steps, [&](const Step& s) {
    if (!s.operation.empty()) scan(s.params, known, out);
    if (s.wire && (s.wire->type == WireActionType::kSendRequest || s.wire->type == WireActionType::kSendFrame))
      scan(s.wire->spec, known, out);
  });
  return out;
}

}  // namespace a2a::scenario
