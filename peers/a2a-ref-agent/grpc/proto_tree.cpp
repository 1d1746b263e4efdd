#include "peers/a2a-ref-agent/grpc/proto_tree.hpp"
#include "peers/a2a-ref-agent/grpc/proto_tree_internal.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/strutil.h>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/timestamp.pb.h>
#include <google/protobuf/util/time_util.h>

#include "peers/a2a-ref-agent/task_store.hpp"
#include "runner/core/escape.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::agent {
namespace prototree {


// ---- message -> tree ----

// proto_tree_internal.hpp
bool double_to_tree(double d, Json& out) {
  if (!std::isfinite(d)) return false;
  std::string text = pb::SimpleDtoa(d);
  out = Json::parse(text, nullptr, false);
  return !out.is_discarded();
}


bool message_to_tree(const pb::Message& m, Json& out);

bool value_to_tree(const pb::Value& v, Json& out);

bool struct_to_tree(const pb::Struct& s, Json& out) {
  out = Json::object();
  for (const auto& kv : s.fields()) {
    if (!result::valid_utf8(kv.first)) return false;
    if (!value_to_tree(kv.second, out[kv.first])) return false;
  }
  return true;
}

bool list_to_tree(const pb::ListValue& l, Json& out) {
  out = Json::array();
  for (const auto& v : l.values()) {
    out.push_back(nullptr);
    if (!value_to_tree(v, out.back())) return false;
  }
  return true;
}

bool value_to_tree(const pb::Value& v, Json& out) {
  switch (v.kind_case()) {
    case pb::Value::kNullValue: out = nullptr; return true;
    case pb::Value::kNumberValue: return double_to_tree(v.number_value(), out);
    case pb::Value::kStringValue:
      if (!result::valid_utf8(v.string_value())) return false;
      out = v.string_value();
      return true;
    case pb::Value::kBoolValue: out = v.bool_value(); return true;
    case pb::Value::kStructValue: return struct_to_tree(v.struct_value(), out);
    case pb::Value::kListValue: return list_to_tree(v.list_value(), out);
    default: return false;  // no kind: protobuf refuses to print it
  }
}

// The well-known types the A2A proto uses; false for any other google.protobuf type.
bool wkt_to_tree(const pb::Message& m, Json& out) {
  const pb::Descriptor* d = m.GetDescriptor();
  if (d == pb::Timestamp::descriptor()) {
    const auto* t = dynamic_cast<const pb::Timestamp*>(&m);
    if (!t || t->seconds() < pb::util::TimeUtil::kTimestampMinSeconds ||
        t->seconds() > pb::util::TimeUtil::kTimestampMaxSeconds || t->nanos() < 0 || t->nanos() > 999999999)
      return false;
    out = pb::util::TimeUtil::ToString(*t);
    return true;
  }
  if (d == pb::Struct::descriptor()) {
    const auto* s = dynamic_cast<const pb::Struct*>(&m);
    return s && struct_to_tree(*s, out);
  }
  if (d == pb::Value::descriptor()) {
    const auto* v = dynamic_cast<const pb::Value*>(&m);
    return v && value_to_tree(*v, out);
  }
  if (d == pb::ListValue::descriptor()) {
    const auto* l = dynamic_cast<const pb::ListValue*>(&m);
    return l && list_to_tree(*l, out);
  }
  return false;
}

// One value of field `f` (element `i` when repeated).
bool field_to_tree(const pb::Message& m, const FD* f, int i, Json& out) {
  const pb::Reflection* r = m.GetReflection();
  bool rep = f->is_repeated();
  switch (f->cpp_type()) {
    case FD::CPPTYPE_INT32: out = int_tree(rep ? r->GetRepeatedInt32(m, f, i) : r->GetInt32(m, f)); return true;
    case FD::CPPTYPE_UINT32:
      out = static_cast<uint64_t>(rep ? r->GetRepeatedUInt32(m, f, i) : r->GetUInt32(m, f));
      return true;
    case FD::CPPTYPE_INT64: out = std::to_string(rep ? r->GetRepeatedInt64(m, f, i) : r->GetInt64(m, f)); return true;
    case FD::CPPTYPE_UINT64: out = std::to_string(rep ? r->GetRepeatedUInt64(m, f, i) : r->GetUInt64(m, f)); return true;
    case FD::CPPTYPE_DOUBLE: return double_to_tree(rep ? r->GetRepeatedDouble(m, f, i) : r->GetDouble(m, f), out);
    case FD::CPPTYPE_BOOL: out = rep ? r->GetRepeatedBool(m, f, i) : r->GetBool(m, f); return true;
    case FD::CPPTYPE_ENUM: {
      int n = rep ? r->GetRepeatedEnumValue(m, f, i) : r->GetEnumValue(m, f);
      const pb::EnumValueDescriptor* v = f->enum_type()->FindValueByNumber(n);
      if (!v || f->enum_type()->full_name() == "google.protobuf.NullValue") return false;
      out = v->name();
      return true;
    }
    case FD::CPPTYPE_STRING: {
      if (f->type() == FD::TYPE_BYTES) return false;  // base64: the slow path
      std::string scratch;
      const std::string& s = rep ? r->GetRepeatedStringReference(m, f, i, &scratch) : r->GetStringReference(m, f, &scratch);
      if (!result::valid_utf8(s)) return false;
      out = s;
      return true;
    }
    case FD::CPPTYPE_MESSAGE:
      return message_to_tree(rep ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), out);
    case FD::CPPTYPE_FLOAT: return false;  // printed as a float, read back as a double: left to the slow path
  }
  return false;
}

bool message_to_tree(const pb::Message& m, Json& out) {
  const pb::Descriptor* d = m.GetDescriptor();
  if (d->file()->package() == "google.protobuf") return wkt_to_tree(m, out);
  out = Json::object();
  std::vector<const FD*> fields;
  m.GetReflection()->ListFields(m, &fields);  // what the printer prints: set or non-default
  for (const FD* f : fields) {
    if (f->is_map() || f->is_extension()) return false;
    Json& slot = out[f->json_name()];
    if (f->is_repeated()) {
      int n = m.GetReflection()->FieldSize(m, f);
      slot = Json::array();
      for (int i = 0; i < n; ++i) {
        slot.push_back(nullptr);
        if (!field_to_tree(m, f, i, slot.back())) return false;
      }
    } else if (!field_to_tree(m, f, 0, slot)) {
      return false;
    }
  }
  return true;
}

// ---- tree -> message ----

// `checked`: the strings are known to be UTF-8 already (text_to_proto: nlohmann's
// lexer checked them), so they are not checked again.
bool tree_to_message(const Json& j, pb::Message& m, bool checked = false);

bool tree_to_value(const Json& j, pb::Value& v, bool checked = false);

bool tree_to_struct(const Json& j, pb::Struct& s, bool checked) {
  if (!j.is_object()) return false;
  auto& fields = *s.mutable_fields();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!checked && !result::valid_utf8(it.key())) return false;
    if (!tree_to_value(it.value(), fields[it.key()], checked)) return false;
  }
  return true;
}

bool tree_to_list(const Json& j, pb::ListValue& l, bool checked) {
  if (!j.is_array()) return false;
  for (const Json& e : j)
    if (!tree_to_value(e, *l.add_values(), checked)) return false;
  return true;
}

bool tree_to_value(const Json& j, pb::Value& v, bool checked) {
  switch (j.type()) {
    case Json::value_t::null: v.set_null_value(pb::NULL_VALUE); return true;
    case Json::value_t::boolean: v.set_bool_value(j.get<bool>()); return true;
    case Json::value_t::number_integer: {
      auto n = static_cast<double>(j.get<int64_t>());
      if (std::fabs(n) > kExactDoubleInt) return false;
      v.set_number_value(n);
      return true;
    }
    case Json::value_t::number_unsigned: {
      auto n = static_cast<double>(j.get<uint64_t>());
      if (n > kExactDoubleInt) return false;
      v.set_number_value(n);
      return true;
    }
    case Json::value_t::number_float: {
      double n = j.get<double>();
      if (!std::isfinite(n)) return false;  // nlohmann writes it as null
      v.set_number_value(n);
      return true;
    }
    case Json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      if (!checked && !result::valid_utf8(s)) return false;
      v.set_string_value(s);
      return true;
    }
    case Json::value_t::array: return tree_to_list(j, *v.mutable_list_value(), checked);
    case Json::value_t::object: return tree_to_struct(j, *v.mutable_struct_value(), checked);
    default: return false;
  }
}

bool tree_to_wkt(const Json& j, pb::Message& m, bool checked) {
  const pb::Descriptor* d = m.GetDescriptor();
  if (d == pb::Timestamp::descriptor()) {
    auto* t = dynamic_cast<pb::Timestamp*>(&m);
    if (!t || !j.is_string()) return false;
    pb::Timestamp parsed;
    if (!pb::util::TimeUtil::FromString(j.get_ref<const std::string&>(), &parsed)) return false;
    if (parsed.seconds() < pb::util::TimeUtil::kTimestampMinSeconds ||
        parsed.seconds() > pb::util::TimeUtil::kTimestampMaxSeconds)
      return false;
    *t = parsed;
    return true;
  }
  if (d == pb::Struct::descriptor()) {
    auto* s = dynamic_cast<pb::Struct*>(&m);
    return s && tree_to_struct(j, *s, checked);
  }
  if (d == pb::Value::descriptor()) {
    auto* v = dynamic_cast<pb::Value*>(&m);
    return v && !j.is_null() && tree_to_value(j, *v, checked);
  }
  if (d == pb::ListValue::descriptor()) {
    auto* l = dynamic_cast<pb::ListValue*>(&m);
    return l && tree_to_list(j, *l, checked);
  }
  return false;
}

// An integer member for an integer field, in the field's range [lo, hi].
bool integer_of(const Json& j, int64_t lo, uint64_t hi, int64_t& out_signed, uint64_t& out_unsigned) {
  if (j.is_number_unsigned()) {
    out_unsigned = j.get<uint64_t>();
    out_signed = static_cast<int64_t>(out_unsigned);
    return out_unsigned <= hi;
  }
  if (!j.is_number_integer()) return false;  // floats and strings: the slow path
  out_signed = j.get<int64_t>();
  out_unsigned = static_cast<uint64_t>(out_signed);
  return out_signed >= lo && (out_signed < 0 || out_unsigned <= hi);
}

// Sets (or adds, when repeated) one value of field `f`.
bool tree_to_field(const Json& j, pb::Message& m, const FD* f, bool checked = false) {
  const pb::Reflection* r = m.GetReflection();
  bool rep = f->is_repeated();
  int64_t s = 0;
  uint64_t u = 0;
  switch (f->cpp_type()) {
    case FD::CPPTYPE_INT32:
      if (!integer_of(j, INT32_MIN, INT32_MAX, s, u)) return false;
      rep ? r->AddInt32(&m, f, static_cast<int32_t>(s)) : r->SetInt32(&m, f, static_cast<int32_t>(s));
      return true;
    case FD::CPPTYPE_UINT32:
      if (!integer_of(j, 0, UINT32_MAX, s, u)) return false;
      rep ? r->AddUInt32(&m, f, static_cast<uint32_t>(u)) : r->SetUInt32(&m, f, static_cast<uint32_t>(u));
      return true;
    case FD::CPPTYPE_INT64:
      if (!integer_of(j, INT64_MIN, INT64_MAX, s, u)) return false;
      rep ? r->AddInt64(&m, f, s) : r->SetInt64(&m, f, s);
      return true;
    case FD::CPPTYPE_UINT64:
      if (!integer_of(j, 0, UINT64_MAX, s, u)) return false;
      rep ? r->AddUInt64(&m, f, u) : r->SetUInt64(&m, f, u);
      return true;
    case FD::CPPTYPE_DOUBLE: {
      if (!j.is_number()) return false;
      double d = j.get<double>();
      if (!std::isfinite(d)) return false;
      rep ? r->AddDouble(&m, f, d) : r->SetDouble(&m, f, d);
      return true;
    }
    case FD::CPPTYPE_BOOL:
      if (!j.is_boolean()) return false;
      rep ? r->AddBool(&m, f, j.get<bool>()) : r->SetBool(&m, f, j.get<bool>());
      return true;
    case FD::CPPTYPE_ENUM: {
      if (!j.is_string()) return false;
      const pb::EnumValueDescriptor* v = f->enum_type()->FindValueByName(j.get_ref<const std::string&>());
      if (!v) return false;  // an unknown name: the slow path decides
      rep ? r->AddEnumValue(&m, f, v->number()) : r->SetEnumValue(&m, f, v->number());
      return true;
    }
    case FD::CPPTYPE_STRING: {
      if (f->type() == FD::TYPE_BYTES || !j.is_string()) return false;
      const auto& str = j.get_ref<const std::string&>();
      if (!checked && !result::valid_utf8(str)) return false;
      rep ? r->AddString(&m, f, str) : r->SetString(&m, f, str);
      return true;
    }
    case FD::CPPTYPE_MESSAGE:
      return tree_to_message(j, rep ? *r->AddMessage(&m, f) : *r->MutableMessage(&m, f), checked);
    case FD::CPPTYPE_FLOAT: return false;
  }
  return false;
}

// The field a member names: its JSON name or its proto name, as the parser accepts.
const FD* field_named(const pb::Descriptor& d, const std::string& key) {
  const FD* f = d.FindFieldByCamelcaseName(key);
  if (f && f->json_name() == key) return f;
  f = d.FindFieldByName(key);
  return f;
}

bool tree_to_message(const Json& j, pb::Message& m, bool checked) {
  const pb::Descriptor* d = m.GetDescriptor();
  if (d->file()->package() == "google.protobuf") return tree_to_wkt(j, m, checked);
  if (!j.is_object() || d->field_count() > 64) return false;
  const pb::Reflection* r = m.GetReflection();
  uint64_t seen = 0;  // one bit per field index: a field named twice (json and proto name) is the slow path's
  for (auto it = j.begin(); it != j.end(); ++it) {
    const FD* f = field_named(*d, it.key());
    const Json& v = it.value();
    if (!f || f->is_map() || v.is_null()) return false;
    uint64_t bit = uint64_t{1} << f->index();
    if (seen & bit) return false;
    seen |= bit;
    const pb::OneofDescriptor* oneof = f->real_containing_oneof();
    if (oneof && r->HasOneof(m, oneof)) return false;  // two members of one oneof: an error there
    if (f->is_repeated()) {
      if (!v.is_array()) return false;
      for (const Json& e : v)
        if (e.is_null() || !tree_to_field(e, m, f, checked)) return false;
    } else if (!tree_to_field(v, m, f, checked)) {
      return false;
    }
  }
  return true;
}

// ---- JSON text -> message, no tree ----

// nlohmann's SAX events set the message as tree_to_message would set it
// from Json::parse of the same text. Any event this does not handle exactly
// answers false: sax_parse stops and the caller takes the tree path, so
// what is unusual costs the old price and never a different answer. Scalars
// go through tree_to_field / tree_to_value (one small Json each), with the
// UTF-8 check left out: the lexer has already refused invalid UTF-8.
class ProtoSax {
 public:
  explicit ProtoSax(pb::Message& root) : root_(root) { stack_.reserve(16); }

  bool null() { return scalar(Json(nullptr)); }
  bool boolean(bool b) { return scalar(Json(b)); }
  bool number_integer(Json::number_integer_t v) { return scalar(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return scalar(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return scalar(Json(v)); }
  bool string(Json::string_t& v) { return scalar(Json(std::move(v))); }
  bool binary(Json::binary_t&) { return false; }

  bool start_object(std::size_t) {
    if (stack_.empty()) {
      if (started_) return false;
      started_ = true;
      return open_message(&root_);
    }
    Frame& t = stack_.back();
    switch (t.kind) {
      case Kind::kMessage: {
        const FD* f = t.field;
        if (!f || f->is_repeated() || f->cpp_type() != FD::CPPTYPE_MESSAGE || !oneof_free(*t.msg, f)) return false;
        return open_message(t.msg->GetReflection()->MutableMessage(t.msg, f));
      }
      case Kind::kRepeated:
        if (t.field->cpp_type() != FD::CPPTYPE_MESSAGE) return false;
        return open_message(t.msg->GetReflection()->AddMessage(t.msg, t.field));
      case Kind::kStruct: return push_struct((*t.st->mutable_fields())[t.key].mutable_struct_value());
      case Kind::kList: return push_struct(t.list->add_values()->mutable_struct_value());
    }
    return false;
  }

  bool key(Json::string_t& k) {
    Frame& t = stack_.back();
    if (t.kind == Kind::kMessage) {
      const FD* f = field_named(*t.msg->GetDescriptor(), k);
      if (!f || f->is_map()) return false;
      uint64_t bit = uint64_t{1} << f->index();
      if (t.seen & bit) return false;  // named twice: the tree keeps one of them
      t.seen |= bit;
      t.field = f;
      return true;
    }
    if (t.kind != Kind::kStruct || t.st->fields().count(k) > 0) return false;
    t.key = std::move(k);
    return true;
  }

  bool end_object() {
    stack_.pop_back();
    return true;
  }

  bool start_array(std::size_t) {
    if (stack_.empty()) return false;
    Frame& t = stack_.back();
    switch (t.kind) {
      case Kind::kMessage: {
        const FD* f = t.field;
        if (!f) return false;
        if (f->is_repeated()) return push(Frame{Kind::kRepeated, t.msg, f});
        if (f->cpp_type() != FD::CPPTYPE_MESSAGE || !oneof_free(*t.msg, f)) return false;
        pb::Message* sub = t.msg->GetReflection()->MutableMessage(t.msg, f);
        if (sub->GetDescriptor() == pb::ListValue::descriptor()) {
          auto* l = dynamic_cast<pb::ListValue*>(sub);
          return l && push_list(l);
        }
        if (sub->GetDescriptor() == pb::Value::descriptor()) {
          auto* v = dynamic_cast<pb::Value*>(sub);
          return v && push_list(v->mutable_list_value());
        }
        return false;
      }
      case Kind::kRepeated: return false;
      case Kind::kStruct: return push_list((*t.st->mutable_fields())[t.key].mutable_list_value());
      case Kind::kList: return push_list(t.list->add_values()->mutable_list_value());
    }
    return false;
  }

  bool end_array() {
    stack_.pop_back();
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

  bool complete() const { return started_ && stack_.empty(); }

 private:
  enum class Kind { kMessage, kRepeated, kStruct, kList };
  struct Frame {
    explicit Frame(Kind k, pb::Message* m = nullptr, const FD* f = nullptr) : kind(k), msg(m), field(f) {}
    Kind kind;
    pb::Message* msg = nullptr;  // kMessage: the message; kRepeated: the field's owner
    const FD* field = nullptr;   // kMessage: the field the last key named; kRepeated: the field
    uint64_t seen = 0;           // kMessage: one bit per field index named
    pb::Struct* st = nullptr;    // kStruct, and the key of the member to come
    std::string key;
    pb::ListValue* list = nullptr;  // kList
  };

  bool push(Frame f) {
    if (stack_.size() >= kMaxDepth) return false;
    stack_.push_back(std::move(f));
    return true;
  }
  bool push_struct(pb::Struct* s) {
    Frame f{Kind::kStruct};
    f.st = s;
    return push(std::move(f));
  }
  bool push_list(pb::ListValue* l) {
    Frame f{Kind::kList};
    f.list = l;
    return push(std::move(f));
  }

  // Two members of one oneof: an error for the parser (tree_to_message).
  static bool oneof_free(const pb::Message& m, const FD* f) {
    const pb::OneofDescriptor* oneof = f->real_containing_oneof();
    return !oneof || !m.GetReflection()->HasOneof(m, oneof);
  }

  // An object for message `m`: as tree_to_message / tree_to_wkt take one.
  bool open_message(pb::Message* m) {
    const pb::Descriptor* d = m->GetDescriptor();
    if (d->file()->package() == "google.protobuf") {
      if (d == pb::Struct::descriptor()) {
        auto* s = dynamic_cast<pb::Struct*>(m);
        return s && push_struct(s);
      }
      if (d == pb::Value::descriptor()) {
        auto* v = dynamic_cast<pb::Value*>(m);
        return v && push_struct(v->mutable_struct_value());
      }
      return false;  // a Timestamp or ListValue given an object; other types: the tree path
    }
    if (d->field_count() > 64) return false;
    return push(Frame{Kind::kMessage, m});
  }

  bool scalar(const Json& j) {
    if (stack_.empty()) return false;
    Frame& t = stack_.back();
    switch (t.kind) {
      case Kind::kMessage: {
        const FD* f = t.field;
        if (!f || f->is_repeated() || j.is_null() || !oneof_free(*t.msg, f)) return false;
        return tree_to_field(j, *t.msg, f, true);
      }
      case Kind::kRepeated: return !j.is_null() && tree_to_field(j, *t.msg, t.field, true);
      case Kind::kStruct: return tree_to_value(j, (*t.st->mutable_fields())[t.key], true);
      case Kind::kList: return tree_to_value(j, *t.list->add_values(), true);
    }
    return false;
  }

  static constexpr size_t kMaxDepth = 64;
  pb::Message& root_;
  std::vector<Frame> stack_;
  bool started_ = false;
};

// task_json(r, view) given to tree_to_message, without the tree: the same
// members in the same checks (task_store.cpp task_json, model::make_task).
bool task_to_message(const TaskRecord& r, const TaskView& view, pb::Message& m) {
  // A finished task keeps text, not trees (task_store.hpp TaskText); this
  // is the slow path, after task_wire refused.
  if (r.text.packed()) return tree_to_message(task_json(r, view), m);
  const pb::Descriptor* d = m.GetDescriptor();
  const pb::Reflection* refl = m.GetReflection();
  const FD* id = d->FindFieldByName("id");
  const FD* context_id = d->FindFieldByName("context_id");
  const FD* status = d->FindFieldByName("status");
  const FD* artifacts = d->FindFieldByName("artifacts");
  const FD* history = d->FindFieldByName("history");
  if (!id || !context_id || !status || !artifacts || !history || id->cpp_type() != FD::CPPTYPE_STRING ||
      context_id->cpp_type() != FD::CPPTYPE_STRING || status->is_repeated() || !artifacts->is_repeated() ||
      !history->is_repeated() || status->cpp_type() != FD::CPPTYPE_MESSAGE ||
      artifacts->cpp_type() != FD::CPPTYPE_MESSAGE || history->cpp_type() != FD::CPPTYPE_MESSAGE)
    return false;
  if (!r.id.empty()) {
    if (!result::valid_utf8(r.id)) return false;
    refl->SetString(&m, id, r.id);
  }
  if (!r.context_id.empty()) {
    if (!result::valid_utf8(r.context_id)) return false;
    refl->SetString(&m, context_id, r.context_id);
  }
  if (!r.status.is_null() && !tree_to_message(r.status, *refl->MutableMessage(&m, status))) return false;
  if (view.artifacts) {
    for (const Json& a : r.artifacts)
      if (a.is_null() || !tree_to_message(a, *refl->AddMessage(&m, artifacts))) return false;
  }
  size_t n = view.history_shown(r.history.size());
  for (size_t i = r.history.size() - n; i < r.history.size(); ++i)
    if (r.history[i].is_null() || !tree_to_message(r.history[i], *refl->AddMessage(&m, history))) return false;
  return true;
}

}  // namespace prototree

std::optional<nlohmann::json> proto_to_tree(const google::protobuf::Message& msg) {
  nlohmann::json out;
  if (!prototree::message_to_tree(msg, out)) return std::nullopt;
  return out;
}

bool tree_to_proto(const nlohmann::json& value, google::protobuf::Message& msg) {
  try {
    return prototree::tree_to_message(value, msg);
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

bool text_to_proto(std::string_view text, google::protobuf::Message& msg) {
  try {
    prototree::ProtoSax sax(msg);
    return nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &sax) && sax.complete();
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

bool task_to_proto(const TaskRecord& record, const TaskView& view, google::protobuf::Message& task) {
  try {
    return prototree::task_to_message(record, view, task);
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

}  // namespace a2a::agent
