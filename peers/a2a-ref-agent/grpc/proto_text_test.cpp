// text_to_proto and task_to_proto (proto_tree.hpp) against the tree path
// they stand in for (tree_to_proto of the parsed text / of task_json): for
// every event and task shape the agent produces, the same answer (can or
// cannot) and, when they can, the same bytes; and the cases each leaves to
// the tree path. Bytes are compared serialized deterministically: protobuf
// orders a Struct's map entries at random otherwise, on either path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <google/protobuf/message.h>

#include "lf/a2a/v1/a2a.pb.h"
#include "peers/a2a-ref-agent/agent_core.hpp"
#include "peers/a2a-ref-agent/grpc/proto_tree.hpp"
#include "peers/a2a-ref-agent/task_store.hpp"
#include "runner/jsonrpc/dump.hpp"
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

// The wire encoders (text_to_wire, tree_to_wire) against the reflection
// path: when they write, their bytes are the deterministic serialization of
// what tree_to_proto sets; when tree_to_proto cannot, neither can they.
// Returns whether text_to_wire wrote.
template <class M>
bool pw_expect_wire(const std::string& text) {
  M slow;
  Json tree = Json::parse(text);
  bool slow_ok = tree_to_proto(tree, slow);
  std::string want = slow_ok ? pt_bytes(slow) : std::string();
  std::string from_text = "pre", from_tree = "pre";
  bool text_ok = text_to_wire(*M::descriptor(), text, from_text);
  bool tree_ok = tree_to_wire(*M::descriptor(), tree, from_tree);
  if (text_ok) {
    EXPECT_TRUE(slow_ok) << text;
    EXPECT_EQ(from_text, "pre" + want) << text;
  } else {
    EXPECT_EQ(from_text, "pre") << text;  // as on entry
  }
  if (tree_ok) {
    EXPECT_TRUE(slow_ok) << text;
    EXPECT_EQ(from_tree, "pre" + want) << text;
  } else {
    EXPECT_EQ(from_tree, "pre") << text;
  }
  // The text path refuses what the tree cannot tell (a member named twice),
  // never more than that where the tree path writes.
  if (tree_ok && !text_ok) ADD_FAILURE() << "tree_to_wire wrote, text_to_wire did not: " << text;
  return text_ok;
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
  bool wire_ok = pw_expect_wire<M>(text);
  EXPECT_EQ(wire_ok, slow_ok) << "the wire path refused what the reflection path takes: " << text;
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
  int n = 0, texts = 0, converted = 0, trees = 0, trees_converted = 0;
  for (const char* b : kPtBehaviours) {
    Json params = {{"message", pt_user_message(std::string(b) + " pt", ++n)}};
    StreamOpen opened = core.open_stream(model::Operation::kSendStreamingMessage, params);
    ASSERT_TRUE(opened.stream) << b;
    for (int i = 0; i < 200; ++i) {
      StreamItem item = opened.stream->next_view_or_text(
          core::Deadline::after(core::Millis(3000)),
          [&](const Json& event) {
            ++trees;
            if (pw_expect_wire<v1::StreamResponse>(event.dump())) ++trees_converted;
          },
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
  EXPECT_GT(trees, 10);
  EXPECT_GE(trees_converted, trees - 2);
}

// GetTask straight from the store: the bytes of tree_to_proto(GetTask's
// tree), for each behaviour's task and each historyLength.
TEST(ProtoText, TasksFromTheStoreGiveTheBytesOfGetTask) {
  AgentCore core(pt_config());
  int n = 0, rendered = 0, wired = 0;
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
      std::string wire = "pre";
      bool wire_ok = core.render_task(get, [&](const TaskRecord& r, const TaskView& v) {
        return task_to_wire(r, v, *v1::Task::descriptor(), wire);
      });
      EXPECT_EQ(wire_ok, slow_ok) << b << " " << want.value().dump();
      if (wire_ok) {
        ++wired;
        EXPECT_EQ(wire, "pre" + pt_bytes(slow)) << b;
      }
      // The whole GetTask answer as a tree, too (what answer() encodes).
      pw_expect_wire<v1::Task>(want.value().dump());
    }
  }
  EXPECT_GT(rendered, 40);
  EXPECT_EQ(wired, rendered);
  // Not found, a bad parameter: left to call(), which words the error.
  v1::Task unused;
  auto render = [&](const TaskRecord& r, const TaskView& v) { return task_to_proto(r, v, unused); };
  EXPECT_FALSE(core.render_task({{"id", "no-such-task"}}, render));
  EXPECT_FALSE(core.render_task({{"id", 5}}, render));
  EXPECT_FALSE(core.render_task({{"id", "x"}, {"historyLength", -1}}, render));
}

// A finished task keeps its artifacts, history and status as text
// (task_store.hpp TaskText): every reader must give what it gave from the
// trees. Each behaviour's task, read packed, then unpacked (the trees parsed
// back: what the store held before), for each view.
TEST(ProtoText, FinishedTasksGiveTheSameAnswersPackedAsFromTheirTrees) {
  AgentCore core(pt_config());
  int n = 0, packed = 0, wired = 0;
  for (const char* b : kPtBehaviours) {
    Json params = {{"message", pt_user_message(std::string(b) + " pk", ++n)}};
    CallResult sent = core.call(model::Operation::kSendMessage, params);
    ASSERT_TRUE(sent.ok()) << b;
    if (!sent.value().contains("task")) continue;
    std::string id = sent.value()["task"]["id"].get<std::string>();
    for (const Json& hl : {Json(nullptr), Json(0), Json(1), Json(2), Json(100)}) {
      Json get = {{"id", id}};
      if (!hl.is_null()) get["historyLength"] = hl;
      for (bool artifacts : {true, false}) {
        bool rendered = core.render_task(get, [&](const TaskRecord& cr, const TaskView& v0) {
          TaskView v = v0;
          v.artifacts = artifacts;
          // The store's record, under its lock (render_task holds it): unpacked
          // and packed again here to compare both forms.
          auto& r = const_cast<TaskRecord&>(cr);
          EXPECT_EQ(r.text.packed(), model::is_terminal(r.state)) << b;
          if (!r.text.packed()) return true;
          ++packed;
          EXPECT_TRUE(r.history.empty() && r.artifacts.empty() && r.status.is_null()) << b;
          std::string text, wire = "pre";
          append_task_text(text, r, v);
          std::string tree = jsonrpc::dump(task_json(r, v));
          v1::Task proto;
          bool proto_ok = task_to_proto(r, v, proto);
          bool wire_ok = task_to_wire(r, v, *v1::Task::descriptor(), wire);
          size_t weight = r.history_size();
          unpack_task(r);
          EXPECT_FALSE(r.text.packed());
          EXPECT_EQ(r.history_size(), weight) << b;
          std::string want_text, want_wire = "pre";
          append_task_text(want_text, r, v);
          EXPECT_EQ(text, want_text) << b;
          EXPECT_EQ(tree, jsonrpc::dump(task_json(r, v))) << b;
          EXPECT_EQ(tree, want_text) << b;
          v1::Task want_proto;
          EXPECT_EQ(proto_ok, task_to_proto(r, v, want_proto)) << b;
          if (proto_ok) EXPECT_EQ(pt_bytes(proto), pt_bytes(want_proto)) << b;
          EXPECT_EQ(wire_ok, task_to_wire(r, v, *v1::Task::descriptor(), want_wire)) << b;
          EXPECT_EQ(wire, want_wire) << b;
          if (wire_ok) ++wired;
          pack_task(r);
          EXPECT_TRUE(r.text.packed());
          std::string again;
          append_task_text(again, r, v);
          EXPECT_EQ(again, text) << b;
          return true;
        });
        EXPECT_TRUE(rendered) << b;
      }
    }
  }
  EXPECT_GT(packed, 100);
  EXPECT_GT(wired, 80);
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
  std::string wire;
  EXPECT_FALSE(core.render_task(
      get, [&](const TaskRecord& r, const TaskView& v) { return task_to_wire(r, v, *v1::Task::descriptor(), wire); }));
  EXPECT_TRUE(wire.empty());
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


// The wire encoders on shapes chosen to catch a byte out of place: escapes
// and non-ASCII text, defaults (left out) and oneof members holding one
// (written), members out of field order, map keys out of order and empty,
// every Value kind, numbers at the edges, timestamps, packed enums.
TEST(ProtoWire, HandWrittenShapesGiveTheBytesOfTheReflectionPath) {
  const std::string written[] = {
      R"({"message":{"parts":[{"text":""}],"messageId":"","role":"ROLE_UNSPECIFIED","contextId":"c"}})",
      R"({"message":{"messageId":"m\"\\\/\b\f\n\r\t\u0000\u001f\u00e9\u20ac\ud83d\ude00 é 漢字 😀"}})",
      R"({"task":{"metadata":{"z":1,"a":2,"":3,"é":4,"e":{"y":[],"x":{}},"b":null,"t":true,"f":false}}})",
      R"({"task":{"metadata":{"n":[0,-0,-0.0,1e-300,1.7976931348623157e308,9007199254740992,-9007199254740992,0.1,123456789.125,5e-324]}}})",
      R"({"statusUpdate":{"status":{"timestamp":"1970-01-01T00:00:00Z","state":"TASK_STATE_WORKING"},"taskId":"t"}})",
      R"({"statusUpdate":{"status":{"timestamp":"1969-12-31T23:59:59.999999999Z"}}})",
      R"({"statusUpdate":{"status":{"timestamp":"2026-11-27T15:00:00+01:30"}}})",
      R"({"statusUpdate":{"status":{"timestamp":"2024-02-29T23:59:59.1Z"}}})",
      R"({"statusUpdate":{"status":{"timestamp":"0001-01-01T00:00:00Z"}}})",
      R"({"statusUpdate":{"status":{"timestamp":"9999-12-31T23:59:59.999999999Z"}}})",
      R"({"statusUpdate":{"status":{"timestamp":"2000-03-01T00:00:00.05Z"}}})",
      R"({"statusUpdate":{"status":{"timestamp":"1900-02-28T12:34:56.000Z"}}})",
      R"({"statusUpdate":{"status":{"timestamp":"2026-11-27T15:00:00.1234567891Z"}}})",
      R"({"artifactUpdate":{"lastChunk":true,"append":false,"artifact":{"parts":[{"data":{"x":null}}]}}})",
      R"({"artifactUpdate":{"artifact":{"parts":[{"data":0},{"data":""},{"data":false},{"data":[]},{"data":{}}]}}})",
      R"({"task":{"status":{}}})",
      R"({"task":{}})",
      R"({"message":{"role":"ROLE_AGENT","message_id":"snake","reference_task_ids":["a",""]}})",
      "  {\n\t\"task\" : { \"id\" : \"t\" , \"history\" : [ { \"messageId\" : \"m\" } , { } ] } }\r\n",
  };
  for (const auto& t : written) EXPECT_TRUE(pw_expect_wire<v1::StreamResponse>(t)) << t;
  // A large message (beyond the scratch a thread keeps), twice: the same bytes each time.
  std::string big = R"({"message":{"parts":[{"text":")" + std::string(600000, 'x') + R"("}],"messageId":"m"}})";
  EXPECT_TRUE(pw_expect_wire<v1::StreamResponse>(big));
  EXPECT_TRUE(pw_expect_wire<v1::StreamResponse>(big));
  // Many map keys in reverse order (the stable_sort branch), one of them twice (refused).
  std::string many = R"({"task":{"metadata":{)";
  for (int i = 60; i > 0; --i) many += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + (i > 1 ? "," : "");
  EXPECT_TRUE(pw_expect_wire<v1::StreamResponse>(many + "}}}")) << many;
  std::string out;
  EXPECT_FALSE(text_to_wire(*v1::StreamResponse::descriptor(), many + R"(,"k7":0}}})", out));
  // A request with an optional int32 (presence: 0 is written) and a bool.
  for (const char* t : {R"({"message":{"messageId":"m"},"configuration":{"historyLength":0,"returnImmediately":true}})",
                        R"({"configuration":{"historyLength":-5,"acceptedOutputModes":["a","b"]}})",
                        R"({"configuration":{"historyLength":2147483647}})"})
    EXPECT_TRUE(pw_expect_wire<v1::SendMessageRequest>(t)) << t;
  // Refused by both: out of range, wrong types, bytes, a null Value member.
  for (const char* t : {R"({"configuration":{"historyLength":2147483648}})", R"({"configuration":{"historyLength":1.0}})",
                        R"({"configuration":{"historyLength":"1"}})", R"({"configuration":{"returnImmediately":1}})",
                        R"({"message":{"role":1}})", R"({"message":{"parts":[{"raw":""}]}})",
                        R"({"message":{"parts":[null]}})", R"({"message":{"parts":{}}})",
                        R"({"message":{"metadata":[]}})", R"({"message":{"parts":[{"data":null}]}})",
                        R"({"message":{"metadata":{"n":18446744073709551615}}})"})
    EXPECT_FALSE(pw_expect_wire<v1::SendMessageRequest>(t)) << t;
  for (const char* t : {R"({"statusUpdate":{"status":{"timestamp":"yesterday"}}})",
                        R"({"statusUpdate":{"status":{"timestamp":"10000-01-01T00:00:00Z"}}})",
                        R"({"statusUpdate":{"status":{"timestamp":"2023-02-29T00:00:00Z"}}})",
                        R"({"statusUpdate":{"status":{"timestamp":"2026-04-31T00:00:00Z"}}})",
                        R"({"statusUpdate":{"status":{"timestamp":"2026-11-27T24:00:00Z"}}})",
                        R"({"statusUpdate":{"status":{"timestamp":"2026-11-27T15:00:60Z"}}})",
                        R"({"statusUpdate":{"status":{"timestamp":"2026-11-27T15:00:00.Z"}}})",
                        R"({"statusUpdate":{"status":{"timestamp":"0000-01-01T00:00:00Z"}}})",
                        R"({"task":{"id":"t","kind":"task"}})", R"({"message":{"parts":[{"text":"a","url":"b"}]}})"})
    EXPECT_FALSE(pw_expect_wire<v1::StreamResponse>(t)) << t;
}

// Text the tokenizer refuses (the caller then takes the nlohmann paths,
// which refuse the invalid ones too, or convert the unusual ones).
TEST(ProtoWire, TheTokenizerRefusesWhatItDoesNotReadExactly) {
  for (const char* t : {
           R"({"task":{"id":"a","id":"b"}})",              // named twice
           R"({"task":{"contextId":"a","context_id":"b"}})",  // both names
           R"({"task":{"metadata":{"k":1,"k":2}}})",       // a map key twice
           R"({"task":{"id":"\ud800"}})",                  // a lone surrogate
           R"({"task":{"id":"\udc00x"}})", R"({"task":{"id":"\x"}})", R"({"task":{"id":"\u12"}})",
           "{\"task\":{\"id\":\"a\x01\"}}",  // a raw control character
           "{\"task\":{\"id\":\"\xc3\x28\"}}",  // not UTF-8
           "{\"task\":{\"id\":\"\xed\xa0\x80\"}}",  // an encoded surrogate
           R"({"task":{"metadata":{"n":01}}})", R"({"task":{"metadata":{"n":1.}}})",
           R"({"task":{"metadata":{"n":-}}})", R"({"task":{"metadata":{"n":.5}}})", R"({"task":{"metadata":{"n":1e}}})",
           R"({"task":{"metadata":{"n":+1}}})", R"({"task":{"metadata":{"n":tru}}})",
           R"({"task":{"metadata":{"n":1e400}}})", R"({"task":{"metadata":{"n":-1e400}}})",
           R"({"task":{}} x)", R"({"task":{},})", R"({"task":{"id":"t",}})", R"({"task" {}})", "", "[]", "{",
       }) {
    std::string out = "x";
    EXPECT_FALSE(text_to_wire(*v1::StreamResponse::descriptor(), t, out)) << t;
    EXPECT_EQ(out, "x");
  }
}

// wire_to_tree against proto_to_tree(ParseFromArray): the same tree, or
// nullopt (then the caller parses and converts as before).
void pw_expect_decoded(const pb::Descriptor& d, const std::string& bytes, bool want_direct) {
  std::unique_ptr<pb::Message> m(pb::MessageFactory::generated_factory()->GetPrototype(&d)->New());
  bool parsed = m->ParseFromString(bytes);
  std::optional<Json> slow;
  if (parsed) slow = proto_to_tree(*m);
  auto fast = wire_to_tree(d, bytes);
  EXPECT_EQ(fast.has_value(), want_direct) << d.full_name();
  if (fast) {
    ASSERT_TRUE(slow.has_value()) << fast->dump();
    EXPECT_EQ(*fast, *slow) << fast->dump() << " vs " << slow->dump();
  }
}

TEST(ProtoWire, RequestsDecodeToTheTreeOfTheReflectionPath) {
  v1::SendMessageRequest send;
  ASSERT_TRUE(tree_to_proto(Json{{"message", pt_user_message("hello", 7)}}, send));
  send.mutable_message()->mutable_parts()->erase(send.mutable_message()->mutable_parts()->begin() + 2,
                                                 send.mutable_message()->mutable_parts()->end());  // data, url kept below
  auto* part = send.mutable_message()->add_parts();
  (*part->mutable_data()->mutable_struct_value()->mutable_fields())["k"].set_number_value(0.1);
  send.mutable_message()->add_parts()->set_url("https://example.com/x");
  send.mutable_configuration()->set_history_length(0);  // presence: listed
  send.mutable_configuration()->add_accepted_output_modes("text/plain");
  (*send.mutable_metadata()->mutable_fields())[""].set_string_value("");
  (*send.mutable_metadata()->mutable_fields())["l"].mutable_list_value()->add_values()->set_null_value(pb::NULL_VALUE);
  send.set_tenant("");
  pw_expect_decoded(*v1::SendMessageRequest::descriptor(), send.SerializeAsString(), true);
  pw_expect_decoded(*v1::SendMessageRequest::descriptor(), "", true);

  v1::GetTaskRequest get;
  get.set_id("t-é");
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), get.SerializeAsString(), true);
  get.set_history_length(0);
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), get.SerializeAsString(), true);
  get.set_history_length(-3);
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), get.SerializeAsString(), true);

  // An empty string written on the wire: protobuf keeps the default, not listed.
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), std::string("\x12\x00", 2), true);
  // Left to the reflection path: a field twice, an unknown field, a wrong
  // wire type, bad UTF-8 (which does not parse), truncated bytes, bytes.
  const std::string id = get.SerializeAsString();
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), id + id, false);
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), id + std::string("\xa0\x06\x01", 3), false);
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), std::string("\x10\x01", 2), false);
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), std::string("\x12\x02\xc3\x28", 4), false);
  pw_expect_decoded(*v1::GetTaskRequest::descriptor(), std::string("\x12\x05" "ab", 4), false);
  v1::SendMessageRequest raw;
  raw.mutable_message()->add_parts()->set_raw("\x01\x02");
  pw_expect_decoded(*v1::SendMessageRequest::descriptor(), raw.SerializeAsString(), false);
  v1::SendMessageRequest unknown_enum;
  unknown_enum.mutable_message()->set_role(static_cast<v1::Role>(77));
  pw_expect_decoded(*v1::SendMessageRequest::descriptor(), unknown_enum.SerializeAsString(), false);
}

// ---- randomized equivalence (a fixed seed, a bounded count) ----

std::string pw_rand_text(std::mt19937& g) {
  static const char* const pieces[] = {"", "a", "Z9", "é", "漢字", "😀", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f",
                                       "\x7f", " ", "task", "ROLE_USER", "\xe2\x80\xa8", "\xef\xbf\xbd"};
  std::string s;
  int n = static_cast<int>(g() % 5);
  for (int i = 0; i < n; ++i) s += pieces[g() % (sizeof pieces / sizeof *pieces)];
  return s;
}

double pw_rand_number(std::mt19937& g) {
  switch (g() % 8) {
    case 0: return 0.0;
    case 1: return -0.0;
    case 2: return static_cast<double>(static_cast<int32_t>(g()));
    case 3: return std::ldexp(static_cast<double>(g()), static_cast<int>(g() % 200) - 100);
    case 4: return 1.0 / static_cast<double>(1 + g() % 1000);
    case 5: return -static_cast<double>(g() % 100) / 8;
    case 6: return 9007199254740992.0;
    default: return std::ldexp(static_cast<double>(g() | 1), static_cast<int>(g() % 1800) - 1000);
  }
}

void pw_rand_value(std::mt19937& g, pb::Value& v, int depth);

void pw_rand_struct(std::mt19937& g, pb::Struct& s, int depth) {
  int n = static_cast<int>(g() % (depth > 2 ? 2 : 4));
  for (int i = 0; i < n; ++i) pw_rand_value(g, (*s.mutable_fields())[pw_rand_text(g)], depth + 1);
}

void pw_rand_value(std::mt19937& g, pb::Value& v, int depth) {
  switch (g() % (depth > 3 ? 4 : 6)) {
    case 0: v.set_null_value(pb::NULL_VALUE); break;
    case 1: v.set_number_value(pw_rand_number(g)); break;
    case 2: v.set_string_value(pw_rand_text(g)); break;
    case 3: v.set_bool_value(g() % 2 == 0); break;
    case 4: pw_rand_struct(g, *v.mutable_struct_value(), depth + 1); break;
    default: {
      auto* l = v.mutable_list_value();
      int n = static_cast<int>(g() % 3);
      for (int i = 0; i < n; ++i) pw_rand_value(g, *l->add_values(), depth + 1);
    }
  }
}

void pw_rand_part(std::mt19937& g, v1::Part& p) {
  switch (g() % 5) {
    case 0: p.set_text(pw_rand_text(g)); break;
    case 1: p.set_url(pw_rand_text(g)); break;
    case 2: pw_rand_value(g, *p.mutable_data(), 0); break;
    case 3:
      if (g() % 8 == 0) p.set_raw("\x01\x02");  // bytes: refused by all
      break;
    default: break;
  }
  if (g() % 3 == 0) pw_rand_struct(g, *p.mutable_metadata(), 0);
  if (g() % 3 == 0) p.set_filename(pw_rand_text(g));
  if (g() % 3 == 0) p.set_media_type(pw_rand_text(g));
}

void pw_rand_message(std::mt19937& g, v1::Message& m) {
  if (g() % 4) m.set_message_id(pw_rand_text(g));
  if (g() % 2) m.set_context_id(pw_rand_text(g));
  if (g() % 3 == 0) m.set_task_id(pw_rand_text(g));
  m.set_role(static_cast<v1::Role>(g() % 3));
  int n = static_cast<int>(g() % 4);
  for (int i = 0; i < n; ++i) pw_rand_part(g, *m.add_parts());
  if (g() % 3 == 0) pw_rand_struct(g, *m.mutable_metadata(), 0);
  for (int i = static_cast<int>(g() % 3); i > 0; --i) m.add_extensions(pw_rand_text(g));
  for (int i = static_cast<int>(g() % 3); i > 0; --i) m.add_reference_task_ids(pw_rand_text(g));
}

void pw_rand_artifact(std::mt19937& g, v1::Artifact& a) {
  a.set_artifact_id(pw_rand_text(g));
  if (g() % 2) a.set_name(pw_rand_text(g));
  if (g() % 3 == 0) a.set_description(pw_rand_text(g));
  for (int i = static_cast<int>(g() % 3); i > 0; --i) pw_rand_part(g, *a.add_parts());
  if (g() % 3 == 0) pw_rand_struct(g, *a.mutable_metadata(), 0);
  for (int i = static_cast<int>(g() % 2); i > 0; --i) a.add_extensions(pw_rand_text(g));
}

void pw_rand_status(std::mt19937& g, v1::TaskStatus& s) {
  s.set_state(static_cast<v1::TaskState>(g() % 9));
  if (g() % 3 == 0) pw_rand_message(g, *s.mutable_message());
  if (g() % 2) {
    s.mutable_timestamp()->set_seconds(static_cast<int64_t>(g() % 4000000000u) - 100000000);
    s.mutable_timestamp()->set_nanos(g() % 2 ? 0 : static_cast<int32_t>(g() % 1000000000u));
  }
}

void pw_rand_response(std::mt19937& g, v1::StreamResponse& r) {
  switch (g() % 4) {
    case 0: {
      auto* t = r.mutable_task();
      t->set_id(pw_rand_text(g));
      t->set_context_id(pw_rand_text(g));
      if (g() % 4) pw_rand_status(g, *t->mutable_status());
      for (int i = static_cast<int>(g() % 3); i > 0; --i) pw_rand_artifact(g, *t->add_artifacts());
      for (int i = static_cast<int>(g() % 3); i > 0; --i) pw_rand_message(g, *t->add_history());
      if (g() % 3 == 0) pw_rand_struct(g, *t->mutable_metadata(), 0);
      break;
    }
    case 1: pw_rand_message(g, *r.mutable_message()); break;
    case 2: {
      auto* u = r.mutable_status_update();
      u->set_task_id(pw_rand_text(g));
      u->set_context_id(pw_rand_text(g));
      pw_rand_status(g, *u->mutable_status());
      if (g() % 3 == 0) pw_rand_struct(g, *u->mutable_metadata(), 0);
      break;
    }
    default: {
      auto* u = r.mutable_artifact_update();
      u->set_task_id(pw_rand_text(g));
      pw_rand_artifact(g, *u->mutable_artifact());
      u->set_append(g() % 2 == 0);
      u->set_last_chunk(g() % 2 == 0);
      break;
    }
  }
}

// JSON text of `j` with members in a shuffled order, some characters
// \u-escaped, and whitespace between tokens: text the core does not write,
// which the tokenizer must still read as nlohmann does.
void pw_scramble(std::mt19937& g, const Json& j, std::string& out) {
  auto space = [&] {
    if (g() % 4 == 0) out += " \n\t\r"[g() % 4];
  };
  space();
  if (j.is_object()) {
    std::vector<const Json*> vals;
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) {
      keys.push_back(it.key());
      vals.push_back(&it.value());
    }
    std::vector<size_t> order(keys.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), g);
    out += '{';
    for (size_t k = 0; k < order.size(); ++k) {
      if (k) out += ',';
      space();
      pw_scramble(g, Json(keys[order[k]]), out);
      out += ':';
      pw_scramble(g, *vals[order[k]], out);
    }
    out += '}';
  } else if (j.is_array()) {
    out += '[';
    for (size_t i = 0; i < j.size(); ++i) {
      if (i) out += ',';
      pw_scramble(g, j[i], out);
    }
    out += ']';
  } else if (j.is_string() && g() % 2 == 0) {
    // ASCII characters escaped as \u00XX at random, the rest as dump writes them.
    std::string d = j.dump();
    std::string e;
    for (size_t i = 0; i < d.size(); ++i) {
      char c = d[i];
      if (i > 0 && i + 1 < d.size() && c >= 0x20 && c < 0x7f && c != '\\' && g() % 3 == 0) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(c));
        e += buf;
      } else {
        e += c;
        if (c == '\\' && i + 1 < d.size()) {
          char k = d[++i];
          e += k;
          if (k == 'u') {  // \uXXXX: its digits as they are
            e.append(d, i + 1, 4);
            i += 4;
          }
        }
      }
    }
    out += e;
  } else {
    out += j.dump();
  }
  space();
}

TEST(ProtoWire, RandomMessagesGiveTheSameBytesAndTreesOnEveryPath) {
  std::mt19937 g(20261127);
  int wrote = 0, decoded = 0;
  constexpr int kCount = 1500;
  for (int i = 0; i < kCount; ++i) {
    v1::StreamResponse msg;
    pw_rand_response(g, msg);
    std::string bytes = pt_bytes(msg);
    // Requests: the tree of the bytes (either order of map entries).
    std::optional<Json> tree = proto_to_tree(msg);
    auto fast = wire_to_tree(*v1::StreamResponse::descriptor(), bytes);
    auto fast2 = wire_to_tree(*v1::StreamResponse::descriptor(), msg.SerializeAsString());
    EXPECT_EQ(fast.has_value(), tree.has_value()) << msg.DebugString();
    if (fast && tree) {
      ++decoded;
      EXPECT_EQ(*fast, *tree) << msg.DebugString();
      ASSERT_TRUE(fast2.has_value());
      EXPECT_EQ(*fast2, *tree);
    }
    if (!tree) continue;  // bytes parts: no tree to write from
    // Answers: from the tree, its compact text and a scrambled text, the
    // bytes of tree_to_proto's message.
    v1::StreamResponse slow;
    if (!tree_to_proto(*tree, slow)) {  // a null Value member ("data": null): refused by all
      std::string none;
      EXPECT_FALSE(tree_to_wire(*v1::StreamResponse::descriptor(), *tree, none)) << tree->dump();
      EXPECT_FALSE(text_to_wire(*v1::StreamResponse::descriptor(), tree->dump(), none)) << tree->dump();
      continue;
    }
    std::string want = pt_bytes(slow);
    std::string a, b, c;
    std::string scrambled;
    pw_scramble(g, *tree, scrambled);
    ASSERT_EQ(Json::parse(scrambled), *tree) << scrambled;
    EXPECT_TRUE(tree_to_wire(*v1::StreamResponse::descriptor(), *tree, a)) << tree->dump();
    EXPECT_TRUE(text_to_wire(*v1::StreamResponse::descriptor(), tree->dump(), b)) << tree->dump();
    EXPECT_TRUE(text_to_wire(*v1::StreamResponse::descriptor(), scrambled, c)) << scrambled;
    EXPECT_EQ(a, want) << tree->dump();
    EXPECT_EQ(b, want) << tree->dump();
    EXPECT_EQ(c, want) << scrambled;
    ++wrote;
  }
  // Most messages have no bytes part: both directions were exercised.
  EXPECT_GT(wrote, kCount / 2);
  EXPECT_GT(decoded, kCount / 2);
}

// Mutated input (a fixed seed, a bounded count): a byte of a message's wire
// bytes or of its JSON text changed, dropped or the input cut short. Either
// the fast path refuses, or it gives what the reflection path gives; text
// nlohmann does not parse is always refused.
TEST(ProtoWire, MutatedBytesAndTextAreReadExactlyOrRefused) {
  std::mt19937 g(1127);
  int bytes_read = 0, texts_written = 0;
  constexpr int kCount = 1500;
  auto mutate = [&](std::string s) {
    if (s.empty()) return s;
    size_t at = g() % s.size();
    switch (g() % 4) {
      case 0: s[at] = static_cast<char>(g() % 256); break;
      case 1: s.erase(at, 1); break;
      case 2: s.resize(at); break;
      default: s[at] = "\"\\{}[]:,0-e.u \x80\xff"[g() % 16]; break;
    }
    return s;
  };
  for (int i = 0; i < kCount; ++i) {
    v1::StreamResponse msg;
    pw_rand_response(g, msg);
    std::string bytes = mutate(pt_bytes(msg));
    auto fast = wire_to_tree(*v1::StreamResponse::descriptor(), bytes);
    if (fast) {
      ++bytes_read;
      v1::StreamResponse parsed;
      ASSERT_TRUE(parsed.ParseFromString(bytes));
      auto slow = proto_to_tree(parsed);
      ASSERT_TRUE(slow.has_value()) << fast->dump();
      EXPECT_EQ(*fast, *slow);
    }
    auto tree = proto_to_tree(msg);
    if (!tree) continue;
    std::string text = mutate(tree->dump());
    std::string out;
    bool wrote = text_to_wire(*v1::StreamResponse::descriptor(), text, out);
    Json reparsed = Json::parse(text, nullptr, false);
    if (reparsed.is_discarded()) {
      EXPECT_FALSE(wrote) << text;
      continue;
    }
    v1::StreamResponse slow;
    if (wrote) {
      ++texts_written;
      ASSERT_TRUE(tree_to_proto(reparsed, slow)) << text;
      EXPECT_EQ(out, pt_bytes(slow)) << text;
    }
  }
  EXPECT_GT(bytes_read, 50);
  EXPECT_GT(texts_written, 50);
}

}  // namespace
}  // namespace a2a::agent
