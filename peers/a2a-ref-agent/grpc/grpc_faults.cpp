#include "peers/a2a-ref-agent/grpc/grpc_faults.hpp"

#include "runner/a2a/model.hpp"
#include "runner/jsonrpc/errors.hpp"

namespace a2a::agent {
namespace {

using grpcwire::WireStatus;

// A terminal status-update: the event after which a task stream ends.
bool is_terminal_update(const Json& event) {
  auto it = event.find("statusUpdate");
  if (it == event.end() || !it->is_object()) return false;
  auto st = model::task_state_from(it->value("status", Json::object()).value("state", ""));
  return st && model::is_terminal(*st);
}

// grpc-stream-no-terminal drops the terminal status-update; grpc-events-after-terminal sends it twice.
class FaultyStream : public EventStream {
 public:
  FaultyStream(std::unique_ptr<EventStream> inner, bool drop_terminal, bool repeat_terminal)
      : inner_(std::move(inner)), drop_(drop_terminal), repeat_(repeat_terminal) {}

  StreamItem next(core::Deadline deadline) override {
    if (pending_) {
      StreamItem again = std::move(*pending_);
      pending_.reset();
      return again;
    }
    for (;;) {
      StreamItem item = inner_->next(deadline);
      if (item.kind != StreamItem::Kind::kEvent || !is_terminal_update(item.event)) return item;
      if (drop_) continue;  // the stream then ends (kEnd) with the task's state unseen
      if (repeat_) pending_ = item;
      return item;
    }
  }
  void cancel() override { inner_->cancel(); }

 private:
  std::unique_ptr<EventStream> inner_;
  bool drop_;
  bool repeat_;
  std::optional<StreamItem> pending_;
};

}  // namespace

GrpcPolicy grpc_policy(const Faults& f) {
  GrpcPolicy p;
  p.check_version = !f.has(Fault::kGrpcVersionNotChecked);
  p.absent_version_is_current = f.has(Fault::kGrpcAbsentVersionAsCurrent);
  p.require_card_auth = !f.has(Fault::kGrpcExtendedCardNoAuth);
  if (f.has(Fault::kGrpcNoSizeLimit)) p.max_receive = 64 << 20;
  if (f.has(Fault::kGrpcUnimplementedAsUnknown)) p.unknown_method = grpcwire::kUnknown;
  if (f.has(Fault::kGrpcMalformedAsInternal)) p.malformed_request = grpcwire::kInternal;
  return p;
}

WireStatus grpc_error_status(const Faults& f, const Json& error_object) {
  bool reason = f.has(Fault::kGrpcWrongReason), domain = f.has(Fault::kGrpcWrongDomain);
  bool wrong_status = f.has(Fault::kGrpcWrongStatus), as_unknown = f.has(Fault::kGrpcJsonRpcCodeAsStatus);
  if (!reason && !domain && !wrong_status && !as_unknown && !f.has(Fault::kGrpcNoDetails))
    return grpcwire::status_from_error(error_object);
  Json e = error_object;
  int jcode = e.is_object() ? e.value("code", 0) : 0;
  if ((reason || domain) && e.is_object() && e.contains("data") && e["data"].is_array()) {
    for (auto& d : e["data"]) {
      if (!d.is_object() || d.value("@type", "") != jsonrpc::kErrorInfoType) continue;
      auto row = jsonrpc::row_by_code(jcode);
      if (reason && row) d["reason"] = std::string(row->name);  // "TaskNotFoundError"
      if (domain) d["domain"] = "a2a.dev";
    }
  }
  WireStatus w = grpcwire::status_from_error(e);
  bool recode = false;
  if (wrong_status && jcode == -32001) {
    w.code = grpcwire::kInvalidArgument;
    recode = true;
  }
  if (as_unknown && jsonrpc::row_by_code(jcode)) {
    w.code = grpcwire::kUnknown;
    w.message = std::to_string(jcode) + ": " + w.message;
    recode = true;
  }
  if (recode && !w.details.empty()) {
    // The details' google.rpc.Status repeats code and message: keep them consistent.
    if (auto b = grpcwire::encode_status(w.code, w.message, e.value("data", Json::array()))) w.details = *b;
  }
  if (f.has(Fault::kGrpcNoDetails)) w.details.clear();
  return w;
}

WireStatus grpc_stream_failure(const Faults& f, WireStatus error) {
  if (f.has(Fault::kGrpcStreamErrorAsOk)) return WireStatus{grpcwire::kOk, "", ""};
  return error;
}

std::unique_ptr<EventStream> decorate_grpc_stream(const Faults& f, std::unique_ptr<EventStream> stream) {
  bool drop = f.has(Fault::kGrpcStreamNoTerminal), repeat = f.has(Fault::kGrpcEventsAfterTerminal);
  if (!drop && !repeat) return stream;
  return std::make_unique<FaultyStream>(std::move(stream), drop, repeat);
}

}  // namespace a2a::agent
