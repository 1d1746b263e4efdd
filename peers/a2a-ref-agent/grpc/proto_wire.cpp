// JSON (text or tree) <-> protobuf wire bytes by per-type tables: the
// transcoder behind text_to_wire, tree_to_wire, task_to_wire and
// wire_to_tree (proto_tree.hpp). Moved out of proto_tree.cpp, which keeps
// the reflection path; what both use is in proto_tree_internal.hpp.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/timestamp.pb.h>
#include <google/protobuf/util/time_util.h>

#include "peers/a2a-ref-agent/grpc/proto_tree.hpp"
#include "peers/a2a-ref-agent/grpc/proto_tree_internal.hpp"
#include "peers/a2a-ref-agent/task_store.hpp"
#include "runner/core/escape.hpp"
#include "runner/result/utf8.hpp"

namespace a2a::agent {
namespace prototree {

// docs/grpc.md, "Conversion": per message type a table built once (names,
// numbers, kinds, enum names, nested tables); the encoder writes each
// message's fields in field-number order (map entries by key), so its bytes
// are protobuf's own deterministic serialization of the message
// tree_to_message would set. Whatever it does not handle exactly answers
// false, and the caller takes the reflection path (proto_tree.cpp).
namespace wire {

enum class Kind : uint8_t {
  kString, kBool, kInt32, kUInt32, kInt64, kUInt64, kEnum,
  kMessage, kTimestamp, kStruct, kValue, kList,
  kOther  // bytes, floats, maps, groups, other well-known types: refused
};

constexpr int kVarint = 0;
constexpr int kFixed64 = 1;
constexpr int kLen = 2;
constexpr size_t kMaxDepth = 64;

struct EnumTable {
  std::vector<std::pair<std::string, int>> values;  // in declaration order
  // FindValueByName / FindValueByNumber (the first declared of a number).
  bool number_of(std::string_view name, int& n) const {
    for (const auto& v : values)
      if (v.first == name) {
        n = v.second;
        return true;
      }
    return false;
  }
  const std::string* name_of(int n) const {
    for (const auto& v : values)
      if (v.second == n) return &v.first;
    return nullptr;
  }
};

struct MsgTable;

struct FieldInfo {
  std::string json_name;
  uint32_t number = 0;
  int index = 0;
  int oneof = -1;  // index of its real oneof
  Kind kind = Kind::kOther;
  bool repeated = false;
  bool presence = false;  // set (and written, listed) even when it holds the default
  const MsgTable* msg = nullptr;
  const EnumTable* en = nullptr;
};

struct MsgTable {
  bool usable = true;              // tree_to_message takes at most 64 fields
  std::vector<FieldInfo> fields;   // by number
  std::vector<std::pair<std::string, int>> keys;  // the member names field_named accepts

  const FieldInfo* by_key(std::string_view k) const {
    for (const auto& kv : keys)
      if (kv.first == k) return &fields[static_cast<size_t>(kv.second)];
    return nullptr;
  }
  const FieldInfo* by_number(uint64_t n) const {
    for (const auto& f : fields)
      if (f.number == n) return &f;
    return nullptr;
  }
};

// Tables live for the process; readers take an immutable snapshot of the
// descriptor -> table map without a lock, a miss builds under the mutex.
using Snapshot = std::unordered_map<const pb::Descriptor*, const MsgTable*>;
std::mutex g_build_mu;
std::atomic<const Snapshot*> g_snapshot{nullptr};

class Builder {
 public:
  explicit Builder(Snapshot& s) : snap_(s) {}

  const MsgTable* build(const pb::Descriptor* d) {
    auto it = snap_.find(d);
    if (it != snap_.end()) return it->second;
    auto owned = std::make_unique<MsgTable>();
    MsgTable* t = owned.get();
    tables().push_back(std::move(owned));
    snap_[d] = t;  // before the fields: a type may contain itself
    if (d->field_count() > 64) t->usable = false;
    std::vector<const FD*> fs;
    for (int i = 0; i < d->field_count(); ++i) fs.push_back(d->field(i));
    std::sort(fs.begin(), fs.end(), [](const FD* a, const FD* b) { return a->number() < b->number(); });
    for (const FD* f : fs) {
      FieldInfo fi;
      fi.json_name = f->json_name();
      fi.number = static_cast<uint32_t>(f->number());
      fi.index = f->index();
      if (const pb::OneofDescriptor* o = f->real_containing_oneof()) fi.oneof = o->index();
      fi.repeated = f->is_repeated();
      fi.presence = f->has_presence();
      fi.kind = kind_of(f, fi);
      t->fields.push_back(std::move(fi));
    }
    // field_named: the camelCase name when it is the JSON name, else the proto name.
    for (size_t i = 0; i < fs.size(); ++i) {
      const FD* f = fs[i];
      if (f->camelcase_name() == f->json_name()) t->keys.emplace_back(f->json_name(), static_cast<int>(i));
    }
    for (size_t i = 0; i < fs.size(); ++i) {
      const FD* f = fs[i];
      bool taken = false;
      for (const auto& kv : t->keys) taken = taken || kv.first == f->name();
      if (!taken) t->keys.emplace_back(f->name(), static_cast<int>(i));
    }
    return t;
  }

 private:
  static std::vector<std::unique_ptr<MsgTable>>& tables() {
    static std::vector<std::unique_ptr<MsgTable>> all;  // under g_build_mu
    return all;
  }
  static std::vector<std::unique_ptr<EnumTable>>& enums() {
    static std::vector<std::unique_ptr<EnumTable>> all;
    return all;
  }
  const EnumTable* enum_table(const pb::EnumDescriptor* e) {
    auto it = enum_tables_.find(e);
    if (it != enum_tables_.end()) return it->second;
    auto owned = std::make_unique<EnumTable>();
    for (int i = 0; i < e->value_count(); ++i) owned->values.emplace_back(e->value(i)->name(), e->value(i)->number());
    const EnumTable* t = owned.get();
    enums().push_back(std::move(owned));
    enum_tables_[e] = t;
    return t;
  }

  Kind kind_of(const FD* f, FieldInfo& fi) {
    if (f->is_map() || f->is_extension()) return Kind::kOther;
    switch (f->type()) {
      case FD::TYPE_STRING: return Kind::kString;
      case FD::TYPE_BOOL: return Kind::kBool;
      case FD::TYPE_INT32: return Kind::kInt32;
      case FD::TYPE_UINT32: return Kind::kUInt32;
      case FD::TYPE_INT64: return Kind::kInt64;
      case FD::TYPE_UINT64: return Kind::kUInt64;
      case FD::TYPE_ENUM:
        if (f->enum_type()->full_name() == "google.protobuf.NullValue") return Kind::kOther;
        fi.en = enum_table(f->enum_type());
        return Kind::kEnum;
      case FD::TYPE_MESSAGE: {
        const pb::Descriptor* m = f->message_type();
        if (m == pb::Timestamp::descriptor()) return Kind::kTimestamp;
        if (m == pb::Struct::descriptor()) return Kind::kStruct;
        if (m == pb::Value::descriptor()) return Kind::kValue;
        if (m == pb::ListValue::descriptor()) return Kind::kList;
        if (m->file()->package() == "google.protobuf") return Kind::kOther;
        fi.msg = build(m);
        return Kind::kMessage;
      }
      default: return Kind::kOther;  // bytes, double, float, fixed, sint, group
    }
  }

  Snapshot& snap_;
  std::unordered_map<const pb::EnumDescriptor*, const EnumTable*> enum_tables_;
};

// The table of `d`; nullptr for the well-known types (the tree path's wkt functions).
const MsgTable* table_of(const pb::Descriptor& d) {
  // The type this thread asked for last (a server asks for a few, over and over).
  thread_local const pb::Descriptor* last_type = nullptr;
  thread_local const MsgTable* last_table = nullptr;
  if (&d == last_type) return last_table;
  if (d.file()->package() == "google.protobuf") return nullptr;
  const Snapshot* s = g_snapshot.load(std::memory_order_acquire);
  if (s) {
    auto it = s->find(&d);
    if (it != s->end()) {
      last_type = &d;
      last_table = it->second;
      return it->second;
    }
  }
  std::lock_guard<std::mutex> lk(g_build_mu);
  s = g_snapshot.load(std::memory_order_acquire);
  auto next = std::make_unique<Snapshot>(s ? *s : Snapshot{});
  const MsgTable* t = Builder(*next).build(&d);
  // The old snapshot may still be read: kept (one per type first seen, a handful).
  static std::vector<std::unique_ptr<Snapshot>> kept;
  g_snapshot.store(next.get(), std::memory_order_release);
  kept.push_back(std::move(next));
  return t;
}

// ---- writing ----

void put_varint(std::string& s, uint64_t v) {
  char b[10];
  int n = 0;
  while (v >= 0x80) {
    b[n++] = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  b[n++] = static_cast<char>(v);
  s.append(b, static_cast<size_t>(n));
}
void put_tag(std::string& s, uint32_t number, int wt) { put_varint(s, (uint64_t{number} << 3) | static_cast<uint64_t>(wt)); }
void put_len(std::string& s, uint32_t number, std::string_view bytes) {
  put_tag(s, number, kLen);
  put_varint(s, bytes.size());
  s.append(bytes);
}
void put_double(std::string& s, uint32_t number, double d) {
  put_tag(s, number, kFixed64);
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(bits >> (8 * i));
  s.append(b, 8);
}

// One message being written: its bytes, as segments to be put in order.
struct Seg {
  uint32_t begin, end;
  uint32_t order;            // field number
  uint32_t key_off, key_len;  // map entries: the key's bytes in buf
};
struct Level {
  std::string buf;
  std::vector<Seg> segs;
  std::vector<Seg> sorted;
  void clear() {
    buf.clear();
    segs.clear();
  }
};

// Scratch per nesting depth, kept by each thread from call to call.
struct Levels {
  std::vector<std::unique_ptr<Level>> at;
  Level& operator[](size_t d) {
    while (at.size() <= d) at.push_back(std::make_unique<Level>());
    return *at[d];
  }
};
thread_local Levels t_levels;

// After a large message: the scratch a thread keeps goes back to a small size.
constexpr size_t kKeptScratch = 256u << 10;
void trim_levels() {
  for (auto& l : t_levels.at) {
    if (l->buf.capacity() > kKeptScratch) std::string().swap(l->buf);
    if (l->segs.capacity() > 4096) std::vector<Seg>().swap(l->segs);
    if (l->sorted.capacity() > 4096) std::vector<Seg>().swap(l->sorted);
  }
}

// Appends level `l`'s segments to `dst` ordered by field number (stable),
// or by key (map entries; false for a key named twice).
bool flush(Level& l, std::string& dst, bool by_key) {
  auto less = [&](const Seg& a, const Seg& b) {
    if (!by_key) return a.order < b.order;
    return std::string_view(l.buf.data() + a.key_off, a.key_len) < std::string_view(l.buf.data() + b.key_off, b.key_len);
  };
  bool in_order = true;
  for (size_t i = 1; i < l.segs.size() && in_order; ++i) in_order = !less(l.segs[i], l.segs[i - 1]);
  if (in_order && !by_key) {
    dst.append(l.buf);
    return true;
  }
  const std::vector<Seg>* segs = &l.segs;
  if (!in_order) {
    // Insertion sort (stable, no allocation): a message has a handful of segments.
    // Many map entries out of order (not the core's text): stable_sort.
    l.sorted.clear();
    if (l.segs.size() > 32) {
      l.sorted = l.segs;
      std::stable_sort(l.sorted.begin(), l.sorted.end(), less);
    } else {
      for (const Seg& s : l.segs) {
        l.sorted.push_back(s);
        for (size_t i = l.sorted.size() - 1; i > 0 && less(l.sorted[i], l.sorted[i - 1]); --i)
          std::swap(l.sorted[i], l.sorted[i - 1]);
      }
    }
    segs = &l.sorted;
  }
  if (by_key) {
    for (size_t i = 1; i < segs->size(); ++i)
      if (!less((*segs)[i - 1], (*segs)[i])) return false;  // equal keys
    if (in_order) {
      dst.append(l.buf);
      return true;
    }
  }
  for (const Seg& s : *segs) dst.append(l.buf, s.begin, s.end - s.begin);
  return true;
}

// Writes tag + length + level `l` (flushed) into `dst`.
bool put_level(std::string& dst, uint32_t number, Level& l, bool by_key) {
  put_tag(dst, number, kLen);
  put_varint(dst, l.buf.size());
  return flush(l, dst, by_key);
}

// ---- sources: JSON text (our own tokenizer) or the nlohmann tree ----

enum class T : uint8_t { kObject, kArray, kString, kNumber, kTrue, kFalse, kNull, kBad };

// A JSON number as nlohmann holds it: unsigned when it has no sign, fraction
// or exponent, signed with a sign, else a double.
struct Num {
  enum { kUnsigned, kSigned, kFloat } kind = kUnsigned;
  uint64_t u = 0;
  int64_t i = 0;
  double d = 0;
};

// JSON text, strictly as nlohmann's parser takes it (RFC 8259, UTF-8); what
// it cannot read exactly (integers out of 64 bits, numbers out of double
// range) is refused, and the caller falls back.
class TextSource {
 public:
  static constexpr bool kChecked = true;  // strings are valid UTF-8
  explicit TextSource(std::string_view s)
      : p_(s.data()), e_(s.data() + s.size()) {}

  T type() {
    ws();
    if (p_ == e_) return T::kBad;
    switch (*p_) {
      case '{': return T::kObject;
      case '[': return T::kArray;
      case '"': return T::kString;
      case 't': return T::kTrue;
      case 'f': return T::kFalse;
      case 'n': return T::kNull;
      case '-': case '0': case '1': case '2': case '3': case '4':
      case '5': case '6': case '7': case '8': case '9': return T::kNumber;
      default: return T::kBad;
    }
  }

  // f(key) for each member, at its value; f consumes the value (and is done
  // with the key before it does).
  template <class F>
  bool members(F&& f) {
    if (type() != T::kObject) return false;
    ++p_;
    ws();
    if (p_ != e_ && *p_ == '}') {
      ++p_;
      return true;
    }
    for (;;) {
      ws();
      if (p_ == e_ || *p_ != '"') return false;
      std::string_view key;
      if (!string_token(key, key_scratch_)) return false;
      ws();
      if (p_ == e_ || *p_ != ':') return false;
      ++p_;
      if (!f(key)) return false;
      ws();
      if (p_ == e_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != '}') return false;
      ++p_;
      return true;
    }
  }

  template <class F>
  bool elements(F&& f) {
    if (type() != T::kArray) return false;
    ++p_;
    ws();
    if (p_ != e_ && *p_ == ']') {
      ++p_;
      return true;
    }
    for (;;) {
      if (!f()) return false;
      ws();
      if (p_ == e_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != ']') return false;
      ++p_;
      return true;
    }
  }

  bool string(std::string_view& out) { return type() == T::kString && string_token(out, str_scratch_); }

  bool boolean(bool& b) {
    T t = type();
    if (t != T::kTrue && t != T::kFalse) return false;
    b = t == T::kTrue;
    return word(b ? "true" : "false");
  }
  bool null() { return type() == T::kNull && word("null"); }

  bool number(Num& n) {
    if (type() != T::kNumber) return false;
    const char* start = p_;
    bool neg = *p_ == '-';
    if (neg) ++p_;
    if (p_ == e_ || !digit(*p_)) return false;
    bool integral = true;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != e_ && digit(*p_)) ++p_;
    }
    if (p_ != e_ && *p_ == '.') {
      integral = false;
      ++p_;
      if (p_ == e_ || !digit(*p_)) return false;
      while (p_ != e_ && digit(*p_)) ++p_;
    }
    if (p_ != e_ && (*p_ == 'e' || *p_ == 'E')) {
      integral = false;
      ++p_;
      if (p_ != e_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == e_ || !digit(*p_)) return false;
      while (p_ != e_ && digit(*p_)) ++p_;
    }
    if (integral) {
      uint64_t v = 0;
      for (const char* q = start + (neg ? 1 : 0); q != p_; ++q) {
        uint64_t d = static_cast<uint64_t>(*q - '0');
        if (v > (UINT64_MAX - d) / 10) return false;  // nlohmann reads it as a double: refused
        v = v * 10 + d;
      }
      if (!neg) {
        n.kind = Num::kUnsigned;
        n.u = v;
        return true;
      }
      if (v > uint64_t{1} << 63) return false;
      n.kind = Num::kSigned;
      n.i = v == uint64_t{1} << 63 ? INT64_MIN : -static_cast<int64_t>(v);
      return true;
    }
    auto r = std::from_chars(start, p_, n.d);
    if (r.ec != std::errc() || r.ptr != p_ || !std::isfinite(n.d)) return false;
    n.kind = Num::kFloat;
    return true;
  }

  bool at_end() {
    ws();
    return p_ == e_;
  }

 private:
  static bool digit(char c) { return c >= '0' && c <= '9'; }
  void ws() {
    while (p_ != e_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool word(std::string_view w) {
    if (static_cast<size_t>(e_ - p_) < w.size() || std::string_view(p_, w.size()) != w) return false;
    p_ += w.size();
    return true;
  }
  bool hex4(uint32_t& cp) {
    if (e_ - p_ < 4) return false;
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      int h = core::hex_digit_value(p_[i]);
      if (h < 0) return false;
      cp = cp * 16 + static_cast<uint32_t>(h);
    }
    p_ += 4;
    return true;
  }

  // At '"': the string, a view of the text when it has no escapes.
  bool string_token(std::string_view& out, std::string& scratch) {
    ++p_;
    const char* s = p_;
    bool ascii = true;
    while (p_ != e_) {
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out = std::string_view(s, static_cast<size_t>(p_ - s));
        ++p_;
        return ascii || result::valid_utf8(out);
      }
      if (c == '\\') break;
      if (c < 0x20) return false;
      if (c >= 0x80) ascii = false;
      ++p_;
    }
    if (p_ == e_) return false;
    scratch.assign(s, static_cast<size_t>(p_ - s));
    while (p_ != e_) {
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        out = scratch;
        return ascii || result::valid_utf8(out);
      }
      if (c < 0x20) return false;
      if (c >= 0x80) ascii = false;
      if (c != '\\') {
        scratch.push_back(static_cast<char>(c));
        ++p_;
        continue;
      }
      if (++p_ == e_) return false;
      char esc = *p_++;
      switch (esc) {
        case '"': scratch.push_back('"'); break;
        case '\\': scratch.push_back('\\'); break;
        case '/': scratch.push_back('/'); break;
        case 'b': scratch.push_back('\b'); break;
        case 'f': scratch.push_back('\f'); break;
        case 'n': scratch.push_back('\n'); break;
        case 'r': scratch.push_back('\r'); break;
        case 't': scratch.push_back('\t'); break;
        case 'u': {
          uint32_t cp;
          if (!hex4(cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a lone low surrogate
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t lo;
            if (e_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
            p_ += 2;
            if (!hex4(lo) || lo < 0xDC00 || lo > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          result::append_utf8(scratch, static_cast<char32_t>(cp));
          break;
        }
        default: return false;
      }
    }
    return false;
  }

  const char* p_;
  const char* e_;
  std::string key_scratch_;
  std::string str_scratch_;
};

// The nlohmann tree; strings are checked for UTF-8 where tree_to_message checks them.
class TreeSource {
 public:
  static constexpr bool kChecked = false;
  explicit TreeSource(const Json& j) : cur_(&j) {}

  T type() const {
    switch (cur_->type()) {
      case Json::value_t::object: return T::kObject;
      case Json::value_t::array: return T::kArray;
      case Json::value_t::string: return T::kString;
      case Json::value_t::boolean: return cur_->get<bool>() ? T::kTrue : T::kFalse;
      case Json::value_t::number_integer:
      case Json::value_t::number_unsigned:
      case Json::value_t::number_float: return T::kNumber;
      case Json::value_t::null: return T::kNull;
      default: return T::kBad;
    }
  }

  template <class F>
  bool members(F&& f) {
    if (!cur_->is_object()) return false;
    const Json* self = cur_;
    for (auto it = self->begin(); it != self->end(); ++it) {
      cur_ = &it.value();
      bool ok = f(std::string_view(it.key()));
      cur_ = self;
      if (!ok) return false;
    }
    return true;
  }

  template <class F>
  bool elements(F&& f) {
    if (!cur_->is_array()) return false;
    const Json* self = cur_;
    for (const Json& e : *self) {
      cur_ = &e;
      bool ok = f();
      cur_ = self;
      if (!ok) return false;
    }
    return true;
  }

  bool string(std::string_view& out) {
    if (!cur_->is_string()) return false;
    out = cur_->get_ref<const std::string&>();
    return true;
  }
  bool boolean(bool& b) {
    if (!cur_->is_boolean()) return false;
    b = cur_->get<bool>();
    return true;
  }
  bool null() const { return cur_->is_null(); }
  bool number(Num& n) const {
    switch (cur_->type()) {
      case Json::value_t::number_unsigned: n.kind = Num::kUnsigned; n.u = cur_->get<uint64_t>(); return true;
      case Json::value_t::number_integer: n.kind = Num::kSigned; n.i = cur_->get<int64_t>(); return true;
      case Json::value_t::number_float: n.kind = Num::kFloat; n.d = cur_->get<double>(); return true;
      default: return false;
    }
  }

 private:
  const Json* cur_;
};

// ---- the encoder ----

// integer_of: an integer in [lo, hi]; floats refused.
bool integer_in(const Num& n, int64_t lo, uint64_t hi, uint64_t& bits) {
  if (n.kind == Num::kUnsigned) {
    bits = n.u;
    return n.u <= hi;
  }
  if (n.kind != Num::kSigned) return false;
  bits = static_cast<uint64_t>(n.i);
  return n.i >= lo && (n.i < 0 || static_cast<uint64_t>(n.i) <= hi);
}

// tree_to_value's number: a double, integers only up to 2^53 in size.
bool value_number(const Num& n, double& d) {
  switch (n.kind) {
    case Num::kUnsigned: d = static_cast<double>(n.u); return d <= kExactDoubleInt;
    case Num::kSigned: d = static_cast<double>(n.i); return std::fabs(d) <= kExactDoubleInt;
    case Num::kFloat: d = n.d; return std::isfinite(d);
  }
  return false;
}

// "YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z", the form the core writes: the seconds
// and nanos TimeUtil::FromString gives for it. False for any other form
// (offsets, more digits, ...), which the caller hands to FromString.
bool utc_timestamp(std::string_view s, int64_t& seconds, int32_t& nanos) {
  if (s.size() < 20 || s.size() > 30 || s.back() != 'Z') return false;
  auto num = [&](size_t at, size_t len, int& out) {
    out = 0;
    for (size_t i = at; i < at + len; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  int y, mo, d, h, mi, se;
  if (!num(0, 4, y) || s[4] != '-' || !num(5, 2, mo) || s[7] != '-' || !num(8, 2, d) || s[10] != 'T' ||
      !num(11, 2, h) || s[13] != ':' || !num(14, 2, mi) || s[16] != ':' || !num(17, 2, se))
    return false;
  size_t frac = s.size() - 20;  // the fraction with its dot, before the 'Z'
  nanos = 0;
  if (frac > 0) {
    if (frac < 2 || frac > 10 || s[19] != '.') return false;
    int digits = 0;
    if (!num(20, frac - 1, digits)) return false;
    nanos = digits;
    for (size_t i = frac - 1; i < 9; ++i) nanos *= 10;
  } else if (s[19] != 'Z') {
    return false;
  }
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > kDays[mo - 1] + (mo == 2 && leap ? 1 : 0) || h > 23 || mi > 59 ||
      se > 59)
    return false;
  // Days since 1970-01-01 of a proleptic Gregorian date (civil to days).
  int64_t yy = y - (mo <= 2 ? 1 : 0);
  int64_t era = yy / 400;  // yy >= 0 here
  int64_t yoe = yy - era * 400;
  int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = era * 146097 + doe - 719468;
  seconds = days * 86400 + h * 3600 + mi * 60 + se;
  return true;
}

template <class Src>
class Encoder {
 public:
  explicit Encoder(Src& src) : src_(src) {}

  // The fields of a message of table `t` into level `depth`.
  bool message(const MsgTable& t, size_t depth) {
    if (!t.usable || depth >= kMaxDepth || src_.type() != T::kObject) return false;
    Level& l = t_levels[depth];
    l.clear();
    uint64_t seen = 0, oneofs = 0;
    return src_.members([&](std::string_view key) {
      const FieldInfo* f = t.by_key(key);
      if (!f || f->kind == Kind::kOther) return false;
      uint64_t bit = uint64_t{1} << f->index;
      if (seen & bit) return false;
      seen |= bit;
      if (src_.type() == T::kNull) return false;
      if (f->oneof >= 0) {
        uint64_t ob = uint64_t{1} << f->oneof;
        if (oneofs & ob) return false;
        oneofs |= ob;
      }
      auto begin = static_cast<uint32_t>(l.buf.size());
      if (f->repeated) {
        if (!repeated(*f, depth, l.buf)) return false;
      } else if (!single(*f, depth, l.buf, f->presence)) {
        return false;
      }
      auto end = static_cast<uint32_t>(l.buf.size());
      if (end != begin) l.segs.push_back(Seg{begin, end, f->number, 0, 0});
      return true;
    });
  }

  // Struct entries into level `depth`.
  bool struct_body(size_t depth) {
    if (depth >= kMaxDepth || src_.type() != T::kObject) return false;
    Level& l = t_levels[depth];
    l.clear();
    return src_.members([&](std::string_view key) {
      if (!Src::kChecked && !result::valid_utf8(key)) return false;
      auto begin = static_cast<uint32_t>(l.buf.size());
      // The key is copied before the value is read (the text's scratch is reused).
      std::string& b = l.buf;
      size_t key_field = 1 + varint_size(key.size()) + key.size();
      b.push_back('\x0a');
      size_t len_at = b.size();
      b.append(10, '\0');  // room for the entry's length, set below
      b.push_back('\x0a');
      put_varint(b, key.size());
      auto key_off = static_cast<uint32_t>(b.size());
      b.append(key);
      if (!value_body(depth + 1)) return false;
      Level& v = t_levels[depth + 1];
      size_t entry = key_field + 1 + varint_size(v.buf.size()) + v.buf.size();
      std::string len;
      put_varint(len, entry);
      b.replace(len_at, 10, len);
      key_off = static_cast<uint32_t>(key_off - (10 - len.size()));
      put_tag(b, 2, kLen);
      put_varint(b, v.buf.size());
      b.append(v.buf);
      l.segs.push_back(Seg{begin, static_cast<uint32_t>(b.size()), 0, key_off, static_cast<uint32_t>(key.size())});
      return true;
    });
  }

  // ListValue's values into level `depth`.
  bool list_body(size_t depth) {
    if (depth >= kMaxDepth || src_.type() != T::kArray) return false;
    Level& l = t_levels[depth];
    l.clear();
    bool ok = src_.elements([&] {
      if (!value_body(depth + 1)) return false;
      put_len(l.buf, 1, t_levels[depth + 1].buf);
      return true;
    });
    if (ok && !l.buf.empty()) l.segs.push_back(Seg{0, static_cast<uint32_t>(l.buf.size()), 1, 0, 0});
    return ok;
  }

  // A Value (its one kind) into level `depth`.
  bool value_body(size_t depth) {
    if (depth >= kMaxDepth) return false;
    Level& l = t_levels[depth];
    l.clear();
    switch (src_.type()) {
      case T::kNull:
        if (!src_.null()) return false;
        l.buf.assign("\x08\x00", 2);
        break;
      case T::kTrue:
      case T::kFalse: {
        bool b = false;
        if (!src_.boolean(b)) return false;
        l.buf.assign(b ? "\x20\x01" : "\x20\x00", 2);
        break;
      }
      case T::kNumber: {
        Num n;
        double d = 0;
        if (!src_.number(n) || !value_number(n, d)) return false;
        put_double(l.buf, 2, d);
        break;
      }
      case T::kString: {
        std::string_view s;
        if (!src_.string(s) || (!Src::kChecked && !result::valid_utf8(s))) return false;
        put_len(l.buf, 3, s);
        break;
      }
      case T::kObject: {
        if (!struct_body(depth + 1)) return false;
        if (!put_level(l.buf, 5, t_levels[depth + 1], true)) return false;
        break;
      }
      case T::kArray: {
        if (!list_body(depth + 1)) return false;
        if (!put_level(l.buf, 6, t_levels[depth + 1], false)) return false;
        break;
      }
      default: return false;
    }
    l.segs.push_back(Seg{0, static_cast<uint32_t>(l.buf.size()), 0, 0, 0});
    return true;
  }

 private:
  static size_t varint_size(uint64_t v) {
    size_t n = 1;
    while (v >= 0x80) {
      v >>= 7;
      ++n;
    }
    return n;
  }

  bool repeated(const FieldInfo& f, size_t depth, std::string& b) {
    if (src_.type() != T::kArray) return false;
    switch (f.kind) {
      case Kind::kString:
      case Kind::kMessage:
      case Kind::kTimestamp:
      case Kind::kStruct:
      case Kind::kValue:
      case Kind::kList:
        return src_.elements([&] { return src_.type() != T::kNull && single(f, depth, b, true); });
      default: {
        // Packed scalars: the payload at the next level's buffer, then copied.
        Level& p = t_levels[depth + 1];
        p.clear();
        bool ok = src_.elements([&] { return src_.type() != T::kNull && scalar_payload(f, p.buf, true); });
        if (!ok) return false;
        if (!p.buf.empty()) put_len(b, f.number, p.buf);
        return true;
      }
    }
  }

  // A varint scalar's payload (no tag) into `b`; nothing when it is the
  // default and `always` is false. False for a value the tree path refuses.
  bool scalar_payload(const FieldInfo& f, std::string& b, bool always) {
    uint64_t bits = 0;
    switch (f.kind) {
      case Kind::kBool: {
        bool v = false;
        if (!src_.boolean(v)) return false;
        bits = v ? 1 : 0;
        break;
      }
      case Kind::kEnum: {
        std::string_view name;
        int n = 0;
        if (!src_.string(name) || !f.en->number_of(name, n)) return false;
        bits = static_cast<uint64_t>(static_cast<int64_t>(n));
        break;
      }
      case Kind::kInt32:
      case Kind::kUInt32:
      case Kind::kInt64:
      case Kind::kUInt64: {
        Num n;
        if (!src_.number(n)) return false;
        bool ok = f.kind == Kind::kInt32    ? integer_in(n, INT32_MIN, INT32_MAX, bits)
                  : f.kind == Kind::kUInt32 ? integer_in(n, 0, UINT32_MAX, bits)
                  : f.kind == Kind::kInt64  ? integer_in(n, INT64_MIN, INT64_MAX, bits)
                                            : integer_in(n, 0, UINT64_MAX, bits);
        if (!ok) return false;
        break;
      }
      default: return false;
    }
    if (bits != 0 || always) put_varint(b, bits);
    return true;
  }

  // One value of `f` with its tag into `b`; a default value without presence is left out.
  bool single(const FieldInfo& f, size_t depth, std::string& b, bool always) {
    switch (f.kind) {
      case Kind::kString: {
        std::string_view s;
        if (!src_.string(s) || (!Src::kChecked && !result::valid_utf8(s))) return false;
        if (!s.empty() || always) put_len(b, f.number, s);
        return true;
      }
      case Kind::kBool:
      case Kind::kEnum:
      case Kind::kInt32:
      case Kind::kUInt32:
      case Kind::kInt64:
      case Kind::kUInt64: {
        std::string payload;  // at most 10 bytes: no allocation (SSO)
        if (!scalar_payload(f, payload, always)) return false;
        if (!payload.empty()) {
          put_tag(b, f.number, kVarint);
          b.append(payload);
        }
        return true;
      }
      case Kind::kMessage:
        if (!message(*f.msg, depth + 1)) return false;
        return put_level(b, f.number, t_levels[depth + 1], false);
      case Kind::kTimestamp: {
        std::string_view s;
        if (!src_.string(s)) return false;
        int64_t seconds = 0;
        int32_t nanos = 0;
        if (!utc_timestamp(s, seconds, nanos)) {
          pb::Timestamp ts;
          if (!pb::util::TimeUtil::FromString(std::string(s), &ts) ||
              ts.seconds() < pb::util::TimeUtil::kTimestampMinSeconds ||
              ts.seconds() > pb::util::TimeUtil::kTimestampMaxSeconds)
            return false;
          seconds = ts.seconds();
          nanos = ts.nanos();
        }
        char body[32];
        size_t n = 0;
        auto varint = [&](uint64_t v) {
          while (v >= 0x80) {
            body[n++] = static_cast<char>(v | 0x80);
            v >>= 7;
          }
          body[n++] = static_cast<char>(v);
        };
        if (seconds != 0) {
          body[n++] = '\x08';
          varint(static_cast<uint64_t>(seconds));
        }
        if (nanos != 0) {
          body[n++] = '\x10';
          varint(static_cast<uint64_t>(static_cast<int64_t>(nanos)));
        }
        put_len(b, f.number, std::string_view(body, n));
        return true;
      }
      case Kind::kStruct:
        if (!struct_body(depth + 1)) return false;
        return put_level(b, f.number, t_levels[depth + 1], true);
      case Kind::kList:
        if (!list_body(depth + 1)) return false;
        return put_level(b, f.number, t_levels[depth + 1], false);
      case Kind::kValue:
        if (src_.type() == T::kNull || !value_body(depth + 1)) return false;
        return put_level(b, f.number, t_levels[depth + 1], false);
      case Kind::kOther: return false;
    }
    return false;
  }

  Src& src_;
};

// A root message from `src` appended to `out`; `out` as on entry when false.
template <class Src>
bool encode_root(const pb::Descriptor& d, Src& src, std::string& out) {
  const MsgTable* t = table_of(d);
  if (!t) return false;
  size_t size = out.size();
  Encoder<Src> enc(src);
  bool ok = enc.message(*t, 0);
  if constexpr (std::is_same_v<Src, TextSource>) ok = ok && src.at_end();
  ok = ok && flush(t_levels[0], out, false);
  trim_levels();
  if (ok) return true;
  out.resize(size);
  return false;
}

// task_to_message's fields, written in number order straight from the store.
bool task_wire(const TaskRecord& r, const TaskView& view, const pb::Descriptor& d, std::string& out) {
  const MsgTable* t = table_of(d);
  if (!t) return false;
  const FieldInfo* id = t->by_number(1);
  const FieldInfo* context_id = t->by_number(2);
  const FieldInfo* status = t->by_number(3);
  const FieldInfo* artifacts = t->by_number(4);
  const FieldInfo* history = t->by_number(5);
  if (!id || !context_id || !status || !artifacts || !history || id->json_name != "id" ||
      context_id->json_name != "contextId" || status->json_name != "status" || artifacts->json_name != "artifacts" ||
      history->json_name != "history" || id->kind != Kind::kString || id->repeated ||
      context_id->kind != Kind::kString || context_id->repeated || status->kind != Kind::kMessage ||
      status->repeated || artifacts->kind != Kind::kMessage || !artifacts->repeated || history->kind != Kind::kMessage ||
      !history->repeated)
    return false;
  size_t size = out.size();
  auto sub = [&](const FieldInfo& f, const Json& j) {
    TreeSource src(j);
    Encoder<TreeSource> enc(src);
    return enc.message(*f.msg, 1) && put_level(out, f.number, t_levels[1], false);
  };
  // A finished task's items from their text (task_store.hpp TaskText).
  auto sub_text = [&](const FieldInfo& f, std::string_view text) {
    TextSource src(text);
    Encoder<TextSource> enc(src);
    return enc.message(*f.msg, 1) && src.at_end() && put_level(out, f.number, t_levels[1], false);
  };
  auto fail = [&] {
    out.resize(size);
    trim_levels();
    return false;
  };
  if (!r.id.empty()) {
    if (!result::valid_utf8(r.id)) return fail();
    put_len(out, 1, r.id);
  }
  if (!r.context_id.empty()) {
    if (!result::valid_utf8(r.context_id)) return fail();
    put_len(out, 2, r.context_id);
  }
  if (r.text.packed()) {
    // The same fields, each item's text as jsonrpc::dump wrote its tree.
    const TaskText& t = r.text;
    if (!t.status().empty() && !sub_text(*status, t.status())) return fail();
    if (view.artifacts) {
      for (size_t i = 0; i < t.artifacts(); ++i)
        if (t.artifact(i) == "null" || !sub_text(*artifacts, t.artifact(i))) return fail();
    }
    size_t n = view.history_shown(t.history());
    for (size_t i = t.history() - n; i < t.history(); ++i)
      if (t.message(i) == "null" || !sub_text(*history, t.message(i))) return fail();
    trim_levels();
    return true;
  }
  if (!r.status.is_null() && !sub(*status, r.status)) return fail();
  if (view.artifacts) {
    for (const Json& a : r.artifacts)
      if (a.is_null() || !sub(*artifacts, a)) return fail();
  }
  size_t n = view.history_shown(r.history.size());
  for (size_t i = r.history.size() - n; i < r.history.size(); ++i)
    if (r.history[i].is_null() || !sub(*history, r.history[i])) return fail();
  trim_levels();
  return true;
}

// ---- wire bytes -> tree ----

class Reader {
 public:
  explicit Reader(std::string_view b)
      : p_(reinterpret_cast<const uint8_t*>(b.data())), e_(p_ + b.size()) {}
  bool done() const { return p_ == e_; }
  bool varint(uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ == e_) return false;
      uint8_t c = *p_++;
      v |= static_cast<uint64_t>(c & 0x7f) << shift;
      if (!(c & 0x80)) return shift < 63 || c <= 1;
    }
    return false;
  }
  bool fixed64(uint64_t& v) {
    if (e_ - p_ < 8) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(p_[i]) << (8 * i);
    p_ += 8;
    return true;
  }
  bool bytes(std::string_view& out) {
    uint64_t n;
    if (!varint(n) || n > static_cast<uint64_t>(e_ - p_)) return false;
    out = std::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return true;
  }
  // The next field's number and wire type.
  bool tag(uint64_t& number, int& wt) {
    uint64_t t;
    if (!varint(t) || t > 0xffffffffu) return false;
    number = t >> 3;
    wt = static_cast<int>(t & 7);
    return number != 0;
  }

 private:
  const uint8_t* p_;
  const uint8_t* e_;
};

bool wire_value(std::string_view b, Json& out, size_t depth);

bool wire_struct(std::string_view b, Json& out, size_t depth) {
  if (depth >= kMaxDepth) return false;
  out = Json::object();
  Reader r(b);
  while (!r.done()) {
    uint64_t n;
    int wt;
    std::string_view entry;
    if (!r.tag(n, wt) || n != 1 || wt != kLen || !r.bytes(entry)) return false;
    Reader er(entry);
    std::string_view key, value;
    bool has_key = false, has_value = false;
    while (!er.done()) {
      if (!er.tag(n, wt) || wt != kLen) return false;
      if (n == 1 && !has_key) {
        has_key = true;
        if (!er.bytes(key)) return false;
      } else if (n == 2 && !has_value) {
        has_value = true;
        if (!er.bytes(value)) return false;
      } else {
        return false;
      }
    }
    if (!has_value || !result::valid_utf8(key)) return false;  // no value: no kind, which the printer refuses
    std::string k(key);
    if (out.contains(k)) return false;  // a key twice: the map keeps the last one
    if (!wire_value(value, out[k], depth + 1)) return false;
  }
  return true;
}

bool wire_list(std::string_view b, Json& out, size_t depth) {
  if (depth >= kMaxDepth) return false;
  out = Json::array();
  Reader r(b);
  while (!r.done()) {
    uint64_t n;
    int wt;
    std::string_view v;
    if (!r.tag(n, wt) || n != 1 || wt != kLen || !r.bytes(v)) return false;
    out.push_back(nullptr);
    if (!wire_value(v, out.back(), depth + 1)) return false;
  }
  return true;
}

bool wire_value(std::string_view b, Json& out, size_t depth) {
  if (depth >= kMaxDepth) return false;
  Reader r(b);
  bool set = false;
  while (!r.done()) {
    uint64_t n, v;
    int wt;
    if (!r.tag(n, wt) || set) return false;  // two kinds (or one twice): protobuf keeps the last
    set = true;
    std::string_view s;
    switch (n) {
      case 1:
        if (wt != kVarint || !r.varint(v)) return false;
        out = nullptr;
        break;
      case 2: {
        if (wt != kFixed64 || !r.fixed64(v)) return false;
        double d;
        std::memcpy(&d, &v, sizeof d);
        if (!double_to_tree(d, out)) return false;
        break;
      }
      case 3:
        if (wt != kLen || !r.bytes(s) || !result::valid_utf8(s)) return false;
        out = std::string(s);
        break;
      case 4:
        if (wt != kVarint || !r.varint(v)) return false;
        out = v != 0;
        break;
      case 5:
        if (wt != kLen || !r.bytes(s) || !wire_struct(s, out, depth + 1)) return false;
        break;
      case 6:
        if (wt != kLen || !r.bytes(s) || !wire_list(s, out, depth + 1)) return false;
        break;
      default: return false;
    }
  }
  return set;
}

bool wire_timestamp(std::string_view b, Json& out) {
  Reader r(b);
  pb::Timestamp t;
  bool got_s = false, got_n = false;
  while (!r.done()) {
    uint64_t n, v;
    int wt;
    if (!r.tag(n, wt) || wt != kVarint || !r.varint(v)) return false;
    if (n == 1 && !got_s) {
      got_s = true;
      t.set_seconds(static_cast<int64_t>(v));
    } else if (n == 2 && !got_n) {
      got_n = true;
      t.set_nanos(static_cast<int32_t>(v));
    } else {
      return false;
    }
  }
  if (t.seconds() < pb::util::TimeUtil::kTimestampMinSeconds || t.seconds() > pb::util::TimeUtil::kTimestampMaxSeconds ||
      t.nanos() < 0 || t.nanos() > 999999999)
    return false;
  out = pb::util::TimeUtil::ToString(t);
  return true;
}

// message_to_tree of ParseFromArray(b): members for the fields set, or
// false for anything that is not read exactly so (an unknown field, a
// field or oneof given twice, repeated scalars, ...).
bool wire_message(const MsgTable& t, std::string_view b, Json& out, size_t depth) {
  if (!t.usable || depth >= kMaxDepth) return false;
  out = Json::object();
  Reader r(b);
  uint64_t seen = 0, oneofs = 0;
  while (!r.done()) {
    uint64_t n, v = 0;
    int wt;
    if (!r.tag(n, wt)) return false;
    const FieldInfo* f = t.by_number(n);
    if (!f || f->kind == Kind::kOther) return false;
    uint64_t bit = uint64_t{1} << f->index;
    if (!f->repeated) {
      if (seen & bit) return false;
      if (f->oneof >= 0) {
        uint64_t ob = uint64_t{1} << f->oneof;
        if (oneofs & ob) return false;
        oneofs |= ob;
      }
    }
    seen |= bit;
    std::string_view s;
    Json value;
    switch (f->kind) {
      case Kind::kString:
        if (wt != kLen || !r.bytes(s) || !result::valid_utf8(s)) return false;
        if (s.empty() && !f->presence && !f->repeated) continue;
        value = std::string(s);
        break;
      case Kind::kBool:
      case Kind::kInt32:
      case Kind::kUInt32:
      case Kind::kInt64:
      case Kind::kUInt64:
      case Kind::kEnum:
        if (f->repeated || wt != kVarint || !r.varint(v)) return false;
        if (f->kind == Kind::kInt32 || f->kind == Kind::kEnum) v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)));
        if (f->kind == Kind::kUInt32) v = static_cast<uint32_t>(v);
        if (f->kind == Kind::kBool) v = v != 0;
        if (v == 0 && !f->presence) continue;
        switch (f->kind) {
          case Kind::kBool: value = v != 0; break;
          case Kind::kInt32: value = int_tree(static_cast<int64_t>(v)); break;
          case Kind::kUInt32: value = v; break;
          case Kind::kInt64: value = std::to_string(static_cast<int64_t>(v)); break;
          case Kind::kUInt64: value = std::to_string(v); break;
          default: {
            const std::string* name = f->en->name_of(static_cast<int>(static_cast<int64_t>(v)));
            if (!name) return false;
            value = *name;
          }
        }
        break;
      case Kind::kMessage:
        if (wt != kLen || !r.bytes(s) || !wire_message(*f->msg, s, value, depth + 1)) return false;
        break;
      case Kind::kTimestamp:
        if (wt != kLen || !r.bytes(s) || !wire_timestamp(s, value)) return false;
        break;
      case Kind::kStruct:
        if (wt != kLen || !r.bytes(s) || !wire_struct(s, value, depth + 1)) return false;
        break;
      case Kind::kValue:
        if (wt != kLen || !r.bytes(s) || !wire_value(s, value, depth + 1)) return false;
        break;
      case Kind::kList:
        if (wt != kLen || !r.bytes(s) || !wire_list(s, value, depth + 1)) return false;
        break;
      case Kind::kOther: return false;
    }
    if (f->repeated) {
      Json& slot = out[f->json_name];
      if (slot.is_null()) slot = Json::array();
      slot.push_back(std::move(value));
    } else {
      out[f->json_name] = std::move(value);
    }
  }
  return true;
}

}  // namespace wire
}  // namespace prototree

bool text_to_wire(const google::protobuf::Descriptor& type, std::string_view text, std::string& out) {
  prototree::wire::TextSource src(text);
  return prototree::wire::encode_root(type, src, out);
}

bool tree_to_wire(const google::protobuf::Descriptor& type, const nlohmann::json& value, std::string& out) {
  try {
    prototree::wire::TreeSource src(value);
    return prototree::wire::encode_root(type, src, out);
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

bool task_to_wire(const TaskRecord& record, const TaskView& view, const google::protobuf::Descriptor& task,
                  std::string& out) {
  try {
    return prototree::wire::task_wire(record, view, task, out);
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

std::optional<nlohmann::json> wire_to_tree(const google::protobuf::Descriptor& type, std::string_view bytes) {
  const prototree::wire::MsgTable* t = prototree::wire::table_of(type);
  nlohmann::json out;
  if (!t || !prototree::wire::wire_message(*t, bytes, out, 0)) return std::nullopt;
  return out;
}

}  // namespace a2a::agent
