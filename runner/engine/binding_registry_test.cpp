// The registry as the CLI fills it: every binding is there under its key,
// a card interface finds its binding by protocolBinding and version, and the
// engine dispatches an abstract operation through it. The other engine tests
// (discovery, applicability) read the same registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>

#include "runner/engine/binding_registry.hpp"
#include "runner/engine/call_log.hpp"
#include "runner/engine/operations.hpp"

namespace a2a::engine {
namespace {

[[maybe_unused]] const bool registered = (register_bindings(), true);

bool has(const std::vector<std::string>& keys, const std::string& k) {
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

TEST(BindingRegistry, EveryBuiltInBindingIsRegistered) {
  auto keys = registered_bindings();
  for (const char* k : {"stdio", "jsonrpc", "rest", "jsonrpc@0.3", "rest@0.3", "loopback"})
    EXPECT_TRUE(has(keys, k)) << k;
  for (const auto& k : keys) {
    const auto* b = find_binding(k);
    ASSERT_NE(b, nullptr) << k;
    EXPECT_TRUE(b->call) << k << " has no call";
    EXPECT_TRUE(b->check_url) << k << " has no check_url";
    EXPECT_FALSE(b->title.empty()) << k;
  }
}

TEST(BindingRegistry, CardInterfacesFindTheirBindingByNameAndVersion) {
  ASSERT_NE(find_binding_by_card_name("JSONRPC", "1"), nullptr);
  EXPECT_EQ(find_binding_by_card_name("JSONRPC", "1")->key, "jsonrpc");
  EXPECT_EQ(find_binding_by_card_name("JSONRPC", "0.3")->key, "jsonrpc@0.3");
  EXPECT_EQ(find_binding_by_card_name("HTTP+JSON", "1")->key, "rest");
  EXPECT_EQ(find_binding_by_card_name("HTTP+JSON", "0.3")->key, "rest@0.3");
  EXPECT_EQ(find_binding_by_card_name("NOPE", "1"), nullptr);
  // stdio is not an interface a card lists.
  EXPECT_EQ(find_binding_by_card_name("", "1"), nullptr);
}

TEST(BindingRegistry, OnlyTheHttpBindingsAreOverHttp) {
  for (const char* k : {"jsonrpc", "rest", "jsonrpc@0.3", "rest@0.3"}) EXPECT_TRUE(find_binding(k)->over_http) << k;
  for (const char* k : {"stdio", "loopback"}) EXPECT_FALSE(find_binding(k)->over_http) << k;
}

TEST(BindingRegistry, ATargetWithoutARegisteredBindingIsNoResponseSayingSo) {
  RunConfig c;
  BindingTarget t{"carrier-pigeon", "http://127.0.0.1:1", "", "1.0"};
  Session s;
  s.config = &c;
  s.target = &t;
  OpResult r = call_operation(s, "get_task", {{"id", "t"}}, core::Deadline::after(core::Millis(100)));
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("this build has no carrier-pigeon binding"), std::string::npos) << r.problem;
  EXPECT_NE(r.problem.find("jsonrpc"), std::string::npos) << r.problem;
}

TEST(BindingRegistry, StdioWithoutAnAgentProcessSaysSo) {
  RunConfig c;
  Session s;
  s.config = &c;
  OpResult r = call_operation(s, "get_task", {{"id", "t"}}, core::Deadline::after(core::Millis(100)));
  EXPECT_EQ(r.status, OpResult::Status::kNoResponse);
  EXPECT_NE(r.problem.find("needs --agent"), std::string::npos) << r.problem;
}

// `run` (Session::retry_shed): a decline of the "try again later" kinds is
// retried at most twice, each attempt recorded; off, one call (load).
std::atomic<int> g_shed_double_calls{0};
std::atomic<int> g_shed_double_declines{0};  // how many calls, from the first, get HTTP 503

OpResult shed_double_call(Session&, const std::string&, const Json&, core::Deadline) {
  OpResult r;
  r.binding = "shed-double";
  if (g_shed_double_calls++ < g_shed_double_declines) {
    r.status = OpResult::Status::kError;
    r.http_status = 503;
    r.error_status = 503;
    r.error = Json{{"code", 503}, {"status", "UNAVAILABLE"}, {"message", "busy"}};
  } else {
    r.status = OpResult::Status::kResult;
    r.result = Json{{"id", "t"}};
  }
  return r;
}

struct ShedDoubleRun {
  OpResult r;
  int calls = 0;
  size_t recorded = 0;
  long long ms = 0;
};

ShedDoubleRun call_shed_double(int declines, bool retry, int within_ms = 5000) {
  static const bool once = [] {
    OperationBinding b;
    b.key = "shed-double";
    b.card_name = "SHED-DOUBLE";
    b.title = "a double that declines";
    b.check_url = [](const std::string&) { return std::string(); };
    b.call = shed_double_call;
    register_binding(b);
    return true;
  }();
  (void)once;
  g_shed_double_calls = 0;
  g_shed_double_declines = declines;
  RunConfig c;
  c.call_log = std::make_shared<CallLog>();
  scenario::Test t;
  t.id = "SHED-UNIT";
  BindingTarget bt{"shed-double", "http://127.0.0.1:1", "", "1.0"};
  Session s;
  s.config = &c;
  s.test = &t;
  s.target = &bt;
  s.retry_shed = retry;
  auto t0 = std::chrono::steady_clock::now();
  ShedDoubleRun out;
  out.r = call_operation(s, "get_task", {{"id", "t"}}, core::Deadline::after(core::Millis(within_ms)));
  out.ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  out.calls = g_shed_double_calls;
  out.recorded = c.call_log->calls("SHED-UNIT", bt.key()).size();
  return out;
}

TEST(ShedRetry, OneDeclineIsRetriedAfter100msAndEveryAttemptIsRecorded) {
  auto d = call_shed_double(1, true);
  EXPECT_EQ(d.r.status, OpResult::Status::kResult);
  EXPECT_EQ(d.r.shed_answers, 0);
  EXPECT_EQ(d.calls, 2);
  EXPECT_EQ(d.recorded, 2u);
  EXPECT_GE(d.ms, 100);
}

TEST(ShedRetry, AtMostTwoRetriesThenTheDeclineIsCounted) {
  auto d = call_shed_double(10, true);
  EXPECT_EQ(d.r.status, OpResult::Status::kError);
  EXPECT_EQ(d.r.shed_answers, 3);
  EXPECT_EQ(d.calls, 3);
  EXPECT_EQ(d.recorded, 3u);
  EXPECT_GE(d.ms, 500);
}

TEST(ShedRetry, NoRetryWithoutRetryShedOrPastTheDeadline) {
  auto load = call_shed_double(10, false);
  EXPECT_EQ(load.calls, 1);
  EXPECT_EQ(load.r.shed_answers, 0);
  auto tight = call_shed_double(10, true, 250);  // 100 ms fits, then 400 ms does not
  EXPECT_EQ(tight.calls, 2);
  EXPECT_EQ(tight.r.shed_answers, 2);
  EXPECT_LT(tight.ms, 250);
}

}  // namespace
}  // namespace a2a::engine
