// The `{{expr}}` references of a YAML subtree with their places, for `check`
// (references.hpp). The runner interpolates string values, never map keys
// (match/vars.hpp), and reads `{{` without a closing `}}` as text: so here.
#include "runner/scenario/parser.hpp"

namespace a2a::scenario::detail {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The place of the `{{` at `offset` of the scalar's value: exact when the
// value up to it is written verbatim at the node's mark (a plain scalar) or
// just after it (a quoted one), else the scalar's own place.
core::SourceLocation place(const YAML::Node& node, size_t offset, const ParseContext& ctx) {
  core::SourceLocation at = ctx.diags.at(node);
  const YAML::Mark m = node.Mark();
  const std::string& value = node.Scalar();
  if (m.pos < 0 || value.find('\n') < offset + 2) return at;
  const std::string_view head = std::string_view(value).substr(0, offset + 2);
  for (size_t quote : {0, 1}) {
    const size_t from = static_cast<size_t>(m.pos) + quote;
    if (from <= ctx.source.size() && ctx.source.substr(from, head.size()) == head) {
      at.column += static_cast<int>(quote + offset);
      return at;
    }
  }
  return at;
}

void scan_scalar(const YAML::Node& node, const ParseContext& ctx, const std::string& variable,
                 std::vector<VarRef>& out) {
  const std::string& s = node.Scalar();
  for (size_t pos = 0;;) {
    const size_t open = s.find("{{", pos);
    const size_t close = open == std::string::npos ? open : s.find("}}", open + 2);
    if (close == std::string::npos) return;
    out.push_back({std::string(trim(std::string_view(s).substr(open + 2, close - open - 2))), place(node, open, ctx),
                   variable});
    pos = close + 2;
  }
}

}  // namespace

// Depth and size are bounded by the loader's limits (aliases included).
void collect_references(const YAML::Node& node, const ParseContext& ctx, std::vector<VarRef>& out,
                        const std::string& variable) {
  if (!node.IsDefined()) return;
  if (node.IsScalar()) {
    scan_scalar(node, ctx, variable, out);
  } else if (node.IsSequence()) {
    for (const auto& item : node) collect_references(item, ctx, out, variable);
  } else if (node.IsMap()) {
    for (const auto& kv : node) collect_references(kv.second, ctx, out, variable);
  }
}

}  // namespace a2a::scenario::detail
