// ACTS document, suite and test (ACTS §2, §3, Appendix A) plus our test-level
// extensions and x-defaults (docs/scenario-format.md §1, §2).
#include <algorithm>
#include <map>

#include "runner/scenario/parser.hpp"
#include "runner/scenario/requirement.hpp"
#include "runner/scenario/yaml_json.hpp"

namespace a2a::scenario::detail {

namespace {

constexpr std::string_view kDocKeys[] = {"acts_version", "spec_version", "spec_ref", "metadata",
                                         "variables",    "include",      "suites",   "x-defaults"};
constexpr std::string_view kMetadataKeys[] = {"title", "description", "authors", "license"};
constexpr std::string_view kDefaultsKeys[] = {"x-binding", "x-profiles", "x-agent", "timeout_ms",
                                              "x-reuse", "x-role"};
constexpr std::string_view kRoles[] = {"agent", "client"};
constexpr std::string_view kSuiteKeys[] = {"id", "name", "description", "tags", "tests"};
constexpr std::string_view kTestKeys[] = {
    "id", "name", "description", "spec_ref", "level", "tags", "transport", "preconditions",
    "requires_behaviors", "origin", "runner_requirements", "steps", "assertions",
    "x-binding", "x-profiles", "x-agent", "timeout_ms", "x-reuse", "x-role", "x-card",
    "x-requirement"};
constexpr std::string_view kQuoteKeys[] = {"source", "section", "quote"};
constexpr std::string_view kLevels[] = {"must", "should", "may"};
constexpr std::string_view kTransports[] = {"jsonrpc", "grpc", "rest"};
constexpr std::string_view kBindings[] = {"stdio", "jsonrpc", "rest", "grpc", "websocket", "http", "jsonrpc@0.3", "rest@0.3", "loopback"};
constexpr std::string_view kRunnerRequirements[] = {"webhook_endpoint", "concurrent_streams",
                                                    "stream_disconnect", "auth_credentials",
                                                    "header_inspection"};
constexpr std::string_view kPreconditionKeys[] = {"capabilities", "skills", "transport",
                                                  "extensions", "description"};
constexpr std::string_view kSkillKeys[] = {"id"};
constexpr std::string_view kAgentKeys[] = {"env", "handshake"};
constexpr std::string_view kHandshakeModes[] = {"auto", "manual"};
constexpr int kDefaultTimeoutMs = 10000;

// Ids seen so far in one scope ("test", "suite"), for duplicate reports.
class Unique {
 public:
  explicit Unique(std::string what) : what_(std::move(what)) {}
  // `node` is the map holding the id.
  void add(Diagnostics& diags, const YAML::Node& node) {
    if (!node.IsMap() || !is_string(node["id"])) return;
    const YAML::Node id = node["id"];
    auto [it, fresh] = seen_.emplace(id.Scalar(), diags.at(id).line);
    if (!fresh) {
      diags.error(id, "duplicate " + what_ + " id '" + id.Scalar() + "' in document (first at line " +
                          std::to_string(it->second) + ")");
    }
  }

 private:
  std::string what_;
  std::map<std::string, int> seen_;
};

StringPairs parse_string_map(const MapReader& owner, std::string_view key, bool any_scalar) {
  StringPairs out;
  if (!owner.expect_map(key)) return out;
  MapReader v(owner.get(key), "'" + std::string(key) + "' of " + owner.context(), owner.diags());
  v.check_duplicates();
  for (const auto& name : v.keys()) {
    const YAML::Node value = v.get(name);
    bool ok = any_scalar ? value.IsScalar() : is_string(value);
    if (!ok) {
      v.error(name, "'" + name + "' must be " + (any_scalar ? "a scalar" : "a string") + " (got " +
                        describe(value) + ")");
      continue;
    }
    out.emplace_back(name, value.Scalar());
  }
  return out;
}

void parse_agent(const MapReader& owner, AgentOptions& agent) {
  if (!owner.expect_map("x-agent")) return;
  MapReader a(owner.get("x-agent"), "'x-agent' of " + owner.context(), owner.diags());
  a.check_keys(kAgentKeys);
  for (auto& var : parse_string_map(a, "env", true)) {
    // Not a structured binding: clang 14 (the fuzz/sanitizer compiler) cannot capture one.
    auto same = [&](const auto& p) { return p.first == var.first; };
    agent.env.erase(std::remove_if(agent.env.begin(), agent.env.end(), same), agent.env.end());
    agent.env.emplace_back(var.first, var.second);
  }
  if (auto mode = a.one_of("handshake", kHandshakeModes)) agent.manual_handshake = *mode == "manual";
}

Defaults parse_defaults(const MapReader& doc, const ParseContext& ctx) {
  Defaults d;
  if (!doc.expect_map("x-defaults")) return d;
  MapReader m(doc.get("x-defaults"), "'x-defaults'", doc.diags());
  m.check_keys(kDefaultsKeys);
  if (m.has("x-agent")) collect_references(m.get("x-agent"), ctx, d.references);
  if (auto r = m.one_of("x-role", kRoles)) d.role = *r == "client" ? Role::kClient : Role::kAgent;
  d.binding = m.one_of("x-binding", kBindings).value_or("");
  d.profiles = m.string_list("x-profiles");
  parse_agent(m, d.agent);
  if (auto t = m.integer("timeout_ms", 1, kMaxMillis)) d.timeout_ms = static_cast<int>(*t);
  d.reuse = m.boolean("x-reuse");
  return d;
}

void parse_preconditions(const MapReader& t, Test& test) {
  if (!t.expect_map("preconditions")) return;
  MapReader p(t.get("preconditions"), "'preconditions' of " + t.context(), t.diags());
  p.check_keys(kPreconditionKeys);
  p.expect_map("capabilities");
  if (p.expect_list("skills", true)) {
    for (const auto& skill : p.get("skills")) {
      MapReader s(skill, "skill in " + t.context(), t.diags());
      if (!s.is_map()) continue;
      s.check_keys(kSkillKeys);
      s.string("id", true);
    }
  }
  p.string_list("transport", true, kTransports);
  p.string_list("extensions", true);
  p.string("description");
  test.preconditions = t.json("preconditions");
}

bool reusable(const std::vector<Step>& steps) {
  bool ok = true;
  for_each_step(steps, [&](const Step& s) { ok = ok && s.kind != StepKind::kWire; });
  return ok;
}

// Wire steps only exist on stdio (x-expect-webhook excepted: it watches the
// runner's webhook receiver on every binding): such a test without a binding
// is a stdio test, and one bound elsewhere is a contradiction. Raw-only tests
// must say where they apply (ACTS §4.4).
bool client_only(const Step& s) {
  if (s.kind == StepKind::kClient) return true;
  if (s.kind != StepKind::kWire || !s.wire) return false;
  switch (s.wire->type) {
    case WireActionType::kClientOp: case WireActionType::kExpectOutput: case WireActionType::kExpectRequest:
    case WireActionType::kReply: case WireActionType::kOfferHandshake: case WireActionType::kAgentClose:
      return true;
    default: return false;
  }
}

// Client tests play the agent: their wire steps run on every binding the
// scripted agent speaks (docs/client-conformance.md), so the stdio-only rule
// below is for agent tests.
void check_role(const MapReader& t, const Defaults& defaults, Test& test) {
  bool client = false;
  for_each_step(test.steps, [&](const Step& s) { client = client || client_only(s); });
  Role written = defaults.role.value_or(Role::kAgent);
  if (auto r = t.one_of("x-role", kRoles)) written = *r == "client" ? Role::kClient : Role::kAgent;
  if (client && t.has("x-role") && written == Role::kAgent)
    t.error("x-role", "client steps (client_response, x-client-op, x-reply, ...) need x-role client");
  test.role = client ? Role::kClient : written;
}

void check_binding(const MapReader& t, Test& test) {
  if (test.role == Role::kClient) return;
  bool wire = false, ws = false, all_raw = !test.steps.empty();
  for_each_step(test.steps, [&](const Step& s) {
    if (s.kind != StepKind::kWire || !s.wire) return;
    auto type = s.wire->type;
    if (type == WireActionType::kWs) ws = true;
    // x-sleep only waits: it serves every binding that has wire steps.
    else if (type != WireActionType::kExpectWebhook && type != WireActionType::kSleep) wire = true;
  });
  for (const auto& s : test.steps) all_raw = all_raw && s.kind == StepKind::kRaw;
  // x-ws steps are the WebSocket binding's (docs/websocket.md "Raw steps").
  if (ws && test.binding.empty()) test.binding = "websocket";
  if (ws && (test.binding != "websocket" || wire)) {
    t.error(t.has("x-binding") ? "x-binding" : "steps",
            wire ? "x-ws steps and stdio wire steps cannot share a test"
                 : "x-ws steps need x-binding websocket, not '" + test.binding + "'");
    return;
  }
  if (ws) return;
  bool sleeps = false;
  for_each_step(test.steps, [&](const Step& s) {
    sleeps = sleeps || (s.kind == StepKind::kWire && s.wire && s.wire->type == WireActionType::kSleep);
  });
  wire = wire || sleeps;
  if (wire && test.binding.empty()) test.binding = "stdio";
  if (wire && test.binding != "stdio") {
    t.error(t.has("x-binding") ? "x-binding" : "steps",
            "stdio wire steps (x-...) need x-binding stdio, not '" + test.binding + "'");
  }
  if (all_raw && test.binding.empty() && test.transport.empty()) {
    t.error("steps", "a test of raw steps only must list 'transport' (ACTS §4.4)");
  }
}

Quote parse_quote(const YAML::Node& node, const std::string& context, Diagnostics& diags) {
  Quote q;
  q.where = diags.at(node);
  MapReader m(node, context, diags);
  if (!m.is_map()) return q;
  m.check_keys(kQuoteKeys);
  std::vector<std::string_view> names = quote_source_names();
  q.source = m.one_of("source", names, true).value_or("");
  q.section = m.string("section", true).value_or("");
  q.quote = m.string("quote", true).value_or("");
  if (m.has("quote") && q.quote.find_first_not_of(" \t\n") == std::string::npos)
    m.error("quote", "the quote is empty");
  return q;
}

// x-requirement: one {source, section, quote} map or a list of them; the
// quotes must carry a keyword as strong as the test's level
// (docs/requirements.md). A must/should test without any is legal here (ACTS
// documents have none); `check` rejects it unless --allow-unquoted.
void parse_requirement(const MapReader& t, Test& test) {
  if (!t.has("x-requirement")) return;
  YAML::Node n = t.get("x-requirement");
  std::string ctx = "'x-requirement' of " + t.context();
  if (n.IsSequence()) {
    if (n.size() == 0) t.error("x-requirement", "the list is empty");
    size_t i = 0;
    for (const auto& e : n)
      test.quotes.push_back(parse_quote(e, "quote #" + std::to_string(++i) + " of " + ctx, t.diags()));
  } else {
    test.quotes.push_back(parse_quote(n, ctx, t.diags()));
  }
  for (const auto& q : test.quotes)
    if (q.quote.empty()) return;  // already reported
  if (auto why = quotes_back_level(test.quotes, test.level); !why.empty()) t.error("x-requirement", why);
}

void parse_test_extensions(const MapReader& t, const Defaults& defaults, Test& test) {
  parse_requirement(t, test);
  test.binding = t.one_of("x-binding", kBindings).value_or(defaults.binding);
  check_role(t, defaults, test);
  check_binding(t, test);
  if (t.has("x-card") && t.expect_map("x-card")) {
    test.card = t.json("x-card");
    if (test.role != Role::kClient) t.error("x-card", "'x-card' is the scripted agent's card: it needs x-role client");
  }
  test.profiles = t.has("x-profiles") ? t.string_list("x-profiles") : defaults.profiles;
  test.agent = defaults.agent;
  parse_agent(t, test.agent);
  test.timeout_ms = static_cast<int>(
      t.integer("timeout_ms", 1, kMaxMillis).value_or(defaults.timeout_ms.value_or(kDefaultTimeoutMs)));
  // Sharing a process is safe only when no step touches the wire directly
  // and the agent needs nothing of its own (environment, manual handshake).
  bool fallback = reusable(test.steps) && test.agent.env.empty() && !test.agent.manual_handshake;
  test.reuse = t.boolean("x-reuse").value_or(defaults.reuse.value_or(fallback));
}

Test parse_test(const YAML::Node& node, const Suite& suite, size_t index, ParseContext& ctx,
                const Defaults& defaults) {
  Test test;
  test.where = ctx.diags.at(node);
  std::string label = "test #" + std::to_string(index + 1) + " of suite '" + suite.id + "'";
  if (node.IsMap() && is_string(node["id"])) label = "test '" + node["id"].Scalar() + "'";
  MapReader t(node, label, ctx.diags);
  if (!t.is_map()) return test;
  t.check_keys(kTestKeys);
  test.id = t.string("id", true).value_or("");
  test.name = t.string("name", true).value_or("");
  test.description = t.string("description").value_or("");
  test.spec_ref = t.string("spec_ref").value_or("");
  test.origin = t.string("origin").value_or("");
  test.level = level_from(t.one_of("level", kLevels, true).value_or("must")).value();
  test.tags = suite.tags;
  for (auto& tag : t.string_list("tags")) {
    if (std::find(test.tags.begin(), test.tags.end(), tag) == test.tags.end()) test.tags.push_back(tag);
  }
  test.transport = t.string_list("transport", true, kTransports);
  parse_preconditions(t, test);
  test.requires_behaviors = t.string_list("requires_behaviors");
  test.runner_requirements = t.string_list("runner_requirements", false, kRunnerRequirements);
  t.require("steps");
  StepIds ids{label, {}};
  if (t.expect_list("steps", true)) test.steps = parse_steps(t.get("steps"), ctx, ids);
  test.assertions = parse_named_assertions(t, "assertions");
  parse_test_extensions(t, defaults, test);
  test.references = defaults.references;
  for (std::string_view key : {"steps", "assertions", "x-agent", "x-card"})
    if (t.has(key)) collect_references(t.get(key), ctx, test.references);
  test.suite_id = suite.id;
  test.suite_name = suite.name;
  test.file = ctx.diags.file();
  return test;
}

Suite parse_suite(const YAML::Node& node, size_t index, ParseContext& ctx, const Defaults& defaults,
                  Unique& test_ids) {
  Suite suite;
  suite.where = ctx.diags.at(node);
  std::string label = "suite #" + std::to_string(index + 1);
  if (node.IsMap() && is_string(node["id"])) label = "suite '" + node["id"].Scalar() + "'";
  MapReader s(node, label, ctx.diags);
  if (!s.is_map()) return suite;
  s.check_keys(kSuiteKeys);
  suite.id = s.string("id", true).value_or("");
  suite.name = s.string("name", true).value_or("");
  suite.description = s.string("description").value_or("");
  suite.tags = s.string_list("tags");
  s.require("tests");
  if (!s.expect_list("tests", true)) return suite;
  size_t i = 0;
  for (const auto& t : s.get("tests")) {
    suite.tests.push_back(parse_test(t, suite, i++, ctx, defaults));
    test_ids.add(ctx.diags, t);
  }
  return suite;
}

void parse_header(const MapReader& m, Document& doc, const ParseContext& ctx) {
  if (auto v = m.string("acts_version", true)) {
    doc.acts_version = *v;
    if (v->substr(0, v->find('.')) != "1") {
      m.error("acts_version", "unsupported acts_version '" + *v + "' (this runner reads ACTS 1.x)");
    }
  }
  doc.spec_version = m.string("spec_version", true).value_or("");
  doc.spec_ref = m.string("spec_ref").value_or("");
  if (m.expect_map("metadata")) {
    MapReader md(m.get("metadata"), "'metadata'", m.diags());
    md.check_keys(kMetadataKeys);
    for (auto key : {"title", "description", "license"}) md.string(key);
    md.string_list("authors", true);
    doc.metadata = m.json("metadata");
  }
  doc.variables = parse_string_map(m, "variables", false);
  const YAML::Node vars = m.get("variables");
  for (const auto& var : doc.variables) collect_references(vars[var.first], ctx, doc.variable_references, var.first);
  if (m.expect_list("include", true)) {
    for (const auto& inc : m.get("include")) {
      if (!is_string(inc)) {
        m.diags().error(inc, "'include' items must be file names (got " + describe(inc) + ")");
        continue;
      }
      doc.includes.push_back({inc.Scalar(), m.diags().at(inc)});
    }
  }
}

}  // namespace

Document parse_document(const YAML::Node& root, ParseContext& ctx) {
  Document doc;
  doc.file = ctx.diags.file();
  MapReader m(root, "document", ctx.diags);
  if (!m.is_map()) return doc;
  m.check_keys(kDocKeys);
  parse_header(m, doc, ctx);
  if (!m.has("include") && !m.has("suites")) {
    ctx.diags.error(m.where(), "a document needs 'suites' or 'include' (ACTS §2)");
  }
  doc.defaults = parse_defaults(m, ctx);
  if (!m.expect_list("suites", true)) return doc;
  Unique suite_ids("suite");
  Unique test_ids("test");
  size_t index = 0;
  for (const auto& node : m.get("suites")) {
    doc.suites.push_back(parse_suite(node, index++, ctx, doc.defaults, test_ids));
    suite_ids.add(ctx.diags, node);
  }
  for (auto& su : doc.suites) {
    for (auto& t : su.tests) t.spec_version = doc.spec_version;
  }
  return doc;
}

}  // namespace a2a::scenario::detail
