// proto_tree against the slow path it stands in for (runner/grpc/proto_json:
// protobuf's ProtoJSON printer and parser over text): the same tree from the
// same bytes, the same message from the same tree, and "cannot" (the caller
// then takes the slow path) for what it does not convert exactly.
#include "peers/a2a-ref-agent/grpc/proto_tree.hpp"

#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include "lf/a2a/v1/a2a.pb.h"
#include "runner/grpc/proto_json.hpp"

namespace a2a::agent {
namespace {

namespace v1 = lf::a2a::v1;
using Json = nlohmann::json;

// A Task with what the reference agent's tasks carry: status with a
// timestamp, history, artifacts with text and data parts, metadata.
v1::Task rich_task() {
  v1::Task t;
  t.set_id("task-1");
  t.set_context_id("ctx-é-1");
  t.mutable_status()->set_state(v1::TASK_STATE_COMPLETED);
  t.mutable_status()->mutable_timestamp()->set_seconds(1795000000);
  t.mutable_status()->mutable_timestamp()->set_nanos(123000000);
  auto* m = t.add_history();
  m->set_message_id("m-1");
  m->set_role(v1::ROLE_USER);
  m->add_parts()->set_text("hello");
  auto* a = t.add_artifacts();
  a->set_artifact_id("a-1");
  a->add_parts()->set_text("chunk 0");
  auto* data = a->add_parts()->mutable_data();
  auto* fields = data->mutable_struct_value()->mutable_fields();
  (*fields)["int"].set_number_value(5);
  (*fields)["neg"].set_number_value(-7);
  (*fields)["half"].set_number_value(1.5);
  (*fields)["tenth"].set_number_value(0.1);
  (*fields)["big"].set_number_value(1e20);
  (*fields)["sixteen"].set_number_value(1234567890123456.0);
  (*fields)["negzero"].set_number_value(-0.0);
  (*fields)["s"].set_string_value("x\"y\n");
  (*fields)["b"].set_bool_value(true);
  (*fields)["n"].set_null_value(google::protobuf::NULL_VALUE);
  auto* list = (*fields)["l"].mutable_list_value();
  list->add_values()->set_number_value(1);
  list->add_values()->set_string_value("two");
  (*t.mutable_metadata()->mutable_fields())["k"].set_string_value("v");
  return t;
}

void expect_same_tree(const google::protobuf::Message& msg) {
  auto slow = grpcwire::binary_to_json(*msg.GetDescriptor(), msg.SerializeAsString());
  ASSERT_TRUE(slow) << slow.error().message;
  auto fast = proto_to_tree(msg);
  ASSERT_TRUE(fast.has_value()) << msg.ShortDebugString();
  EXPECT_EQ(fast->dump(), slow->dump());
  EXPECT_EQ(*fast, *slow);
}

// The message the tree gives, by both paths, as the same protobuf message.
void expect_same_message(const google::protobuf::Descriptor& type, const Json& tree) {
  auto slow = grpcwire::json_to_binary(type, tree, true);
  ASSERT_TRUE(slow) << slow.error().message;
  const google::protobuf::Message* proto = google::protobuf::MessageFactory::generated_factory()->GetPrototype(&type);
  std::unique_ptr<google::protobuf::Message> fast(proto->New()), want(proto->New());
  ASSERT_TRUE(tree_to_proto(tree, *fast)) << tree.dump();
  ASSERT_TRUE(want->ParseFromString(*slow));
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*fast, *want))
      << fast->ShortDebugString() << "\n vs " << want->ShortDebugString();
}

TEST(ProtoTree, ATaskGivesTheTreeOfProtobufsPrinter) { expect_same_tree(rich_task()); }

TEST(ProtoTree, DefaultsAreLeftOutAndExplicitPresenceIsKept) {
  v1::SendMessageRequest r;
  r.mutable_message()->set_message_id("m");
  r.mutable_configuration()->set_history_length(0);  // optional: printed although 0
  r.mutable_configuration()->set_return_immediately(false);  // implicit: not printed
  expect_same_tree(r);
  auto fast = proto_to_tree(r);
  ASSERT_TRUE(fast.has_value());
  EXPECT_EQ((*fast)["configuration"], Json({{"historyLength", 0}}));
}

TEST(ProtoTree, TheTreesOfTheSlowPathGiveTheSameMessages) {
  auto tree = grpcwire::binary_to_json(*v1::Task::descriptor(), rich_task().SerializeAsString());
  ASSERT_TRUE(tree);
  expect_same_message(*v1::Task::descriptor(), *tree);
  expect_same_message(*v1::SendMessageRequest::descriptor(),
                      {{"message", {{"messageId", "m"}, {"role", "ROLE_USER"}, {"parts", {{{"text", "hi"}}}}}},
                       {"configuration", {{"historyLength", 3}, {"returnImmediately", true}}}});
  // Proto field names are read too, as protobuf's parser does.
  expect_same_message(*v1::GetTaskRequest::descriptor(), {{"id", "t"}, {"history_length", 2}});
}

TEST(ProtoTree, WhatItDoesNotConvertExactlyIsLeftToTheSlowPath) {
  const Json cannot[] = {
      {{"id", "t"}, {"noSuchMember", 1}},              // unknown: dropped or refused there
      {{"id", nullptr}},                               // null member
      {{"id", "t"}, {"historyLength", "2"}},           // a number as a string
      {{"id", "t"}, {"historyLength", 2.0}},           // a float for an integer
      {{"id", "t"}, {"historyLength", 1LL << 40}},     // out of int32's range
      {{"historyLength", 1}, {"history_length", 2}},   // one field named twice
  };
  for (const Json& j : cannot) {
    v1::GetTaskRequest m;
    EXPECT_FALSE(tree_to_proto(j, m)) << j.dump();
  }
  v1::Part two_of_a_oneof;
  EXPECT_FALSE(tree_to_proto({{"text", "a"}, {"url", "b"}}, two_of_a_oneof));
  v1::Part raw;
  EXPECT_FALSE(tree_to_proto({{"raw", "aGk="}}, raw));  // bytes: base64 is the slow path's
  v1::Message bad_enum;
  EXPECT_FALSE(tree_to_proto({{"role", "ROLE_NOBODY"}}, bad_enum));
  v1::Task bad_utf8;
  EXPECT_FALSE(tree_to_proto({{"id", std::string("\xff")}}, bad_utf8));

  v1::Part raw_part;
  raw_part.set_raw("hi");
  EXPECT_FALSE(proto_to_tree(raw_part).has_value());
}

}  // namespace
}  // namespace a2a::agent
