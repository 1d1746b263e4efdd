// JSON-RPC output of the stdio server: responses, errors and notifications,
// with the id and error-shape faults applied in one place.
#pragma once

#include <string_view>

#include "peers/a2a-ref-agent/call_result.hpp"
#include "peers/a2a-ref-agent/faults.hpp"
#include "peers/a2a-ref-agent/frame_writer.hpp"

namespace a2a::agent {

class RpcOut {
 public:
  RpcOut(FrameWriter& writer, Faults faults) : writer_(writer), faults_(faults) {}

  // The id as the faults write it (exact echo without faults: 1 and "1" differ).
  Json out_id(const Json& id) const;
  Json result(const Json& id, const Json& result) const;  // the response object
  Json result(const Json& id, Json&& result) const;       // the same, without copying `result`
  Json error(const Json& id, const CallError& e) const;   // the error response object

  bool write(const Json& message) { return writer_.write_json(message); }
  bool write_result(const Json& id, const Json& r) { return write(result(id, r)); }
  bool write_error(const Json& id, const CallError& e) { return write(error(id, e)); }
  bool write_notification(std::string_view method, const Json& params);

  FrameWriter& frames() { return writer_; }
  const Faults& faults() const { return faults_; }

 private:
  FrameWriter& writer_;
  Faults faults_;
};

}  // namespace a2a::agent
