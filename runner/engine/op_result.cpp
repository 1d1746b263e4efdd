#include "runner/engine/op_result.hpp"

#include "runner/jsonrpc/errors.hpp"

namespace a2a::engine {

std::optional<long long> a2a_error_code(const OpResult& r) {
  if (!r.error.is_object()) return std::nullopt;
  if (r.binding == "rest" || r.binding == "grpc") {
    auto it = r.error.find("details");
    if (it == r.error.end() || !it->is_array()) return std::nullopt;
    for (const auto& d : *it) {
      if (!d.is_object() || !d.contains("reason") || !d["reason"].is_string()) continue;
      if (auto row = jsonrpc::row_by_reason(d["reason"].get<std::string>())) return row->jsonrpc_code;
    }
    return std::nullopt;
  }
  if (r.error.contains("code") && r.error["code"].is_number_integer()) return r.error["code"].get<long long>();
  return std::nullopt;
}

}  // namespace a2a::engine
