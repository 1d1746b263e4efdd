// Fuzzes JSON-RPC classification (runner/jsonrpc/message.hpp): the whole input
// is one frame body, classified under both profiles and parsed client-side.
// Invariants: nothing throws; a body is dispatched, answered or (strict, a
// notification with bad params) dropped, never two of these; a reply is a
// well-formed error response whose code fits the profile (-32700 exactly for
// unparsable text in strict mode) and whose id is the request's when one was
// readable; a dispatched request rebuilt with make_request classifies the
// same; every builder output survives dump() and a re-parse.
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "runner/jsonrpc/message.hpp"

namespace {

using a2a::fuzz::show;
using namespace a2a::jsonrpc;

// Whether the body is JSON at all, judged without the classifier's code.
bool parsable(std::string_view body) { return Json::accept(body.begin(), body.end()); }

void check_reply(const Json& reply, std::string_view body, Strictness s, const Json& doc) {
  const std::string what = "reply " + dump(reply) + " to '" + show(body) + "'";
  A2A_FUZZ_CHECK(reply.is_object() && reply.size() == 3 && reply.value("jsonrpc", "") == "2.0", what);
  A2A_FUZZ_CHECK(reply.contains("id") && is_valid_id(reply.at("id")) && reply.contains("error"), what);
  const Json& id = reply.at("id");
  const Json& err = reply.at("error");
  A2A_FUZZ_CHECK(err.is_object() && err.contains("code") && err.at("code").is_number_integer() &&
                     err.contains("message") && err.at("message").is_string(),
                 what);
  const int code = err.at("code").get<int>();
  if (s == Strictness::kP46) {
    A2A_FUZZ_CHECK(code == kParseError && id.is_null(), what);
    return;
  }
  A2A_FUZZ_CHECK(code == kParseError || code == kInvalidRequest || code == kInvalidParams, what);
  // -32700 exactly for text that is not JSON, or JSON nested past the depth
  // cap (which takes more than 512 bytes of brackets).
  if (doc.is_discarded()) A2A_FUZZ_CHECK(code == kParseError, what);
  if (!doc.is_discarded()) A2A_FUZZ_CHECK(code != kParseError || body.size() > 512, what);
  if (code != kParseError && doc.is_object() && doc.contains("id") && is_valid_id(doc.at("id"))) {
    A2A_FUZZ_CHECK(id == doc.at("id"), "id not echoed: " + what);
  }
  // What goes on the wire is dump(reply): valid JSON with the same id and
  // code. (The message may quote the body's invalid UTF-8, which dump()
  // replaces by design, so the text itself may differ.)
  const Json wire = Json::parse(dump(reply), nullptr, false);
  A2A_FUZZ_CHECK(wire.is_object() && wire.at("id") == id && wire.at("error").at("code") == code, what);
}

void check_message(const Message& m, std::string_view body, Strictness s, const Json& doc) {
  const std::string what = "message from '" + show(body) + "'";
  A2A_FUZZ_CHECK(m.kind == Kind::kRequest || m.kind == Kind::kNotification, what);
  // raw is the document with "params" moved out to m.params (message.cpp, to_message).
  Json without_params = doc;
  if (without_params.is_object()) without_params.erase("params");
  A2A_FUZZ_CHECK(m.raw == without_params && doc.is_object() && doc.contains("method") &&
                     doc.at("method").is_string() && m.method == doc.at("method"),
                 what);
  A2A_FUZZ_CHECK(!m.has_params || m.params == doc.at("params"), what);
  A2A_FUZZ_CHECK(m.has_id == doc.contains("id") && (m.kind == Kind::kRequest) == m.has_id, what);
  if (m.has_id) A2A_FUZZ_CHECK(is_valid_id(m.id) && m.id == doc.at("id"), what);
  A2A_FUZZ_CHECK(m.has_params == doc.contains("params"), what);
  if (s == Strictness::kP46) return;
  A2A_FUZZ_CHECK(doc.contains("jsonrpc") && doc.at("jsonrpc") == "2.0", what);
  A2A_FUZZ_CHECK(!m.has_params || m.params.is_object() || m.params.is_array(), what);
  // Rebuilt by our own builder, it classifies as the same request.
  Json rebuilt = m.has_id ? make_request(m.id, m.method, m.params) : make_notification(m.method, m.params);
  Incoming again = classify_incoming(dump(rebuilt), s);
  A2A_FUZZ_CHECK(again.message && !again.reply && again.message->kind == m.kind && again.message->id == m.id &&
                     again.message->method == m.method && again.message->params == m.params,
                 "rebuilt " + dump(rebuilt) + " does not classify the same");
}

void classify(std::string_view body, Strictness s, const Json& doc) {
  Incoming in = classify_incoming(body, s);
  A2A_FUZZ_CHECK(!(in.message && in.reply), "both dispatched and answered: '" + show(body) + "'");
  if (in.reply) {
    check_reply(*in.reply, body, s, doc);
    A2A_FUZZ_CHECK(!in.reason.empty() && in.reason.size() < 1024, "reason: '" + show(in.reason) + "'");
  } else if (in.message) {
    check_message(*in.message, body, s, doc);
  } else {
    A2A_FUZZ_CHECK(s == Strictness::kStrict && doc.is_object() && !doc.contains("id") && doc.contains("params"),
                   "dropped without reason: '" + show(body) + "'");
  }
}

void check_client_parse(std::string_view body, const Json& doc) {
  std::string why;
  auto m = parse_message(body, &why);
  if (!m) {
    A2A_FUZZ_CHECK(!why.empty(), "parse_message refused without saying why");
    return;
  }
  A2A_FUZZ_CHECK(doc.is_object() && m->raw == doc, "parse_message accepted '" + show(body) + "'");
  if (m->kind == Kind::kResponse) A2A_FUZZ_CHECK(doc.contains("result") && !doc.contains("error"), show(body));
  if (m->kind == Kind::kError) {
    A2A_FUZZ_CHECK(m->error.is_object() && m->error.contains("code") && m->error.at("code").is_number_integer(),
                   show(body));
  }
  if (m->kind != Kind::kNotification) A2A_FUZZ_CHECK(m->has_id && is_valid_id(m->id), show(body));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  // Inputs are capped well below the depth limit's reach of the reference
  // parse (-max_len), so parsing here cannot overflow the stack.
  const Json doc = parsable(body) ? Json::parse(body.begin(), body.end()) : Json(Json::value_t::discarded);
  classify(body, Strictness::kStrict, doc);
  classify(body, Strictness::kP46, doc);
  check_client_parse(body, doc);
  return 0;
}
