#include "runner/engine/agent_connection.hpp"

#include <algorithm>
#include <chrono>

#include "runner/jsonrpc/message.hpp"
#include "runner/match/match_result.hpp"

namespace a2a::engine {

using core::Clock;
using core::Deadline;
using core::Millis;

namespace {
// What a queued frame costs beyond its bytes (strings, the deque slot, the
// nodes of a small parsed object): measured ~1 KiB for a 60-byte
// notification, so a flood of tiny frames is bounded as well as big ones.
constexpr size_t kFrameOverhead = 1024;
constexpr const char* kFloodPrefix = "agent flooded stdout: ";
}  // namespace

namespace {
class ProcessChannel final : public PeerChannel {
 public:
  explicit ProcessChannel(std::unique_ptr<transport::StdioProcess> p) : p_(std::move(p)) {}
  core::Expected<void> write(std::string_view b, Deadline d) override { return p_->write(b, d); }
  transport::ReadResult read_some(Deadline d) override { return p_->read_some(d); }
  void close_stdin() override { p_->close_stdin(); }
  std::optional<transport::ExitStatus> poll_exit() override { return p_->poll_exit(); }
  std::optional<transport::ExitStatus> wait_exit(Deadline d) override { return p_->wait_exit(d); }
  transport::ExitStatus shutdown(Millis g, Millis t) override { return p_->shutdown(g, t); }
  transport::ExitStatus kill_now() override { return p_->kill_now(); }
  transport::StdioProcess* process() { return p_.get(); }

 private:
  std::unique_ptr<transport::StdioProcess> p_;
};
}  // namespace

core::Expected<std::unique_ptr<AgentConnection>> AgentConnection::start(
    const ConnectionOptions& opts) {
  auto proc = transport::StdioProcess::spawn(opts.spawn);
  if (!proc) return core::fail(proc.error());
  auto chan = std::make_unique<ProcessChannel>(std::move(proc.value()));
  auto* raw_proc = chan->process();
  auto c = attach(std::move(chan), opts.rules, opts.max_inbox_bytes);
  c->proc_ = raw_proc;
  return c;
}

std::unique_ptr<AgentConnection> AgentConnection::attach(std::unique_ptr<PeerChannel> channel,
                                                         const wire::ContentLengthRules& rules,
                                                         size_t max_inbox_bytes) {
  std::unique_ptr<AgentConnection> c(new AgentConnection());
  c->chan_ = std::move(channel);
  c->decoder_ = wire::make_content_length_decoder(rules);
  c->max_inbox_bytes_ = max_inbox_bytes;
  c->started_ = Clock::now();
  c->last_byte_at_ = c->started_;
  c->reader_ = std::thread([raw = c.get()] { raw->reader_loop(); });
  return c;
}

AgentConnection::~AgentConnection() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (chan_) chan_->kill_now();  // unblocks the reader (EOF) if it is still reading
  if (reader_.joinable()) reader_.join();
}

// Raw bytes of the current (not yet framed) stdout data, so each frame can
// carry its header block exactly as the agent wrote it (checked by the
// framing scenarios: writers must emit the canonical form).
namespace {
struct RawTracker {
  std::string pending;
  size_t fed = 0;
  size_t consumed = 0;
};
}  // namespace

void AgentConnection::reader_loop() {
  RawTracker raw;
  while (true) {
    {
      std::lock_guard lk(mu_);
      if (stop_ || eof_) return;
    }
    auto r = chan_->read_some(Deadline::after(Millis(50)));
    if (r.status == transport::ReadResult::Status::kTimeout) continue;
    if (r.status != transport::ReadResult::Status::kData) {
      decoder_->finish();
    } else {
      {
        std::lock_guard lk(mu_);
        last_byte_at_ = Clock::now();
      }
      raw.pending += r.data;
      raw.fed += r.data.size();
      decoder_->feed(r.data);
    }
    bool stop_reading = false;
    for (;;) {
      auto d = decoder_->next();
      if (d.status == wire::DecodeResult::Status::kNeedMore) break;
      if (d.status == wire::DecodeResult::Status::kEnd) break;
      if (d.status == wire::DecodeResult::Status::kError) {
        std::lock_guard lk(mu_);
        if (framing_error_.empty())
          framing_error_ = std::string(wire::to_string(d.error)) + ": " + d.detail;
        stop_reading = true;
        break;
      }
      size_t consumed_now = raw.fed - decoder_->buffered();
      size_t seg = consumed_now - raw.consumed;
      raw.consumed = consumed_now;
      std::string header;
      if (seg <= raw.pending.size() && seg >= d.frame.body.size())
        header = raw.pending.substr(0, seg - d.frame.body.size());
      raw.pending.erase(0, std::min(seg, raw.pending.size()));
      if (!push_frame(std::move(d.frame), std::move(header))) {
        stop_reading = true;
        break;
      }
    }
    if (r.status != transport::ReadResult::Status::kData || stop_reading) {
      std::lock_guard lk(mu_);
      eof_ = true;
      cv_.notify_all();
      return;
    }
    cv_.notify_all();
  }
}

bool AgentConnection::push_frame(wire::Frame&& f, std::string&& raw_header) {
  InboxFrame in;
  in.raw_header = std::move(raw_header);
  in.t_ms = std::chrono::duration<double, std::milli>(Clock::now() - started_).count();
  in.body = std::move(f.body);
  // Bounded depth: a nesting bomb is "not JSON", never a stack overflow later.
  in.json = jsonrpc::parse_json(in.body, &in.json_error);
  std::lock_guard lk(mu_);
  in.seq = next_seq_++;
  inbox_bytes_ += cost(in);
  inbox_.push_back(std::move(in));
  if (inbox_bytes_ <= max_inbox_bytes_ || inbox_.size() == 1) return true;
  framing_error_ = kFloodPrefix + std::to_string(inbox_.size()) + " frames nobody asked for took more than " +
                   std::to_string(max_inbox_bytes_ >> 20) + " MiB of memory; stopped reading";
  return false;
}

size_t AgentConnection::cost(const InboxFrame& f) {
  return f.body.size() * (f.json ? 2 : 1) + f.raw_header.size() + kFrameOverhead;
}

core::Expected<void> AgentConnection::send(std::string_view bytes, Deadline deadline) {
  return chan_->write(bytes, deadline);
}

void AgentConnection::close_stdin() { chan_->close_stdin(); }

std::optional<InboxFrame> AgentConnection::take(
    const std::function<bool(const InboxFrame&)>& want, Deadline deadline) {
  return find(want, deadline, true);
}

std::optional<InboxFrame> AgentConnection::peek(
    const std::function<bool(const InboxFrame&)>& want, Deadline deadline) {
  return find(want, deadline, false);
}

void AgentConnection::remove(size_t seq) {
  std::lock_guard lk(mu_);
  for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
    if (it->seq == seq) {
      inbox_bytes_ -= cost(*it);
      inbox_.erase(it);
      return;
    }
  }
}

std::vector<InboxFrame> AgentConnection::pending(size_t max_frames) const {
  std::lock_guard lk(mu_);
  auto n = static_cast<std::ptrdiff_t>(std::min(max_frames, inbox_.size()));
  return {inbox_.begin(), inbox_.begin() + n};
}

std::optional<InboxFrame> AgentConnection::find(
    const std::function<bool(const InboxFrame&)>& want, Deadline deadline, bool remove) {
  std::unique_lock lk(mu_);
  for (;;) {
    for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
      if (!want(*it)) continue;
      if (!remove) return *it;
      inbox_bytes_ -= cost(*it);
      InboxFrame f = std::move(*it);
      inbox_.erase(it);
      return f;
    }
    if (eof_ || !interrupted_.empty() || deadline.expired()) return std::nullopt;
    if (deadline.is_never())
      cv_.wait(lk);
    else
      cv_.wait_until(lk, deadline.time());
  }
}

bool AgentConnection::quiet_for(Millis quiet, Deadline deadline) {
  std::unique_lock lk(mu_);
  auto quiet_start = Clock::now();
  size_t seen = next_seq_;
  auto until = Deadline::at(quiet_start + quiet).min(deadline);
  while (!until.expired() && interrupted_.empty()) {
    // Once stdout has ended nothing more can arrive: the silence is proven.
    if (eof_) break;
    cv_.wait_until(lk, until.time());
    if (next_seq_ != seen || last_byte_at_ > quiet_start) return false;
  }
  return next_seq_ == seen && last_byte_at_ <= quiet_start && interrupted_.empty();
}

bool AgentConnection::wait_eof(Deadline deadline) {
  std::unique_lock lk(mu_);
  while (!eof_ && interrupted_.empty() && !deadline.expired()) cv_.wait_until(lk, deadline.time());
  return eof_;
}

std::optional<transport::ExitStatus> AgentConnection::wait_exit(Deadline deadline) {
  return chan_->wait_exit(deadline);
}

std::string AgentConnection::why() const {
  std::lock_guard lk(mu_);
  if (!interrupted_.empty()) return interrupted_;
  if (framing_error_.rfind(kFloodPrefix, 0) == 0) return framing_error_;
  if (!framing_error_.empty()) return "agent output is not valid framing: " + framing_error_;
  auto st = chan_->poll_exit();
  if (eof_) return "agent closed stdout" + (st ? " (" + st->str() + ")" : std::string());
  // No EOF although the agent is gone: something it started holds the pipe.
  if (st) return "agent exited (" + st->str() + ") but a process it left behind keeps its stdout open";
  return {};
}

bool AgentConnection::eof() const {
  std::lock_guard lk(mu_);
  return eof_;
}

std::string AgentConnection::framing_error() const {
  std::lock_guard lk(mu_);
  return framing_error_;
}

size_t AgentConnection::unconsumed() const {
  std::lock_guard lk(mu_);
  return inbox_.size();
}

transport::ExitStatus AgentConnection::shutdown(Millis grace, Millis term_grace) {
  auto st = chan_->shutdown(grace, term_grace);
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  return st;
}

transport::ExitStatus AgentConnection::kill_now() {
  auto st = chan_->kill_now();
  cv_.notify_all();
  return st;
}

void AgentConnection::interrupt(const std::string& reason) {
  {
    std::lock_guard lk(mu_);
    if (interrupted_.empty()) interrupted_ = reason;
  }
  cv_.notify_all();
}

std::string describe_pending(const AgentConnection& conn, size_t max_frames) {
  size_t total = conn.unconsumed();
  auto frames = conn.pending(max_frames);  // not all: a flood may have queued 64 MiB
  if (frames.empty()) return {};
  std::string out = std::to_string(total) + " unconsumed frame(s) from the agent: ";
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i) out += "; ";
    out += frames[i].json ? match::compact(*frames[i].json, 160)
                          : "(not JSON: " + frames[i].json_error + ") " + frames[i].body.substr(0, 80);
  }
  return out;
}

}  // namespace a2a::engine
