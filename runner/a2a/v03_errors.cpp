// JSON-RPC error objects (a2a-protocol.md §6.1, §6.4; §9.1 rows "JSON-RPC error
// data", "A2A error codes"). The codes -32001..-32007 mean the same in 0.3 and
// 1.0 (-32007 only changed its name), so codes are never rewritten.
#include "runner/a2a/v03_detail.hpp"
#include "runner/jsonrpc/errors.hpp"

namespace a2a::model::v03 {
namespace {

using detail::Ctx;
using detail::describe;
using detail::Json;

// ProtoJSON of a google.protobuf.Any holding a Value: how a free-form 0.3
// `data` fits 1.0's list of typed details.
constexpr const char* kValueType = "type.googleapis.com/google.protobuf.Value";

bool is_detail_list(const Json& data) {
  if (!data.is_array()) return false;
  for (const auto& d : data) {
    if (!d.is_object() || !d.contains("@type") || !d["@type"].is_string()) return false;
  }
  return true;
}

// Checks code and message; true when the object can be translated at all.
bool check_error(const Json& e, Ctx& c) {
  if (!detail::expect_object(e, "error", c)) return false;
  const auto code = e.find("code");
  if (code == e.end() || !code->is_number_integer()) {
    c.note("error.code", "must be an integer, got " + describe(code == e.end() ? Json() : *code));
  }
  const auto message = e.find("message");
  if (message == e.end() || !message->is_string()) {
    c.note("error.message", "must be a string, got " + describe(message == e.end() ? Json() : *message));
  }
  return true;
}

}  // namespace

Translation error_to_v1(const nlohmann::json& error) {
  Ctx c;
  if (!check_error(error, c)) return std::move(c).done(error);
  Json out = error;
  auto data = out.find("data");
  if (data != out.end() && !is_detail_list(*data)) {
    Json detail = {{"@type", kValueType}, {"value", std::move(*data)}};
    *data = Json::array({std::move(detail)});
  }
  return std::move(c).done(std::move(out));
}

Translation error_to_v03(const nlohmann::json& error) {
  Ctx c;
  if (!check_error(error, c)) return std::move(c).done(error);
  Json out = error;
  const auto code = out.find("code");
  if (code != out.end() && code->is_number_integer()) {
    const auto row = jsonrpc::row_by_code(code->get<int>());
    if (row && row->jsonrpc_code < -32007) {
      c.note("error.code",
             std::to_string(row->jsonrpc_code) + " (" + std::string(row->name) + ") has no 0.3 equivalent; kept");
    }
  }
  auto data = out.find("data");
  if (data != out.end() && data->is_array() && data->size() == 1 && (*data)[0].is_object() &&
      (*data)[0].value("@type", Json()) == kValueType && (*data)[0].contains("value")) {
    Json value = (*data)[0]["value"];
    *data = std::move(value);
  }
  return std::move(c).done(std::move(out));
}

}  // namespace a2a::model::v03
