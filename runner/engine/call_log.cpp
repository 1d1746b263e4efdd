#include "runner/engine/call_log.hpp"

namespace a2a::engine {

void CallLog::add(const std::string& scenario_id, const std::string& binding, RecordedCall call) {
  std::lock_guard lk(mu_);
  calls_[{scenario_id, binding}].push_back(std::move(call));
}

std::vector<RecordedCall> CallLog::calls(const std::string& scenario_id, const std::string& binding) const {
  std::lock_guard lk(mu_);
  auto it = calls_.find({scenario_id, binding});
  return it == calls_.end() ? std::vector<RecordedCall>{} : it->second;
}

namespace {

std::string_view status_name(OpResult::Status s) {
  switch (s) {
    case OpResult::Status::kResult: return "result";
    case OpResult::Status::kError: return "error";
    case OpResult::Status::kNoResponse: return "no_response";
  }
  return "no_response";
}

}  // namespace

Json op_result_to_json(const OpResult& r) {
  Json headers = Json::array();
  for (const auto& [name, value] : r.http_headers) headers.push_back(Json::array({name, value}));
  Json j{{"status", status_name(r.status)},
              {"request_id", r.request_id},
              {"result", r.result},
              {"error", r.error},
              {"events", r.events},
              {"stream_errors", r.stream_errors},
              {"violations", r.violations},
              {"problem", r.problem},
              {"deadline_hit", r.deadline_hit},
              {"binding", r.binding},
              {"http_status", r.http_status},
              {"http_headers", std::move(headers)},
              {"error_status", r.error_status},
              {"not_expressible", r.not_expressible}};
  // WebSocket: the agent's close code (1013 is a decline, engine::shed_signal).
  if (r.close_code != 0) j["close_code"] = r.close_code;
  return j;
}

core::Expected<OpResult> op_result_from_json(const Json& j) {
  auto bad = [](const std::string& member, const char* want) {
    return core::fail(core::ErrorKind::kSchema, "recorded answer: member '" + member + "' is not " + want);
  };
  if (!j.is_object()) return core::fail(core::ErrorKind::kSchema, "recorded answer: not a JSON object");
  OpResult r;
  std::string status = j.value("status", std::string());
  if (status == "result") r.status = OpResult::Status::kResult;
  else if (status == "error") r.status = OpResult::Status::kError;
  else if (status == "no_response") r.status = OpResult::Status::kNoResponse;
  else return bad("status", "result, error or no_response");
  r.request_id = j.value("request_id", Json());
  r.result = j.value("result", Json());
  r.error = j.value("error", Json());
  for (const char* arr : {"events", "stream_errors", "violations", "http_headers"})
    if (j.contains(arr) && !j[arr].is_array()) return bad(arr, "an array");
  for (const char* str : {"problem", "binding", "not_expressible"})
    if (j.contains(str) && !j[str].is_string()) return bad(str, "a string");
  for (const char* num : {"http_status", "error_status", "close_code"})
    if (j.contains(num) && !j[num].is_number_integer()) return bad(num, "an integer");
  if (j.contains("deadline_hit") && !j["deadline_hit"].is_boolean()) return bad("deadline_hit", "a boolean");
  if (j.contains("events")) r.events = j["events"].get<std::vector<Json>>();
  if (j.contains("stream_errors")) r.stream_errors = j["stream_errors"].get<std::vector<Json>>();
  if (j.contains("violations"))
    for (const auto& v : j["violations"]) {
      if (!v.is_string()) return bad("violations[]", "a string");
      r.violations.push_back(v.get<std::string>());
    }
  if (j.contains("http_headers"))
    for (const auto& h : j["http_headers"]) {
      if (!h.is_array() || h.size() != 2 || !h[0].is_string() || !h[1].is_string())
        return bad("http_headers[]", "a [name, value] pair of strings");
      r.http_headers.emplace_back(h[0].get<std::string>(), h[1].get<std::string>());
    }
  r.problem = j.value("problem", std::string());
  r.binding = j.value("binding", std::string("stdio"));
  r.not_expressible = j.value("not_expressible", std::string());
  r.http_status = j.value("http_status", 0);
  r.error_status = j.value("error_status", 0);
  r.close_code = j.value("close_code", 0);
  r.deadline_hit = j.value("deadline_hit", false);
  return r;
}

}  // namespace a2a::engine
