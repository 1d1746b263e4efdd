#include "runner/jsonrpc/message.hpp"
#include "runner/jsonrpc/dump.hpp"

#include <charconv>
#include <cstddef>
#include <utility>

namespace a2a::jsonrpc {
namespace {

// nlohmann::json parses iteratively, but dump(), comparisons and every caller
// that walks a document recurse. Bounding the nesting before parsing keeps a
// 64 MiB body of "[[[[..." from overflowing the stack (RFC 8259 §9 allows a
// parser to limit depth); such a body is answered like any unparsable one.
constexpr std::size_t kMaxDepth = 512;
// The width needs a bound too: a parsed value costs 16 bytes in an array and
// about 100 as an object member, so a 64 MiB body of "[0,0,0,..." would take
// 0.5 to 1 GiB once parsed. A million values is far above any A2A message we
// exchange (docs/runner.md, "Hostile agents") and caps a document near 100 MiB.
constexpr std::size_t kMaxValues = 1'000'000;

// Why a body is refused before parsing, or empty. One pass, strings skipped.
std::string shape_refusal(std::string_view s) {
  std::size_t depth = 0;
  std::size_t values = 1;  // separators and openers each start one more
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return "nesting deeper than " + std::to_string(kMaxDepth) + " levels";
      ++values;
    } else if (c == ',') {
      if (++values > kMaxValues) return "more than " + std::to_string(kMaxValues) + " values";
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return {};
}

// nlohmann quotes the whole token it was reading ("last read: '...'"), which
// for a 64 MiB string would echo 64 MiB back in the reply; keep reasons short.
constexpr std::size_t kMaxReason = 200;

// Text from the body in a reason: at most kMaxReason bytes, then "...".
std::string cut_reason(std::string_view s) {
  if (s.size() <= kMaxReason) return std::string(s);
  return std::string(s.substr(0, kMaxReason)) + "...";  // a cut UTF-8 sequence is replaced by dump()
}

// "[json.exception.parse_error.101] parse error at ..." -> "parse error at ...".
std::string without_exception_tag(const char* what) {
  std::string_view s(what);
  if (!s.empty() && s.front() == '[') {
    auto end = s.find("] ");
    if (end != std::string_view::npos) s.remove_prefix(end + 2);
  }
  return cut_reason(s);
}

// Parses one body. Invalid UTF-8 inside strings, an empty body, trailing
// garbage and comments are all parse errors; nothing escapes as an exception.
std::optional<Json> parse_document(std::string_view body, std::string& why) {
  if (std::string refusal = shape_refusal(body); !refusal.empty()) {
    why = std::move(refusal);
    return std::nullopt;
  }
  try {
    return Json::parse(body.begin(), body.end());
  } catch (const Json::exception& e) {
    why = without_exception_tag(e.what());
    return std::nullopt;
  }
}

// A value from the body quoted in a reason, cut like parse errors are: a
// 4 KiB "jsonrpc" string must not come back whole in the reply.
std::string reason_quote(const Json& j) { return cut_reason(dump(j)); }

// Type words for reasons; "fractional number" makes the J11 case readable.
std::string describe(const Json& j) {
  if (j.is_number_float()) return "fractional number";
  if (j.is_number()) return "integer";
  return j.type_name();
}

// `take_params`: params are moved out of the document (and their member
// erased from raw) rather than copied: a server dispatches the params, and
// the copy was a tenth of a small request's allocations. So the Message of
// classify_incoming has a raw without "params" (no reader looks there).
Message to_message(Kind kind, Json doc, bool take_params = false) {
  Message m;
  m.kind = kind;
  if (auto it = doc.find("id"); it != doc.end()) {
    m.has_id = true;
    m.id = *it;
  }
  if (auto it = doc.find("method"); it != doc.end() && it->is_string()) m.method = it->get<std::string>();
  if (auto it = doc.find("params"); it != doc.end()) {
    m.has_params = true;
    if (take_params) {
      m.params = std::move(*it);
      doc.erase(it);
    } else {
      m.params = *it;
    }
  }
  if (auto it = doc.find("result"); it != doc.end()) m.result = *it;
  if (auto it = doc.find("error"); it != doc.end()) m.error = *it;
  m.raw = std::move(doc);
  return m;
}

Incoming answer(int code, const Json& id, std::string_view label, std::string reason) {
  Incoming in;
  in.reply = make_error(id, code, std::string(label) + reason);
  in.reason = std::move(reason);
  return in;
}

Incoming dispatch(Kind kind, Json doc) {
  Incoming in;
  in.message = to_message(kind, std::move(doc), true);
  return in;
}

// The envelope members every request and notification needs. The version is
// checked only in strict mode: PR #46 processes any "jsonrpc" value (J5).
std::string envelope_problem(const Json& doc, bool check_version) {
  auto version = doc.find("jsonrpc");
  if (version == doc.end()) return "missing \"jsonrpc\" member";
  if (check_version && *version != "2.0") return "\"jsonrpc\" must be \"2.0\", got " + reason_quote(*version);
  auto method = doc.find("method");
  if (method == doc.end()) return "missing \"method\" member";
  if (!method->is_string()) return "\"method\" must be a string, got " + describe(*method);
  return {};
}

// JSON-RPC 2.0 with the §9 point 6 profile: -32700 only for unparsable text,
// -32600 (id echoed when readable) for JSON that is not a request, silence
// for notifications.
Incoming classify_strict(Json doc) {
  constexpr std::string_view kLabel = "Invalid Request: ";
  if (doc.is_array()) {
    // J6, J7: one error for the whole batch, never a partial batch response.
    return answer(kInvalidRequest, nullptr, kLabel,
                  doc.empty() ? "empty batch; batch requests are not supported"
                              : "batch requests are not supported");
  }
  if (!doc.is_object()) {
    return answer(kInvalidRequest, nullptr, kLabel, "body is a JSON " + describe(doc) + ", not an object");
  }
  const auto id_it = doc.find("id");
  const bool has_id = id_it != doc.end();
  if (has_id && !is_valid_id(*id_it)) {
    return answer(kInvalidRequest, nullptr, kLabel,
                  "\"id\" must be a string, an integer or null, got " + describe(*id_it));
  }
  const Json id = has_id ? *id_it : Json(nullptr);
  if (auto problem = envelope_problem(doc, true); !problem.empty()) {
    return answer(kInvalidRequest, id, kLabel, std::move(problem));
  }
  if (auto params = doc.find("params"); params != doc.end() && !params->is_object() && !params->is_array()) {
    std::string reason = "\"params\" must be an object or an array, got " + describe(*params);
    if (!has_id) {
      // A notification is never answered, not even for its params; it is dropped.
      Incoming in;
      in.reason = "notification dropped: " + reason;
      return in;
    }
    return answer(kInvalidParams, id, "Invalid params: ", std::move(reason));
  }
  return dispatch(has_id ? Kind::kRequest : Kind::kNotification, std::move(doc));
}

// a2a-rs PR #46 (stdio-binding.md §3.7): everything that does not decode as a
// request, notifications included, gets -32700 with id null; params are left
// to the method's decoder (-32602 from the dispatcher).
Incoming classify_p46(Json doc) {
  constexpr std::string_view kLabel = "invalid request: ";
  if (doc.is_array()) return answer(kParseError, nullptr, kLabel, "batch requests are not supported");
  if (!doc.is_object()) return answer(kParseError, nullptr, kLabel, "body is a JSON " + describe(doc) + ", not an object");
  if (auto problem = envelope_problem(doc, false); !problem.empty()) {
    return answer(kParseError, nullptr, kLabel, std::move(problem));
  }
  auto id = doc.find("id");
  if (id == doc.end()) return answer(kParseError, nullptr, kLabel, "missing \"id\" member (notifications are not accepted)");
  if (!is_valid_id(*id)) {
    return answer(kParseError, nullptr, kLabel, "\"id\" must be a string, an integer or null, got " + describe(*id));
  }
  return dispatch(Kind::kRequest, std::move(doc));
}

// The client-side shape checks of parse_message; "" when the object is fine.
std::string response_problem(const Json& doc, bool has_result, bool has_error) {
  auto id = doc.find("id");
  if (id == doc.end()) return "response without \"id\" member";
  if (!is_valid_id(*id)) return "response \"id\" must be a string, an integer or null, got " + describe(*id);
  if (has_result && has_error) return "response has both \"result\" and \"error\"";
  if (!has_error) return {};
  const Json& err = doc.at("error");
  if (!err.is_object()) return "\"error\" must be an object, got " + describe(err);
  auto code = err.find("code");
  if (code == err.end() || !code->is_number_integer()) {  // signed or unsigned, never float
    return "\"error.code\" must be an integer";
  }
  auto message = err.find("message");
  if (message == err.end() || !message->is_string()) return "\"error.message\" must be a string";
  return {};
}

std::optional<Message> fail(std::string* why, std::string reason) {
  if (why) *why = std::move(reason);
  return std::nullopt;
}

}  // namespace

bool is_valid_id(const Json& id) {
  // Any number_float is refused, 1.0 included: the id must be echoed byte for
  // byte, floats do not round-trip exactly (1e400, 0.1000000000000000055),
  // JSON-RPC says ids SHOULD NOT have fractions, and PR #46 rejects them too
  // (J11), so both profiles agree. Integers beyond uint64/int64 parse as floats
  // and are refused for the same reason.
  return id.is_string() || id.is_number_integer() || id.is_null();
}

Incoming classify_incoming(std::string_view body, Strictness strictness) {
  std::string why;
  auto doc = parse_document(body, why);
  if (!doc) {
    return answer(kParseError, nullptr, strictness == Strictness::kP46 ? "invalid json: " : "Parse error: ",
                  std::move(why));
  }
  return strictness == Strictness::kP46 ? classify_p46(std::move(*doc)) : classify_strict(std::move(*doc));
}

std::optional<Message> parse_message(std::string_view body, std::string* why) {
  // The "jsonrpc" member is not checked: a client reads leniently, and the
  // runner grades the envelope itself from Message::raw.
  std::string parse_why;
  auto doc = parse_document(body, parse_why);
  if (!doc) return fail(why, "not JSON: " + parse_why);
  if (!doc->is_object()) return fail(why, "not a JSON-RPC message: body is a JSON " + describe(*doc));
  if (auto method = doc->find("method"); method != doc->end()) {
    if (!method->is_string()) return fail(why, "\"method\" must be a string, got " + describe(*method));
    auto id = doc->find("id");
    if (id == doc->end()) return to_message(Kind::kNotification, std::move(*doc));
    if (!is_valid_id(*id)) return fail(why, "\"id\" must be a string, an integer or null, got " + describe(*id));
    return to_message(Kind::kRequest, std::move(*doc));
  }
  const bool has_result = doc->contains("result");
  const bool has_error = doc->contains("error");
  if (!has_result && !has_error) return fail(why, "neither \"method\", \"result\" nor \"error\" present");
  if (auto problem = response_problem(*doc, has_result, has_error); !problem.empty()) return fail(why, problem);
  return to_message(has_error ? Kind::kError : Kind::kResponse, std::move(*doc));
}

std::optional<Json> parse_json(std::string_view body, std::string* why) {
  std::string parse_why;
  auto doc = parse_document(body, parse_why);
  if (!doc && why) *why = std::move(parse_why);
  return doc;
}

Json parse_json_or_discarded(std::string_view body) {
  std::string ignored;
  auto doc = parse_document(body, ignored);
  return doc ? std::move(*doc) : Json(Json::value_t::discarded);
}

Json make_request(const Json& id, std::string_view method, const Json& params) {
  Json j = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) j["params"] = params;  // absent rather than null: null is not a structured value
  return j;
}

Json make_notification(std::string_view method, const Json& params) {
  Json j = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) j["params"] = params;
  return j;
}

Json make_result(const Json& id, const Json& result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}};
}

Json make_error(const Json& id, int code, std::string_view message, const Json& data) {
  Json err = {{"code", code}, {"message", message}};
  if (!data.is_null()) err["data"] = data;
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(err)}};
}

namespace {

// A string written as it is between quotes: printable ASCII, no quote or
// backslash. Anything else (escapes, UTF-8 to check) goes to nlohmann.
bool plain_text(const std::string& s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') return false;
  }
  return true;
}

// Json::dump(-1, ' ', false, replace), byte for byte, appended to `out`.
// nlohmann's serializer escapes every string byte through its UTF-8 decoder
// (the largest single cost of a small SendMessage, docs/performance.md,
// "HTTP"); here plain strings, keys, integers and literals are written
// directly and only the rest (escapes, non-ASCII, floats, binary) is handed
// to the serializer, made once per call and only when needed. Objects are
// std::map: members come in the order dump() writes them.
class FastDump {
 public:
  explicit FastDump(std::string& out) : out_(out) {}

  void value(const Json& j) {
    switch (j.type()) {
      case Json::value_t::object: {
        out_ += '{';
        bool first = true;
        for (const auto& [k, v] : j.get_ref<const Json::object_t&>()) {
          if (!first) out_ += ',';
          first = false;
          if (plain_text(k)) {
            quoted(k);
          } else {
            serializer().dump(Json(k), false, false, 0);
          }
          out_ += ':';
          value(v);
        }
        out_ += '}';
        return;
      }
      case Json::value_t::array: {
        out_ += '[';
        bool first = true;
        for (const Json& v : j.get_ref<const Json::array_t&>()) {
          if (!first) out_ += ',';
          first = false;
          value(v);
        }
        out_ += ']';
        return;
      }
      case Json::value_t::string: {
        const auto& s = j.get_ref<const std::string&>();
        if (plain_text(s)) return quoted(s);
        break;
      }
      case Json::value_t::null: out_ += "null"; return;
      case Json::value_t::boolean: out_ += j.get<bool>() ? "true" : "false"; return;
      case Json::value_t::number_integer: return number(j.get<Json::number_integer_t>());
      case Json::value_t::number_unsigned: return number(j.get<Json::number_unsigned_t>());
      default: break;  // float, binary, discarded
    }
    serializer().dump(j, false, false, 0);
  }

 private:
  using Serializer = nlohmann::detail::serializer<Json>;

  void quoted(const std::string& s) {
    out_ += '"';
    out_ += s;
    out_ += '"';
  }
  template <class N>
  void number(N n) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, n);
    out_.append(buf, static_cast<size_t>(r.ptr - buf));
  }
  // Writes through to out_: each dump() flushes before it returns.
  Serializer& serializer() {
    if (!s_) s_.emplace(nlohmann::detail::output_adapter<char, std::string>(out_), ' ', Json::error_handler_t::replace);
    return *s_;
  }

  std::string& out_;
  std::optional<Serializer> s_;
};

}  // namespace

void dump_to(std::string& out, const Json& j) { FastDump(out).value(j); }

std::string dump(const Json& j) {
  std::string out;
  dump_to(out, j);
  return out;
}

}  // namespace a2a::jsonrpc
