// Validation of A2A 1.0 payloads as ProtoJSON per a2a.proto (the spec's §1.4:
// "the file `spec/a2a.proto` is the single authoritative normative definition
// of all protocol data objects"). What is checked, each with the sentence that
// backs it (docs/payload-validation.md):
//   - JSON types of every known member (string, bool, int32, bytes, object,
//     array, map) per the field's proto type and the ProtoJSON mapping;
//   - enum values (TaskState, Role) are the proto names (spec §5.5);
//   - fields marked `(google.api.field_behavior) = REQUIRED` are present, and
//     required arrays are not empty (spec §5.7);
//   - google.protobuf.Timestamp is an RFC 3339 string in UTC with 'Z' (§5.6.1);
//   - AgentInterface.url of an HTTP-based binding is an absolute http(s) URL
//     (a2a.proto AgentInterface.url, spec §8.3.1);
//   - at most one member of a proto `oneof`.
// Unknown members are never a violation (spec §5.7 "Unrecognized Fields"),
// nor is an absent optional field.
//
// The schema table below is hand-written from a2a.proto; validate_test.cpp
// cross-checks every message, field, REQUIRED mark and enum value against the
// proto file itself, so a drift fails the build's tests.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace a2a::model {

// One field as a2a.proto declares it.
struct ProtoField {
  std::string_view label;  // "", "optional", "repeated", "map"
  std::string_view type;   // proto type: "string", "TaskStatus", "google.protobuf.Timestamp"; maps: the value type
  std::string_view name;   // proto (snake_case) name; the JSON name is its lowerCamelCase
  bool required = false;   // [(google.api.field_behavior) = REQUIRED]
  std::string_view oneof;  // the oneof it belongs to, "" if none

  constexpr ProtoField(std::string_view l, std::string_view t, std::string_view n, bool req = false,
                       std::string_view o = {})
      : label(l), type(t), name(n), required(req), oneof(o) {}
};

struct ProtoMessage {
  std::string_view name;
  std::vector<ProtoField> fields;
};

struct ProtoEnum {
  std::string_view name;
  std::vector<std::string_view> values;
};

// The messages and enums of a2a.proto that A2A responses, stream events and
// agent cards are made of.
std::span<const ProtoMessage> payload_messages();
std::span<const ProtoEnum> payload_enums();
const ProtoMessage* find_message(std::string_view name);

// "context_id" -> "contextId" (ProtoJSON json_name).
std::string json_name(std::string_view proto_name);

struct PayloadViolation {
  std::string path;    // JSON path of the offending value ("task.status.timestamp")
  std::string what;    // what is wrong with it
  std::string source;  // the normative text: a2a.proto declaration or spec section + verbatim quote
  std::string describe() const;  // "<path>: <what> [<source>]"
};

// Validates `value` as the ProtoJSON form of message `type` (a name of
// payload_messages()). `path` prefixes every reported path.
std::vector<PayloadViolation> validate_payload(std::string_view type, const nlohmann::json& value,
                                               const std::string& path = "");

// The verbatim spec sentences the validator cites (the test checks each one
// occurs in specification.md).
std::span<const std::string_view> cited_quotes();

}  // namespace a2a::model
