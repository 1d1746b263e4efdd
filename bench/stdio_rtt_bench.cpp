// stdio round-trip throughput: how many small SendMessage requests per second
// the reference agent answers over its pipes with 64 requests in flight,
// against the physical limit of the same framed bytes echoed by `cat`.
//
//   stdio_rtt_bench [AGENT_COMMAND [N]]
//   (defaults: "A2A_BINARY_DIR/bin/a2a-ref-agent --quiet", 20000)
//
// Single-threaded on purpose: the window is refilled with one write() per
// batch and drained with read_some(), so the numbers measure the agent and
// the pipes, not our threading. Bounded: each phase has its own deadline and
// the whole run stays under 60 s; a phase that misses it reports and fails.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "runner/core/deadline.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/transport/stdio_process.hpp"
#include "runner/wire/codec.hpp"

namespace {

using a2a::core::Deadline;
using a2a::core::Millis;
using a2a::transport::ReadResult;
using a2a::transport::StdioProcess;
using Json = nlohmann::json;

constexpr int kWindow = 64;

struct PhaseResult {
  bool ok = false;
  long done = 0;
  double seconds = 0;
  double cpu_seconds = -1;  // the peer's user+system time, when /proc tells it
  std::string error;
  double rate() const { return seconds > 0 ? static_cast<double>(done) / seconds : 0; }
};

std::unique_ptr<StdioProcess> spawn(std::vector<std::string> argv, std::string* error) {
  a2a::transport::SpawnOptions so;
  so.argv = std::move(argv);
  so.env_set["A2A_SESSION_ID"] = a2a::core::uuid_v7();
  so.transcript_max_bytes = 64 * 1024;  // the transcript is not the subject here
  auto p = StdioProcess::spawn(so);
  if (!p) {
    *error = p.error().str();
    return nullptr;
  }
  return std::move(*p);
}

// Reads frames until one arrives; false on EOF, error or deadline.
bool next_frame(StdioProcess& p, a2a::wire::Decoder& d, Deadline deadline, std::string* body) {
  for (;;) {
    auto r = d.next();
    if (r.status == a2a::wire::DecodeResult::Status::kFrame) {
      *body = std::move(r.frame.body);
      return true;
    }
    if (r.status != a2a::wire::DecodeResult::Status::kNeedMore) return false;
    ReadResult rr = p.read_some(deadline);
    if (rr.status != ReadResult::Status::kData) return false;
    d.feed(rr.data);
  }
}

bool handshake(StdioProcess& p, a2a::wire::Decoder& d, std::string* error) {
  Deadline deadline = Deadline::after(Millis(10000));
  std::string body;
  if (!next_frame(p, d, deadline, &body)) {
    *error = "no handshake frame";
    return false;
  }
  Json hs = Json::parse(body, nullptr, false);
  if (hs.is_discarded() || !hs.is_object() || hs.value("type", "") != "handshake") {
    *error = "bad handshake: " + a2a::core::escape_bytes(body, 200);
    return false;
  }
  auto ack = p.write(a2a::wire::encode_content_length(
                         R"({"type":"handshakeAck","selectedVariant":"a2a/v1","accept":true})"),
                     deadline);
  if (!ack) *error = "ack: " + ack.error().str();
  return ack.ok();
}

std::string request_frame(long i) {
  Json params = {{"message",
                  {{"messageId", "m" + std::to_string(i)},
                   {"role", "ROLE_USER"},
                   {"parts", {{{"text", "tck-message-response bench"}}}}}}};
  return a2a::wire::encode_content_length(
      a2a::jsonrpc::dump(a2a::jsonrpc::make_request(i, "message/send", params)));
}

// Checks one frame that came back; `echo` frames are our own requests.
bool accept_frame(const std::string& body, bool echo, long n, std::vector<char>& seen, std::string* error) {
  auto msg = a2a::jsonrpc::parse_message(body);
  bool shape = msg && (echo ? msg->kind == a2a::jsonrpc::Kind::kRequest : msg->kind == a2a::jsonrpc::Kind::kResponse);
  if (!shape || !msg->id.is_number_integer()) {
    *error = "unexpected frame: " + a2a::core::escape_bytes(body, 200);
    return false;
  }
  long id = msg->id.get<long>();
  if (id < 0 || id >= n || seen[id]) {
    *error = "unknown or duplicate id " + std::to_string(id);
    return false;
  }
  seen[id] = 1;
  return true;
}

// Keeps `kWindow` requests in flight until all `frames` are answered.
PhaseResult pump(StdioProcess& p, a2a::wire::Decoder& d, const std::vector<std::string>& frames, bool echo,
                 Deadline deadline) {
  PhaseResult res;
  const long n = static_cast<long>(frames.size());
  std::vector<char> seen(frames.size(), 0);
  long sent = 0;
  auto start = std::chrono::steady_clock::now();
  while (res.done < n) {
    std::string batch;
    for (; sent < n && sent - res.done < kWindow; ++sent) batch += frames[sent];
    if (!batch.empty()) {
      if (auto w = p.write(batch, deadline); !w) {
        res.error = "write: " + w.error().str();
        return res;
      }
    }
    std::string body;
    if (!next_frame(p, d, deadline, &body)) {
      res.error = "no answer after " + std::to_string(res.done) + " (EOF, framing error or deadline)";
      return res;
    }
    if (!accept_frame(body, echo, n, seen, &res.error)) return res;
    ++res.done;
    // Drain what is already decoded before refilling the window.
    for (auto r = d.next(); r.status == a2a::wire::DecodeResult::Status::kFrame; r = d.next()) {
      if (!accept_frame(r.frame.body, echo, n, seen, &res.error)) return res;
      ++res.done;
    }
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  res.ok = true;
  return res;
}

// User+system CPU seconds of a running process (Linux /proc), or -1.
double cpu_seconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t close = stat.rfind(')');  // the command name may contain spaces
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string skip;
  for (int i = 3; i < 14; ++i) fields >> skip;  // fields 3..13
  double utime = 0, stime = 0;
  if (!(fields >> utime >> stime)) return -1;
  return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

PhaseResult run_phase(std::vector<std::string> argv, bool agent, const std::vector<std::string>& frames,
                      Millis budget) {
  PhaseResult res;
  auto p = spawn(std::move(argv), &res.error);
  if (!p) return res;
  auto d = a2a::wire::make_content_length_decoder(a2a::wire::ContentLengthRules::lenient_strict());
  if (agent && !handshake(*p, *d, &res.error)) return res;
  res = pump(*p, *d, frames, !agent, Deadline::after(budget));
  res.cpu_seconds = cpu_seconds(p->pid());  // the agent itself when it execs; a wrapper shell counts as 0
  p->shutdown(Millis(2000), Millis(1000));
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  // argv[1] is a command line ("path --flag"); the default agent runs quiet so
  // its stderr logging is not part of the measurement.
  auto agent = StdioProcess::split_command(argc > 1 ? argv[1] : A2A_BINARY_DIR "/bin/a2a-ref-agent --quiet");
  if (!agent || agent->empty()) {
    std::fprintf(stderr, "stdio_rtt_bench: bad agent command line\n");
    return 64;
  }
  long n = argc > 2 ? std::atol(argv[2]) : 20000;
  if (n <= 0 || n > 10'000'000) {
    std::fprintf(stderr, "usage: stdio_rtt_bench [AGENT_COMMAND [N]] (N in 1..10000000)\n");
    return 64;
  }
  std::vector<std::string> frames;
  frames.reserve(n);
  for (long i = 0; i < n; ++i) frames.push_back(request_frame(i));

  PhaseResult a = run_phase(*agent, true, frames, Millis(40000));
  if (!a.ok) {
    std::fprintf(stderr, "stdio_rtt_bench: agent phase failed after %ld of %ld: %s\n", a.done, n, a.error.c_str());
    return 1;
  }
  PhaseResult e = run_phase({"cat"}, false, frames, Millis(15000));
  if (!e.ok) {
    std::fprintf(stderr, "stdio_rtt_bench: echo phase failed after %ld of %ld: %s\n", e.done, n, e.error.c_str());
    return 1;
  }
  std::printf("stdio: agent %.0f req/s, pipe echo %.0f msg/s, ratio %.3f  (%ld requests, window %d, %zu-byte frames)\n",
              a.rate(), e.rate(), a.rate() / e.rate(), n, kWindow, frames[0].size());
  // CPU per request says what the agent costs even when a busy machine
  // keeps it from a core of its own (then the rate above understates it).
  if (a.cpu_seconds >= 0) std::printf("stdio: agent CPU %.1f us/request\n", 1e6 * a.cpu_seconds / static_cast<double>(n));
  return 0;
}
