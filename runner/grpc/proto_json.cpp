#include "runner/grpc/proto_json.hpp"

#include <array>
#include <memory>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>

#include "google/rpc/a2a_conform_rpc.pb.h"
#include "lf/a2a/v1/a2a.pb.h"

namespace a2a::grpcwire {
namespace {

namespace pb = google::protobuf;

// The proto's method names, in model::Operation order.
constexpr std::array<std::string_view, 11> kMethodNames = {
    "SendMessage",
    "SendStreamingMessage",
    "GetTask",
    "ListTasks",
    "CancelTask",
    "SubscribeToTask",
    "CreateTaskPushNotificationConfig",
    "GetTaskPushNotificationConfig",
    "ListTaskPushNotificationConfigs",
    "DeleteTaskPushNotificationConfig",
    "GetExtendedAgentCard",
};

const pb::ServiceDescriptor& service() {
  // Referencing a generated type makes sure its file is in the generated pool
  // (and links google.rpc's, which status details are decoded with).
  static const pb::ServiceDescriptor* s = [] {
    (void)lf::a2a::v1::Task::descriptor();
    (void)google::rpc::Status::descriptor();
    return pb::DescriptorPool::generated_pool()->FindServiceByName(std::string(kServiceName));
  }();
  return *s;
}

std::unique_ptr<pb::Message> new_message(const pb::Descriptor& type) {
  const pb::Message* proto = pb::MessageFactory::generated_factory()->GetPrototype(&type);
  return std::unique_ptr<pb::Message>(proto->New());
}

}  // namespace

const pb::MethodDescriptor& method_of(model::Operation op) {
  auto i = static_cast<size_t>(op);
  const pb::MethodDescriptor* m = service().FindMethodByName(std::string(kMethodNames.at(i)));
  return *m;  // every name above is in a2a.proto (grpc_test checks it)
}

std::string method_path(model::Operation op) {
  return "/" + std::string(kServiceName) + "/" + method_of(op).name();
}

std::optional<model::Operation> operation_of(std::string_view method) {
  std::string prefix = "/" + std::string(kServiceName) + "/";
  if (method.starts_with(prefix)) method.remove_prefix(prefix.size());
  for (size_t i = 0; i < kMethodNames.size(); ++i)
    if (kMethodNames[i] == method) return model::kAllOperations[i];
  return std::nullopt;
}

core::Expected<std::string> json_to_binary(const pb::Descriptor& type, const Json& value, bool ignore_unknown) {
  auto msg = new_message(type);
  std::string text;
  try {
    text = value.dump();
  } catch (const nlohmann::json::exception& e) {
    return core::fail(core::ErrorKind::kParse, std::string("not serializable as JSON: ") + e.what());
  }
  pb::util::JsonParseOptions opts;
  opts.ignore_unknown_fields = ignore_unknown;
  auto st = pb::util::JsonStringToMessage(text, msg.get(), opts);
  if (!st.ok())
    return core::fail(core::ErrorKind::kSchema,
                      "not a valid " + type.full_name() + " in ProtoJSON: " + std::string(st.message()));
  std::string out;
  if (!msg->SerializeToString(&out))
    return core::fail(core::ErrorKind::kInternal, "could not serialize a " + type.full_name());
  return out;
}

core::Expected<Json> binary_to_json(const pb::Descriptor& type, std::string_view bytes) {
  auto msg = new_message(type);
  if (!msg->ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return core::fail(core::ErrorKind::kProtocol,
                      "the " + std::to_string(bytes.size()) + " bytes are not a valid " + type.full_name());
  pb::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = false;
  std::string text;
  auto st = pb::util::MessageToJsonString(*msg, &text, opts);
  if (!st.ok())
    return core::fail(core::ErrorKind::kProtocol,
                      "a " + type.full_name() + " that has no ProtoJSON form: " + std::string(st.message()));
  Json out = Json::parse(text, nullptr, false);
  if (out.is_discarded())
    return core::fail(core::ErrorKind::kInternal, "protobuf printed JSON nlohmann cannot read: " + text.substr(0, 200));
  return out;
}

}  // namespace a2a::grpcwire
