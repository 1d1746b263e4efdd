// The A2A 0.3 JSON-RPC adapter (key jsonrpc@0.3; docs/a2a-0.3.md "Runner"):
// 1.0 abstract operation -> 0.3 JSON-RPC (slash method, 0.3 params, no
// A2A-Version) over the JSON-RPC binding's exchange -> the 0.3 answer
// translated back to 1.0; every translation note is a violation.
#include "runner/a2a/methods.hpp"
#include "runner/a2a/v03.hpp"
#include "runner/bindings/a2a03/a2a03_bindings.hpp"
#include "runner/bindings/jsonrpc/jsonrpc_binding.hpp"
#include "runner/match/error_expect.hpp"
#include "runner/transport/transcript.hpp"

namespace a2a::bindings {

namespace a2a03 {

using namespace http;

void check_final(OpResult& r, const std::vector<bool>& is_status, const std::vector<bool>& finals) {
  std::optional<size_t> last_status, first_final;
  for (size_t i = 0; i < is_status.size(); ++i) {
    if (is_status[i]) last_status = i;
    if (finals[i] && !first_final) first_final = i;
  }
  if (first_final && *first_final + 1 < is_status.size())
    add_violation(r, "A2A 0.3 stream (a2a-protocol.md §9.1 \"End of stream\"): " +
                         std::to_string(is_status.size() - *first_final - 1) +
                         " event(s) follow the status-update with final:true (event " +
                         std::to_string(*first_final) + ")");
  if (last_status && !finals[*last_status])
    add_violation(r, "A2A 0.3 stream (a2a-protocol.md §9.1 \"End of stream\"): the last status-update (event " +
                         std::to_string(*last_status) + ") lacks final:true");
}

}  // namespace a2a03

namespace {

using namespace http;

OpResult jsonrpc_v03_call(Session& s, const std::string& operation, const Json& params, core::Deadline d) {
  if (operation == "get_agent_card") return fetch_card_operation(s, d);
  auto opt = model::operation_from_acts(operation);
  std::optional<std::string> method;
  if (opt)
    if (auto m = model::v03::v03_method(*opt)) method = std::string(*m);
  if (!method) {
    OpResult r;
    r.binding = "jsonrpc";
    r.problem = "operation " + (opt ? std::string(model::method_name(*opt, model::MethodNaming::kV1)) : operation) +
                " has no A2A 0.3 JSON-RPC method (a2a-protocol.md §9.1)";
    return r;
  }
  model::Operation op = *opt;
  bool streaming = model::is_streaming(op);
  auto p = model::v03::params_to_v03(op, params);
  if (!p.notes.empty() && s.transcript) {
    std::string all;
    for (const auto& n : p.notes) all += (all.empty() ? "" : "; ") + n;
    s.transcript->note("the request's 1.0 params do not fit A2A 0.3 exactly: " + all);
  }
  OpResult r = jsonrpc_http::jsonrpc_exchange(s, std::string(*method), p.json, streaming, d);
  if (r.status == OpResult::Status::kNoResponse) return r;
  if (streaming) {
    std::vector<bool> is_status, finals;
    for (auto& ev : r.events) {
      bool status_update = ev.is_object() && ev.value("kind", Json()) == "status-update";
      auto t = model::v03::event_to_v1(ev);
      v03_notes(r, t.notes, "stream event");
      is_status.push_back(status_update);
      finals.push_back(t.final);
      ev = std::move(t.json);
    }
    for (auto& e : r.stream_errors) {
      auto t = model::v03::error_to_v1(e);
      v03_notes(r, t.notes, "stream error");
      e = std::move(t.json);
    }
    if (r.status == OpResult::Status::kResult && r.events.empty() && r.result.is_object()) {
      // One application/json answer instead of a stream (already a violation).
      auto t = model::v03::result_to_v1(op, r.result);
      v03_notes(r, t.notes, "result");
      r.result = std::move(t.json);
    }
    a2a03::check_final(r, is_status, finals);
  } else {
    if (r.status == OpResult::Status::kResult) {
      auto t = model::v03::result_to_v1(op, r.result);
      v03_notes(r, t.notes, "result");
      r.result = std::move(t.json);
    }
  }
  if (r.status == OpResult::Status::kError) {
    auto t = model::v03::error_to_v1(r.error);
    v03_notes(r, t.notes, "error");
    r.error = std::move(t.json);
  }
  return r;
}

}  // namespace

engine::OperationBinding jsonrpc_v03_operation_binding() {
  engine::OperationBinding b;
  b.key = "jsonrpc@0.3";
  b.card_name = "JSONRPC";
  b.protocol_version = "0.3";
  b.title = "JSON-RPC over HTTP (A2A 0.3)";
  b.over_http = true;
  b.check_url = http::url_problem;
  b.call = jsonrpc_v03_call;
  return b;
}

}  // namespace a2a::bindings
