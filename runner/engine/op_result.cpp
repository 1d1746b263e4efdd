#include "runner/engine/op_result.hpp"

#include "runner/a2a/model.hpp"
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

namespace {

bool terminal_event(const nlohmann::json& e) {
  if (!e.is_object()) return false;
  for (const char* member : {"task", "statusUpdate"}) {
    auto it = e.find(member);
    if (it == e.end() || !it->is_object()) continue;
    auto status = it->find("status");
    if (status == it->end() || !status->is_object() || !status->contains("state")) return false;
    auto st = model::task_state_from_json((*status)["state"]);
    return st && model::is_terminal(*st);
  }
  return false;
}

}  // namespace

void check_stream_closes_at_terminal(OpResult& r) {
  for (size_t i = 0; i + 1 < r.events.size(); ++i)
    if (terminal_event(r.events[i])) {
      r.violations.push_back("stream event " + std::to_string(i + 1) + " follows the terminal event " +
                             std::to_string(i) +
                             " (spec §3.1.2: the stream MUST close when the task reaches a terminal state)");
      return;
    }
}

}  // namespace a2a::engine
