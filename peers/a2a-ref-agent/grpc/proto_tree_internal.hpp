// What proto_tree.cpp (messages <-> the JSON tree by reflection) and
// proto_wire.cpp (JSON text or tree <-> protobuf wire bytes by tables) share.
// Internal to the agent's gRPC module: proto_tree.hpp is the interface.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

namespace google::protobuf {
class FieldDescriptor;
}  // namespace google::protobuf

namespace a2a::agent::prototree {

namespace pb = google::protobuf;
using Json = nlohmann::json;
using FD = pb::FieldDescriptor;

// Struct numbers above this are refused by protobuf's parser when they come as
// JSON integers (they lose precision as a double); left to the slow path.
inline constexpr double kExactDoubleInt = 9007199254740992.0;  // 2^53

// A double as protobuf prints it (SimpleDtoa), read back as nlohmann would;
// false when it is not finite.
bool double_to_tree(double d, Json& out);

// A decimal number as nlohmann parses it: unsigned when not negative.
inline Json int_tree(int64_t v) { return v >= 0 ? Json(static_cast<uint64_t>(v)) : Json(v); }

}  // namespace a2a::agent::prototree
