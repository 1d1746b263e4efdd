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

}  // namespace a2a::agent
