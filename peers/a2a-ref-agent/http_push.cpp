#include "peers/a2a-ref-agent/http_push.hpp"

#include <unistd.h>

#include <functional>

#include "runner/jsonrpc/message.hpp"
#include "runner/transport/http_client.hpp"

namespace a2a::agent {
namespace {

// How often an idle delivery thread re-checks for stop (a lost wake-up costs at most this).
constexpr core::Millis kIdleSlice{1000};

std::string string_member(const Json& obj, const char* name) {
  if (!obj.is_object() || !obj.contains(name) || !obj[name].is_string()) return "";
  return obj[name].get<std::string>();
}

}  // namespace

PushDelivery::PushDelivery(PushOptions options) : options_(std::move(options)) {
  int n = std::max(1, options_.shards);
  for (int i = 0; i < n; ++i) shards_.push_back(std::make_unique<Shard>());
  for (auto& s : shards_) s->thread = std::thread([this, sp = s.get()] { loop(*sp); });
}

PushDelivery::~PushDelivery() { stop(core::Millis(0)); }

std::function<void(const Json&, const Json&)> PushDelivery::sink() {
  return [this](const Json& config, const Json& body) { enqueue(config, body); };
}

void PushDelivery::log(const std::string& msg) const {
  if (options_.log_fd < 0) return;
  std::string line = "a2a-ref-agent: " + msg + "\n";
  [[maybe_unused]] ssize_t n = ::write(options_.log_fd, line.data(), line.size());
}

void PushDelivery::enqueue(const Json& config, const Json& body) {
  if (stopping_) {
    ++dropped_;
    return;
  }
  // The shard follows the config, so one config's notifications stay in order.
  size_t h = std::hash<std::string>{}(string_member(config, "taskId") + "\n" + string_member(config, "id"));
  Shard& s = *shards_[h % shards_.size()];
  {
    std::lock_guard<std::mutex> lk(s.mu);
    if (s.queue.size() >= options_.max_queue) {
      ++dropped_;
      log("push notification to " + string_member(config, "url") + " dropped: delivery queue full");
      return;
    }
    s.queue.push_back(Job{config, body});
  }
  s.cv.notify_one();
}

void PushDelivery::loop(Shard& s) {
  std::unique_lock<std::mutex> lk(s.mu);
  for (;;) {
    s.cv.wait_for(lk, kIdleSlice, [&] { return hard_stop_ || stopping_ || !s.queue.empty(); });
    if (hard_stop_) return;
    if (s.queue.empty()) {
      if (stopping_) return;
      continue;
    }
    Job job = std::move(s.queue.front());
    s.queue.pop_front();
    s.busy = true;
    lk.unlock();
    deliver(s, job);
    lk.lock();
    s.busy = false;
    s.cv.notify_all();
  }
}

void PushDelivery::deliver(Shard& s, const Job& job) {
  std::string url = string_member(job.config, "url");
  std::string why = attempt(s, job);
  if (why.empty()) {
    ++delivered_;
    return;
  }
  log("push notification to " + url + " failed (" + why + "); retrying once");
  {
    std::unique_lock<std::mutex> lk(s.mu);
    s.cv.wait_for(lk, options_.retry_delay, [&] { return hard_stop_.load(); });
  }
  why = hard_stop_ ? std::string("stopped") : attempt(s, job);
  if (why.empty()) {
    ++delivered_;
    return;
  }
  ++failed_;
  log("push notification to " + url + " failed again (" + why + "); giving up");
}

std::string PushDelivery::attempt(Shard& s, const Job& job) {
  auto url = transport::Url::parse(string_member(job.config, "url"));
  if (!url) return "bad URL: " + url.error().message;
  transport::HttpRequest req;
  req.method = "POST";
  req.target = url->target();
  req.headers.emplace_back("Content-Type", "application/a2a+json");
  const Json& auth = job.config.contains("authentication") ? job.config["authentication"] : Json();
  std::string scheme = string_member(auth, "scheme");
  if (!scheme.empty() && !options_.faults.has(Fault::kPushNoAuthHeader)) {
    req.headers.emplace_back("Authorization", scheme + " " + string_member(auth, "credentials"));
  }
  std::string token = string_member(job.config, "token");
  if (!token.empty() && !options_.faults.has(Fault::kPushNoTokenHeader)) {
    req.headers.emplace_back("X-A2A-Notification-Token", token);
  }
  req.body = jsonrpc::dump(job.body);
  transport::HttpClientOptions copts;
  copts.user_agent = "a2a-ref-agent";
  transport::HttpClient client(*url, copts);
  {
    std::lock_guard<std::mutex> lk(s.mu);
    if (hard_stop_) return "stopped";
    s.current = &client;
  }
  auto r = client.request(req, core::Deadline::after(options_.timeout));
  {
    std::lock_guard<std::mutex> lk(s.mu);
    s.current = nullptr;
  }
  if (!r) return r.error().message;
  if (r->status < 200 || r->status > 299) return "HTTP " + std::to_string(r->status);
  return "";
}

void PushDelivery::stop(core::Millis grace) {
  std::lock_guard<std::mutex> stop_lock(stop_mu_);
  if (stopped_) return;
  stopped_ = true;
  stopping_ = true;
  auto deadline = core::Deadline::after(grace);
  for (auto& s : shards_) {
    std::unique_lock<std::mutex> lk(s->mu);
    s->cv.notify_all();
    s->cv.wait_until(lk, deadline.time(), [&] { return s->queue.empty() && !s->busy; });
  }
  hard_stop_ = true;
  for (auto& s : shards_) {
    std::lock_guard<std::mutex> lk(s->mu);
    dropped_ += s->queue.size();
    s->queue.clear();
    if (s->current) s->current->interrupt();
    s->cv.notify_all();
  }
  for (auto& s : shards_) {
    if (s->thread.joinable()) s->thread.join();
  }
}

PushStats PushDelivery::stats() const { return PushStats{delivered_.load(), failed_.load(), dropped_.load()}; }

}  // namespace a2a::agent
