#include "peers/a2a-ref-agent/faults.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "peers/a2a-ref-agent/base64.hpp"
#include "peers/a2a-ref-agent/params.hpp"

namespace a2a::agent {
namespace {

TEST(Unit, FaultTableIsIndexedByEnumAndNamesAreUnique) {
  std::set<std::string_view> names;
  for (size_t i = 0; i < all_faults().size(); ++i) {
    const FaultInfo& f = all_faults()[i];
    EXPECT_EQ(static_cast<size_t>(f.fault), i) << f.name;
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_FALSE(f.defect.empty());
    EXPECT_FALSE(f.breaks.empty());
    EXPECT_EQ(fault_from_name(f.name), f.fault);
  }
  EXPECT_EQ(all_faults().size(), static_cast<size_t>(Fault::kCount));
  EXPECT_FALSE(fault_from_name("no-such-fault"));
}

TEST(Unit, WrongStateNameFaultRewritesEveryCompletedState) {
  Faults f;
  f.add(Fault::kSemWrongStateName);
  nlohmann::json j = {{"task", {{"status", {{"state", "TASK_STATE_COMPLETED"}}}}},
                      {"list", {{{"state", "TASK_STATE_WORKING"}}}}};
  apply_output_faults(f, j);
  EXPECT_EQ(j["task"]["status"]["state"], "completed");
  EXPECT_EQ(j["list"][0]["state"], "TASK_STATE_WORKING");
}

TEST(Unit, TimestampAsNumberAndBadStateEnumFaults) {
  nlohmann::json j = {{"task", {{"status", {{"state", "TASK_STATE_WORKING"}, {"timestamp", "1970-01-01T00:00:01.500Z"}}}}}};
  Faults epoch;
  epoch.add(Fault::kTimestampAsNumber);
  nlohmann::json a = j;
  apply_output_faults(epoch, a);
  EXPECT_EQ(a["task"]["status"]["timestamp"], 1500);
  EXPECT_EQ(a["task"]["status"]["state"], "TASK_STATE_WORKING");
  Faults numbers;
  numbers.add(Fault::kBadTaskStateEnum);
  nlohmann::json b = j;
  apply_output_faults(numbers, b);
  EXPECT_EQ(b["task"]["status"]["state"], 2);  // TASK_STATE_WORKING = 2 in a2a.proto
  EXPECT_EQ(b["task"]["status"]["timestamp"], "1970-01-01T00:00:01.500Z");
}

TEST(Unit, ErrorFaultsChangeTheNotFoundCodeAndDropData) {
  nlohmann::json e = {{"code", -32001}, {"message", "m"}, {"data", nlohmann::json::array()}};
  Faults none;
  apply_error_faults(none, e);
  EXPECT_EQ(e["code"], -32001);
  Faults f;
  f.add(Fault::kErrNotFoundCode);
  f.add(Fault::kErrNoErrorData);
  nlohmann::json e2 = {{"code", -32002}, {"message", "m"}, {"data", nlohmann::json::array()}};
  apply_error_faults(f, e);
  apply_error_faults(f, e2);
  EXPECT_EQ(e["code"], -32603);
  EXPECT_FALSE(e2.contains("data"));
}

TEST(Unit, Base64RoundTripsStandardAndUrlSafe) {
  for (std::string s : std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\xff\xfe\x00\x01", 4)}) {
    EXPECT_EQ(base64_decode(base64_encode(s)), s);
    EXPECT_EQ(base64_decode(base64url_encode(s)), s);
  }
  EXPECT_EQ(base64_encode("hello"), "aGVsbG8=");
  EXPECT_FALSE(base64_decode("a$b"));
  EXPECT_FALSE(base64_decode("abcde"));
}

TEST(Unit, ParamsAcceptCamelAndSnakeCaseAndReportTheField) {
  Json p = {{"page_size", 5}, {"historyLength", "3"}, {"flag", "yes"}};
  std::optional<long long> size, hist;
  EXPECT_FALSE(get_int(p, "pageSize", size));
  EXPECT_EQ(size, 5);
  EXPECT_FALSE(get_history_length(p, hist));
  EXPECT_EQ(hist, 3);
  std::optional<bool> flag;
  auto err = get_bool(p, "flag", flag);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->code, -32602);
  EXPECT_EQ(err->data[0]["fieldViolations"][0]["field"], "flag");
  Json neg = {{"historyLength", -1}};
  EXPECT_TRUE(get_history_length(neg, hist));
  Json big = {{"pageSize", 5000000000LL}};
  EXPECT_TRUE(get_int(big, "pageSize", size));
}

}  // namespace
}  // namespace a2a::agent
