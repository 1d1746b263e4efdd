// A client session over one of the HTTP bindings of a 1.0 agent: JSON-RPC
// (POST to the interface URL, a2a-protocol.md §4.2) or HTTP+JSON/REST
// (rest_call routes, §4.4), chosen from the Agent Card (card.hpp).
//
// Every request carries `A2A-Version: 1.0` and the interface's tenant
// (JSON-RPC: params.tenant unless the params already have one; REST: the
// "/{tenant}" path prefix). Unary calls share one keep-alive HttpClient; each
// stream gets a fresh one, since a stream occupies its connection until the
// body ends. Not thread-safe: one call at a time, like the CLI makes them.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "peers/a2a-ref-client/card.hpp"
#include "peers/a2a-ref-client/client_session.hpp"
#include "runner/transport/http_client.hpp"
#include "runner/transport/transcript.hpp"
#include "runner/transport/url.hpp"

namespace a2a::client {

struct HttpSessionOptions {
  bool insecure_tls = false;                // https: skip certificate checks
  bool uuid_ids = false;                    // JSON-RPC ids: UUIDv7 strings instead of 1, 2, 3, ...
  std::string bearer_token;                 // non-empty: "Authorization: Bearer <token>" on every call
  transport::Transcript* transcript = nullptr;  // records every byte when set (owned by the caller)
  DiagnosticSink on_diagnostic;             // ignored oddities (SSE ended mid-event, 405 retry)
};

class HttpSession : public Session {
 public:
  // kInvalidArgument when the interface URL is not an absolute http(s) URL.
  static core::Expected<std::unique_ptr<HttpSession>> create(SelectedInterface chosen,
                                                             HttpSessionOptions options = {});
  // Fetches the card below `base`, selects the interface (forced binding or
  // card order) and creates the session. Errors name the step that failed.
  static core::Expected<std::unique_ptr<HttpSession>> discover(const transport::Url& base,
                                                               std::optional<HttpBinding> forced,
                                                               core::Deadline deadline,
                                                               HttpSessionOptions options = {});

  CallResult call(model::Operation op, const Json& params, core::Deadline deadline) override;
  CallResult stream(model::Operation op, const Json& params, const StreamCallback& on_event,
                    core::Deadline deadline) override;
  std::optional<ClientError> dead() const override { return std::nullopt; }

  const SelectedInterface& chosen() const { return chosen_; }
  // "interface #1 of 2: JSONRPC 1.0 at http://..." (set by discover()).
  const std::string& description() const { return description_; }

 private:
  HttpSession(SelectedInterface chosen, transport::Url url, HttpSessionOptions options);

  struct Prepared {
    transport::HttpRequest req;
    Json id;           // JSON-RPC request id; null on REST
    std::string what;  // "request id 3 (SendMessage) to http://h/" / "GET /tasks/t-1 (GetTask)"
  };
  Prepared prepare(model::Operation op, const Json& params, bool streaming);
  CallResult run_stream(const Prepared& p, const StreamCallback& on_event, core::Deadline deadline,
                        int& status);
  Json with_tenant(const Json& params) const;
  Json next_id();
  transport::HttpClientOptions client_options() const;
  void diagnose(const std::string& text) const;

  SelectedInterface chosen_;
  transport::Url url_;
  HttpSessionOptions options_;
  std::string description_;
  std::unique_ptr<transport::HttpClient> client_;  // unary calls (keep-alive)
  std::atomic<long long> next_id_{1};
};

}  // namespace a2a::client
