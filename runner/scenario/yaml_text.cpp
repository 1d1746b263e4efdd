// Reading scenario YAML within bounds (limits.hpp, docs/scenario-format.md
// "Limits"): the file's size before its bytes, then one pass over the parser's
// events that counts nodes, depth, aliases and string lengths before
// YAML::Load builds anything. yaml-cpp shares an aliased node instead of
// copying it, but every later walk (the JSON conversion above all) copies, so
// an alias is counted as the subtree it stands for: its size is memoised per
// anchor, which keeps the pass linear in the file however deep aliases nest.
#include <fstream>
#include <sstream>
#include <unordered_map>

#include <yaml-cpp/eventhandler.h>

#include "runner/scenario/parse_support.hpp"
#include "runner/scenario/yaml_file.hpp"

namespace a2a::scenario::detail {

namespace {

namespace fs = std::filesystem;

// A limit crossed: thrown out of the parser's callback to stop the pass.
struct LimitHit {
  YAML::Mark mark;
  std::string message;
};


// What a finished node stands for once its aliases are expanded.
struct Size {
  uint64_t nodes = 0;
  uint64_t bytes = 0;  // scalar text
};

// The bounded pass, also counting the stream's documents (yaml-cpp 0.7's
// LoadAll loops forever, adding a null document per turn, on a stream its
// parser cannot advance (a leading ',': jbeder/yaml-cpp#1040, fixed upstream
// by #1319), so the caller stops when a document does not start after the
// previous one).
class BoundedScan final : public YAML::EventHandler {
 public:
  explicit BoundedScan(const LoadLimits& limits) : limits_(limits) {}

  void OnDocumentStart(const YAML::Mark& m) override {
    start = m;
    node_seen_ = false;
    open_.clear();
    anchors_.clear();  // anchors are scoped to their document
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override { leaf(m, anchor, {1, 0}, false); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t anchor) override {
    if (++aliases_ > limits_.max_aliases)
      throw LimitHit{m, "more than " + std::to_string(limits_.max_aliases) + " aliases (scenario limit; docs/scenario-format.md \"Limits\")"};
    auto it = anchors_.find(anchor);
    // yaml-cpp registers an anchor when its node starts: an alias inside the
    // node it names would make a cyclic graph that every walk follows forever.
    if (it == anchors_.end()) throw LimitHit{m, "an alias inside the node its anchor names (a cycle)"};
    leaf(m, 0, it->second, true);
  }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor, const std::string& value) override {
    if (value.size() > limits_.max_scalar_bytes)
      throw LimitHit{m, "a string of " + std::to_string(value.size()) + " bytes, over the limit of " +
                            std::to_string(limits_.max_scalar_bytes) +
                            " bytes (scenario limit; large payloads belong in a fixture file: x-send-bytes {file})"};
    leaf(m, anchor, {1, value.size()}, false);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(m, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open(m, anchor);
  }
  void OnMapEnd() override { close(); }

  YAML::Mark start;       // of the current document
  YAML::Mark first_node;  // the current document's root node

 private:
  struct Open {
    Size size;
    YAML::anchor_t anchor;
  };

  void open(const YAML::Mark& m, YAML::anchor_t anchor) {
    if (static_cast<int>(open_.size()) >= limits_.max_depth)
      throw LimitHit{m, "lists and maps nested deeper than " + std::to_string(limits_.max_depth) +
                            " levels (scenario limit; docs/scenario-format.md \"Limits\")"};
    seen(m);
    count(m, {1, 0}, false);
    open_.push_back({{1, 0}, anchor});
  }

  void close() {
    if (open_.empty()) return;
    Open done = open_.back();
    open_.pop_back();
    if (done.anchor != 0) anchors_[done.anchor] = done.size;
    add_to_parent(done.size);
  }

  void leaf(const YAML::Mark& m, YAML::anchor_t anchor, Size size, bool alias) {
    seen(m);
    count(m, size, alias);
    if (anchor != 0) anchors_[anchor] = size;
    add_to_parent(size);
  }

  void add_to_parent(Size size) {
    if (open_.empty()) return;
    open_.back().size.nodes += size.nodes;
    open_.back().size.bytes += size.bytes;
  }

  // Every size here is at most the running total, which stops at its limit
  // (at most LoadLimits::kCeiling): the sums cannot overflow.
  void count(const YAML::Mark& m, Size size, bool alias) {
    total_.nodes += size.nodes;
    total_.bytes += size.bytes;
    const std::string by = alias ? "with this alias expanded, the document has more than " : "more than ";
    if (total_.nodes > limits_.max_nodes)
      throw LimitHit{m, by + std::to_string(limits_.max_nodes) + " YAML nodes (scenario limit --max-scenario-nodes" +
                            (alias ? "; an alias counts as the nodes it stands for, and is not expanded)" : ")")};
    if (total_.bytes > limits_.max_bytes)
      throw LimitHit{m, by + std::to_string(limits_.max_bytes) +
                            " bytes of string text (scenario limit --max-scenario-bytes" +
                            (alias ? "; an alias counts as the text it stands for, and is not expanded)" : ")")};
  }

  void seen(const YAML::Mark& m) {
    if (!node_seen_) first_node = m;
    node_seen_ = true;
  }

  const LoadLimits& limits_;
  std::vector<Open> open_;
  std::unordered_map<YAML::anchor_t, Size> anchors_;
  Size total_;
  uint64_t aliases_ = 0;
  bool node_seen_ = false;
};

std::string too_large(uint64_t size, uint64_t limit) {
  return "the file is " + std::to_string(size) + " bytes, over the limit of " + std::to_string(limit) +
         " bytes (scenario limit --max-scenario-bytes)";
}

}  // namespace

std::string file_type_text(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory: return "a folder";
    case fs::file_type::fifo: return "a FIFO (named pipe)";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

core::Expected<std::string> read_text_file(const std::filesystem::path& path, const LoadLimits& limits) {
  std::error_code ec;
  const auto name = path.generic_string();
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return core::fail(core::ErrorKind::kNotFound, name + ": no such file");
  if (!fs::is_regular_file(st))
    return core::fail(core::ErrorKind::kIo, name + ": is " + file_type_text(st.type()) + ", not a regular file");
  const uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > limits.max_bytes) return core::fail(core::ErrorKind::kIo, name + ":1:1: " + too_large(size, limits.max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::fail(core::ErrorKind::kIo, name + ": cannot open for reading");
  // Read at most one byte past the limit: the file may grow after the stat.
  std::string text(static_cast<size_t>(std::min<uintmax_t>(ec ? 0 : size, limits.max_bytes)), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  char buf[64 * 1024];
  while (in && text.size() <= limits.max_bytes) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return core::fail(core::ErrorKind::kIo, name + ": read error");
  if (text.size() > limits.max_bytes)
    return core::fail(core::ErrorKind::kIo, name + ":1:1: " + too_large(text.size(), limits.max_bytes));
  return text;
}

core::Expected<YAML::Node> parse_yaml_text(std::string_view text, const std::string& name, const LoadLimits& limits) {
  if (text.size() > limits.max_bytes)
    return core::fail(core::ErrorKind::kParse, name + ":1:1: " + too_large(text.size(), limits.max_bytes));
  const std::string source(text);
  size_t count = 0;
  YAML::Mark second;
  YAML::Node root;
  try {
    std::istringstream in(source);
    YAML::Parser parser(in);
    BoundedScan scan(limits);
    int last_start = -1;
    while (parser.HandleNextDocument(scan)) {
      if (scan.start.pos <= last_start) {
        core::SourceLocation where{name, scan.start.line + 1, scan.start.column + 1};
        return core::fail(core::ErrorKind::kParse, where.str() + ": YAML syntax error: unexpected token");
      }
      last_start = scan.start.pos;
      if (++count == 2) second = scan.first_node;
    }
    if (count > 0) root = YAML::Load(source);  // the first document, built
  } catch (const LimitHit& hit) {
    core::SourceLocation where{name, hit.mark.line + 1, hit.mark.column + 1};
    return core::fail(core::ErrorKind::kParse, where.str() + ": " + hit.message);
  } catch (const YAML::ParserException& e) {
    core::SourceLocation where{name, e.mark.line + 1, e.mark.column + 1};
    return core::fail(core::ErrorKind::kParse, where.str() + ": YAML syntax error: " + one_line(e.msg));
  } catch (const YAML::Exception& e) {
    return core::fail(core::ErrorKind::kParse, name + ": YAML error: " + one_line(e.what()));
  }
  if (count == 0 || root.IsNull()) {
    return core::fail(core::ErrorKind::kSchema, name + ": empty document");
  }
  if (count > 1) {
    core::SourceLocation where{name, second.line + 1, 0};
    return core::fail(core::ErrorKind::kSchema,
                      where.str() + ": a scenario file holds one YAML document (found " + std::to_string(count) + ")");
  }
  return root;
}

}  // namespace a2a::scenario::detail

namespace a2a::scenario {

core::Expected<YAML::Node> load_yaml_file(const std::filesystem::path& path, const LoadLimits& limits) {
  auto text = detail::read_text_file(path, limits);
  if (!text) return core::fail(text.error());
  return detail::parse_yaml_text(*text, path.string(), limits);
}

}  // namespace a2a::scenario
