#include "peers/a2a-ref-agent/rpc_out.hpp"

#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {

Json RpcOut::out_id(const Json& id) const {
  if (faults_.has(Fault::kIdNullResponse)) return nullptr;
  if (faults_.has(Fault::kIdAsString) && id.is_number()) return id.dump();
  return id;
}

Json RpcOut::result(const Json& id, const Json& r) const { return jsonrpc::make_result(out_id(id), r); }

Json RpcOut::result(const Json& id, Json&& r) const {
  Json response = jsonrpc::make_result(out_id(id), nullptr);
  response["result"] = std::move(r);
  return response;
}

Json RpcOut::error(const Json& id, const CallError& e) const {
  Json err = e.to_json();
  apply_error_faults(faults_, err);
  return Json{{"jsonrpc", "2.0"}, {"id", out_id(id)}, {"error", std::move(err)}};
}

bool RpcOut::write_notification(std::string_view method, const Json& params) {
  return write(jsonrpc::make_notification(method, params));
}

}  // namespace a2a::agent
