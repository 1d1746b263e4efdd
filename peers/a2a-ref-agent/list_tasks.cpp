// ListTasks (a2a-protocol.md §3.10, §4.6.4): filters, newest status first,
// keyset pagination. The cursor encodes the sort key (status time, status
// sequence) of the last task on the page, so walking the pages yields no
// duplicates and no gaps among tasks whose status does not change meanwhile;
// a task whose status changes moves to the front, as the sort order says.
#include <algorithm>
#include <charconv>
#include <tuple>

#include "peers/a2a-ref-agent/base64.hpp"
#include "peers/a2a-ref-agent/core_state.hpp"
#include "peers/a2a-ref-agent/params.hpp"

namespace a2a::agent {
namespace {

constexpr long long kMaxPageSize = 100;
constexpr std::string_view kCursorPrefix = "v1:";

struct Key {
  long long ms = 0;
  uint64_t seq = 0;
  bool operator<(const Key& o) const { return std::tie(ms, seq) < std::tie(o.ms, o.seq); }
};

struct ListRequest {
  std::optional<std::string> context_id;
  std::optional<model::TaskState> status;
  long long page_size = 0;  // the request's, else the choices' default
  std::optional<Key> after;  // from pageToken: only keys below this one
  std::optional<long long> since_ms;
  bool include_artifacts = false;
  TaskView view;
};

std::string encode_cursor(const Key& k) {
  return base64url_encode(std::string(kCursorPrefix) + std::to_string(k.ms) + ":" + std::to_string(k.seq));
}

std::optional<Key> decode_cursor(std::string_view token) {
  auto raw = base64_decode(token);
  if (!raw || !std::string_view(*raw).starts_with(kCursorPrefix)) return std::nullopt;
  std::string_view rest = std::string_view(*raw).substr(kCursorPrefix.size());
  auto colon = rest.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  Key k;
  auto a = std::from_chars(rest.data(), rest.data() + colon, k.ms);
  auto b = std::from_chars(rest.data() + colon + 1, rest.data() + rest.size(), k.seq);
  if (a.ec != std::errc() || a.ptr != rest.data() + colon) return std::nullopt;
  if (b.ec != std::errc() || b.ptr != rest.data() + rest.size() || colon + 1 == rest.size()) return std::nullopt;
  return k;
}

std::optional<CallError> parse_status(const Json& params, ListRequest& out) {
  const Json* s = field(params, "status");
  if (!s) return std::nullopt;
  auto state = model::task_state_from_json(*s);
  if (!state) return invalid_params("status", "'" + s->dump() + "' is not a TaskState");
  if (*state != model::TaskState::kUnspecified) out.status = state;  // UNSPECIFIED = no filter
  return std::nullopt;
}

std::optional<CallError> parse_paging(const Json& params, ListRequest& out) {
  std::optional<long long> size;
  if (auto e = get_int(params, "pageSize", size)) return e;
  if (size && (*size < 1 || *size > kMaxPageSize)) {
    return invalid_params("pageSize", "must be between 1 and 100, got " + std::to_string(*size));
  }
  if (size) out.page_size = *size;
  std::optional<std::string> token;
  if (auto e = get_string(params, "pageToken", token)) return e;
  if (token && !token->empty()) {
    out.after = decode_cursor(*token);
    if (!out.after) return invalid_params("pageToken", "'" + *token + "' is not a token this agent issued");
  }
  return std::nullopt;
}

std::optional<CallError> parse_list(const Json& params, ListRequest& out) {
  if (auto e = require_object(params, true)) return e;
  if (auto e = get_string(params, "contextId", out.context_id)) return e;
  if (auto e = parse_status(params, out)) return e;
  if (auto e = parse_paging(params, out)) return e;
  if (auto e = get_history_length(params, out.view.history_length)) return e;
  std::optional<std::string> since;
  if (auto e = get_string(params, "statusTimestampAfter", since)) return e;
  if (since) {
    out.since_ms = model::parse_timestamp_ms(*since);
    if (!out.since_ms) return invalid_params("statusTimestampAfter", "'" + *since + "' is not an RFC 3339 timestamp");
  }
  std::optional<bool> artifacts;
  if (auto e = get_bool(params, "includeArtifacts", artifacts)) return e;
  out.include_artifacts = artifacts.value_or(false);
  return std::nullopt;
}

bool matches(const TaskRecord& r, const ListRequest& q) {
  if (q.context_id && r.context_id != *q.context_id) return false;
  if (q.status && r.state != *q.status) return false;
  if (q.since_ms && r.status_ms < *q.since_ms) return false;
  return true;
}

}  // namespace

CallResult list_tasks(CoreState& st, const Json& params) {
  ListRequest q;
  q.page_size = st.config.choices->default_page_size();
  if (auto e = parse_list(params, q)) return *e;
  if (st.fault(Fault::kSemIgnoreHistoryLength)) q.view.history_length.reset();
  q.view.artifacts = q.include_artifacts || st.fault(Fault::kSemListIncludesArtifacts);

  auto lk = st.store.lock_all();  // every shard: one consistent snapshot
  std::vector<std::pair<Key, std::shared_ptr<TaskRecord>>> hits;
  for (auto& r : st.store.all()) {
    if (matches(*r, q)) hits.emplace_back(Key{r->status_ms, r->status_seq}, r);
  }
  std::sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return b.first < a.first; });
  auto begin = hits.begin();
  if (q.after) begin = std::find_if(hits.begin(), hits.end(), [&](const auto& h) { return h.first < *q.after; });
  size_t left = static_cast<size_t>(hits.end() - begin);
  size_t take = st.fault(Fault::kSemListIgnoresPageSize) ? left : std::min(left, static_cast<size_t>(q.page_size));

  Json tasks = Json::array();
  for (auto it = begin; it != begin + static_cast<std::ptrdiff_t>(take); ++it) {
    tasks.push_back(task_json(*it->second, q.view));
  }
  std::string next = take < left ? encode_cursor((begin + static_cast<std::ptrdiff_t>(take) - 1)->first) : "";
  Json result = {{"tasks", std::move(tasks)},
                 {"pageSize", q.page_size},
                 {"totalSize", static_cast<long long>(hits.size())}};
  if (!next.empty() || !st.fault(Fault::kSemListNoNextToken)) result["nextPageToken"] = next;
  lk.unlock();
  apply_output_faults(st.config.faults, result);
  return result;
}

}  // namespace a2a::agent
