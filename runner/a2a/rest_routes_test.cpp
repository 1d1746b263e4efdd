#include "runner/a2a/rest_routes.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace a2a::model;

namespace {

// ---------------------------------------------------------------------------
// Every route both ways: params -> verb/path/query/body -> route -> params.

struct RouteCase {
  std::string name;
  Operation op;
  Json params;
  std::string method;
  std::string target;
  Json body;          // null when the call has no body
  Json path_params;   // what the server reads from the path
};

class RestRouteTable : public ::testing::TestWithParam<RouteCase> {};

TEST_P(RestRouteTable, ClientCallMatchesTheSpecRoute) {
  const RouteCase& c = GetParam();
  RestCall call = rest_call(c.op, c.params);
  EXPECT_EQ(call.method, c.method);
  EXPECT_EQ(call.target(), c.target);
  if (c.body.is_null()) {
    EXPECT_FALSE(call.body.has_value());
  } else {
    ASSERT_TRUE(call.body.has_value());
    EXPECT_EQ(*call.body, c.body);
  }
}

TEST_P(RestRouteTable, ServerMatchesTheRouteBack) {
  const RouteCase& c = GetParam();
  RestCall call = rest_call(c.op, c.params);
  auto m = match_rest_route(call.method, call.path);
  ASSERT_TRUE(std::holds_alternative<RestRoute>(m)) << std::get<RestRouteError>(m).message;
  EXPECT_EQ(std::get<RestRoute>(m).op, c.op);
  EXPECT_EQ(std::get<RestRoute>(m).path_params, c.path_params);
}

const Json kMsg = {{"messageId", "m-1"}, {"role", "ROLE_USER"}, {"parts", Json::array({{{"text", "hi"}}})}};

INSTANTIATE_TEST_SUITE_P(
    Routes, RestRouteTable,
    ::testing::Values(
        RouteCase{"SendMessage", Operation::kSendMessage, {{"message", kMsg}}, "POST", "/message:send",
                  {{"message", kMsg}}, Json::object()},
        RouteCase{"SendMessageTenant", Operation::kSendMessage, {{"tenant", "acme"}, {"message", kMsg}}, "POST",
                  "/acme/message:send", {{"message", kMsg}}, {{"tenant", "acme"}}},
        RouteCase{"SendStreamingMessage", Operation::kSendStreamingMessage, {{"message", kMsg}}, "POST",
                  "/message:stream", {{"message", kMsg}}, Json::object()},
        RouteCase{"GetTask", Operation::kGetTask, {{"id", "t-1"}, {"historyLength", 5}}, "GET",
                  "/tasks/t-1?historyLength=5", nullptr, {{"id", "t-1"}}},
        RouteCase{"GetTaskTenant", Operation::kGetTask, {{"id", "t-1"}, {"tenant", "a b"}}, "GET",
                  "/a%20b/tasks/t-1", nullptr, {{"id", "t-1"}, {"tenant", "a b"}}},
        RouteCase{"GetTaskColonInId", Operation::kGetTask, {{"id", "a:b/c"}}, "GET", "/tasks/a%3Ab%2Fc", nullptr,
                  {{"id", "a:b/c"}}},
        RouteCase{"ListTasks", Operation::kListTasks,
                  {{"contextId", "c-1"}, {"pageSize", 20}, {"includeArtifacts", true}}, "GET",
                  "/tasks?contextId=c-1&includeArtifacts=true&pageSize=20", nullptr, Json::object()},
        RouteCase{"CancelTask", Operation::kCancelTask, {{"id", "t-1"}}, "POST", "/tasks/t-1:cancel", Json::object(),
                  {{"id", "t-1"}}},
        RouteCase{"CancelTaskMetadata", Operation::kCancelTask, {{"id", "t:1"}, {"metadata", {{"k", 1}}}}, "POST",
                  "/tasks/t%3A1:cancel", {{"metadata", {{"k", 1}}}}, {{"id", "t:1"}}},
        RouteCase{"SubscribeToTask", Operation::kSubscribeToTask, {{"id", "t-1"}}, "POST", "/tasks/t-1:subscribe",
                  Json::object(), {{"id", "t-1"}}},
        RouteCase{"CreatePushConfig", Operation::kCreatePushConfig,
                  {{"taskId", "t-1"}, {"url", "http://h/x"}, {"token", "tok"}}, "POST",
                  "/tasks/t-1/pushNotificationConfigs", {{"url", "http://h/x"}, {"token", "tok"}},
                  {{"taskId", "t-1"}}},
        RouteCase{"GetPushConfig", Operation::kGetPushConfig, {{"taskId", "t-1"}, {"id", "c-1"}}, "GET",
                  "/tasks/t-1/pushNotificationConfigs/c-1", nullptr, {{"taskId", "t-1"}, {"id", "c-1"}}},
        RouteCase{"ListPushConfigs", Operation::kListPushConfigs, {{"taskId", "t-1"}, {"pageSize", 2}}, "GET",
                  "/tasks/t-1/pushNotificationConfigs?pageSize=2", nullptr, {{"taskId", "t-1"}}},
        RouteCase{"DeletePushConfig", Operation::kDeletePushConfig, {{"taskId", "t-1"}, {"id", "c 1"}}, "DELETE",
                  "/tasks/t-1/pushNotificationConfigs/c%201", nullptr, {{"taskId", "t-1"}, {"id", "c 1"}}},
        RouteCase{"DeletePushConfigTenant", Operation::kDeletePushConfig,
                  {{"tenant", "t"}, {"taskId", "t-1"}, {"id", "c"}}, "DELETE",
                  "/t/tasks/t-1/pushNotificationConfigs/c", nullptr, {{"taskId", "t-1"}, {"id", "c"}, {"tenant", "t"}}},
        RouteCase{"GetExtendedAgentCard", Operation::kGetExtendedAgentCard, Json::object(), "GET",
                  "/extendedAgentCard", nullptr, Json::object()},
        RouteCase{"EmptyTenantOmitted", Operation::kGetExtendedAgentCard, {{"tenant", ""}}, "GET",
                  "/extendedAgentCard", nullptr, Json::object()}),
    [](const ::testing::TestParamInfo<RouteCase>& i) { return i.param.name; });

// ---------------------------------------------------------------------------
// Server side: matching raw paths.

struct MatchCase {
  std::string name;
  std::string method;
  std::string path;
  int status;              // 0 = a route
  Operation op;            // when a route
  Json path_params;        // when a route
  std::string allow;       // when 405
};

class RestRouteMatch : public ::testing::TestWithParam<MatchCase> {};

TEST_P(RestRouteMatch, GivesTheRouteOrTheRightError) {
  const MatchCase& c = GetParam();
  auto m = match_rest_route(c.method, c.path);
  if (c.status == 0) {
    ASSERT_TRUE(std::holds_alternative<RestRoute>(m)) << std::get<RestRouteError>(m).message;
    EXPECT_EQ(std::get<RestRoute>(m).op, c.op);
    EXPECT_EQ(std::get<RestRoute>(m).path_params, c.path_params);
  } else {
    ASSERT_TRUE(std::holds_alternative<RestRouteError>(m));
    const auto& e = std::get<RestRouteError>(m);
    EXPECT_EQ(e.status, c.status) << e.message;
    EXPECT_EQ(e.allow, c.allow);
    EXPECT_FALSE(e.message.empty());
  }
}

const Operation kAny = Operation::kSendMessage;

INSTANTIATE_TEST_SUITE_P(
    Paths, RestRouteMatch,
    ::testing::Values(
        MatchCase{"SubscribeByGet", "GET", "/tasks/t-1:subscribe", 0, Operation::kSubscribeToTask, {{"id", "t-1"}}, ""},
        MatchCase{"TenantListTasks", "GET", "/acme/tasks", 0, Operation::kListTasks, {{"tenant", "acme"}}, ""},
        MatchCase{"TaskIdNamedTasks", "GET", "/tasks/tasks", 0, Operation::kGetTask, {{"id", "tasks"}}, ""},
        MatchCase{"TenantGetTask", "GET", "/acme/tasks/x", 0, Operation::kGetTask,
                  {{"id", "x"}, {"tenant", "acme"}}, ""},
        MatchCase{"EncodedTenant", "POST", "/a%2Fb/message:send", 0, Operation::kSendMessage, {{"tenant", "a/b"}}, ""},
        MatchCase{"EncodedColonCancel", "POST", "/tasks/a%3acancel:cancel", 0, Operation::kCancelTask,
                  {{"id", "a:cancel"}}, ""},
        MatchCase{"InvalidEscapeKept", "GET", "/tasks/a%zz", 0, Operation::kGetTask, {{"id", "a%zz"}}, ""},
        MatchCase{"RawColonUnknownVerb", "GET", "/tasks/a:b", 404, kAny, nullptr, ""},
        MatchCase{"TwoRawColons", "POST", "/tasks/a:b:cancel", 404, kAny, nullptr, ""},
        MatchCase{"EmptyIdBeforeVerb", "POST", "/tasks/:cancel", 404, kAny, nullptr, ""},
        MatchCase{"TrailingSlash", "GET", "/tasks/", 404, kAny, nullptr, ""},
        MatchCase{"Root", "GET", "/", 404, kAny, nullptr, ""},
        MatchCase{"Relative", "GET", "tasks", 404, kAny, nullptr, ""},
        MatchCase{"V03Prefix", "POST", "/v1/message:send", 0, Operation::kSendMessage, {{"tenant", "v1"}}, ""},
        MatchCase{"UnknownVerbSegment", "POST", "/message:sendx", 404, kAny, nullptr, ""},
        MatchCase{"TooDeep", "GET", "/a/b/tasks/t/pushNotificationConfigs/c", 404, kAny, nullptr, ""},
        MatchCase{"SendByGet", "GET", "/message:send", 405, kAny, nullptr, "POST"},
        MatchCase{"ListByPost", "POST", "/tasks", 405, kAny, nullptr, "GET"},
        MatchCase{"GetTaskByDelete", "DELETE", "/tasks/t-1", 405, kAny, nullptr, "GET"},
        MatchCase{"ConfigsByDelete", "DELETE", "/tasks/t/pushNotificationConfigs", 405, kAny, nullptr, "GET, POST"},
        MatchCase{"ConfigByPost", "POST", "/tasks/t/pushNotificationConfigs/c", 405, kAny, nullptr, "GET, DELETE"},
        MatchCase{"SubscribeByDelete", "DELETE", "/tasks/t:subscribe", 405, kAny, nullptr, "GET, POST"},
        MatchCase{"TenantCardByPost", "POST", "/acme/extendedAgentCard", 405, kAny, nullptr, "GET"},
        MatchCase{"LowercaseVerb", "get", "/tasks", 405, kAny, nullptr, "GET"}),
    [](const ::testing::TestParamInfo<MatchCase>& i) { return i.param.name; });

// ---------------------------------------------------------------------------
// Query strings.

TEST(RestQuery, TypesListTasksParameters) {
  auto q = parse_rest_query(Operation::kListTasks,
                            "contextId=c%2D1&status=TASK_STATE_WORKING&pageSize=20&historyLength=0&"
                            "includeArtifacts=true&statusTimestampAfter=2026-01-01T00%3A00%3A00Z&pageToken=a%2Bb");
  ASSERT_TRUE(std::holds_alternative<Json>(q)) << std::get<std::string>(q);
  EXPECT_EQ(std::get<Json>(q), (Json{{"contextId", "c-1"},
                                     {"status", "TASK_STATE_WORKING"},
                                     {"pageSize", 20},
                                     {"historyLength", 0},
                                     {"includeArtifacts", true},
                                     {"statusTimestampAfter", "2026-01-01T00:00:00Z"},
                                     {"pageToken", "a+b"}}));
}

TEST(RestQuery, AcceptsSnakeCaseNamesAndDropsTheVersionParameter) {
  auto q = parse_rest_query(Operation::kListTasks, "page_size=3&A2A-Version=1.0&&include_artifacts=FALSE");
  ASSERT_TRUE(std::holds_alternative<Json>(q)) << std::get<std::string>(q);
  EXPECT_EQ(std::get<Json>(q), (Json{{"pageSize", 3}, {"includeArtifacts", false}}));
}

TEST(RestQuery, EmptyQueryIsAnEmptyObject) {
  auto q = parse_rest_query(Operation::kGetTask, "");
  ASSERT_TRUE(std::holds_alternative<Json>(q));
  EXPECT_EQ(std::get<Json>(q), Json::object());
}

TEST(RestQuery, PlusIsALiteralPlus) {
  auto q = parse_rest_query(Operation::kListTasks, "pageToken=a+b");
  ASSERT_TRUE(std::holds_alternative<Json>(q));
  EXPECT_EQ(std::get<Json>(q)["pageToken"], "a+b");
}

TEST(RestQuery, NumbersOnlyWhereTheFieldIsNumeric) {
  auto q = parse_rest_query(Operation::kGetPushConfig, "pageSize=x");
  ASSERT_TRUE(std::holds_alternative<Json>(q)) << "GetPushConfig has no pageSize field to type";
  EXPECT_EQ(std::get<Json>(q)["pageSize"], "x");
}

struct QueryError {
  std::string name;
  Operation op;
  std::string query;
  std::string names;  // the error names this parameter
};

class RestQueryErrors : public ::testing::TestWithParam<QueryError> {};

TEST_P(RestQueryErrors, NameTheParameter) {
  const QueryError& c = GetParam();
  auto q = parse_rest_query(c.op, c.query);
  ASSERT_TRUE(std::holds_alternative<std::string>(q)) << std::get<Json>(q).dump();
  EXPECT_NE(std::get<std::string>(q).find(c.names), std::string::npos) << std::get<std::string>(q);
}

INSTANTIATE_TEST_SUITE_P(
    Queries, RestQueryErrors,
    ::testing::Values(QueryError{"NotAnInteger", Operation::kListTasks, "pageSize=ten", "pageSize"},
                      QueryError{"EmptyInteger", Operation::kGetTask, "historyLength=", "historyLength"},
                      QueryError{"TrailingJunk", Operation::kGetTask, "historyLength=5x", "historyLength"},
                      QueryError{"OutOfRange", Operation::kListTasks, "pageSize=99999999999", "pageSize"},
                      QueryError{"NotABool", Operation::kListTasks, "includeArtifacts=yes", "includeArtifacts"},
                      QueryError{"Repeated", Operation::kListTasks, "contextId=a&contextId=b", "contextId"},
                      QueryError{"NoName", Operation::kListTasks, "=x", "without a name"},
                      QueryError{"PushPageSize", Operation::kListPushConfigs, "pageSize=-", "pageSize"}),
    [](const ::testing::TestParamInfo<QueryError>& i) { return i.param.name; });

TEST(RestCallQuery, EncodesReservedCharactersAndRepeatsArrays) {
  RestCall call = rest_call(Operation::kListTasks, {{"contextId", "a&b=c"}, {"status", Json::array({"X", "Y"})}});
  EXPECT_EQ(call.target(), "/tasks?contextId=a%26b%3Dc&status=X&status=Y");
  auto back = parse_rest_query(Operation::kListTasks, call.target().substr(call.path.size() + 1));
  ASSERT_TRUE(std::holds_alternative<std::string>(back)) << "status is not repeated in 1.0";
}

TEST(RestCallQuery, RoundTripsScalarsThroughTheParser) {
  Json params = {{"contextId", "c 1/2"}, {"pageSize", 7}, {"includeArtifacts", false}, {"pageToken", "x+y=="}};
  RestCall call = rest_call(Operation::kListTasks, params);
  auto back = parse_rest_query(Operation::kListTasks, call.target().substr(call.path.size() + 1));
  ASSERT_TRUE(std::holds_alternative<Json>(back)) << std::get<std::string>(back);
  EXPECT_EQ(std::get<Json>(back), params);
}

}  // namespace
