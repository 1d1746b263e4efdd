// a2a-ref-agent: the reference A2A agent of the conformance suite, served
// over stdio, or over HTTP (JSON-RPC + REST on one port) with --http. Only
// this file picks exit codes, handles signals and reads the environment.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "peers/a2a-ref-agent/behaviour.hpp"
#include "peers/a2a-ref-agent/exit_codes.hpp"
#include "peers/a2a-ref-agent/faults.hpp"
#include "peers/a2a-ref-agent/http_push.hpp"
#include "peers/a2a-ref-agent/http_server.hpp"
#include "peers/a2a-ref-agent/http_variation.hpp"
#include "peers/a2a-ref-agent/stdio_server.hpp"
#include "peers/a2a-ref-agent/websocket/websocket_server.hpp"
#ifdef A2A_WITH_GRPC
#include "peers/a2a-ref-agent/grpc/grpc_server.hpp"
#endif

namespace {

using namespace a2a::agent;

std::string help_footer() {
  std::ostringstream os;
  os << "\nThe agent speaks A2A 1.0 over the stdio binding (profile p46: Content-Length frames,\n"
        "handshake/handshakeAck, slash method names, event/streamResponse notifications).\n"
        "It implements all 11 operations; what a task does is chosen in-band by the text of\n"
        "the first text part (else the messageId) starting with one of these prefixes:\n\n";
  for (const auto& b : all_behaviours()) {
    std::string name = b.prefix.empty() ? "(no prefix)" : std::string(b.prefix);
    os << "  " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ') << b.description << "\n";
  }
  os << "\nA blocking send of tck-cancel returns the WORKING task after --max-block-ms.\n"
        "\nHTTP mode (--http PORT; 0 = the system picks): JSON-RPC and REST on one port, both at\n"
        "the root URL http://ADDR:PORT. On start one line goes to stdout:\n"
        "  a2a-ref-agent listening on http://127.0.0.1:PORT\n"
        "then it serves until SIGINT/SIGTERM (exit 0). Routes:\n"
        "  GET  /.well-known/agent-card.json      the card (Cache-Control, ETag, If-None-Match -> 304)\n"
        "  POST /                                 JSON-RPC 2.0 (Content-Type application/json)\n"
        "  POST /message:send, /message:stream    REST (spec 11.3), also under /TENANT/ with --tenant\n"
        "  GET  /tasks, /tasks/{id}               POST /tasks/{id}:cancel, GET|POST /tasks/{id}:subscribe\n"
        "  POST|GET /tasks/{taskId}/pushNotificationConfigs, GET|DELETE .../pushNotificationConfigs/{id}\n"
        "  GET  /extendedAgentCard\n"
        "Requests need A2A-Version: 1.0 (header or ?A2A-Version=); missing means 0.3 and is refused\n"
        "(-32009 / 400 VERSION_NOT_SUPPORTED), unless --serve-0.3: then JSON-RPC serves 0.3 (missing\n"
        "or 0.3 A2A-Version, 0.3 method names) beside 1.0 and the card declares it. Streams are SSE. Bodies above 4 MiB are 413, query\n"
        "strings above 4 KiB 414, '.'/'..' path segments 400. Push configs are delivered (in stdio mode\n"
        "too): each task update is POSTed to the webhook as a StreamResponse (5 s timeout, one retry).\n"
        "\ngRPC (--grpc PORT beside --http; 0 = the system picks): lf.a2a.v1.A2AService (spec 10) on the\n"
        "same --bind address, serving the same tasks as HTTP. Before the line above it prints\n"
        "  a2a-ref-agent grpc on 127.0.0.1:PORT\n"
        "and the card lists {url 127.0.0.1:PORT, protocolBinding GRPC, protocolVersion 1.0}. Metadata\n"
        "a2a-version: 1.0 (or absent: the lf.a2a.v1 service is 1.0); other versions FAILED_PRECONDITION\n"
        "VERSION_NOT_SUPPORTED. GetExtendedAgentCard needs authorization: Bearer TOKEN. Errors carry\n"
        "google.rpc.ErrorInfo in grpc-status-details-bin; requests above 4 MiB are RESOURCE_EXHAUSTED.\n"
        "\nWebSocket (--websocket PORT beside --http; 0 = the system picks; docs/websocket.md): the\n"
        "binding of a2a-rust, on the same --bind address, serving the same tasks as HTTP. Before the\n"
        "'listening on' line it prints\n"
        "  a2a-ref-agent websocket on ws://127.0.0.1:PORT\n"
        "and the card lists {url ws://127.0.0.1:PORT, protocolBinding WEBSOCKET, protocolVersion 1.0}.\n"
        "The upgrade (any path) needs A2A-Version with major 1 (1, 1.0, 1.3), else HTTP 400 with a JSON\n"
        "body; its Authorization: Bearer TOKEN applies to every request (GetExtendedAgentCard). Then one\n"
        "JSON-RPC 2.0 request per text frame, A2A 1.0 method names, answered as JSON-RPC over HTTP\n"
        "answers; a connection's requests run concurrently (64 in flight; the next is -32000 server\n"
        "busy). Streams: one result frame per event with the request id, then\n"
        "{\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{\"status\":\"stream_complete\"}} (an error frame instead when it\n"
        "fails). Binary frames get -32700; notifications no answer; messages above 4 MiB close (1009).\n"
        "\nFaults (--fault NAME) each break one requirement. frame-*, reader-*, hs-*, stream-*,\n"
        "conc-*, life-* act on the stdio binding; id-* and err-* on JSON-RPC (on HTTP too, except\n"
        "err-batch-partial and err-exit-on-parse-error); http-* on the HTTP bindings; card-* on the\n"
        "card; push-* on webhook delivery; v03-* on 0.3 JSON-RPC (--serve-0.3); grpc-* on gRPC\n"
        "(--grpc); ws-* on WebSocket (--websocket); sem-* on every binding. --list-faults prints them all.\n"
        "\n--profile stdio-json (PR #138): v1 method names (SendMessage, ...), handshake with protocol\n"
        "a2a-stdio / protocolVersion 1.0, ack {sessionId, selectVariant, accept}, streams as responses\n"
        "with the request id ending in {id, streamEnd:true}, cancelStream, system/shutdown, heartbeat\n"
        "frames, 1 MiB body cap, malformed JSON and oversized frames fatal. See docs/stdio-json.md.\n"
        "\n--legal-variation: wherever the A2A spec leaves a choice open, the agent takes the legal\n"
        "choice it does not take by default (on every binding): opaque non-UUID ids; no status message\n"
        "on INPUT_REQUIRED / AUTH_REQUIRED; no provider or skill examples in the card; capabilities\n"
        "pushNotifications and extendedAgentCard false (their operations answer -32003 / -32004);\n"
        "tck-long-running takes 5000 ms whatever delay=NNN says; 100 ms between stream events; a new\n"
        "task's stream starts with the Task already WORKING; ListTasks pages of 2 by default; unknown\n"
        "members (x-variation-note) in every object and explicit defaults (append/lastChunk false, empty\n"
        "lists). HTTP: chunked bodies, application/json; charset=utf-8 (JSON-RPC) and\n"
        "application/a2a+json (REST), SSE with comments, id:, retry:, CRLF and LF line ends and data split\n"
        "over two lines. Each choice and the spec sentence allowing it: docs/legal-variation.md.\n"
        "\nExit codes:\n"
        "  0   clean end: stdin EOF, handshake rejected, stdin closed before the ack, system/shutdown;\n"
        "      HTTP: SIGINT/SIGTERM\n"
        "  1   clean EOF with --fault life-exit-nonzero-on-eof; stdio-json: stdout unwritable\n"
        "  2   protocol error: bad/late handshakeAck, fatal framing error, EOF inside a frame;\n"
        "      stdio-json also malformed JSON, an oversized frame\n"
        "  3   p46: stdout unwritable (broken pipe or write timeout); HTTP: cannot listen on the address;\n"
        "      stdio-json: A2A_PROTOCOL_VERSION has a major other than 1\n"
        "  4   stdio-json: A2A_SESSION_ID missing or empty\n"
        "  64  usage error\n"
        "  70  --fault life-crash-mid-frame\n"
        "\nEnvironment: A2A_SESSION_ID (non-empty) is echoed as the handshake sessionId.\n"
        "stdio-json: A2A_PROTOCOL_VERSION, A2A_SP_<NAME> (session service parameters; a2a-version\n"
        "other than 1.0 makes every request -32009).\n"
        "Diagnostics go to stderr; in stdio mode stdout carries frames only. See docs/ref-agent.md.\n";
  return os.str();
}

void list_faults() {
  for (const auto& f : all_faults()) {
    std::cout << f.name << "\n    defect: " << f.defect << "\n    breaks: " << f.breaks << "\n";
  }
}

std::string interface_url(const Profile& p) {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return p.interface_url;
  return "stdio://" + std::string(path, static_cast<size_t>(n)) + "?--profile&" + p.name;  // PR #46 URL form
}

std::vector<std::string> environment() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) out.emplace_back(*e);
  return out;
}

struct Cli {
  std::string profile = "p46";
  std::vector<std::string> faults;
  bool list = false;
  bool quiet = false;
  int long_running_ms = 1000;
  int max_block_ms = 60000;
  int ack_timeout_ms = 10000;
  int heartbeat_ms = 0;
  int http_port = -1;  // -1 = stdio mode
  int grpc_port = -1;  // -1 = no gRPC server (needs --http: the card is served there)
  int websocket_port = -1;  // -1 = no WebSocket server (needs --http, like gRPC)
  int http_io_threads = 2;
  std::string bind = "127.0.0.1";
  std::string tenant;
  std::vector<std::string> auth_tokens = {"a2a-conform"};
  std::string interfaces = "jsonrpc,rest";
  bool serve_v03 = false;
  bool legal_variation = false;
};

void add_options(CLI::App& app, Cli& cli) {
  app.add_option("--profile", cli.profile, "Stdio wire profile: p46 (PR #46) or stdio-json (PR #138)")
      ->check(CLI::IsMember(profile_names()))
      ->capture_default_str();
  app.add_option("--fault", cli.faults, "Inject a defect (repeatable); see --list-faults")->take_all();
  app.add_flag("--list-faults", cli.list, "Print every fault with the requirement it breaks, then exit");
  app.add_option("--long-running-ms", cli.long_running_ms, "Delay of tck-long-running (delay=NNN in the text overrides)")
      ->check(CLI::Range(0, 60000))
      ->capture_default_str();
  app.add_option("--max-block-ms", cli.max_block_ms, "Longest wait of a blocking SendMessage")
      ->check(CLI::Range(0, 3600000))
      ->capture_default_str();
  app.add_option("--ack-timeout-ms", cli.ack_timeout_ms, "How long to wait for the handshakeAck")
      ->check(CLI::Range(1, 3600000))
      ->capture_default_str();
  app.add_option("--heartbeat-ms", cli.heartbeat_ms, "stdio-json: send a heartbeat frame this often (0 = never)")
      ->check(CLI::Range(0, 3600000))
      ->capture_default_str();
  app.add_option("--http", cli.http_port, "Serve HTTP (JSON-RPC + REST) on this port instead of stdio; 0 = any")
      ->check(CLI::Range(0, 65535));
  app.add_option("--grpc", cli.grpc_port,
                 "Also serve gRPC (lf.a2a.v1.A2AService) on this port, over the same tasks; needs --http; 0 = any")
      ->check(CLI::Range(0, 65535));
  app.add_option("--websocket", cli.websocket_port,
                 "Also serve the WebSocket binding (JSON-RPC over WebSocket) on this port, over the same tasks; "
                 "needs --http; 0 = any")
      ->check(CLI::Range(0, 65535));
  app.add_option("--bind", cli.bind, "HTTP (and gRPC, WebSocket) listen address")->capture_default_str();
  app.add_option("--tenant", cli.tenant, "HTTP: the tenant the card's interfaces carry (REST also serves /TENANT/...)");
  app.add_option("--auth-token", cli.auth_tokens,
                 "HTTP: a Bearer token GetExtendedAgentCard accepts (repeatable; spec 13.3 requires authentication; "
                 "other operations are open)")
      ->capture_default_str();
  app.add_option("--interfaces", cli.interfaces, "HTTP: interfaces declared and served, in card order")
      ->capture_default_str();
  app.add_option("--http-io-threads", cli.http_io_threads,
                 "HTTP: threads reading and answering requests (blocking work goes to workers)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_flag("--serve-0.3", cli.serve_v03,
               "HTTP: JSON-RPC also serves A2A 0.3 (no or a 0.3 A2A-Version) and the card declares it");
  app.add_flag("--legal-variation", cli.legal_variation,
               "Where the spec leaves a choice, take the other legal one (opaque ids, optional fields and "
               "capabilities off, ListTasks pages of 2, chunked HTTP, varied SSE, unknown members, ...); "
               "see docs/legal-variation.md");
  app.add_flag("-q,--quiet", cli.quiet, "No diagnostics on stderr");
  app.set_version_flag("--version", "a2a-ref-agent " + std::string(kAgentVersion));
  app.footer(help_footer());
}

// "jsonrpc,rest" -> bindings in that order; nullopt on an unknown or repeated name.
std::optional<std::vector<HttpBinding>> parse_interfaces(const std::string& text) {
  std::vector<HttpBinding> out;
  std::stringstream ss(text);
  std::string name;
  while (std::getline(ss, name, ',')) {
    HttpBinding b;
    if (name == "jsonrpc") {
      b = HttpBinding::kJsonRpc;
    } else if (name == "rest") {
      b = HttpBinding::kRest;
    } else {
      return std::nullopt;
    }
    if (std::find(out.begin(), out.end(), b) != out.end()) return std::nullopt;
    out.push_back(b);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// Serves until SIGINT or SIGTERM. The signals are blocked in every thread
// (the mask is set before any thread starts) and taken here synchronously.
int serve_http(const Cli& cli, const Faults& faults) {
  auto bindings = parse_interfaces(cli.interfaces);
  if (!bindings) {
    std::cerr << "a2a-ref-agent: --interfaces takes jsonrpc and/or rest, comma-separated (got '" << cli.interfaces
              << "')\n";
    return kExitUsage;
  }
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  HttpAgentOptions o;
  o.bind = cli.bind;
  o.port = static_cast<uint16_t>(cli.http_port);
  o.tenant = cli.tenant;
  o.auth_tokens = cli.auth_tokens;
  o.interfaces = *bindings;
  o.io_threads = cli.http_io_threads;
  o.serve_v03 = cli.serve_v03;
  o.agent.faults = faults;
  if (cli.legal_variation) {
    o.agent.choices = legal_variation_choices();
    o.decorate_exchange = legal_variation_exchange;
  }
  o.agent.long_running = a2a::core::Millis(cli.long_running_ms);
  o.agent.max_block = a2a::core::Millis(cli.max_block_ms);
  o.log_fd = cli.quiet ? -1 : STDERR_FILENO;
#ifdef A2A_WITH_GRPC
  // The gRPC port is bound first: the card (built with the HTTP agent's core) names it.
  std::unique_ptr<GrpcAgent> grpc;
  if (cli.grpc_port >= 0) {
    GrpcAgentOptions g;
    g.bind = cli.bind;
    g.port = static_cast<uint16_t>(cli.grpc_port);
    g.auth_tokens = cli.auth_tokens;
    g.faults = faults;
    g.log_fd = o.log_fd;
    auto started = GrpcAgent::start(g);
    if (!started) {
      std::cerr << "a2a-ref-agent: " << started.error().message << "\n";
      return kExitIo;
    }
    grpc = std::move(*started);
    o.extra_interfaces.push_back(grpc->interface());
  }
#endif
  // The WebSocket port too is bound before the card is built.
  std::unique_ptr<WebSocketAgent> websocket;
  if (cli.websocket_port >= 0) {
    WebSocketAgentOptions w;
    w.bind = cli.bind;
    w.port = static_cast<uint16_t>(cli.websocket_port);
    w.auth_tokens = cli.auth_tokens;
    w.faults = faults;
    w.log_fd = o.log_fd;
    auto started = WebSocketAgent::start(w);
    if (!started) {
      std::cerr << "a2a-ref-agent: " << started.error().message << "\n";
      return kExitIo;
    }
    websocket = std::move(*started);
    o.extra_interfaces.push_back(websocket->interface());
  }
  auto agent = HttpAgent::start(o);
  if (!agent) {
    std::cerr << "a2a-ref-agent: " << agent.error().message << "\n";
    return kExitIo;
  }
#ifdef A2A_WITH_GRPC
  if (grpc) {
    grpc->attach((*agent)->core());
    std::cout << "a2a-ref-agent grpc on " << grpc->address() << std::endl;
  }
#endif
  if (websocket) {
    websocket->attach((*agent)->core());
    std::cout << "a2a-ref-agent websocket on " << websocket->url() << std::endl;
  }
  std::cout << "a2a-ref-agent listening on " << (*agent)->url() << std::endl;  // tests parse this line (the last)
  for (;;) {
    timespec slice{1, 0};  // a bounded wait; the loop is the "until a signal" of HTTP mode
    int sig = sigtimedwait(&stop_signals, nullptr, &slice);
    if (sig == SIGINT || sig == SIGTERM) break;
  }
#ifdef A2A_WITH_GRPC
  if (grpc) grpc->stop();  // before the core it serves goes
#endif
  if (websocket) websocket->stop();  // likewise
  (*agent)->stop();
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"a2a-ref-agent: the reference A2A 1.0 agent of the a2a-conformance suite (stdio or HTTP)"};
  Cli cli;
  add_options(app, cli);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (cli.list) {
    list_faults();
    return kExitOk;
  }
  Faults faults;
  for (const auto& name : cli.faults) {
    auto f = fault_from_name(name);
    if (!f) {
      std::cerr << "a2a-ref-agent: unknown fault '" << name << "' (run with --list-faults for the list)\n";
      return kExitUsage;
    }
    faults.add(*f);
  }
  if (cli.grpc_port >= 0) {
#ifndef A2A_WITH_GRPC
    std::cerr << "a2a-ref-agent: --grpc: this build has no gRPC binding (configured with -DA2A_GRPC=OFF)\n";
    return kExitUsage;
#else
    if (cli.http_port < 0) {
      std::cerr << "a2a-ref-agent: --grpc needs --http PORT: the agent card that lists the gRPC interface is "
                   "served over HTTP\n";
      return kExitUsage;
    }
#endif
  }
  if (cli.websocket_port >= 0 && cli.http_port < 0) {
    std::cerr << "a2a-ref-agent: --websocket needs --http PORT: the agent card that lists the WebSocket interface is "
                 "served over HTTP\n";
    return kExitUsage;
  }
  if (cli.http_port >= 0) return serve_http(cli, faults);
  Profile profile = *profile_by_name(cli.profile);
  ServerOptions opt = default_server_options(profile);
  opt.faults = faults;
  if (cli.legal_variation) opt.agent.choices = legal_variation_choices();
  if (const char* sid = std::getenv("A2A_SESSION_ID")) opt.session_env = sid;
  if (const char* v = std::getenv("A2A_PROTOCOL_VERSION")) opt.protocol_version_env = v;
  opt.session_params = service_params_from_env(environment());
  opt.heartbeat = a2a::core::Millis(cli.heartbeat_ms);
  opt.ack_timeout = a2a::core::Millis(cli.ack_timeout_ms);
  opt.agent.long_running = a2a::core::Millis(cli.long_running_ms);
  opt.agent.max_block = a2a::core::Millis(cli.max_block_ms);
  opt.agent.interfaces = a2a::agent::Json::array(
      {{{"url", interface_url(profile)}, {"protocolBinding", profile.protocol_binding}, {"protocolVersion", "1.0"}}});
  opt.log_fd = cli.quiet ? -1 : STDERR_FILENO;
  // Webhooks are plain HTTP whatever the binding (a2a-protocol.md §5).
  PushOptions push_options;
  push_options.faults = faults;
  push_options.log_fd = opt.log_fd;
  PushDelivery push(push_options);
  opt.agent.push_sink = push.sink();
  int code = serve_stdio(STDIN_FILENO, STDOUT_FILENO, opt);
  push.stop(a2a::core::Millis(2000));
  return code;
}
