#include "runner/engine/client_harness.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "runner/core/escape.hpp"
#include "runner/wire/double_link.hpp"

namespace a2a::engine {

using core::Deadline;
using core::Millis;

namespace {
// A client may print a lot (a flood is misbehaviour, not a reason to grow):
// lines beyond these caps are dropped and the scenario fails on what is kept.
constexpr size_t kMaxLineBytes = 16u * 1024 * 1024;
constexpr size_t kMaxKeptBytes = 64u * 1024 * 1024;
}  // namespace

core::Expected<std::unique_ptr<ClientProcess>> ClientProcess::spawn(const std::vector<std::string>& argv) {
  transport::SpawnOptions o;
  o.argv = argv;
  auto p = transport::StdioProcess::spawn(o);
  if (!p) return core::fail(p.error());
  std::unique_ptr<ClientProcess> c(new ClientProcess());
  c->proc_ = std::move(p.value());
  c->reader_ = std::thread([raw = c.get()] { raw->reader_loop(); });
  return c;
}

ClientProcess::~ClientProcess() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  if (proc_) proc_->kill_now();
  if (reader_.joinable()) reader_.join();
}

void ClientProcess::reader_loop() {
  for (;;) {
    {
      std::lock_guard lk(mu_);
      if (stop_) return;
    }
    auto r = proc_->read_some(Deadline::after(Millis(50)));
    if (r.status == transport::ReadResult::Status::kTimeout) continue;
    std::lock_guard lk(mu_);
    if (r.status != transport::ReadResult::Status::kData) {
      if (!partial_.empty()) lines_.push_back(std::move(partial_));
      eof_ = true;
      cv_.notify_all();
      return;
    }
    for (char ch : r.data) {
      if (ch != '\n') {
        if (partial_.size() < kMaxLineBytes) partial_.push_back(ch);
        continue;
      }
      if (!partial_.empty() && partial_.back() == '\r') partial_.pop_back();
      kept_bytes_ += partial_.size();
      if (kept_bytes_ <= kMaxKeptBytes) lines_.push_back(std::move(partial_));
      partial_.clear();
    }
    cv_.notify_all();
  }
}

core::Expected<void> ClientProcess::write_line(const std::string& line, Deadline d) {
  return proc_->write(line + "\n", d);
}

std::optional<std::string> ClientProcess::next_line(Deadline d) {
  std::unique_lock lk(mu_);
  while (lines_.empty() && !eof_ && !stop_ && !d.expired()) cv_.wait_until(lk, d.time());
  if (lines_.empty()) return std::nullopt;
  std::string l = std::move(lines_.front());
  lines_.pop_front();
  return l;
}

bool ClientProcess::ended() const {
  std::lock_guard lk(mu_);
  return eof_ && lines_.empty();
}

std::vector<std::string> ClientProcess::unread_lines() const {
  std::lock_guard lk(mu_);
  return {lines_.begin(), lines_.end()};
}

void ClientProcess::interrupt() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
}

// ---- DoubleLink ----

core::Expected<std::unique_ptr<DoubleLink>> DoubleLink::listen(transport::Transcript* tr) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return core::fail(core::ErrorKind::kIo, "socket() failed for the agent double's link");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, 4) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    return core::fail(core::ErrorKind::kIo, "cannot listen on 127.0.0.1 for the agent double");
  }
  std::unique_ptr<DoubleLink> l(new DoubleLink());
  l->listen_fd_ = fd;
  l->port_ = ntohs(addr.sin_port);
  l->token_ = core::uuid_v7();
  l->tr_ = tr;
  l->acceptor_ = std::thread([raw = l.get()] { raw->accept_loop(); });
  return l;
}

DoubleLink::~DoubleLink() {
  interrupt();
  if (acceptor_.joinable()) acceptor_.join();
  if (reader_.joinable()) reader_.join();
  if (fd_ >= 0) ::close(fd_);  // the double sees EOF and exits at once
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

std::string DoubleLink::command_line(const std::string& double_path) const {
  return transport::StdioProcess::join_command(
      {double_path, "--connect", "127.0.0.1:" + std::to_string(port_), "--token", token_});
}

void DoubleLink::accept_loop() {
  for (;;) {
    {
      std::lock_guard lk(mu_);
      if (stop_) return;
    }
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) != 1) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    bool first;
    {
      std::lock_guard lk(mu_);
      first = fd_ < 0;
    }
    if (!first || !read_hello(fd)) {
      if (tr_) tr_->note(first ? "agent double link: a connection without our token was refused"
                               : "the client started its agent a second time; that double was turned away");
      ::close(fd);
      continue;
    }
    {
      std::lock_guard lk(mu_);
      fd_ = fd;
    }
    cv_.notify_all();
    reader_ = std::thread([this, fd] { reader_loop(fd); });
  }
}

// The hello is the first message; 2 s is plenty on loopback.
bool DoubleLink::read_hello(int fd) {
  wire::LinkDecoder dec;
  auto d = Deadline::after(Millis(2000));
  char buf[4096];
  while (!d.expired()) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, d.poll_timeout_ms()) != 1) return false;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return false;
    dec.feed(std::string_view(buf, static_cast<size_t>(n)));
    auto m = dec.next();
    if (!m) continue;
    if (m->type != wire::LinkType::kHello) return false;
    auto h = nlohmann::json::parse(m->payload, nullptr, false);
    if (!h.is_object() || h.value("token", "") != token_) return false;
    h.erase("token");
    std::lock_guard lk(mu_);
    hello_ = h;
    // Bytes that followed the hello in the same read are stdin already.
    while (auto more = dec.next()) {
      if (more->type == wire::LinkType::kInput) input_ += more->payload;
      if (more->type == wire::LinkType::kInputEof) input_eof_ = true;
    }
    if (tr_) tr_->note("agent double linked: " + h.dump());
    return true;
  }
  return false;
}

void DoubleLink::reader_loop(int fd) {
  wire::LinkDecoder dec;
  char buf[64 * 1024];
  for (;;) {
    {
      std::lock_guard lk(mu_);
      if (stop_ || input_eof_) return;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) != 1) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    bool stdin_ended = false;
    std::unique_lock lk(mu_);
    if (n <= 0) {
      input_eof_ = true;
      link_error_ = "the agent double's link closed";
    } else {
      dec.feed(std::string_view(buf, static_cast<size_t>(n)));
      while (auto m = dec.next()) {
        if (m->type == wire::LinkType::kInput) {
          if (tr_) tr_->add(transport::Direction::kFromPeer, m->payload);
          input_ += m->payload;
        }
        if (m->type == wire::LinkType::kInputEof) {
          if (tr_) tr_->note("the client closed its agent's stdin (EOF at the double); the double exits 0 (L1)");
          input_eof_ = true;
          stdin_ended = true;
        }
      }
      if (dec.broken()) input_eof_ = true, link_error_ = dec.error();
    }
    lk.unlock();
    cv_.notify_all();
    // A well-behaved agent exits at stdin EOF (L1); clients wait for that.
    if (stdin_ended) exit_double(0);
  }
}

bool DoubleLink::wait_linked(Deadline d) {
  std::unique_lock lk(mu_);
  while (fd_ < 0 && !stop_ && !d.expired()) cv_.wait_until(lk, d.time());
  return fd_ >= 0;
}

nlohmann::json DoubleLink::hello() const {
  std::lock_guard lk(mu_);
  return hello_;
}

core::Expected<void> DoubleLink::send(std::string_view bytes, Deadline d) {
  if (!wait_linked(d)) return core::fail(core::ErrorKind::kTimeout, "the client never started its agent (no double linked)");
  std::lock_guard wl(write_mu_);
  while (!bytes.empty()) {
    pollfd p{fd_, POLLOUT, 0};
    if (::poll(&p, 1, d.poll_timeout_ms()) != 1)
      return core::fail(core::ErrorKind::kTimeout, "write to the agent double timed out");
    ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) return core::fail(core::ErrorKind::kBrokenPipe, "the agent double is gone");
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

core::Expected<void> DoubleLink::send_output(std::string_view bytes, Deadline d) {
  auto r = send(wire::encode_link(wire::LinkType::kOutput, bytes), d);
  if (r && tr_) tr_->add(transport::Direction::kToPeer, bytes);
  return r;
}

void DoubleLink::close_output() {
  if (send(wire::encode_link(wire::LinkType::kCloseOutput, ""), Deadline::after(Millis(1000))) && tr_)
    tr_->note("the agent double closed its stdout (the client sees EOF)");
}

void DoubleLink::exit_double(int code) {
  (void)send(wire::encode_link(wire::LinkType::kExit, std::to_string(code)), Deadline::after(Millis(500)));
}

void DoubleLink::write_stderr(long long bytes) {
  if (send(wire::encode_link(wire::LinkType::kStderr, std::to_string(bytes)), Deadline::after(Millis(1000))) && tr_)
    tr_->note("the agent double writes " + std::to_string(bytes) + " bytes to its stderr");
}

transport::ReadResult DoubleLink::read_input(Deadline d) {
  std::unique_lock lk(mu_);
  while (input_.empty() && !input_eof_ && !stop_ && !d.expired()) cv_.wait_until(lk, d.time());
  transport::ReadResult r;
  if (!input_.empty()) {
    r.data = std::move(input_);
    input_.clear();
    return r;
  }
  r.status = input_eof_ || stop_ ? transport::ReadResult::Status::kEof : transport::ReadResult::Status::kTimeout;
  return r;
}

void DoubleLink::interrupt() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
}

// ---- the channel ----

namespace {
class DoubleChannel final : public PeerChannel {
 public:
  DoubleChannel(DoubleLink& l, ClientProcess& c) : link_(l), client_(c) {}
  core::Expected<void> write(std::string_view b, Deadline d) override { return link_.send_output(b, d); }
  transport::ReadResult read_some(Deadline d) override { return link_.read_input(d); }
  void close_stdin() override { link_.close_output(); }
  std::optional<transport::ExitStatus> poll_exit() override { return client_.process().poll_exit(); }
  std::optional<transport::ExitStatus> wait_exit(Deadline d) override { return client_.process().wait_exit(d); }
  transport::ExitStatus shutdown(Millis g, Millis t) override {
    link_.interrupt();
    return client_.process().shutdown(g, t);
  }
  transport::ExitStatus kill_now() override {
    link_.interrupt();
    return client_.process().kill_now();
  }

 private:
  DoubleLink& link_;
  ClientProcess& client_;
};
}  // namespace

std::unique_ptr<PeerChannel> make_double_channel(DoubleLink& link, ClientProcess& client) {
  return std::make_unique<DoubleChannel>(link, client);
}

}  // namespace a2a::engine
