#include "runner/a2a/model.hpp"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ctime>

namespace a2a::model {
namespace {

// Indexed by enum value; the values equal the a2a.proto numbers, which is what
// ProtoJSON's integer form of an enum carries.
constexpr std::array<std::string_view, 9> kTaskStateNames = {
    "TASK_STATE_UNSPECIFIED", "TASK_STATE_SUBMITTED",      "TASK_STATE_WORKING",
    "TASK_STATE_COMPLETED",   "TASK_STATE_FAILED",         "TASK_STATE_CANCELED",
    "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_REJECTED",    "TASK_STATE_AUTH_REQUIRED"};
constexpr std::array<std::string_view, 3> kRoleNames = {"ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"};

// --- timestamps --------------------------------------------------------------

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool number(int digits, int& out) {
    if (pos_ + static_cast<std::size_t>(digits) > s_.size()) return false;
    out = 0;
    for (int i = 0; i < digits; ++i) {
      if (!is_digit(s_[pos_])) return false;
      out = out * 10 + (s_[pos_++] - '0');
    }
    return true;
  }
  bool take(char a, char b = '\0') {
    if (pos_ < s_.size() && (s_[pos_] == a || (b != '\0' && s_[pos_] == b))) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool at_digit() const { return pos_ < s_.size() && is_digit(s_[pos_]); }
  char digit() { return static_cast<char>(s_[pos_++] - '0'); }
  bool done() const { return pos_ == s_.size(); }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) {
  constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[static_cast<std::size_t>(m - 1)];
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
long long days_from_civil(int y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const long long yoe = y - era * 400;
  const long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// ".f{1,9}" after the seconds, truncated to milliseconds; absent = 0.
std::optional<int> fraction_ms(Reader& r) {
  if (!r.take('.')) return 0;
  int count = 0;
  int ms = 0;
  while (r.at_digit()) {
    const int d = r.digit();
    if (count < 3) ms = ms * 10 + d;
    if (++count > 9) return std::nullopt;
  }
  if (count == 0) return std::nullopt;
  for (int i = count; i < 3; ++i) ms *= 10;
  return ms;
}

// "Z" (RFC 3339 also allows "z") or "+hh:mm" / "-hh:mm"; minutes east of UTC.
std::optional<int> offset_minutes(Reader& r) {
  if (r.take('Z', 'z')) return 0;
  int sign = 0;
  if (r.take('+')) sign = 1;
  else if (r.take('-')) sign = -1;
  int hh = 0;
  int mm = 0;
  if (sign == 0 || !r.number(2, hh) || !r.take(':') || !r.number(2, mm) || hh > 23 || mm > 59) return std::nullopt;
  return sign * (hh * 60 + mm);
}

// --- parts -------------------------------------------------------------------

bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Standard or URL-safe alphabet (not mixed), padding optional but, when
// present, it must complete a 4-character group. Trailing bits are not
// checked, as Go's and protobuf's lenient decoders do not check them either.
bool is_base64(std::string_view s) {
  std::size_t pad = 0;
  while (pad < s.size() && s[s.size() - 1 - pad] == '=') ++pad;
  if (pad > 2) return false;
  const std::string_view body = s.substr(0, s.size() - pad);
  bool standard = false;
  bool url_safe = false;
  for (char c : body) {
    if (c == '+' || c == '/') standard = true;
    else if (c == '-' || c == '_') url_safe = true;
    else if (!is_alnum(c)) return false;
  }
  if (standard && url_safe) return false;
  return pad > 0 ? s.size() % 4 == 0 : body.size() % 4 != 1;
}

std::string join(std::string_view path, std::string_view member) {
  std::string out(path);
  out += '.';
  out += member;
  return out;
}

std::string indexed(std::string_view path, std::size_t i) {
  return std::string(path) + "[" + std::to_string(i) + "]";
}

// "" when `member` is absent or has the JSON type the predicate wants.
template <class Pred>
std::string optional_member(const Json& obj, std::string_view path, const char* member, Pred ok,
                            std::string_view want) {
  auto it = obj.find(member);
  if (it == obj.end() || ok(*it)) return {};
  return join(path, member) + ": must be " + std::string(want);
}

std::string optional_string_array(const Json& obj, std::string_view path, const char* member) {
  auto it = obj.find(member);
  if (it == obj.end()) return {};
  const std::string where = join(path, member);
  if (!it->is_array()) return where + ": must be an array of strings";
  for (std::size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_string()) return indexed(where, i) + ": must be a string";
  }
  return {};
}

bool is_string(const Json& j) { return j.is_string(); }
bool is_object(const Json& j) { return j.is_object(); }

// Writes `value` under `key` unless it is ProtoJSON's default (empty string).
void put_string(Json& obj, const char* key, std::string_view value) {
  if (!value.empty()) obj[key] = value;
}

// Writes a message-typed field unless it is unset (null).
void put_object(Json& obj, const char* key, const Json& value) {
  if (!value.is_null()) obj[key] = value;
}

bool is_only_member(const Json& j, std::initializer_list<std::string_view> allowed, std::string& key) {
  if (!j.is_object() || j.size() != 1) return false;
  const auto it = j.begin();
  if (!it.value().is_object()) return false;
  for (std::string_view a : allowed) {
    if (it.key() == a) {
      key = it.key();
      return true;
    }
  }
  return false;
}

}  // namespace

std::string_view to_string(TaskState s) { return kTaskStateNames[static_cast<std::size_t>(s)]; }

std::optional<TaskState> task_state_from(std::string_view s) {
  for (std::size_t i = 0; i < kTaskStateNames.size(); ++i) {
    if (kTaskStateNames[i] == s) return static_cast<TaskState>(i);
  }
  return std::nullopt;
}

std::optional<TaskState> task_state_from_json(const Json& j) {
  if (j.is_string()) return task_state_from(j.get_ref<const std::string&>());
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (v < kTaskStateNames.size()) return static_cast<TaskState>(v);
  } else if (j.is_number_integer()) {
    const auto v = j.get<std::int64_t>();
    if (v >= 0 && v < static_cast<std::int64_t>(kTaskStateNames.size())) return static_cast<TaskState>(v);
  }
  return std::nullopt;  // floats, unknown numbers and names, other types
}

bool is_terminal(TaskState s) {
  return s == TaskState::kCompleted || s == TaskState::kFailed || s == TaskState::kCanceled ||
         s == TaskState::kRejected;
}

bool is_interrupted(TaskState s) { return s == TaskState::kInputRequired || s == TaskState::kAuthRequired; }

std::string_view to_string(Role r) { return kRoleNames[static_cast<std::size_t>(r)]; }

std::optional<Role> role_from(std::string_view s) {
  for (std::size_t i = 0; i < kRoleNames.size(); ++i) {
    if (kRoleNames[i] == s) return static_cast<Role>(i);
  }
  return std::nullopt;
}

std::string now_timestamp() {
  using namespace std::chrono;
  const auto ms = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];  // room for any int the format could print, so -Wformat-truncation stays quiet
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

std::optional<long long> parse_timestamp_ms(std::string_view s) {
  Reader r(s);
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (!(r.number(4, y) && r.take('-') && r.number(2, mo) && r.take('-') && r.number(2, d) && r.take('T', 't') &&
        r.number(2, h) && r.take(':') && r.number(2, mi) && r.take(':') && r.number(2, sec))) {
    return std::nullopt;
  }
  const auto ms = fraction_ms(r);
  if (!ms) return std::nullopt;
  const auto offset = offset_minutes(r);
  if (!offset || !r.done()) return std::nullopt;
  // Leap second 60 is refused: protobuf Timestamps are smeared, and Go's and
  // Python's parsers refuse it too.
  if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 59) {
    return std::nullopt;
  }
  const long long seconds = days_from_civil(y, mo, d) * 86400LL + h * 3600LL + mi * 60LL + sec - *offset * 60LL;
  return seconds * 1000 + *ms;
}

Json text_part(std::string_view text) { return {{"text", text}}; }

Json make_message(std::string_view role_name, std::string_view message_id, const Json& parts,
                  std::string_view context_id, std::string_view task_id) {
  Json m = Json::object();
  put_string(m, "messageId", message_id);
  put_string(m, "role", role_name);
  if (!parts.is_null() && !(parts.is_array() && parts.empty())) m["parts"] = parts;
  put_string(m, "contextId", context_id);
  put_string(m, "taskId", task_id);
  return m;
}

Json make_status(TaskState s, const Json& message) {
  Json st = Json::object();
  if (s != TaskState::kUnspecified) st["state"] = to_string(s);
  put_object(st, "message", message);
  st["timestamp"] = now_timestamp();
  return st;
}

Json make_task(std::string_view id, std::string_view context_id, const Json& status) {
  Json t = Json::object();
  put_string(t, "id", id);
  put_string(t, "contextId", context_id);
  put_object(t, "status", status);
  return t;
}

Json status_update(std::string_view task_id, std::string_view context_id, const Json& status) {
  Json ev = Json::object();
  put_string(ev, "taskId", task_id);
  put_string(ev, "contextId", context_id);
  put_object(ev, "status", status);
  return ev;
}

Json artifact_update(std::string_view task_id, std::string_view context_id, const Json& artifact, bool append,
                     bool last_chunk) {
  Json ev = Json::object();
  put_string(ev, "taskId", task_id);
  put_string(ev, "contextId", context_id);
  put_object(ev, "artifact", artifact);
  if (append) ev["append"] = true;
  if (last_chunk) ev["lastChunk"] = true;
  return ev;
}

Json wrap_task(const Json& task) { return {{"task", task}}; }
Json wrap_message(const Json& message) { return {{"message", message}}; }
Json wrap_status_update(const Json& ev) { return {{"statusUpdate", ev}}; }
Json wrap_artifact_update(const Json& ev) { return {{"artifactUpdate", ev}}; }

std::string stream_response_kind(const Json& j) {
  std::string key;
  return is_only_member(j, {"task", "message", "statusUpdate", "artifactUpdate"}, key) ? key : "";
}

std::string send_message_response_kind(const Json& j) {
  std::string key;
  return is_only_member(j, {"task", "message"}, key) ? key : "";
}

std::string validate_message(const Json& m, std::string_view path) {
  if (!m.is_object()) return std::string(path) + ": must be an object";
  auto id = m.find("messageId");
  if (id == m.end() || !id->is_string() || id->get_ref<const std::string&>().empty()) {
    return join(path, "messageId") + ": required, must be a non-empty string";
  }
  auto role = m.find("role");
  if (role == m.end() || !role->is_string() || (*role != "ROLE_USER" && *role != "ROLE_AGENT")) {
    return join(path, "role") + ": required, must be ROLE_USER or ROLE_AGENT";
  }
  auto parts = m.find("parts");
  if (parts == m.end() || !parts->is_array() || parts->empty()) {
    return join(path, "parts") + ": required, must be a non-empty array";
  }
  const std::string parts_path = join(path, "parts");
  for (std::size_t i = 0; i < parts->size(); ++i) {
    if (auto e = validate_part((*parts)[i], indexed(parts_path, i)); !e.empty()) return e;
  }
  for (const char* member : {"contextId", "taskId"}) {
    if (auto e = optional_member(m, path, member, is_string, "a string"); !e.empty()) return e;
  }
  if (auto e = optional_member(m, path, "metadata", is_object, "an object"); !e.empty()) return e;
  for (const char* member : {"extensions", "referenceTaskIds"}) {
    if (auto e = optional_string_array(m, path, member); !e.empty()) return e;
  }
  return {};
}

std::string validate_part(const Json& p, std::string_view path) {
  if (!p.is_object()) return std::string(path) + ": must be an object";
  int content = 0;
  for (const char* member : {"text", "raw", "url", "data"}) content += p.contains(member) ? 1 : 0;
  if (content != 1) return std::string(path) + ": exactly one of text, raw, url, data";
  for (const char* member : {"text", "url", "mediaType", "filename"}) {
    if (auto e = optional_member(p, path, member, is_string, "a string"); !e.empty()) return e;
  }
  if (auto raw = p.find("raw"); raw != p.end() && (!raw->is_string() || !is_base64(raw->get_ref<const std::string&>()))) {
    return join(path, "raw") + ": must be a base64 string (standard or URL-safe alphabet)";
  }
  return optional_member(p, path, "metadata", is_object, "an object");
}

}  // namespace a2a::model
