#include "runner/scenario/loader.hpp"

#include <algorithm>
#include <set>

#include <yaml-cpp/yaml.h>

#include "runner/scenario/parser.hpp"

namespace a2a::scenario {

namespace {

using core::Error;
using core::ErrorKind;
using core::fail;

struct IncludeWalker {
  const LoadLimits& limits;
  std::vector<Document> docs;
  std::vector<Error> errors;
  std::set<std::filesystem::path> loaded;
  std::vector<std::filesystem::path> chain;

  void report(ErrorKind kind, const core::SourceLocation& at, const std::string& message) {
    errors.push_back(Error{kind, at.str() + ": " + message, {}});
  }

  std::string chain_text(const std::filesystem::path& again) const {
    std::string out;
    auto it = std::find(chain.begin(), chain.end(), again);
    for (; it != chain.end(); ++it) out += it->generic_string() + " -> ";
    return out + again.generic_string();
  }

  void visit(const std::filesystem::path& path, const Include* from, const Document* includer);
};

// The includer's variables the document does not define, with the
// references in their values (located in the includer's file).
void inherit(Document& doc, const Document& includer) {
  for (const auto& var : includer.variables) {
    // Not a structured binding: clang 14 (the fuzz/sanitizer compiler) cannot capture one.
    auto same = [&](const auto& p) { return p.first == var.first; };
    if (std::none_of(doc.variables.begin(), doc.variables.end(), same)) {
      doc.variables.emplace_back(var.first, var.second);
      for (const auto& ref : includer.variable_references)
        if (ref.variable == var.first) doc.variable_references.push_back(ref);
    }
  }
}

void IncludeWalker::visit(const std::filesystem::path& path, const Include* from, const Document* includer) {
  std::error_code ec;
  const auto key = std::filesystem::weakly_canonical(path, ec).lexically_normal();
  if (std::find(chain.begin(), chain.end(), key) != chain.end()) {
    report(ErrorKind::kSchema, from->where, "include cycle: " + chain_text(key));
    return;
  }
  if (!loaded.insert(key).second) return;
  // Only a missing file is "not found": a FIFO or a device is refused by
  // read_text_file, which says what it is.
  if (from && !std::filesystem::exists(path, ec)) {
    report(ErrorKind::kNotFound, from->where, "included file '" + from->path +
                                                  "' not found (looked for " + path.generic_string() + ")");
    return;
  }
  auto doc = load_document(path, limits);
  if (!doc) {
    errors.push_back(doc.error());
    return;
  }
  if (includer) inherit(*doc, *includer);
  docs.push_back(*doc);
  // A copy: `docs` grows (and moves its elements) as the includes load.
  Document current;
  current.variables = docs.back().variables;
  current.variable_references = docs.back().variable_references;
  const std::vector<Include> includes = docs.back().includes;
  chain.push_back(key);
  for (const auto& inc : includes) visit(path.parent_path() / inc.path, &inc, &current);
  chain.pop_back();
}

}  // namespace

core::Expected<Document> parse_document_text(std::string_view text, const std::string& name,
                                             const LoadLimits& limits) {
  auto root = detail::parse_yaml_text(text, name, limits);
  if (!root) return fail(root.error());
  detail::Diagnostics diags(name);
  detail::ParseContext ctx{diags, std::filesystem::path(name).parent_path(), text};
  Document doc = detail::parse_document(*root, ctx);
  if (!diags.empty()) return fail(diags.to_error());
  return doc;
}

core::Expected<Document> load_document(const std::filesystem::path& path, const LoadLimits& limits) {
  auto text = detail::read_text_file(path, limits);
  if (!text) return fail(text.error());
  return parse_document_text(*text, path.generic_string(), limits);
}

core::Expected<std::vector<Document>> load_with_includes(const std::filesystem::path& path,
                                                         const LoadLimits& limits) {
  IncludeWalker walker{limits, {}, {}, {}, {}};
  walker.visit(path, nullptr, nullptr);
  if (walker.errors.empty()) return std::move(walker.docs);
  Error out{walker.errors.front().kind, {}, {}};
  for (const auto& e : walker.errors) {
    if (!out.message.empty()) out.message += '\n';
    out.message += e.message;
  }
  return fail(std::move(out));
}

}  // namespace a2a::scenario
