// field(): a member by its camelCase name or, when absent, its proto
// snake_case spelling (docs/ref-agent.md); null members count as absent.
#include <gtest/gtest.h>

#include <string>

#include "peers/a2a-ref-agent/params.hpp"

using a2a::agent::field;
using a2a::agent::Json;

TEST(ParamsField, FindsTheCamelNameThenTheSnakeSpelling) {
  Json camel = Json::parse(R"({"taskId":"a"})");
  Json snake = Json::parse(R"({"task_id":"b"})");
  Json both = Json::parse(R"({"taskId":"a","task_id":"b"})");
  ASSERT_NE(field(camel, "taskId"), nullptr);
  EXPECT_EQ(*field(camel, "taskId"), "a");
  ASSERT_NE(field(snake, "taskId"), nullptr);
  EXPECT_EQ(*field(snake, "taskId"), "b");
  EXPECT_EQ(*field(both, "taskId"), "a");  // the camelCase member wins
  Json several = Json::parse(R"({"push_notification_config_id":7})");
  ASSERT_NE(field(several, "pushNotificationConfigId"), nullptr);
  EXPECT_EQ(*field(several, "pushNotificationConfigId"), 7);
}

TEST(ParamsField, AbsentNullAndNonObjectsGiveNothing) {
  Json o = Json::parse(R"({"message":null,"contextId":"c","task":"t"})");
  EXPECT_EQ(field(o, "message"), nullptr);     // null is absent
  EXPECT_EQ(field(o, "taskId"), nullptr);      // neither spelling
  EXPECT_EQ(field(o, "tas"), nullptr);         // no prefix match
  EXPECT_EQ(field(o, "context_id"), nullptr);  // only camel -> snake, not back
  EXPECT_EQ(field(Json::array({1}), "taskId"), nullptr);
  EXPECT_EQ(field(Json("taskId"), "taskId"), nullptr);
}

TEST(ParamsField, ALongNameIsSpelledAsAShortOne) {
  // Longer than the stack spelling's room: the heap path gives the same answer.
  std::string camel, snake;
  for (int i = 0; i < 40; ++i) {
    camel += "aB";
    snake += "a_b";
  }
  Json o = Json::object();
  o[snake] = "long";
  ASSERT_NE(field(o, camel), nullptr);
  EXPECT_EQ(*field(o, camel), "long");
  o[camel] = "camel";
  EXPECT_EQ(*field(o, camel), "camel");
}
