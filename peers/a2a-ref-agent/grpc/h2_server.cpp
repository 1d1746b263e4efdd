// gRPC over HTTP/2 on nghttp2 (h2_server.hpp; docs/grpc.md, "Our own
// HTTP/2 server"). One Loop per I/O thread: an epoll set, its connections,
// the calls' deadlines, a queue of operations posted by workers (woken by
// an eventfd) and a queue of reactor notices. Reactor callbacks are never
// made inside an nghttp2 callback nor inside a reactor's own call into the
// transport: they are queued and run by the loop between those. After each
// pass the loop takes every frame nghttp2 has for a connection into one
// buffer and writes it with one send().
#include "peers/a2a-ref-agent/grpc/h2_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <map>
#include <optional>
#include <thread>
#include <unordered_map>

#include "peers/a2a-ref-agent/base64.hpp"
#include "runner/transport/url.hpp"

namespace a2a::agent::h2 {

using grpcwire::WireStatus;
using Clock = std::chrono::steady_clock;

struct Conn;
class Loop;

// What every loop shares: the options, the factory, the count of live reactors.
struct Shared {
  ServerOptions options;
  ReactorFactory factory;
  std::mutex mu;
  std::condition_variable cv;
  // Counted without the lock; only the last call's end takes it, to wake
  // wait_calls (which reads the count under the lock, so no wake-up is lost).
  std::atomic<int> live_calls{0};
  std::atomic<int> connections{0};
  // ServerStats (relaxed: counters, not synchronisation).
  std::atomic<size_t> output_high_water{0};
  std::atomic<uint64_t> read_pauses{0}, preface_timeouts{0}, idle_goaways{0}, request_timeouts{0},
      total_refusals{0};
  // Request bytes held by every connection of every loop (each loop adds
  // and removes its own; max_buffered_request_total).
  std::atomic<size_t> buffered_total{0};
  std::vector<Loop*> loops;
  std::atomic<size_t> next_loop{0};

  void call_started() { live_calls.fetch_add(1, std::memory_order_relaxed); }
  void call_done() {
    if (live_calls.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lk(mu);
      cv.notify_all();
    }
  }
};

using Header = std::pair<std::string, std::string>;
// The calls' grpc-timeout deadlines; an entry lives while its stream does.
using TimerMap = std::multimap<Clock::time_point, CallState*>;
// The connections' preface, idle and linger deadlines: one entry per
// connection at most, re-armed lazily (docs/grpc.md, "Our own HTTP/2
// server", Bounds).
using ConnTimerMap = std::multimap<Clock::time_point, Conn*>;

// Where a request field's name and value are in CallState::field_text.
struct FieldRef {
  uint32_t name = 0, name_len = 0, value = 0, value_len = 0;
};

struct CallState {
  Loop* loop = nullptr;
  // Set on the I/O thread before the reactor exists, then read-only. The
  // request's fields are kept in one buffer (names and values back to back)
  // with their places in `fields`, not as a string pair each: a few
  // allocations a call instead of one or two per field (docs/grpc.md,
  // "Our own HTTP/2 server", per-call costs).
  std::string field_text;
  std::vector<FieldRef> fields;  // the regular fields, in their order
  uint32_t path_at = 0, path_len = 0;
  bool post = false;  // :method is POST
  std::string body;  // the request: 5-byte prefix, then the message
  // The rest: the I/O thread only.
  Conn* conn = nullptr;  // null once the stream is gone
  int32_t id = 0;
  Reactor* reactor = nullptr;
  std::vector<Header> initial;
  std::string out;  // framed messages nghttp2 has not taken yet
  size_t out_off = 0;
  uint64_t taken = 0;  // bytes nghttp2 took from `out` so far
  uint64_t write_end = 0;
  bool write_pending = false;
  std::optional<WireStatus> trailer;  // sent once `out` is empty
  size_t header_bytes = 0;
  size_t counted = 0;  // request bytes counted against the connection's bound (body's size)
  TimerMap::iterator timer;
  bool has_timer = false;
  // request_timeout, armed only when the message is still incomplete at the
  // end of the read that brought the HEADERS (Loop::arm_request_timers).
  TimerMap::iterator request_timer;
  bool has_request_timer = false;
  bool headers_sent = false;
  bool deferred = false;   // the data provider waits for output (resume_data)
  bool responded = false;  // the response's end is submitted (or the stream reset)
  bool finished = false;   // the reactor called finish
  bool read_sent = false, cancel_sent = false;
  bool message_ready = false;

  std::string_view text(uint32_t at, uint32_t len) const { return std::string_view(field_text).substr(at, len); }
  std::string_view path() const { return text(path_at, path_len); }
  // The first regular field named `key` (lower-case), "" when absent.
  std::string_view field(std::string_view key) const {
    for (const auto& f : fields)
      if (text(f.name, f.name_len) == key) return text(f.value, f.value_len);
    return {};
  }
  // Appends `v` to field_text; its offset.
  uint32_t keep(std::string_view v) {
    auto at = static_cast<uint32_t>(field_text.size());
    field_text.append(v);
    return at;
  }
};

enum class NoticeKind { kRead, kWrite, kCancel, kDone };
struct Notice {
  std::shared_ptr<CallState> call;
  NoticeKind kind;
  bool ok;
};

struct Conn {
  Loop* loop = nullptr;
  int fd = -1;
  nghttp2_session* session = nullptr;
  std::string outbuf;
  size_t out_off = 0;
  std::unordered_map<int32_t, std::shared_ptr<CallState>> calls;
  size_t buffered_request = 0;
  uint32_t mask = 0;  // the epoll events asked for
  bool dirty = false;
  bool to_send = false;  // frames collected this pass, written at its end
  bool closed = false;
  bool close_after_flush = false;
  bool capped = false;  // the last collect() stopped at max_output, not for want of frames
  bool over_budget = false;  // GOAWAY for max_buffered_request_total sent (counted once)
  // Timeouts. Until the preface's SETTINGS came, the timer is the preface
  // deadline. Then the connection is idle while `calls` is empty, since
  // `idle_since`; when its timer fires the real deadline is computed from
  // that (a busy connection's timer is dropped and armed again when its last
  // stream ends), so a call costs no timer update. `draining`: the idle
  // GOAWAY is out and the timer is the linger's end.
  bool preface_done = false;
  bool draining = false;
  bool has_timer = false;
  Clock::time_point idle_since{};
  ConnTimerMap::iterator timer;
};

namespace {

constexpr int kMaxEvents = 64;
constexpr size_t kReadChunk = 64 << 10;
constexpr int kMaxPasses = 64;  // notices/flush rounds per loop iteration; the rest waits for the next
constexpr int32_t kWindow = 1 << 20;
constexpr auto kAcceptPause = std::chrono::milliseconds(100);  // after accept() fails (out of descriptors)

// The loop whose thread this is (null on other threads).
thread_local const Loop* tl_loop = nullptr;

void set_nodelay(int fd) {
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

nghttp2_nv make_nv(const std::string& name, const std::string& value) {
  return nghttp2_nv{reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                    reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
                    NGHTTP2_NV_FLAG_NONE};
}

const std::string kStatus = ":status", k200 = "200", kContentType = "content-type",
                  kGrpcCt = "application/grpc", kGrpcStatus = "grpc-status", kGrpcMessage = "grpc-message",
                  kGrpcDetails = "grpc-status-details-bin";

// The trailer fields of `st` (strings kept in `keep`, which must not move).
void status_fields(const WireStatus& st, std::vector<std::string>& keep, std::vector<nghttp2_nv>& nv) {
  keep.reserve(3);
  keep.push_back(std::to_string(st.code));
  nv.push_back(make_nv(kGrpcStatus, keep.back()));
  if (!st.message.empty()) {
    keep.push_back(percent_encode(st.message));
    nv.push_back(make_nv(kGrpcMessage, keep.back()));
  }
  if (!st.details.empty()) {
    std::string b = base64_encode(st.details);
    while (!b.empty() && b.back() == '=') b.pop_back();
    keep.push_back(std::move(b));
    nv.push_back(make_nv(kGrpcDetails, keep.back()));
  }
}

}  // namespace

class Loop {
 public:
  Loop(Shared& shared, int listen_fd) : sh_(shared), listen_fd_(listen_fd) {
    ep_ = ::epoll_create1(EPOLL_CLOEXEC);
    ev_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    add_fd(ev_, EPOLLIN, &ev_);
    if (listen_fd_ >= 0) add_fd(listen_fd_, EPOLLIN, &listen_fd_);
  }
  ~Loop() {
    if (thread_.joinable()) thread_.join();
    for (auto& [fd, c] : conns_) drop(*c);
    conns_.clear();
    if (listen_fd_ >= 0) ::close(listen_fd_);
    ::close(ev_);
    ::close(ep_);
  }

  void start() { thread_ = std::thread([this] { run(); }); }
  void join() {
    if (thread_.joinable()) thread_.join();
  }

  bool in_thread() const { return tl_loop == this; }

  // Runs `fn` on this loop's thread: now when called there, else posted.
  template <class Fn>
  void run_here(Fn&& fn) {
    if (in_thread()) return fn();
    post(std::function<void()>(std::forward<Fn>(fn)));
  }

  void post(std::function<void()> fn) {
    bool wake = false;
    {
      std::lock_guard<std::mutex> lk(post_mu_);
      posted_.push_back(std::move(fn));
      if (!woken_) wake = woken_ = true;
    }
    if (wake) {
      uint64_t one = 1;
      [[maybe_unused]] ssize_t n = ::write(ev_, &one, sizeof one);
    }
  }

  void quit() {
    post([this] { quit_ = true; });
  }

  void notice(const std::shared_ptr<CallState>& c, NoticeKind k, bool ok = true) {
    notices_.push_back(Notice{c, k, ok});
  }

  void mark_dirty(Conn& c) {
    if (c.dirty || c.closed) return;
    c.dirty = true;
    dirty_.push_back(&c);
  }

  // A new connection (its fd already accepted).
  void adopt(int fd) {
    auto c = std::make_unique<Conn>();
    c->loop = this;
    c->fd = fd;
    if (!make_session(*c)) {
      ::close(fd);
      sh_.connections.fetch_sub(1);
      return;
    }
    Conn* raw = c.get();
    conns_.emplace(fd, std::move(c));
    arm(*raw, Clock::now() + sh_.options.preface_timeout);
    raw->mask = EPOLLIN;
    add_fd(fd, EPOLLIN, raw);
    mark_dirty(*raw);  // our SETTINGS
  }

  // Reactor-facing operations (the I/O thread).
  void op_initial(CallState& s, std::string k, std::string v) {
    if (!s.headers_sent) s.initial.emplace_back(std::move(k), std::move(v));
  }
  // `n` framed messages (none: framed may be null), then the status when given.
  void op_send(const std::shared_ptr<CallState>& s, std::string* framed, size_t n, const WireStatus* status);
  void op_cancel(const std::shared_ptr<CallState>& s);

  // Server-wide steps (posted).
  void goaway_all() {
    if (listen_fd_ >= 0) {
      ::epoll_ctl(ep_, EPOLL_CTL_DEL, listen_fd_, nullptr);
      ::close(listen_fd_);
      listen_fd_ = -1;
    }
    for (auto& [fd, c] : conns_) {
      if (c->closed) continue;
      nghttp2_submit_goaway(c->session, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(c->session),
                            NGHTTP2_NO_ERROR, nullptr, 0);
      mark_dirty(*c);
    }
  }
  void cancel_everything() {
    for (auto& [fd, c] : conns_) {
      std::vector<std::shared_ptr<CallState>> calls;
      for (auto& [id, s] : c->calls) calls.push_back(s);
      for (auto& s : calls) op_cancel(s);
    }
  }

  // nghttp2 callbacks' bodies.
  int on_begin_headers(Conn& c, const nghttp2_frame* f);
  int on_header(Conn& c, const nghttp2_frame* f, std::string_view name, std::string_view value);
  int on_frame_recv(Conn& c, const nghttp2_frame* f);
  int on_data_chunk(Conn& c, int32_t id, const uint8_t* data, size_t len);
  int on_stream_close(Conn& c, int32_t id);
  ssize_t read_data(CallState& s, uint8_t* buf, size_t length, uint32_t* flags);

 private:
  void add_fd(int fd, uint32_t events, void* tag) {
    epoll_event e{};
    e.events = events;
    e.data.ptr = tag;
    ::epoll_ctl(ep_, EPOLL_CTL_ADD, fd, &e);
  }

  bool make_session(Conn& c);
  void run();
  void accept_some();
  void on_readable(Conn& c);
  void collect(Conn& c, bool queue = true);
  void flush(Conn& c);
  void update_mask(Conn& c);
  void close_conn(Conn& c);
  void drop(Conn& c);
  void cancel_reactor(const std::shared_ptr<CallState>& s);
  void forget_timer(CallState& s) {
    if (s.has_timer) timers_.erase(s.timer);
    s.has_timer = false;
    forget_request_timer(s);
  }
  void forget_request_timer(CallState& s) {
    if (s.has_request_timer) request_timers_.erase(s.request_timer);
    s.has_request_timer = false;
  }
  void arm_request_timers(Conn& c);
  void expire_request_timers();
  void request_end(const std::shared_ptr<CallState>& s);
  // The connection's count of request bytes held follows `s.body` (what is
  // kept, not what arrived: bytes dropped or freed are not counted).
  // The server-wide count follows it too (max_buffered_request_total).
  void recount(Conn& c, CallState& s) {
    c.buffered_request = c.buffered_request - s.counted + s.body.size();
    if (s.body.size() >= s.counted)
      sh_.buffered_total.fetch_add(s.body.size() - s.counted, std::memory_order_relaxed);
    else
      sh_.buffered_total.fetch_sub(s.counted - s.body.size(), std::memory_order_relaxed);
    s.counted = s.body.size();
  }
  // The stream's bytes are no longer held by its connection.
  void uncount(Conn& c, CallState& s) {
    c.buffered_request -= std::min(c.buffered_request, s.counted);
    sh_.buffered_total.fetch_sub(s.counted, std::memory_order_relaxed);
    s.counted = 0;
  }
  void respond_http(CallState& s, const char* status);
  void respond_status(const std::shared_ptr<CallState>& s, const WireStatus& st);
  void start_call(Conn& c, const std::shared_ptr<CallState>& s);
  void expire_timers();
  void expire_conn_timers();
  void arm(Conn& c, Clock::time_point at) {
    disarm(c);
    c.timer = conn_timers_.emplace(at, &c);
    c.has_timer = true;
  }
  void disarm(Conn& c) {
    if (c.has_timer) conn_timers_.erase(c.timer);
    c.has_timer = false;
  }
  int next_timeout();
  bool run_notices();

  // The fields of a response or trailers being submitted (nghttp2 copies
  // them): emptied, not freed, between uses (no allocation per call).
  std::vector<nghttp2_nv>& fields_start() {
    nv_.clear();
    keep_.clear();
    return nv_;
  }

  Shared& sh_;
  int listen_fd_ = -1;
  int ep_ = -1;
  int ev_ = -1;
  std::thread thread_;
  Clock::time_point accept_paused_until_{};
  bool accept_paused_ = false;
  std::mutex post_mu_;
  std::vector<std::function<void()>> posted_;
  bool woken_ = false;
  bool quit_ = false;
  std::unordered_map<int, std::unique_ptr<Conn>> conns_;
  std::vector<std::unique_ptr<Conn>> graveyard_;
  std::vector<Conn*> dirty_;
  std::vector<Conn*> to_send_;
  std::vector<Notice> notices_;
  // Swapped with the queues above by run(), to keep the capacity of both.
  std::vector<std::function<void()>> posted_scratch_;
  std::vector<Conn*> dirty_scratch_, sending_scratch_;
  std::vector<Notice> notice_batch_;
  std::vector<nghttp2_nv> nv_;
  std::vector<std::string> keep_;  // status_fields' strings for nv_
  TimerMap timers_;
  TimerMap request_timers_;  // request_timeout, a call's entry while its message is incomplete
  // Streams whose HEADERS (without END_STREAM) came in the read being
  // processed: their request timers are armed after it if still needed.
  std::vector<int32_t> awaiting_;
  ConnTimerMap conn_timers_;
  Clock::time_point turn_now_ = Clock::now();  // when this loop turn's epoll_wait returned
  std::vector<char> rbuf_ = std::vector<char>(kReadChunk);
};

namespace {

Conn& conn_of(void* user) { return *static_cast<Conn*>(user); }

int cb_begin_headers(nghttp2_session*, const nghttp2_frame* f, void* u) {
  return conn_of(u).loop->on_begin_headers(conn_of(u), f);
}
int cb_header(nghttp2_session*, const nghttp2_frame* f, const uint8_t* name, size_t namelen, const uint8_t* value,
              size_t valuelen, uint8_t, void* u) {
  return conn_of(u).loop->on_header(conn_of(u), f, {reinterpret_cast<const char*>(name), namelen},
                                    {reinterpret_cast<const char*>(value), valuelen});
}
int cb_frame_recv(nghttp2_session*, const nghttp2_frame* f, void* u) {
  return conn_of(u).loop->on_frame_recv(conn_of(u), f);
}
int cb_data_chunk(nghttp2_session*, uint8_t, int32_t id, const uint8_t* data, size_t len, void* u) {
  return conn_of(u).loop->on_data_chunk(conn_of(u), id, data, len);
}
int cb_stream_close(nghttp2_session*, int32_t id, uint32_t, void* u) {
  return conn_of(u).loop->on_stream_close(conn_of(u), id);
}
ssize_t cb_read_data(nghttp2_session*, int32_t, uint8_t* buf, size_t length, uint32_t* flags,
                     nghttp2_data_source* src, void*) {
  auto* s = static_cast<CallState*>(src->ptr);
  return s->loop->read_data(*s, buf, length, flags);
}

nghttp2_session_callbacks* h2_callbacks() {
  static nghttp2_session_callbacks* cbs = [] {
    nghttp2_session_callbacks* c = nullptr;
    nghttp2_session_callbacks_new(&c);
    nghttp2_session_callbacks_set_on_begin_headers_callback(c, cb_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(c, cb_header);
    nghttp2_session_callbacks_set_on_frame_recv_callback(c, cb_frame_recv);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(c, cb_data_chunk);
    nghttp2_session_callbacks_set_on_stream_close_callback(c, cb_stream_close);
    return c;
  }();
  return cbs;
}

}  // namespace

bool Loop::make_session(Conn& c) {
  nghttp2_option* opt = nullptr;
  nghttp2_option_new(&opt);
  // Our own bound on header lists (on_header); nghttp2 bounds its acks of pings and settings.
  nghttp2_option_set_max_outbound_ack(opt, 1000);
  int rv = nghttp2_session_server_new2(&c.session, h2_callbacks(), &c, opt);
  nghttp2_option_del(opt);
  if (rv != 0) return false;
  nghttp2_settings_entry iv[] = {
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, sh_.options.max_streams},
      {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, sh_.options.max_header_list},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, static_cast<uint32_t>(kWindow)},
  };
  if (nghttp2_submit_settings(c.session, NGHTTP2_FLAG_NONE, iv, std::size(iv)) != 0) return false;
  nghttp2_session_set_local_window_size(c.session, NGHTTP2_FLAG_NONE, 0, kWindow);
  return true;
}

int Loop::on_begin_headers(Conn& c, const nghttp2_frame* f) {
  if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
  auto s = std::make_shared<CallState>();
  s->loop = this;
  s->conn = &c;
  s->id = f->hd.stream_id;
  s->field_text.reserve(256);  // a gRPC call's fields: about 150 bytes
  s->fields.reserve(8);
  nghttp2_session_set_stream_user_data(c.session, s->id, s.get());
  c.calls[s->id] = std::move(s);
  return 0;
}

int Loop::on_header(Conn& c, const nghttp2_frame* f, std::string_view name, std::string_view value) {
  if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;  // trailers: ignored
  auto* s = static_cast<CallState*>(nghttp2_session_get_stream_user_data(c.session, f->hd.stream_id));
  if (!s) return 0;
  s->header_bytes += name.size() + value.size() + 32;  // RFC 9113 §6.5.2's size of a field
  if (s->header_bytes > sh_.options.max_header_list) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;  // RST_STREAM
  if (!name.empty() && name[0] == ':') {
    if (name == ":path") {
      s->path_at = s->keep(value);
      s->path_len = static_cast<uint32_t>(value.size());
    } else if (name == ":method") {
      s->post = value == "POST";
    }
    return 0;
  }
  FieldRef field;
  field.name = s->keep(name);
  field.name_len = static_cast<uint32_t>(name.size());
  field.value = s->keep(value);
  field.value_len = static_cast<uint32_t>(value.size());
  s->fields.push_back(field);
  return 0;
}

int Loop::on_frame_recv(Conn& c, const nghttp2_frame* f) {
  if (!c.preface_done) {  // nghttp2 takes the magic and a SETTINGS frame first, else it fails the session
    c.preface_done = true;
    c.idle_since = turn_now_;
  }
  if (f->hd.type != NGHTTP2_HEADERS && f->hd.type != NGHTTP2_DATA) return 0;
  auto it = c.calls.find(f->hd.stream_id);
  if (it == c.calls.end()) return 0;
  std::shared_ptr<CallState> s = it->second;
  if (f->hd.type == NGHTTP2_HEADERS && f->headers.cat == NGHTTP2_HCAT_REQUEST) {
    start_call(c, s);
    if (!(f->hd.flags & NGHTTP2_FLAG_END_STREAM)) awaiting_.push_back(s->id);
  }
  if (f->hd.flags & NGHTTP2_FLAG_END_STREAM) request_end(s);
  return 0;
}

// The request's HEADERS are complete: refuse what is not gRPC, else make the reactor.
void Loop::start_call(Conn& c, const std::shared_ptr<CallState>& s) {
  if (!s->post) return respond_http(*s, "405");
  // PROTOCOL-HTTP2.md: a content-type that is not application/grpc[+...] is HTTP 415.
  std::string_view ct = s->field("content-type");
  if (!ct.starts_with("application/grpc") ||
      (ct.size() > 16 && ct[16] != '+' && ct[16] != ';'))
    return respond_http(*s, "415");
  if (std::string_view timeout = s->field("grpc-timeout"); !timeout.empty()) {
    int64_t ms = parse_grpc_timeout(timeout);
    if (ms >= 0) {
      s->timer = timers_.emplace(Clock::now() + std::chrono::milliseconds(ms), s.get());
      s->has_timer = true;
    }
  }
  (void)c;
  sh_.call_started();
  s->reactor = sh_.factory(CallHandle(s));
}

// The client's END_STREAM: a call still waiting for its message never gets one.
void Loop::request_end(const std::shared_ptr<CallState>& s) {
  forget_request_timer(*s);
  if (s->reactor && !s->finished && !s->read_sent && !s->message_ready) {
    s->read_sent = true;
    notice(s, NoticeKind::kRead, false);
  }
}

int Loop::on_data_chunk(Conn& c, int32_t id, const uint8_t* data, size_t len) {
  auto it = c.calls.find(id);
  if (it == c.calls.end()) return 0;
  std::shared_ptr<CallState> s = it->second;
  if (s->responded || s->message_ready || !s->reactor || s->finished) return 0;  // not wanted: dropped
  if (c.buffered_request + len > sh_.options.max_buffered_request) {
    nghttp2_session_terminate_session(c.session, NGHTTP2_ENHANCE_YOUR_CALM);
    return 0;
  }
  // The server-wide budget: checked, then added by recount (another loop
  // may pass the same check meanwhile: the total may exceed the budget by
  // a DATA frame per loop at most).
  if (sh_.buffered_total.load(std::memory_order_relaxed) + len > sh_.options.max_buffered_request_total) {
    if (!c.over_budget) sh_.total_refusals.fetch_add(1, std::memory_order_relaxed);
    c.over_budget = true;
    nghttp2_session_terminate_session(c.session, NGHTTP2_ENHANCE_YOUR_CALM);
    return 0;
  }
  s->body.append(reinterpret_cast<const char*>(data), len);
  recount(c, *s);
  if (s->body.size() < kFrameRoom) return 0;
  const auto* b = reinterpret_cast<const unsigned char*>(s->body.data());
  uint64_t size = (uint64_t(b[1]) << 24) | (uint64_t(b[2]) << 16) | (uint64_t(b[3]) << 8) | b[4];
  if (b[0] & 1) {
    // We accept no grpc-encoding (we send no grpc-accept-encoding): a compressed message is refused.
    respond_status(s, {grpcwire::kUnimplemented,
                       "grpc-encoding '" + std::string(s->field("grpc-encoding")) +
                           "' is not supported (no compression)",
                       ""});
    return 0;
  }
  if (size > static_cast<uint64_t>(sh_.options.max_receive)) {
    respond_status(s, {grpcwire::kResourceExhausted,
                       "Received message larger than max (" + std::to_string(size) + " vs. " +
                           std::to_string(sh_.options.max_receive) + ")",
                       ""});
    return 0;
  }
  if (s->body.size() >= kFrameRoom + size) {
    s->body.resize(kFrameRoom + size);  // a second message of a unary request is ignored
    recount(c, *s);
    s->message_ready = true;
    forget_request_timer(*s);
    if (!s->read_sent) {
      s->read_sent = true;
      notice(s, NoticeKind::kRead, true);
    }
  }
  return 0;
}

int Loop::on_stream_close(Conn& c, int32_t id) {
  auto it = c.calls.find(id);
  if (it == c.calls.end()) return 0;
  std::shared_ptr<CallState> s = std::move(it->second);
  c.calls.erase(it);
  uncount(c, *s);
  if (c.calls.empty()) {
    c.idle_since = turn_now_;
    if (!c.has_timer && !c.draining) arm(c, turn_now_ + sh_.options.idle_timeout);
  }
  forget_timer(*s);
  s->conn = nullptr;
  s->responded = true;
  cancel_reactor(s);
  return 0;
}

// The stream is gone (or reset by us): the reactor hears of it once; a
// pending write fails and a missing request never comes.
void Loop::cancel_reactor(const std::shared_ptr<CallState>& s) {
  if (!s->reactor || s->finished) return;
  if (!s->cancel_sent) {
    s->cancel_sent = true;
    notice(s, NoticeKind::kCancel);
  }
  if (s->write_pending) {
    s->write_pending = false;
    notice(s, NoticeKind::kWrite, false);
  }
  if (!s->read_sent) {
    s->read_sent = true;
    notice(s, NoticeKind::kRead, false);
  }
}

void Loop::respond_http(CallState& s, const char* status) {
  if (!s.conn || s.responded) return;
  s.responded = true;
  std::string st = status;
  nghttp2_nv nv[] = {make_nv(kStatus, st)};
  nghttp2_submit_response(s.conn->session, s.id, nv, 1, nullptr);
  mark_dirty(*s.conn);
}

// A status the transport itself gives (a message too large, compressed):
// trailers-only; the reactor's read then fails and its own finish is dropped.
void Loop::respond_status(const std::shared_ptr<CallState>& s, const WireStatus& st) {
  if (s->conn && !s->responded) {
    s->responded = true;
    std::vector<nghttp2_nv>& nv = fields_start();
    nv.push_back(make_nv(kStatus, k200));
    nv.push_back(make_nv(kContentType, kGrpcCt));
    status_fields(st, keep_, nv);
    nghttp2_submit_response(s->conn->session, s->id, nv.data(), nv.size(), nullptr);
    mark_dirty(*s->conn);
  }
  if (!s->message_ready) {  // else a worker may be reading it
    s->body.clear();
    s->body.shrink_to_fit();
    if (s->conn) recount(*s->conn, *s);
  }
  if (s->reactor && !s->finished && !s->read_sent) {
    s->read_sent = true;
    notice(s, NoticeKind::kRead, false);
  }
}

void Loop::op_send(const std::shared_ptr<CallState>& s, std::string* framed, size_t count,
                   const WireStatus* status) {
  Conn* c = s->conn;
  bool live = c && !s->responded;
  if (count > 0) {
    if (!live) {
      if (!status && s->reactor && !s->finished) notice(s, NoticeKind::kWrite, false);
    } else {
      for (size_t i = 0; i < count; ++i) {
        std::string& m = framed[i];
        size_t n = m.size() - kFrameRoom;
        m[0] = 0;
        m[1] = static_cast<char>((n >> 24) & 0xff);
        m[2] = static_cast<char>((n >> 16) & 0xff);
        m[3] = static_cast<char>((n >> 8) & 0xff);
        m[4] = static_cast<char>(n & 0xff);
        if (s->out_off == s->out.size()) {
          s->out = std::move(m);
          s->out_off = 0;
        } else {
          s->out.append(m);
        }
      }
      if (!status) {
        s->write_pending = true;
        s->write_end = s->taken + (s->out.size() - s->out_off);
      }
    }
  }
  if (status) {
    if (live) {
      if (!s->headers_sent && count == 0) {
        // Trailers-only: one HEADERS frame with the status, END_STREAM.
        s->headers_sent = true;
        std::vector<nghttp2_nv>& nv = fields_start();
        nv.push_back(make_nv(kStatus, k200));
        nv.push_back(make_nv(kContentType, kGrpcCt));
        for (const auto& [k, v] : s->initial) nv.push_back(make_nv(k, v));
        status_fields(*status, keep_, nv);
        nghttp2_submit_response(c->session, s->id, nv.data(), nv.size(), nullptr);
      } else {
        s->trailer = *status;
      }
      s->responded = true;
    }
    // Queued even from the reactor's constructor (s->reactor is set when the notice runs).
    if (!s->finished) notice(s, NoticeKind::kDone);
    s->finished = true;
  }
  if (live && (count > 0 || s->trailer)) {
    if (!s->headers_sent) {
      s->headers_sent = true;
      std::vector<nghttp2_nv>& nv = fields_start();
      nv.push_back(make_nv(kStatus, k200));
      nv.push_back(make_nv(kContentType, kGrpcCt));
      for (const auto& [k, v] : s->initial) nv.push_back(make_nv(k, v));
      nghttp2_data_provider prd;
      prd.source.ptr = s.get();
      prd.read_callback = cb_read_data;
      nghttp2_submit_response(c->session, s->id, nv.data(), nv.size(), &prd);
    } else if (s->deferred) {
      s->deferred = false;
      nghttp2_session_resume_data(c->session, s->id);
    }
  }
  if (c) mark_dirty(*c);
}

void Loop::op_cancel(const std::shared_ptr<CallState>& s) {
  if (s->conn && !s->responded) {
    s->responded = true;
    nghttp2_submit_rst_stream(s->conn->session, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_CANCEL);
    mark_dirty(*s->conn);
  }
  cancel_reactor(s);
}

// nghttp2 asks for DATA (within the peer's flow-control window): the bytes
// written so far, then the trailers.
ssize_t Loop::read_data(CallState& s, uint8_t* buf, size_t length, uint32_t* flags) {
  size_t n = std::min(length, s.out.size() - s.out_off);
  if (n) std::memcpy(buf, s.out.data() + s.out_off, n);
  s.out_off += n;
  s.taken += n;
  if (s.write_pending && s.taken >= s.write_end) {
    s.write_pending = false;
    if (s.reactor && !s.finished) {
      auto it = s.conn->calls.find(s.id);
      if (it != s.conn->calls.end()) notice(it->second, NoticeKind::kWrite, true);
    }
  }
  if (s.out_off == s.out.size()) {
    s.out.clear();
    s.out_off = 0;
    if (s.trailer) {
      *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
      std::vector<nghttp2_nv>& nv = fields_start();
      status_fields(*s.trailer, keep_, nv);
      s.trailer.reset();
      nghttp2_submit_trailer(s.conn->session, s.id, nv.data(), nv.size());
    } else if (n == 0) {
      s.deferred = true;
      return NGHTTP2_ERR_DEFERRED;
    }
  }
  return static_cast<ssize_t>(n);
}

void Loop::run() {
  tl_loop = this;
  epoll_event evs[kMaxEvents];
  for (;;) {
    int timeout = (notices_.empty() && dirty_.empty()) ? next_timeout() : 0;
    int n = ::epoll_wait(ep_, evs, kMaxEvents, timeout);
    turn_now_ = Clock::now();
    for (int i = 0; i < n; ++i) {
      void* tag = evs[i].data.ptr;
      if (tag == &ev_) {
        uint64_t v;
        [[maybe_unused]] ssize_t r = ::read(ev_, &v, sizeof v);
        continue;
      }
      if (tag == &listen_fd_) {
        accept_some();
        continue;
      }
      Conn& c = *static_cast<Conn*>(tag);
      if (c.closed) continue;
      if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) on_readable(c);
      if (!c.closed && (evs[i].events & EPOLLOUT)) mark_dirty(c);
    }
    // The scratch vectors (posted, dirty, sending, a batch of notices) are
    // swapped with the queues and cleared after use, so both keep their
    // capacity: no allocation per loop turn.
    std::vector<std::function<void()>>& posted = posted_scratch_;
    {
      std::lock_guard<std::mutex> lk(post_mu_);
      posted.swap(posted_);
      woken_ = false;
    }
    for (auto& fn : posted) fn();
    posted.clear();
    expire_timers();
    expire_request_timers();
    expire_conn_timers();
    if (accept_paused_ && listen_fd_ >= 0 && Clock::now() >= accept_paused_until_) {
      accept_paused_ = false;
      epoll_event e{};
      e.events = EPOLLIN;
      e.data.ptr = &listen_fd_;
      ::epoll_ctl(ep_, EPOLL_CTL_MOD, listen_fd_, &e);
    }
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      bool any = run_notices();
      if (dirty_.empty() && !any) break;
      std::vector<Conn*>& dirty = dirty_scratch_;
      dirty.swap(dirty_);
      for (Conn* c : dirty) {
        c->dirty = false;
        if (!c->closed) collect(*c);
      }
      dirty.clear();
      if (notices_.empty() && dirty_.empty()) break;
    }
    // Everything collected in the passes above: one send() per connection.
    std::vector<Conn*>& sending = sending_scratch_;
    sending.swap(to_send_);
    for (Conn* c : sending) {
      c->to_send = false;
      if (!c->closed) flush(*c);
    }
    sending.clear();
    graveyard_.clear();
    if (quit_) break;
  }
  // Quitting: every connection closes; reactors still open hear on_cancel.
  std::vector<Conn*> open;
  for (auto& [fd, c] : conns_) open.push_back(c.get());
  for (Conn* c : open) {
    if (!c->closed) flush(*c);
    if (!c->closed) close_conn(*c);
  }
  for (int pass = 0; pass < kMaxPasses && run_notices(); ++pass) {
  }
  graveyard_.clear();
}

// Runs the queued notices (and those they queue, up to a bound); true when any ran.
bool Loop::run_notices() {
  if (notices_.empty()) return false;
  for (int round = 0; round < kMaxPasses && !notices_.empty(); ++round) {
    std::vector<Notice>& batch = notice_batch_;  // never re-entered: reactors' calls only queue
    batch.swap(notices_);
    for (auto& n : batch) {
      Reactor* r = n.call->reactor;
      if (!r) continue;
      switch (n.kind) {
        case NoticeKind::kRead:
          r->on_read_done(n.ok);
          break;
        case NoticeKind::kWrite:
          r->on_write_done(n.ok);
          break;
        case NoticeKind::kCancel:
          r->on_cancel();
          break;
        case NoticeKind::kDone:
          n.call->reactor = nullptr;
          r->on_done();
          sh_.call_done();
          break;
      }
    }
    batch.clear();
  }
  return true;
}

int Loop::next_timeout() {
  constexpr int kIdleWait = 1000;
  if (accept_paused_) return static_cast<int>(kAcceptPause.count());
  if (timers_.empty() && request_timers_.empty() && conn_timers_.empty()) return kIdleWait;
  Clock::time_point next = Clock::time_point::max();
  if (!timers_.empty()) next = timers_.begin()->first;
  if (!request_timers_.empty()) next = std::min(next, request_timers_.begin()->first);
  if (!conn_timers_.empty()) next = std::min(next, conn_timers_.begin()->first);
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(next - Clock::now()).count();
  return static_cast<int>(std::clamp<int64_t>(ms, 0, kIdleWait));
}

// grpc-timeout has passed: DEADLINE_EXCEEDED (or RST_STREAM once the
// response has begun), and the reactor sees the cancellation.
void Loop::expire_timers() {
  auto now = Clock::now();
  while (!timers_.empty() && timers_.begin()->first <= now) {
    CallState* raw = timers_.begin()->second;
    forget_timer(*raw);
    if (!raw->conn) continue;
    auto it = raw->conn->calls.find(raw->id);
    if (it == raw->conn->calls.end()) continue;
    std::shared_ptr<CallState> s = it->second;
    if (s->responded) continue;
    if (!s->headers_sent) {
      respond_status(s, {grpcwire::kDeadlineExceeded, "Deadline Exceeded", ""});
    } else {
      s->responded = true;
      nghttp2_submit_rst_stream(s->conn->session, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_CANCEL);
      mark_dirty(*s->conn);
    }
    cancel_reactor(s);
  }
}

// The streams whose HEADERS came in this read and whose message is still
// incomplete at its end get their request timer (counted from this turn,
// when the HEADERS arrived). A call whose message came in the same read
// never has one.
void Loop::arm_request_timers(Conn& c) {
  for (int32_t id : awaiting_) {
    auto it = c.calls.find(id);
    if (it == c.calls.end()) continue;
    CallState& s = *it->second;
    if (s.message_ready || s.has_request_timer) continue;
    if (nghttp2_session_get_stream_remote_close(c.session, id) != 0) continue;  // END_STREAM came
    s.request_timer = request_timers_.emplace(turn_now_ + sh_.options.request_timeout, &s);
    s.has_request_timer = true;
  }
  awaiting_.clear();
}

// request_timeout has passed and the message is still incomplete: the
// stream is reset (CANCEL; NO_ERROR when our response is complete, RFC 9113
// §8.1), its bytes freed, its reactor told once (docs/grpc.md, Bounds).
void Loop::expire_request_timers() {
  auto now = Clock::now();
  while (!request_timers_.empty() && request_timers_.begin()->first <= now) {
    CallState* raw = request_timers_.begin()->second;
    forget_request_timer(*raw);
    if (!raw->conn || raw->message_ready) continue;
    Conn& c = *raw->conn;
    auto it = c.calls.find(raw->id);
    if (it == c.calls.end()) continue;
    std::shared_ptr<CallState> s = it->second;
    if (!s->responded) {
      s->responded = true;
      nghttp2_submit_rst_stream(c.session, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_CANCEL);
    } else if (nghttp2_session_get_stream_local_close(c.session, s->id) == 1) {
      nghttp2_submit_rst_stream(c.session, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_NO_ERROR);
    } else {
      continue;  // our response is still going out: the stream ends with it
    }
    sh_.request_timeouts.fetch_add(1, std::memory_order_relaxed);
    s->body.clear();
    s->body.shrink_to_fit();
    recount(c, *s);
    mark_dirty(c);
    cancel_reactor(s);
  }
}

// The connections' deadlines: no preface yet, closed; idle (no open stream)
// since idle_timeout, GOAWAY NO_ERROR and a linger; the linger over, closed.
// A busy connection's entry is dropped (on_stream_close arms it again).
void Loop::expire_conn_timers() {
  auto now = Clock::now();
  while (!conn_timers_.empty() && conn_timers_.begin()->first <= now) {
    Conn& c = *conn_timers_.begin()->second;
    disarm(c);
    if (c.closed) continue;
    if (!c.preface_done) {
      sh_.preface_timeouts.fetch_add(1, std::memory_order_relaxed);
      close_conn(c);
      continue;
    }
    if (c.draining) {
      close_conn(c);
      continue;
    }
    if (!c.calls.empty()) continue;
    Clock::time_point due = c.idle_since + sh_.options.idle_timeout;
    if (due > now) {
      arm(c, due);
      continue;
    }
    sh_.idle_goaways.fetch_add(1, std::memory_order_relaxed);
    c.draining = true;
    nghttp2_submit_goaway(c.session, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(c.session),
                          NGHTTP2_NO_ERROR, nullptr, 0);
    arm(c, now + sh_.options.goaway_linger);
    mark_dirty(c);
  }
}

void Loop::accept_some() {
  for (int i = 0; i < kMaxEvents && listen_fd_ >= 0; ++i) {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED) return;
      // Out of descriptors (or memory): the listening socket would stay
      // readable and spin this thread; it is left out of the epoll set for a while.
      accept_paused_ = true;
      accept_paused_until_ = Clock::now() + kAcceptPause;
      epoll_event e{};
      e.data.ptr = &listen_fd_;
      ::epoll_ctl(ep_, EPOLL_CTL_MOD, listen_fd_, &e);
      return;
    }
    if (sh_.connections.fetch_add(1) >= sh_.options.max_connections) {
      sh_.connections.fetch_sub(1);
      ::close(fd);
      continue;
    }
    set_nodelay(fd);
    Loop* to = sh_.loops[sh_.next_loop.fetch_add(1) % sh_.loops.size()];
    if (to == this) adopt(fd);
    else to->post([to, fd] { to->adopt(fd); });
  }
}

void Loop::on_readable(Conn& c) {
  ssize_t n;
  do {
    n = ::recv(c.fd, rbuf_.data(), rbuf_.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK) return;
    return close_conn(c);
  }
  if (n == 0) {  // the peer closed: what it sent is answered if it can still be written
    c.close_after_flush = true;
    mark_dirty(c);
    return;
  }
  ssize_t used = nghttp2_session_mem_recv(c.session, reinterpret_cast<const uint8_t*>(rbuf_.data()),
                                          static_cast<size_t>(n));
  if (!awaiting_.empty()) arm_request_timers(c);
  if (used < 0) {
    // A bad preface or a protocol error: GOAWAY (when nghttp2 has not queued one), then close.
    nghttp2_session_terminate_session(c.session, NGHTTP2_PROTOCOL_ERROR);
    c.close_after_flush = true;
  }
  mark_dirty(c);
}

// nghttp2's frames into the connection's buffer (write completions become notices).
void Loop::collect(Conn& c, bool queue) {
  while (c.outbuf.size() - c.out_off < sh_.options.max_output) {
    const uint8_t* data = nullptr;
    ssize_t n = nghttp2_session_mem_send(c.session, &data);
    if (n < 0) return close_conn(c);
    if (n == 0) break;
    c.outbuf.append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
  }
  size_t held = c.outbuf.size() - c.out_off;
  c.capped = held >= sh_.options.max_output;
  if (held > sh_.output_high_water.load(std::memory_order_relaxed)) {
    size_t seen = sh_.output_high_water.load(std::memory_order_relaxed);
    while (held > seen && !sh_.output_high_water.compare_exchange_weak(seen, held, std::memory_order_relaxed)) {
    }
  }
  if (queue && !c.to_send) {
    c.to_send = true;
    to_send_.push_back(&c);
  }
}

void Loop::flush(Conn& c) {
  collect(c, false);
  if (c.closed) return;
  while (c.out_off < c.outbuf.size()) {
    ssize_t n = ::send(c.fd, c.outbuf.data() + c.out_off, c.outbuf.size() - c.out_off, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      c.out_off += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    return close_conn(c);
  }
  if (c.out_off == c.outbuf.size()) {
    c.outbuf.clear();
    c.out_off = 0;
  }
  bool pending = !c.outbuf.empty();
  // collect() stopped at max_output and the socket took it all: nghttp2 may
  // have more (want_write), which no event would ask for (the socket is
  // writable, the peer may be silent). The next loop turn collects it.
  if (!pending && c.capped && nghttp2_session_want_write(c.session)) mark_dirty(c);
  // After the idle GOAWAY nghttp2 wants nothing more, but the connection
  // lingers (read, new streams ignored) until the client closes or the
  // linger ends (expire_conn_timers).
  if (!pending && (c.close_after_flush || (!c.draining && !nghttp2_session_want_read(c.session) &&
                                           !nghttp2_session_want_write(c.session))))
    return close_conn(c);
  update_mask(c);
}

// Reading pauses while output waits beyond the bound; EPOLLOUT while any waits.
void Loop::update_mask(Conn& c) {
  size_t waiting = c.outbuf.size() - c.out_off;
  uint32_t want = 0;
  if (waiting < sh_.options.max_output) want |= EPOLLIN;
  // Only bytes nghttp2 gave us wait for the socket (DATA that waits for
  // the peer's window is nghttp2's), so EPOLLOUT never spins.
  if (waiting > 0) want |= EPOLLOUT;
  if (want == c.mask) return;
  if ((c.mask & EPOLLIN) && !(want & EPOLLIN)) sh_.read_pauses.fetch_add(1, std::memory_order_relaxed);
  c.mask = want;
  epoll_event e{};
  e.events = want;
  e.data.ptr = &c;
  ::epoll_ctl(ep_, EPOLL_CTL_MOD, c.fd, &e);
}

void Loop::close_conn(Conn& c) {
  if (c.closed) return;
  drop(c);
  // No list of this loop may keep it once it is freed (graveyard_).
  dirty_.erase(std::remove(dirty_.begin(), dirty_.end(), &c), dirty_.end());
  to_send_.erase(std::remove(to_send_.begin(), to_send_.end(), &c), to_send_.end());
  auto it = conns_.find(c.fd);
  if (it != conns_.end()) {
    graveyard_.push_back(std::move(it->second));
    conns_.erase(it);
  }
  c.fd = -1;
}

// Everything of a connection but the Conn itself: its calls hear of the end.
void Loop::drop(Conn& c) {
  if (c.closed) return;
  c.closed = true;
  disarm(c);
  for (auto& [id, s] : c.calls) {
    forget_timer(*s);
    uncount(c, *s);
    s->conn = nullptr;
    s->responded = true;
    cancel_reactor(s);
  }
  c.calls.clear();
  nghttp2_session_del(c.session);
  c.session = nullptr;
  ::epoll_ctl(ep_, EPOLL_CTL_DEL, c.fd, nullptr);
  ::close(c.fd);
  sh_.connections.fetch_sub(1);
}

// ---- CallHandle ----

std::string_view CallHandle::path() const { return s_->path(); }

std::string_view CallHandle::header(std::string_view key) const { return s_->field(key); }

std::string_view CallHandle::request() const {
  std::string_view b = s_->body;
  return b.size() >= kFrameRoom ? b.substr(kFrameRoom) : std::string_view();
}

void CallHandle::add_initial_metadata(std::string key, std::string value) {
  auto s = s_;
  s->loop->run_here([s, k = std::move(key), v = std::move(value)]() mutable {
    s->loop->op_initial(*s, std::move(k), std::move(v));
  });
}

void CallHandle::write(std::string framed) {
  auto s = s_;
  if (s->loop->in_thread()) return s->loop->op_send(s, &framed, 1, nullptr);
  s->loop->post([s, m = std::move(framed)]() mutable { s->loop->op_send(s, &m, 1, nullptr); });
}

void CallHandle::write_and_finish(std::string framed, WireStatus status) {
  auto s = s_;
  if (s->loop->in_thread()) return s->loop->op_send(s, &framed, 1, &status);
  s->loop->post([s, m = std::move(framed), st = std::move(status)]() mutable { s->loop->op_send(s, &m, 1, &st); });
}

void CallHandle::write_all_and_finish(std::vector<std::string> framed, WireStatus status) {
  auto s = s_;
  if (s->loop->in_thread()) return s->loop->op_send(s, framed.data(), framed.size(), &status);
  s->loop->post([s, m = std::move(framed), st = std::move(status)]() mutable {
    s->loop->op_send(s, m.data(), m.size(), &st);
  });
}

void CallHandle::finish(WireStatus status) {
  auto s = s_;
  if (s->loop->in_thread()) return s->loop->op_send(s, nullptr, 0, &status);
  s->loop->post([s, st = std::move(status)]() mutable { s->loop->op_send(s, nullptr, 0, &st); });
}

void CallHandle::try_cancel() {
  auto s = s_;
  s->loop->run_here([s] { s->loop->op_cancel(s); });
}

// ---- Server ----

namespace {

int listen_on(const std::string& bind, uint16_t port, uint16_t& bound) {
  sockaddr_storage ss{};
  socklen_t len = 0;
  std::string host = bind.empty() ? "0.0.0.0" : bind;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  auto* v4 = reinterpret_cast<sockaddr_in*>(&ss);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&ss);
  if (::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    len = sizeof *v4;
  } else if (::inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    len = sizeof *v6;
  } else if (host == "localhost") {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    len = sizeof *v4;
  } else {
    return -1;
  }
  int fd = ::socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&ss), len) != 0 || ::listen(fd, 1024) != 0) {
    ::close(fd);
    return -1;
  }
  sockaddr_storage got{};
  socklen_t gl = sizeof got;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&got), &gl);
  bound = ntohs(got.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&got)->sin_port
                                         : reinterpret_cast<sockaddr_in6*>(&got)->sin6_port);
  return fd;
}

}  // namespace

core::Expected<std::unique_ptr<Server>> Server::start(ServerOptions options, ReactorFactory factory) {
  uint16_t bound = 0;
  int fd = listen_on(options.bind, options.port, bound);
  if (fd < 0)
    return core::fail(core::ErrorKind::kIo, "grpc: cannot listen on " + options.bind + ":" +
                                                std::to_string(options.port) + ": " + std::strerror(errno));
  std::unique_ptr<Server> s(new Server());
  s->shared_ = std::make_unique<Shared>();
  Shared& sh = *s->shared_;
  sh.options = std::move(options);
  sh.factory = std::move(factory);
  int threads = std::clamp(sh.options.io_threads, 1, 16);
  for (int i = 0; i < threads; ++i) s->loops_.push_back(std::make_unique<Loop>(sh, i == 0 ? fd : -1));
  for (auto& l : s->loops_) sh.loops.push_back(l.get());
  for (auto& l : s->loops_) l->start();
  s->port_ = bound;
  return s;
}

Server::~Server() { stop(); }

void Server::goaway() {
  for (auto& l : loops_) {
    Loop* lp = l.get();
    lp->post([lp] { lp->goaway_all(); });
  }
}

void Server::cancel_all() {
  for (auto& l : loops_) {
    Loop* lp = l.get();
    lp->post([lp] { lp->cancel_everything(); });
  }
}

bool Server::wait_calls(std::chrono::milliseconds within) {
  std::unique_lock<std::mutex> lk(shared_->mu);
  return shared_->cv.wait_for(lk, within, [&] { return shared_->live_calls.load() == 0; });
}

void Server::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& l : loops_) l->quit();
  for (auto& l : loops_) l->join();
  loops_.clear();
}

ServerStats Server::stats() const {
  ServerStats st;
  if (!shared_) return st;
  const Shared& sh = *shared_;
  st.connections = sh.connections.load();
  st.output_high_water = sh.output_high_water.load(std::memory_order_relaxed);
  st.read_pauses = sh.read_pauses.load(std::memory_order_relaxed);
  st.preface_timeouts = sh.preface_timeouts.load(std::memory_order_relaxed);
  st.idle_goaways = sh.idle_goaways.load(std::memory_order_relaxed);
  st.request_timeouts = sh.request_timeouts.load(std::memory_order_relaxed);
  st.buffered_request_total = sh.buffered_total.load(std::memory_order_relaxed);
  st.total_refusals = sh.total_refusals.load(std::memory_order_relaxed);
  return st;
}

std::string percent_encode(std::string_view text) {
  return transport::percent_encode_except(text, [](unsigned char c) { return c >= 0x20 && c <= 0x7e && c != '%'; });
}

int64_t parse_grpc_timeout(std::string_view v) {
  // TimeoutValue: 1 to 8 ASCII digits; TimeoutUnit: H M S m u n.
  if (v.size() < 2 || v.size() > 9) return -1;
  int64_t n = 0;
  for (char ch : v.substr(0, v.size() - 1)) {
    if (ch < '0' || ch > '9') return -1;
    n = n * 10 + (ch - '0');
  }
  switch (v.back()) {
    case 'H':
      return n * 3600000;
    case 'M':
      return n * 60000;
    case 'S':
      return n * 1000;
    case 'm':
      return n;
    case 'u':
      return (n + 999) / 1000;
    case 'n':
      return (n + 999999) / 1000000;
    default:
      return -1;
  }
}

}  // namespace a2a::agent::h2
