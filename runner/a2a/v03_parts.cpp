// Parts (a2a-protocol.md §3.3; §9.1 rows "Text part".."Part metadata"; §9.2 and
// spec Appendix A.2.1 for the ProtoJSON file part).
//
// 0.3 data parts hold an object only, 1.0 data parts any JSON value. A 1.0
// non-object value travels as {"value": v} with metadata.data_part_compat=true,
// the convention of the JS SDK's 0.3 compat layer, and is unwrapped on the way back.
#include <array>
#include <string_view>

#include "runner/a2a/v03_detail.hpp"

namespace a2a::model::v03 {
namespace detail {
namespace {

constexpr const char* kDataCompatFlag = "data_part_compat";

struct FileMember {
  const char* rpc;    // 0.3 JSON-RPC FileWithBytes / FileWithUri
  const char* proto;  // 0.3 proto FilePart
  const char* v1;     // 1.0 Part
};
constexpr std::array<FileMember, 4> kFileMembers = {{
    {"bytes", "fileWithBytes", "raw"},
    {"uri", "fileWithUri", "url"},
    {"mimeType", "mimeType", "mediaType"},
    {"name", "name", "filename"},
}};

struct PartKind {
  std::string name;       // "text" | "file" | "data" | "" (unknown)
  bool had_kind = false;  // the part carried a `kind` (0.3 JSON-RPC shape)
};

std::string content_member(const Json& part) {
  for (const char* m : {"text", "file", "data"}) {
    if (part.contains(m)) return m;
  }
  return {};
}

// Removes `kind`; without one the content member names the part.
PartKind part_kind(Json& part, const std::string& path, Ctx& c) {
  const std::string inferred = content_member(part);
  const std::string where = member_path(path, "kind");
  Json kind = take(part, "kind");
  if (kind.is_null()) {
    if (c.rpc())
      c.note(where, inferred.empty() ? "missing" : "missing; read as \"" + inferred + "\"");
    else if (inferred.empty())
      c.note(path, "no text, file or data member");
    return {inferred, false};
  }
  if (!c.rpc()) c.note(where, "not a member in 0.3 ProtoJSON");
  if (kind == "text" || kind == "file" || kind == "data") return {kind.get<std::string>(), true};
  c.note(where, "unknown 0.3 part kind " + describe(kind));
  part["kind"] = std::move(kind);  // carried over unchanged
  return {};
}

Json text_to_v1(Json part, const std::string& path, Ctx& c) {
  if (!part["text"].is_string()) c.note(member_path(path, "text"), "must be a string, got " + describe(part["text"]));
  return part;
}

// Moves the file object's members onto the part under their 1.0 names.
Json file_to_v1(Json part, const std::string& path, Ctx& c) {
  const std::string where = member_path(path, "file");
  Json file = take(part, "file");
  if (!expect_object(file, where, c)) {
    part["file"] = std::move(file);
    return part;
  }
  int content = 0;
  for (const auto& m : kFileMembers) {
    Json value;
    if (!take_spelled(file, m.rpc, m.proto, where, c, value)) continue;
    content += m.v1 == std::string_view("raw") || m.v1 == std::string_view("url") ? 1 : 0;
    part[m.v1] = std::move(value);
  }
  if (content != 1) {
    c.note(where, c.rpc() ? "exactly one of bytes, uri" : "exactly one of fileWithBytes, fileWithUri");
  }
  for (auto it = file.begin(); it != file.end(); ++it) {  // unknown file members move onto the part
    if (part.contains(it.key()))
      c.note(member_path(where, it.key()), "dropped: the part has a member of that name");
    else
      part[it.key()] = it.value();
  }
  return part;
}

void unwrap_data_compat(Json& part) {
  auto md = part.find("metadata");
  if (md == part.end() || !md->is_object()) return;
  auto flag = md->find(kDataCompatFlag);
  const Json& data = part["data"];
  if (flag == md->end() || *flag != true || !data.is_object() || data.size() != 1 || !data.contains("value")) return;
  Json value = data["value"];
  part["data"] = std::move(value);
  md->erase(flag);
  if (md->empty()) part.erase(md);
}

Json data_to_v1(Json part, bool rpc_shape, const std::string& path, Ctx& c) {
  const std::string where = member_path(path, "data");
  Json& data = part["data"];
  if (!rpc_shape) {  // proto DataPart {data: Struct}
    if (data.is_object() && data.size() == 1 && data.contains("data")) {
      Json inner = data["data"];
      data = std::move(inner);
    } else {
      c.note(where, "must be a DataPart {\"data\": {...}}, got " + describe(data));
    }
  }
  if (!data.is_object()) c.note(where, "must be an object in 0.3, got " + describe(data));
  unwrap_data_compat(part);
  return part;
}

Json file_to_v03(Json part, Ctx& c) {
  Json file = Json::object();
  for (const auto& m : kFileMembers) {
    if (part.contains(m.v1)) file[c.rpc() ? m.rpc : m.proto] = take(part, m.v1);
  }
  part["file"] = std::move(file);
  if (c.rpc()) part["kind"] = "file";
  return part;
}

Json data_to_v03(Json part, const std::string& path, Ctx& c) {
  Json value = take(part, "data");
  if (!value.is_object()) {
    Json& md = part["metadata"];
    if (md.is_null()) md = Json::object();
    if (md.is_object()) {
      md[kDataCompatFlag] = true;
      value = Json{{"value", std::move(value)}};
    } else {
      c.note(member_path(path, "metadata"), "must be an object; the non-object data is sent unwrapped");
    }
  }
  part["data"] = c.rpc() ? std::move(value) : Json{{"data", std::move(value)}};
  if (c.rpc()) part["kind"] = "data";
  return part;
}

}  // namespace

Json part_to_v1(const Json& p, const std::string& path, Ctx& c) {
  if (!expect_object(p, path, c)) return p;
  Json part = p;
  const PartKind kind = part_kind(part, path, c);
  if (!kind.name.empty() && !part.contains(kind.name)) {
    c.note(member_path(path, kind.name), "missing for a part of kind \"" + kind.name + "\"");
    return part;
  }
  if (kind.name == "text") return text_to_v1(std::move(part), path, c);
  if (kind.name == "file") return file_to_v1(std::move(part), path, c);
  if (kind.name == "data") return data_to_v1(std::move(part), kind.had_kind || c.rpc(), path, c);
  return part;
}

Json part_to_v03(const Json& p, const std::string& path, Ctx& c) {
  if (!expect_object(p, path, c)) return p;
  int content = 0;
  for (const char* m : {"text", "raw", "url", "data"}) content += p.contains(m) ? 1 : 0;
  if (content != 1) {
    c.note(path, "exactly one of text, raw, url, data");
    return p;
  }
  Json part = p;
  if (part.contains("data")) return data_to_v03(std::move(part), path, c);
  if (part.contains("text")) {
    if (c.rpc()) part["kind"] = "text";
    return part;  // filename / mediaType have no 0.3 slot on a text part: carried over
  }
  return file_to_v03(std::move(part), c);
}

}  // namespace detail

Translation part_to_v1(const nlohmann::json& part, Dialect d) {
  detail::Ctx c{d};
  Json out = detail::part_to_v1(part, "part", c);
  return std::move(c).done(std::move(out));
}

Translation part_to_v03(const nlohmann::json& part, Dialect d) {
  detail::Ctx c{d};
  Json out = detail::part_to_v03(part, "part", c);
  return std::move(c).done(std::move(out));
}

}  // namespace a2a::model::v03
