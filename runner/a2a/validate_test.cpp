// The payload validator (validate.hpp): its schema table against a2a.proto
// itself, and each rule on good and bad payloads.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "runner/a2a/validate.hpp"

using namespace a2a::model;
using Json = nlohmann::json;

namespace {

const std::string kUpstream = std::string(A2A_SHARED_DIR) + "/spec/upstream/";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// --- a minimal reader of a2a.proto: messages (fields, labels, REQUIRED, oneofs) and enums.
struct ParsedField {
  std::string label, type, name, oneof;
  bool required = false;
};

struct ParsedProto {
  std::map<std::string, std::vector<ParsedField>> messages;
  std::map<std::string, std::vector<std::string>> enums;
};

std::string strip_comments(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto c = line.find("//");
    out += (c == std::string::npos ? line : line.substr(0, c)) + "\n";
  }
  return out;
}

ParsedProto parse_proto(const std::string& raw) {
  ParsedProto p;
  std::string text = strip_comments(raw);
  std::regex block(R"((message|enum)\s+(\w+)\s*\{)");
  std::regex field(
      R"(^\s*(optional\s+|repeated\s+)?(map<\s*string\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*\d+\s*(\[[^\]]*\])?\s*;)");
  std::regex enum_value(R"(^\s*(\w+)\s*=\s*\d+\s*;)");
  std::regex oneof_open(R"(^\s*oneof\s+(\w+)\s*\{)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), block); it != std::sregex_iterator(); ++it) {
    std::string kind = (*it)[1], name = (*it)[2];
    // The block's body, up to its matching brace (one nested level: oneof).
    size_t at = it->position() + it->length();
    int depth = 1;
    size_t end = at;
    for (; end < text.size() && depth > 0; ++end) {
      if (text[end] == '{') ++depth;
      if (text[end] == '}') --depth;
    }
    std::istringstream body(text.substr(at, end - at - 1));
    std::string oneof;
    for (std::string line; std::getline(body, line);) {
      std::smatch m;
      if (std::regex_search(line, m, oneof_open)) {
        oneof = m[1];
        continue;
      }
      if (line.find('}') != std::string::npos) oneof.clear();
      if (kind == "enum") {
        if (std::regex_search(line, m, enum_value)) p.enums[name].push_back(m[1]);
        continue;
      }
      if (line.find("option ") != std::string::npos) continue;
      if (!std::regex_search(line, m, field)) continue;
      ParsedField f;
      std::string lab = m[1];
      f.label = lab.empty() ? "" : lab.substr(0, lab.find_first_of(" \t"));
      if (m[3].matched) {
        f.label = "map";
        f.type = m[3];
      } else {
        f.type = m[2];
      }
      f.name = m[4];
      f.required = m[5].matched && std::string(m[5]).find("REQUIRED") != std::string::npos;
      f.oneof = oneof;
      p.messages[name].push_back(f);
    }
  }
  return p;
}

const ParsedProto& proto() {
  static const ParsedProto p = parse_proto(read_text(kUpstream + "a2a.proto"));
  return p;
}

TEST(PayloadSchema, ProtoFileIsReadable) {
  ASSERT_FALSE(proto().messages.empty()) << "could not read " << kUpstream << "a2a.proto";
  // The reader itself: known facts of the proto.
  ASSERT_TRUE(proto().messages.count("Task"));
  EXPECT_EQ(proto().messages.at("Task").size(), 6u);
  EXPECT_TRUE(proto().messages.at("Task")[0].required);
  EXPECT_EQ(proto().enums.at("Role").size(), 3u);
}

TEST(PayloadSchema, EveryTableMessageMatchesTheProto) {
  for (const auto& m : payload_messages()) {
    SCOPED_TRACE(std::string(m.name));
    auto it = proto().messages.find(std::string(m.name));
    ASSERT_NE(it, proto().messages.end()) << m.name << " is not a message of a2a.proto";
    const auto& want = it->second;
    ASSERT_EQ(m.fields.size(), want.size()) << "field count of " << m.name;
    for (size_t i = 0; i < want.size(); ++i) {
      const auto& f = m.fields[i];
      SCOPED_TRACE(want[i].name);
      EXPECT_EQ(std::string(f.name), want[i].name);
      EXPECT_EQ(std::string(f.type), want[i].type);
      EXPECT_EQ(std::string(f.label), want[i].label);
      EXPECT_EQ(f.required, want[i].required) << "REQUIRED mark of " << m.name << "." << want[i].name;
      EXPECT_EQ(std::string(f.oneof), want[i].oneof);
    }
  }
}

TEST(PayloadSchema, EveryMessageTypeATableFieldNamesIsInTheTable) {
  for (const auto& m : payload_messages())
    for (const auto& f : m.fields) {
      std::string t(f.type);
      if (proto().messages.count(t)) {
        EXPECT_NE(find_message(t), nullptr) << m.name << "." << f.name << " refers to " << t;
      }
    }
}

TEST(PayloadSchema, EnumsMatchTheProto) {
  for (const auto& e : payload_enums()) {
    auto it = proto().enums.find(std::string(e.name));
    ASSERT_NE(it, proto().enums.end()) << e.name;
    std::vector<std::string> mine(e.values.begin(), e.values.end());
    EXPECT_EQ(mine, it->second) << e.name;
  }
}

TEST(PayloadSchema, CitedQuotesAreVerbatimInTheSpec) {
  std::string spec = read_text(kUpstream + "specification.md");
  ASSERT_FALSE(spec.empty());
  for (size_t at; (at = spec.find("**")) != std::string::npos;) spec.erase(at, 2);
  for (auto quote : cited_quotes()) EXPECT_NE(spec.find(quote), std::string::npos) << quote;
  EXPECT_NE(read_text(kUpstream + "a2a.proto")
                .find("For HTTP-based transports, must be a valid absolute\n  // HTTPS URL in production."),
            std::string::npos);
}

TEST(PayloadSchema, JsonNames) {
  EXPECT_EQ(json_name("context_id"), "contextId");
  EXPECT_EQ(json_name("open_id_connect_security_scheme"), "openIdConnectSecurityScheme");
  EXPECT_EQ(json_name("oauth2_metadata_url"), "oauth2MetadataUrl");
  EXPECT_EQ(json_name("id"), "id");
}

// --- rules

Json good_task() {
  return Json::parse(R"({
    "id": "t-1", "contextId": "c-1",
    "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-02T03:04:05.678Z",
               "message": {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{"text": "done"}]}},
    "artifacts": [{"artifactId": "a-1", "parts": [{"data": {"k": 1}}, {"raw": "aGk=", "mediaType": "image/png"}]}],
    "history": [{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"url": "https://x.example/f"}]}],
    "metadata": {"x": [1, 2]}
  })");
}

std::string all(const std::vector<PayloadViolation>& v) {
  std::string s;
  for (const auto& x : v) s += x.describe() + "\n";
  return s;
}

TEST(PayloadValidate, AValidTaskHasNoViolations) {
  EXPECT_TRUE(validate_payload("Task", good_task()).empty()) << all(validate_payload("Task", good_task()));
}

TEST(PayloadValidate, UnknownMembersAndAbsentOptionalsAreAccepted) {
  Json t = {{"id", "t"}, {"status", {{"state", "TASK_STATE_WORKING"}, {"x-vendor", 1}}}, {"futureField", {1}}};
  EXPECT_TRUE(validate_payload("Task", t).empty()) << all(validate_payload("Task", t));
}

TEST(PayloadValidate, TimestampAsNumberIsAViolationWithPathAndQuote) {
  Json t = good_task();
  t["status"]["timestamp"] = 1767323045678;
  auto v = validate_payload("Task", t, "task");
  ASSERT_EQ(v.size(), 1u) << all(v);
  EXPECT_EQ(v[0].path, "task.status.timestamp");
  EXPECT_NE(v[0].what.find("got a number"), std::string::npos);
  EXPECT_NE(v[0].source.find("§5.6.1"), std::string::npos);
  EXPECT_NE(v[0].source.find("MUST be represented as ISO 8601"), std::string::npos);
}

TEST(PayloadValidate, TimestampFormats) {
  for (std::string ok : {"2026-01-02T03:04:05Z", "2026-01-02T03:04:05.1Z", "2026-01-02T03:04:05.123456789Z"}) {
    Json t = good_task();
    t["status"]["timestamp"] = ok;
    EXPECT_TRUE(validate_payload("Task", t).empty()) << ok;
  }
  for (std::string bad : {"2026-01-02 03:04:05Z", "2026-13-02T03:04:05Z", "2026-01-02T03:04:05", "yesterday",
                          "2026-01-02T03:04:05.Z", "2026-02-30T00:00:00Z"}) {
    Json t = good_task();
    t["status"]["timestamp"] = bad;
    auto v = validate_payload("Task", t);
    ASSERT_EQ(v.size(), 1u) << bad;
    EXPECT_NE(v[0].what.find("not an RFC 3339"), std::string::npos) << bad;
  }
  Json t = good_task();
  t["status"]["timestamp"] = "2026-01-02T03:04:05+02:00";
  auto v = validate_payload("Task", t);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].source.find("other than 'Z'"), std::string::npos);
}

TEST(PayloadValidate, EnumNamesOnly) {
  Json t = good_task();
  t["status"]["state"] = "completed";
  auto v = validate_payload("Task", t);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].path, "status.state");
  EXPECT_NE(v[0].source.find("§5.5"), std::string::npos);
  t["status"]["state"] = 3;  // the proto number: ProtoJSON parsers read it, but A2A requires the name
  EXPECT_EQ(validate_payload("Task", t).size(), 1u);
  Json m = {{"messageId", "m"}, {"role", "agent"}, {"parts", {{{"text", "x"}}}}};
  v = validate_payload("Message", m);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].path, "role");
}

TEST(PayloadValidate, RequiredFieldsAndArrays) {
  Json m = {{"role", "ROLE_AGENT"}, {"parts", Json::array()}};
  auto v = validate_payload("Message", m, "message");
  ASSERT_EQ(v.size(), 2u) << all(v);
  EXPECT_EQ(v[0].path, "message.messageId");
  EXPECT_NE(v[0].source.find("MUST be present and set"), std::string::npos);
  EXPECT_EQ(v[1].path, "message.parts");
  EXPECT_NE(v[1].source.find("at least one element"), std::string::npos);
  Json t = {{"id", "t"}, {"status", nullptr}};  // null is the default value: absent
  EXPECT_EQ(validate_payload("Task", t).size(), 1u);
}

TEST(PayloadValidate, WrongJsonTypes) {
  Json t = good_task();
  t["id"] = 7;
  t["history"] = Json::object();
  t["metadata"] = "x";
  t["artifacts"][0]["parts"][1]["raw"] = "not base64!";
  auto v = validate_payload("Task", t);
  ASSERT_EQ(v.size(), 4u) << all(v);
  EXPECT_EQ(v[0].path, "id");
  EXPECT_NE(v[0].source.find("a2a.proto Task: `string id`"), std::string::npos);
  EXPECT_EQ(v[1].path, "artifacts[0].parts[1].raw");
  EXPECT_EQ(v[2].path, "history");
  EXPECT_EQ(v[3].path, "metadata");
}

TEST(PayloadValidate, OneofAtMostOne) {
  Json p = {{"text", "a"}, {"url", "https://x"}};
  auto v = validate_payload("Part", p);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].what.find("oneof content"), std::string::npos);
  Json sr = {{"task", good_task()}, {"statusUpdate", {{"taskId", "t"}, {"contextId", "c"},
                                                      {"status", {{"state", "TASK_STATE_WORKING"}}}}}};
  EXPECT_EQ(validate_payload("StreamResponse", sr).size(), 1u);
}

TEST(PayloadValidate, StreamEventsAndListResponses) {
  Json ev = {{"artifactUpdate", {{"taskId", "t"}, {"contextId", "c"}, {"append", "yes"},
                                 {"artifact", {{"artifactId", "a"}, {"parts", {{{"text", "x"}}}}}}}}};
  auto v = validate_payload("StreamResponse", ev);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].path, "artifactUpdate.append");
  Json list = {{"tasks", Json::array()}, {"nextPageToken", ""}, {"pageSize", 50}, {"totalSize", 0}};
  EXPECT_TRUE(validate_payload("ListTasksResponse", list).empty()) << all(validate_payload("ListTasksResponse", list));
  list.erase("nextPageToken");
  list["pageSize"] = "fifty";
  v = validate_payload("ListTasksResponse", list);
  ASSERT_EQ(v.size(), 2u) << all(v);
  EXPECT_EQ(v[0].path, "nextPageToken");
  EXPECT_EQ(v[1].path, "pageSize");
  list["nextPageToken"] = "";
  list["pageSize"] = 4294967296LL;  // beyond int32
  list["totalSize"] = 2.5;
  v = validate_payload("ListTasksResponse", list);
  ASSERT_EQ(v.size(), 2u) << all(v);
  EXPECT_EQ(v[0].path, "pageSize");
  EXPECT_EQ(v[1].path, "totalSize");
  list["pageSize"] = "50";  // ProtoJSON parsers read an int32 in a string
  list["totalSize"] = 3.0;
  EXPECT_TRUE(validate_payload("ListTasksResponse", list).empty()) << all(validate_payload("ListTasksResponse", list));
  Json cfg = {{"id", "p"}, {"taskId", "t"}, {"authentication", {{"credentials", "x"}}}};
  v = validate_payload("TaskPushNotificationConfig", cfg);
  ASSERT_EQ(v.size(), 2u) << all(v);
  EXPECT_EQ(v[0].path, "url");
  EXPECT_EQ(v[1].path, "authentication.scheme");
}

Json good_card() {
  return Json::parse(R"({
    "name": "a", "description": "d", "version": "1",
    "supportedInterfaces": [{"url": "http://127.0.0.1:8080/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                            {"url": "host:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"}],
    "capabilities": {"streaming": true, "extensions": [{"uri": "urn:x", "required": false}]},
    "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
                        "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials":
                                  {"tokenUrl": "https://t", "scopes": {"read": "r"}}}}}},
    "securityRequirements": [{"schemes": {"bearer": {"list": []}}}],
    "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "s", "name": "n", "description": "d", "tags": ["t"]}],
    "provider": {"organization": "o", "url": "https://o.example"}
  })");
}

TEST(PayloadValidate, AgentCard) {
  EXPECT_TRUE(validate_payload("AgentCard", good_card()).empty()) << all(validate_payload("AgentCard", good_card()));
  Json c = good_card();
  c["supportedInterfaces"][0]["url"] = "/a2a/jsonrpc";
  auto v = validate_payload("AgentCard", c);
  ASSERT_EQ(v.size(), 1u) << all(v);
  EXPECT_EQ(v[0].path, "supportedInterfaces[0].url");
  EXPECT_NE(v[0].source.find("valid absolute HTTPS URL"), std::string::npos);
  EXPECT_NE(v[0].source.find("§8.3.1"), std::string::npos);
  c = good_card();
  c["supportedInterfaces"][0]["url"] = "ftp://host/x";
  EXPECT_EQ(validate_payload("AgentCard", c).size(), 1u);
  c = good_card();
  c.erase("capabilities");
  c["skills"][0].erase("tags");
  c["securitySchemes"]["oauth"]["oauth2SecurityScheme"]["flows"]["clientCredentials"].erase("scopes");
  c["capabilities"] = nullptr;
  v = validate_payload("AgentCard", c);
  ASSERT_EQ(v.size(), 3u) << all(v);
  EXPECT_EQ(v[0].path, "capabilities");
  EXPECT_EQ(v[1].path, "securitySchemes.oauth.oauth2SecurityScheme.flows.clientCredentials.scopes");
  EXPECT_EQ(v[2].path, "skills[0].tags");
}

TEST(PayloadValidate, NonObjectPayload) {
  auto v = validate_payload("Task", Json::array());
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].path, "$");
}

}  // namespace
