// text_to_proto and task_to_proto (proto_tree.hpp) against the tree path
// they stand in for (tree_to_proto of the parsed text / of task_json): for
// every event and task shape the agent produces, the same answer (can or
// cannot) and, when they can, the same bytes; and the cases each leaves to
// the tree path. Bytes are compared serialized deterministically: protobuf
// orders a Struct's map entries at random otherwise, on either path.
#include <gtest/gtest.h>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "lf/a2a/v1/a2a.pb.h"
#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/grpc/proto_tree.hpp"
#include "peers/a2a-ref-agent/task_store.hpp"
#include "runner/jsonrpc/message.hpp"

namespace a2a::agent {
namespace {

namespace v1 = lf::a2a::v1;
namespace pb = google::protobuf;
using Json = nlohmann::json;

std::string pt_bytes(const pb::Message& m) {
  std::string out;
  {
    pb::io::StringOutputStream os(&out);
    pb::io::CodedOutputStream cos(&os);
    cos.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&cos);
  }
  return out;
}

// The text path gives what the tree path gives: both convert, to the same
// bytes, or both refuse (then the slow path words it, as before). Returns
// whether they converted. (Members named twice are the one case the text
// path refuses and the tree path converts: UnknownOrRepeatedMembers...)
template <class M>
bool pt_expect_same(const std::string& text) {
  M fast, slow;
  bool fast_ok = text_to_proto(text, fast);
  bool slow_ok = tree_to_proto(Json::parse(text), slow);
  EXPECT_EQ(fast_ok, slow_ok) << text;
  if (fast_ok && slow_ok) EXPECT_EQ(pt_bytes(fast), pt_bytes(slow)) << text;
  return fast_ok;
}

// A user message with what the agent keeps of it as it is: unicode (raw
// and escaped), numbers of every kind, nested metadata, extensions.
Json pt_user_message(const std::string& text, int n) {
  return Json::parse(R"({"messageId": "pt-)" + std::to_string(n) + R"(", "role": "ROLE_USER",
    "parts": [{"text": ")" + text + R"("},
              {"text": "caf\u00e9 \ud83d\ude00 \u0001 tab\t quote\" é 漢字", "metadata": {"k": "v"}},
              {"url": "https://example.com/f.txt", "mediaType": "text/plain", "filename": "f.txt"},
              {"data": {"int": 5, "neg": -7, "half": 1.5, "tenth": 0.1, "big": 1e20, "max53": 9007199254740992,
                        "negzero": -0.0, "s": "x\"y\n", "b": true, "n": null, "l": [1, "two", [3], {"four": 4}]}},
              {"data": [1, 2, 3]}, {"data": "just text"}],
    "metadata": {"trace": {"id": "é", "depth": 2, "tags": ["a", "b"]}, "flag": false},
    "extensions": ["https://example.com/ext/1", "https://example.com/ext/2"]})");
}

AgentConfig pt_config() {
  AgentConfig c;
  c.long_running = core::Millis(50);
  c.max_block = core::Millis(3000);
  return c;
}

const char* const kPtBehaviours[] = {
    "tck-artifact-text", "tck-artifact-data", "tck-artifact-file", "tck-artifact-file-url", "tck-complete-task",
    "tck-input-required", "tck-auth-required", "tck-multi-turn", "tck-reject-task", "tck-task-failure",
    "tck-stream-basic", "tck-stream-chunked", "tck-stream-many", "tck-message-response", "tck-stream-error",
};

// Every event of a stream of each behaviour: the logged ones (text) by both
// paths, the same bytes; the first (the task snapshot, a tree) as before.
TEST(ProtoText, EveryLoggedEventOfEveryBehaviourGivesTheSameBytes) {
  AgentCore core(pt_config());
  int n = 0, texts = 0, converted = 0;
  for (const char* b : kPtBehaviours) {
    Json params = {{"message", pt_user_message(std::string(b) + " pt", ++n)}};
    StreamOpen opened = core.open_stream(model::Operation::kSendStreamingMessage, params);
    ASSERT_TRUE(opened.stream) << b;
    for (int i = 0; i < 200; ++i) {
      StreamItem item = opened.stream->next_view_or_text(
          core::Deadline::after(core::Millis(3000)), [](const Json&) {},
          [&](std::string_view text) {
            ++texts;
            if (pt_expect_same<v1::StreamResponse>(std::string(text))) ++converted;
          });
      if (item.kind == StreamItem::Kind::kEnd || item.kind == StreamItem::Kind::kTimeout) break;
    }
  }
  EXPECT_GT(texts, 20);
  // All but the raw (bytes) parts of tck-artifact-file, which both refuse.
  EXPECT_GE(converted, texts - 2);
}

// GetTask straight from the store: the bytes of tree_to_proto(GetTask's
// tree), for each behaviour's task and each historyLength.
TEST(ProtoText, TasksFromTheStoreGiveTheBytesOfGetTask) {
  AgentCore core(pt_config());
  int n = 0, rendered = 0;
  for (const char* b : kPtBehaviours) {
    Json params = {{"message", pt_user_message(std::string(b) + " pt", ++n)}};
    CallResult sent = core.call(model::Operation::kSendMessage, params);
    ASSERT_TRUE(sent.ok()) << b;
    if (!sent.value().contains("task")) continue;  // a Message reply keeps no task
    std::string id = sent.value()["task"]["id"].get<std::string>();
    for (const Json& hl : {Json(nullptr), Json(0), Json(1), Json(100)}) {
      Json get = {{"id", id}};
      if (!hl.is_null()) get["historyLength"] = hl;
      CallResult want = core.call(model::Operation::kGetTask, get);
      ASSERT_TRUE(want.ok()) << b;
      v1::Task fast, slow;
      bool fast_ok = core.render_task(get, [&](const TaskRecord& r, const TaskView& v) {
        return task_to_proto(r, v, fast);
      });
      bool slow_ok = tree_to_proto(want.value(), slow);
      EXPECT_EQ(fast_ok, slow_ok) << b << " " << want.value().dump();
      if (fast_ok) {
        ++rendered;
        EXPECT_EQ(pt_bytes(fast), pt_bytes(slow)) << b;
      }
    }
  }
  EXPECT_GT(rendered, 40);
  // Not found, a bad parameter: left to call(), which words the error.
  v1::Task unused;
  auto render = [&](const TaskRecord& r, const TaskView& v) { return task_to_proto(r, v, unused); };
  EXPECT_FALSE(core.render_task({{"id", "no-such-task"}}, render));
  EXPECT_FALSE(core.render_task({{"id", 5}}, render));
  EXPECT_FALSE(core.render_task({{"id", "x"}, {"historyLength", -1}}, render));
}

// A value the tree path cannot convert (an integer above 2^53 in a Struct)
// is one the store path cannot either: both leave it to the slow path.
TEST(ProtoText, WhatTheTreePathRefusesTheStorePathRefusesToo) {
  AgentCore core(pt_config());
  Json m = pt_user_message("tck-artifact-text big", 1);
  m["metadata"]["huge"] = 12345678901234567890ULL;
  CallResult sent = core.call(model::Operation::kSendMessage, {{"message", m}});
  ASSERT_TRUE(sent.ok());
  Json get = {{"id", sent.value()["task"]["id"]}};
  v1::Task fast, slow;
  EXPECT_FALSE(core.render_task(get, [&](const TaskRecord& r, const TaskView& v) { return task_to_proto(r, v, fast); }));
  CallResult want = core.call(model::Operation::kGetTask, get);
  ASSERT_TRUE(want.ok());
  EXPECT_FALSE(tree_to_proto(want.value(), slow));
}

TEST(ProtoText, HandWrittenShapesGiveTheSameBytes) {
  const std::string converted[] = {
      R"({"statusUpdate":{"contextId":"c","status":{"message":{"messageId":"m","parts":[{"text":"w\u00e9"}],"role":"ROLE_AGENT"},"state":"TASK_STATE_WORKING","timestamp":"2026-11-27T15:00:00.123Z"},"taskId":"t"}})",
      R"({"artifactUpdate":{"append":true,"artifact":{"artifactId":"a","name":"n","parts":[{"data":{"x":[1,2.5,null,true,{"y":"z"}]}},{"url":"u","mediaType":"m"}],"metadata":{"k":1}},"contextId":"c","lastChunk":false,"taskId":"t"}})",
      R"({"message":{"contextId":"c","extensions":["e"],"messageId":"m","parts":[{"text":"😀"}],"referenceTaskIds":["a","b"],"role":"ROLE_AGENT"}})",
      R"({"task":{"artifacts":[],"contextId":"c","history":[],"id":"t","metadata":{},"status":{"state":"TASK_STATE_SUBMITTED"}}})",
      R"({"task":{"id":"t","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"a":{"b":{"c":[[],[[]],{}]}},"n":-1e-300}}})",
  };
  for (const auto& t : converted) EXPECT_TRUE(pt_expect_same<v1::StreamResponse>(t)) << t;
  // Left to the tree path, which refuses them too.
  const std::string refused[] = {
      R"({"message":{"messageId":"m","parts":[{"raw":"aGk="}]}})",             // bytes
      R"({"message":{"messageId":"m","metadata":{"big":18014398509481985}}})",  // above 2^53
      R"({"message":{"messageId":"m","parts":[{"text":"a","url":"b"}]}})",     // two of a oneof
      R"({"message":{"messageId":"m","role":"ROLE_NOBODY"}})",                 // an unknown enum name
      R"({"message":{"messageId":null}})",                                     // a null member
  };
  for (const auto& t : refused) EXPECT_FALSE(pt_expect_same<v1::StreamResponse>(t)) << t;
  // Not one JSON object: no message at all.
  for (const char* t : {"[1]", "\"x\"", "{\"message\":{}} {}", "{\"message\":", ""}) {
    v1::StreamResponse m;
    EXPECT_FALSE(text_to_proto(t, m)) << t;
  }
}

// The fallback: what the proto does not know (a legal variation's extra
// member), and a member named twice (the parsed tree keeps the last one),
// are not converted from the text; the caller then takes the tree path.
TEST(ProtoText, UnknownOrRepeatedMembersAreLeftToTheTreePath) {
  for (const char* t : {
           R"({"task":{"id":"t","kind":"task"}})",
           R"({"statusUpdate":{"taskId":"t","final":true}})",
           R"({"task":{"id":"a","id":"b"}})",
           R"({"task":{"contextId":"a","context_id":"b"}})",
           R"({"task":{"metadata":{"k":1,"k":2}}})",
       }) {
    v1::StreamResponse m;  // empty on entry, as text_to_proto wants it
    EXPECT_FALSE(text_to_proto(t, m)) << t;
  }
  // What the tree path makes of the second: the last one.
  v1::StreamResponse slow;
  ASSERT_TRUE(tree_to_proto(Json::parse(R"({"task":{"id":"a","id":"b"}})"), slow));
  EXPECT_EQ(slow.task().id(), "b");
}

}  // namespace
}  // namespace a2a::agent
