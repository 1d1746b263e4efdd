// Protobuf messages <-> the core's JSON tree (nlohmann) by reflection, with
// no JSON text in between: the gRPC server's fast path. The slow path,
// runner/grpc/proto_json (protobuf's own ProtoJSON printer and parser over
// text), stays the definition: each function here either gives exactly the
// tree (or message) the slow path would, or says it cannot (std::nullopt /
// false), and the caller then takes the slow path, which also words every
// error. So values this does not handle (bytes, 64-bit integers given as
// strings, unknown members, null members, floats, Any, ...) cost the old
// price and never a different answer. docs/grpc.md, "Conversion".
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace google::protobuf {
class Descriptor;
class Message;
}  // namespace google::protobuf

namespace a2a::agent {

struct TaskRecord;
struct TaskView;

// The ProtoJSON tree of `msg`, equal to nlohmann's parse of protobuf's
// MessageToJsonString (camelCase names, enums by name, defaults left out);
// nullopt when `msg` holds a value this does not convert exactly.
std::optional<nlohmann::json> proto_to_tree(const google::protobuf::Message& msg);

// Sets `msg` (empty on entry) from ProtoJSON as protobuf's parser would;
// false when `value` holds something this does not convert exactly (an
// unknown or repeated member name, a null, a string for a number, ...):
// `msg` is then unspecified and the caller takes the slow path.
bool tree_to_proto(const nlohmann::json& value, google::protobuf::Message& msg);

// tree_to_proto(nlohmann::json::parse(text), msg) without the tree: `msg`
// (empty on entry) is set from the parser's events (nlohmann's SAX interface). False
// (`msg` then unspecified) for text that does not parse and for whatever
// this does not set exactly as tree_to_proto would (a member named twice,
// an unusual shape): the caller then parses the tree and takes that path.
bool text_to_proto(std::string_view text, google::protobuf::Message& msg);

// tree_to_proto(task_json(record, view), task) without copying the task
// into a tree (GetTask straight from the store: AgentCore::render_task).
bool task_to_proto(const TaskRecord& record, const TaskView& view, google::protobuf::Message& task);

// ---- straight to and from wire bytes (docs/grpc.md, "Conversion") ----
// Tables built once per message type: the JSON names, numbers, kinds and
// enum names of its fields. Each function gives exactly what the
// reflection functions above would (the encoders: the bytes of protobuf's
// deterministic serialization of that message; fields in number order, map
// entries by key) or says it cannot, and the caller takes them.

// tree_to_proto of JSON `text` parsed as nlohmann would (our own tokenizer,
// no tree), serialized and appended to `out`. False (`out` as on entry) for
// what this does not write exactly: the caller falls back.
bool text_to_wire(const google::protobuf::Descriptor& type, std::string_view text, std::string& out);

// tree_to_proto(value), serialized and appended to `out`; false as above.
bool tree_to_wire(const google::protobuf::Descriptor& type, const nlohmann::json& value, std::string& out);

// task_to_proto, serialized and appended to `out`; false as above.
bool task_to_wire(const TaskRecord& record, const TaskView& view, const google::protobuf::Descriptor& task,
                  std::string& out);

// proto_to_tree of the message `bytes` parse to, without a message; nullopt
// for bytes that do not parse and for what this does not read exactly (an
// unknown field, a field or oneof given twice, ...): the caller falls back.
std::optional<nlohmann::json> wire_to_tree(const google::protobuf::Descriptor& type, std::string_view bytes);

}  // namespace a2a::agent
