#include "peers/a2a-ref-agent/faults.hpp"

#include <array>

#include "runner/a2a/model.hpp"

namespace a2a::agent {
namespace {

using F = Fault;

// References: stdio-binding.md §8 case ids (H*, F*, J*, C*, L*) and
// a2a-protocol.md requirement ids (R*).
constexpr std::array<FaultInfo, static_cast<size_t>(Fault::kCount)> kFaults{{
    {F::kFrameLowercaseHeader, "frame-lowercase-header", "writes `content-length: N`",
     "F4/§9.1: writers emit the exact header name `Content-Length`"},
    {F::kFrameLengthOffByOne, "frame-length-off-by-one", "declares one byte more than the body",
     "§2.1: Content-Length is the exact body length"},
    {F::kFrameBareLf, "frame-bare-lf", "header lines end in \\n",
     "F16: writers end header lines with \\r\\n"},
    {F::kFrameCountChars, "frame-count-chars", "Content-Length counts UTF-8 code points",
     "F27: Content-Length counts bytes, not characters"},
    {F::kReaderCaseSensitive, "reader-case-sensitive",
     "reads with the P46 rules: a lower-case header name is fatal",
     "F4 (STRICT): readers accept any case of `Content-Length`"},
    {F::kReaderNoBodyCap, "reader-no-body-cap", "accepts declared bodies above 64 MiB and waits for them",
     "F10: a length above 64 MiB is fatal at once, before reading or allocating"},
    {F::kReaderSurviveFatal, "reader-survive-fatal", "keeps serving after a fatal framing error",
     "F6: a fatal framing error ends the session with a non-zero exit"},
    {F::kHsMissing, "hs-missing", "never sends the handshake, serves requests directly",
     "H1: the child sends `handshake` before anything else"},
    {F::kHsIgnoreSessionEnv, "hs-ignore-session-env", "always generates a fresh session id",
     "H13: the child echoes A2A_SESSION_ID exactly"},
    {F::kHsStdoutNoise, "hs-stdout-noise", "writes \"agent starting\\n\" to stdout before the handshake",
     "L7: the child writes nothing but frames on stdout"},
    {F::kHsServeAfterReject, "hs-serve-after-reject", "keeps serving after accept:false",
     "H2: after a rejected handshake the child processes nothing and exits"},
    {F::kHsAcceptUnknownVariant, "hs-accept-unknown-variant", "accepts a selectedVariant it did not offer",
     "H3 (STRICT): an ack selecting a variant not offered is a protocol error"},
    {F::kHsEmptyVariants, "hs-empty-variants", "sends supportedVariants []",
     "§3.2/H7: supportedVariants is non-empty"},
    {F::kIdAsString, "id-as-string", "echoes numeric ids as strings",
     "J10: the id is echoed exactly, with its JSON type"},
    {F::kIdNullResponse, "id-null-response", "answers requests with id null",
     "J10/C1: a response carries its request's id"},
    {F::kErrParseAsInvalidRequest, "err-parse-as-invalid-request", "answers non-JSON with -32600",
     "J1: unparsable JSON is answered with -32700"},
    {F::kErrReplyToNotification, "err-reply-to-notification", "answers notifications with -32600",
     "J8 (STRICT): a notification is never answered"},
    {F::kErrNotFoundCode, "err-not-found-code", "reports TaskNotFoundError with code -32603",
     "R104/§6.1: TaskNotFoundError is -32001"},
    {F::kErrMethodNotFoundCode, "err-method-not-found-code", "answers unknown methods with -32600",
     "J12: an unknown method is answered with -32601"},
    {F::kErrBatchPartial, "err-batch-partial", "answers a batch with an array of per-element errors",
     "J6 (STRICT): a batch gets one -32600 error with id null"},
    {F::kErrNoErrorData, "err-no-error-data", "sends A2A errors without data/ErrorInfo",
     "J14/R107: A2A errors carry data:[google.rpc.ErrorInfo]"},
    {F::kErrExitOnParseError, "err-exit-on-parse-error", "exits after answering -32700",
     "J1: the session continues after a parse error"},
    {F::kStreamFinalNonnull, "stream-final-nonnull", "ends a stream with result = the last task",
     "C5: the final stream response has result null"},
    {F::kStreamNoFinal, "stream-no-final", "omits the final stream response",
     "C5: exactly one final response ends each stream"},
    {F::kStreamFinalWrongId, "stream-final-wrong-id", "ends a stream with a different id",
     "C5/C10: the final response carries the stream request's id"},
    {F::kStreamEventsAsResponses, "stream-events-as-responses",
     "sends events as responses with the request id",
     "C5: events are `event/streamResponse` notifications without id"},
    {F::kStreamReorder, "stream-reorder", "swaps the first two events of a stream",
     "C5/R52: events arrive in generation order (the task first)"},
    {F::kStreamErrorEventAsFinal, "stream-error-event-as-final",
     "ends a stream with an error response on a mid-stream error",
     "C8: a mid-stream error is an `event/streamError` notification, then result null"},
    {F::kConcSerialize, "conc-serialize", "unary requests wait behind an open stream",
     "C12 (STRICT): requests are served while a stream is open"},
    {F::kConcDropQueuedStream, "conc-drop-queued-stream",
     "silently drops a stream request that arrives while a stream is open",
     "C12: every request is eventually answered"},
    {F::kConcInterleaveStreams, "conc-interleave-streams", "serves a second stream at once, interleaved",
     "§3.6 (P46): id-less stream notifications must not interleave"},
    {F::kConcReorderIds, "conc-reorder-ids", "answers pipelined unary requests with swapped ids",
     "C1: each response carries its own request's id"},
    {F::kLifeIgnoreEof, "life-ignore-eof", "does not exit on stdin EOF",
     "L1: the child exits within 5 s of stdin EOF"},
    {F::kLifeExitNonzeroOnEof, "life-exit-nonzero-on-eof", "exits 1 on a clean EOF",
     "L1/F22: a clean EOF exits with status 0"},
    {F::kLifeExitZeroOnFatal, "life-exit-zero-on-fatal", "exits 0 after a fatal framing error",
     "F6/F19: a fatal framing error exits non-zero"},
    {F::kLifeCrashMidFrame, "life-crash-mid-frame", "on the 3rd request writes half a frame and exits",
     "L4/C11: a complete frame answers every request (client must report the crash)"},
    {F::kSemTerminalMutable, "sem-terminal-mutable", "cancels a completed task (flips it to CANCELED)",
     "R72/§3.1: terminal tasks are immutable; cancel gives TaskNotCancelableError"},
    {F::kSemIgnoreHistoryLength, "sem-ignore-history-length", "ignores historyLength",
     "R30/R31: never more history than historyLength; 0 omits it"},
    {F::kSemListNoNextToken, "sem-list-no-next-token", "omits nextPageToken on the last page",
     "R65: nextPageToken is always present (\"\" on the last page)"},
    {F::kSemListIgnoresPageSize, "sem-list-ignores-page-size", "ListTasks returns every task",
     "R68/R63: pageSize bounds the page"},
    {F::kSemCancelNoop, "sem-cancel-noop", "CancelTask returns the task still WORKING",
     "R71: CancelTask returns the task in TASK_STATE_CANCELED"},
    {F::kSemBlockingReturnsEarly, "sem-blocking-returns-early", "a blocking send returns while WORKING",
     "R27: a blocking send returns at a terminal or interrupted state"},
    {F::kSemMultiTurnNewTask, "sem-multi-turn-new-task", "a follow-up message creates a new task",
     "R43/CORE-MULTI-001: a message with taskId continues that task"},
    {F::kSemListIncludesArtifacts, "sem-list-includes-artifacts", "ListTasks always includes artifacts",
     "R66: no artifacts key unless includeArtifacts is true"},
    {F::kSemPushDeleteNoop, "sem-push-delete-noop", "DeleteTaskPushNotificationConfig keeps the config",
     "§4.6.10: delete removes the config permanently"},
    {F::kSemWrongStateName, "sem-wrong-state-name", "writes \"completed\" instead of TASK_STATE_COMPLETED",
     "§2/§3.1: enum values are the proto names (TASK_STATE_*)"},
    {F::kSemSubscribeNoSnapshot, "sem-subscribe-no-snapshot", "SubscribeToTask does not send the task first",
     "R58: the first SubscribeToTask event is the current Task"},
    {F::kSemStreamNoTaskFirst, "sem-stream-no-task-first", "a task stream starts with a statusUpdate",
     "R49: a task stream starts with the Task"},
    {F::kTimestampAsNumber, "timestamp-as-number",
     "writes every timestamp (status.timestamp) as epoch milliseconds, a JSON number",
     "spec §5.6.1: google.protobuf.Timestamp in JSON MUST be an ISO 8601 string in UTC"},
    {F::kBadTaskStateEnum, "bad-task-state-enum",
     "writes every TaskState as its proto number (2) instead of its name (TASK_STATE_WORKING)",
     "spec §5.5: enum values are serialized as their string names as defined in the proto"},
    {F::kPushGetIgnoresConfigId, "push-get-ignores-config-id",
     "GetTaskPushNotificationConfig returns the task's first config whatever id is asked",
     "§3.1.8: Get returns the config with the requested id"},
    {F::kHttpRestErrorStatus200, "http-rest-error-status-200", "sends REST A2A errors with HTTP status 200",
     "R104/§6.1: a REST A2A error has the HTTP status of the error table (TaskNotFound 404, ...)"},
    {F::kHttpRestNoErrorInfo, "http-rest-no-errorinfo", "REST A2A errors carry no google.rpc.ErrorInfo detail",
     "R105/§11.6: REST A2A errors include ErrorInfo {reason, domain a2a-protocol.org}"},
    {F::kHttpRestProblemJson, "http-rest-problem-json",
     "REST errors are RFC 9457 application/problem+json bodies",
     "R105/§11.6: the REST error body is {\"error\": google.rpc.Status}"},
    {F::kHttpJsonrpcContentType, "http-jsonrpc-content-type", "labels JSON-RPC responses Content-Type text/plain",
     "R111/§9.1: JSON-RPC responses are application/json"},
    {F::kHttpSseContentType, "http-sse-content-type", "labels streams application/json (the body is still SSE)",
     "R47/R111: a streaming response is 200 text/event-stream"},
    {F::kHttpSseNoBlankLine, "http-sse-no-blank-line", "ends SSE events with one LF, so the events merge",
     "§4.5 (WHATWG SSE): one event per item, events end with a blank line"},
    {F::kHttpSseCloseEarly, "http-sse-close-early", "ends every HTTP stream after its first event",
     "R50: a task stream goes on until the task is terminal or interrupted"},
    {F::kHttpVersionIgnored, "http-version-ignored", "accepts any A2A-Version, and none",
     "R4/R5/§3.6.2: an unsupported or missing (= 0.3) A2A-Version is VersionNotSupportedError"},
    {F::kHttpNoPathProtection, "http-no-path-protection", "routes '.' and '..' path segments like ids",
     "R102: input is validated; dot segments (also %2e%2e) are 400 INVALID_ARGUMENT"},
    {F::kHttpNoBodyLimit, "http-no-body-limit", "processes request bodies above 4 MiB",
     "R102 (suite limit): a body above 4 MiB is refused with 413"},
    {F::kHttpRestWrongVerbOk, "http-rest-wrong-verb-ok", "serves a REST route called with the wrong verb",
     "R115/§11.3: the verbs of §4.1; another verb is 405 with Allow"},
    {F::kHttpExtendedCardNoAuth, "http-extended-card-no-auth",
     "serves GetExtendedAgentCard over HTTP without credentials",
     "R90/§13.3: the extended card requires authentication with a scheme the public card declares"},
    {F::kHttpJsonrpcAnyVersionMember, "http-jsonrpc-any-version-member",
     "serves JSON-RPC requests whose \"jsonrpc\" member is not \"2.0\"",
     "R110/JSON-RPC 2.0 §5.1: such a request is -32600 Invalid Request"},
    {F::kHttpRestUnwrappedSend, "http-rest-unwrapped-send",
     "REST SendMessage answers the bare Task or Message (0.3 style)",
     "§3.1.1/§11.3: the response is a SendMessageResponse ({\"task\"} or {\"message\"})"},
    {F::kHttpNoQueryLimit, "http-no-query-limit", "processes query strings above 4 KiB",
     "R139: oversized input is refused (414) before processing"},
    {F::kCardNoCacheHeaders, "card-no-cache-headers", "serves the agent card without Cache-Control and ETag",
     "R127/§8.6.1: the card endpoint SHOULD send Cache-Control max-age and an ETag"},
    {F::kCardMissingInterfaces, "card-missing-interfaces", "the agent card has no supportedInterfaces",
     "R122/§3.12: supportedInterfaces is REQUIRED with at least one entry"},
    {F::kCardWrongBindingName, "card-wrong-binding-name", "declares protocolBinding \"REST\" instead of \"HTTP+JSON\"",
     "R122/§3.12: protocolBinding is JSONRPC, GRPC or HTTP+JSON"},
    {F::kCardNoCapabilities, "card-no-capabilities", "the agent card has no capabilities object",
     "§3.12: AgentCard.capabilities is REQUIRED"},
    {F::kCardRelativeInterfaceUrl, "card-relative-interface-url",
     "the card's JSONRPC and HTTP+JSON interfaces carry a relative url (the path only)",
     "a2a.proto AgentInterface.url: an absolute URL for HTTP-based transports; spec §8.3.1"},
    {F::kPushNoDelivery, "push-no-delivery", "never POSTs to push notification webhooks",
     "R82: at least one delivery attempt per config and task update"},
    {F::kPushNoAuthHeader, "push-no-auth-header", "webhook POSTs carry no Authorization header",
     "R81: the agent authenticates to the webhook per the config's authentication"},
    {F::kPushBareTaskBody, "push-bare-task-body", "webhook bodies are the bare Task (0.3 shape)",
     "R80: a webhook body is a StreamResponse ({\"statusUpdate\":...}, ...)"},
    {F::kPushNoTokenHeader, "push-no-token-header", "webhook POSTs carry no X-A2A-Notification-Token",
     "§5: the config's token travels in X-A2A-Notification-Token (SDK practice)"},
    {F::kV03NoFinal, "v03-no-final", "0.3 streams end without final:true on the last status-update",
     "§9.1 (0.3 JSON-RPC): the last status-update of a stream carries final:true"},
    {F::kV03V1States, "v03-v1-states", "0.3 answers carry 1.0 state names (TASK_STATE_COMPLETED)",
     "§9.1 (0.3 JSON-RPC): TaskState values are lower-case (completed, input-required)"},
    {F::kV03WrappedResult, "v03-wrapped-result", "0.3 message/send answers the 1.0 wrapper {\"task\": ...}",
     "§9.1 (0.3 JSON-RPC): the SendMessage result is the bare Task or Message with kind"},
    {F::kV03NoKind, "v03-no-kind", "0.3 answers carry no kind discriminators (on tasks, messages, parts, events)",
     "§9.1 (0.3 JSON-RPC): Task, Message, Part and stream events carry their kind"},
    {F::kV03ErrorCodes, "v03-error-codes", "0.3 A2A errors (-32001..-32007) are answered as -32603 InternalError",
     "§9.1 (0.3 JSON-RPC): A2A errors keep their codes (TaskNotFoundError is -32001)"},
    {F::kV03NoCardFields, "v03-no-card-fields", "the card lacks the 0.3 members (url, preferredTransport, protocolVersion)",
     "§9.3: a card serving 0.3 clients names its 0.3 endpoint with url, preferredTransport and protocolVersion"},
    {F::kJsonHsNoVersion, "json-hs-no-version", "stdio-json handshake without protocol and protocolVersion",
     "§4 (stdio-json): the handshake names protocol a2a-stdio and protocolVersion"},
    {F::kJsonAckSessionNotChecked, "json-ack-session-not-checked", "accepts an ack echoing another sessionId",
     "§4 (stdio-json): an ack with the wrong sessionId is a protocol error (exit 2)"},
    {F::kJsonSessionEnvOptional, "json-session-env-optional", "starts without A2A_SESSION_ID (makes one up)",
     "§4 (stdio-json): A2A_SESSION_ID is required; missing or empty exits 4"},
    {F::kJsonVersionIgnored, "json-version-ignored", "ignores A2A_PROTOCOL_VERSION with another major",
     "§4 (stdio-json): an unsupported protocol version exits 3"},
    {F::kJsonNoStreamEnd, "json-no-stream-end", "ends streams without the streamEnd response",
     "§4 (stdio-json): a stream ends with {id, streamEnd:true}"},
    {F::kJsonStreamEndAfterError, "json-stream-end-after-error", "sends streamEnd after a stream's error response",
     "§4 (stdio-json): an error response ends the stream, with no streamEnd"},
    {F::kJsonIgnoreCancelStream, "json-ignore-cancel-stream", "ignores cancelStream",
     "§4 (stdio-json): cancelStream ends the stream with streamEnd"},
    {F::kJsonStreamIdReuse, "json-stream-id-reuse", "accepts a request reusing the id of an open stream",
     "§4 (stdio-json): reusing the id of an open stream is -32600"},
    {F::kJsonShutdownNoExit, "json-shutdown-no-exit", "answers system/shutdown but keeps running",
     "§4 (stdio-json): after answering system/shutdown the child exits 0"},
    {F::kJsonHeartbeatFatal, "json-heartbeat-fatal", "treats a heartbeat frame as a protocol error",
     "§4 (stdio-json): heartbeat frames are accepted and ignored"},
    {F::kJsonWrongExitCode, "json-wrong-exit-code", "exits 1 instead of 2 on protocol errors",
     "§4 (stdio-json): a protocol error exits 2"},
    {F::kJsonServiceParamsIgnored, "json-service-params-ignored", "ignores serviceParams and A2A_SP_* (a2a-version)",
     "§4 (stdio-json)/§5: service parameters reach the handler (A2A-Version 0.3 is VersionNotSupported)"},
    {F::kJsonParseErrorContinues, "json-parse-error-continues", "keeps serving after -32700",
     "§4 (stdio-json): malformed JSON is -32700 then exit 2"},
    {F::kJsonOversizeSilent, "json-oversize-silent", "exits on an oversized frame without the -32000 reply",
     "§4 (stdio-json): an oversized frame is answered -32000 \"Message too large\", then exit 2"},
    {F::kGrpcWrongStatus, "grpc-wrong-status", "gRPC: TaskNotFoundError is sent as INVALID_ARGUMENT",
     "§5.4: TaskNotFoundError maps to the gRPC status NOT_FOUND"},
    {F::kGrpcNoDetails, "grpc-no-details", "gRPC: errors carry no grpc-status-details-bin (no google.rpc.Status)",
     "§10.6: for A2A-specific errors, implementations MUST include a google.rpc.ErrorInfo in status.details"},
    {F::kGrpcWrongReason, "grpc-wrong-reason", "gRPC: ErrorInfo.reason is the type name (TaskNotFoundError)",
     "§10.6: reason is the A2A error type in UPPER_SNAKE_CASE without the \"Error\" suffix (TASK_NOT_FOUND)"},
    {F::kGrpcWrongDomain, "grpc-wrong-domain", "gRPC: ErrorInfo.domain is \"a2a.dev\"",
     "§10.6: domain: set to \"a2a-protocol.org\""},
    {F::kGrpcJsonRpcCodeAsStatus, "grpc-json-rpc-code-as-status",
     "gRPC: A2A errors are status UNKNOWN with the JSON-RPC code in the message (\"-32001: ...\")",
     "§5.4/§10.6: the error code is the gRPC status of the table (TaskNotFoundError NOT_FOUND, ...)"},
    {F::kGrpcStreamNoTerminal, "grpc-stream-no-terminal",
     "gRPC: task streams end with OK without sending the terminal status-update",
     "R50/§3.1.2: the stream closes when the task reaches a terminal state (the client sees that state)"},
    {F::kGrpcEventsAfterTerminal, "grpc-events-after-terminal",
     "gRPC: task streams send the terminal status-update twice, then end",
     "R50/§3.1.2: the stream closes when the task reaches a terminal state (no event after it)"},
    {F::kGrpcStreamErrorAsOk, "grpc-stream-error-as-ok",
     "gRPC: a stream that fails (e.g. SubscribeToTask of an unknown task) ends with status OK",
     "§10.6/§5.4: errors are the gRPC status of the table (TaskNotFoundError NOT_FOUND)"},
    {F::kGrpcVersionNotChecked, "grpc-version-not-checked", "gRPC: serves any a2a-version metadata (9.9)",
     "§3.6.2/§10.2: an unsupported A2A-Version is VersionNotSupportedError (FAILED_PRECONDITION)"},
    {F::kGrpcAbsentVersionAsCurrent, "grpc-absent-version-as-current",
     "gRPC: a call without a2a-version metadata is served as 1.0",
     "§3.6.2: Agents MUST interpret empty value as 0.3 version (graded non-strict by GRPC-VER-002)"},
    {F::kGrpcUnimplementedAsUnknown, "grpc-unimplemented-as-unknown",
     "gRPC: a method A2AService does not have is answered UNKNOWN",
     "gRPC status codes: UNIMPLEMENTED is the status of a method the server does not implement"},
    {F::kGrpcNoSizeLimit, "grpc-no-size-limit", "gRPC: accepts request messages up to 64 MiB (limit 4 MiB)",
     "R139/R102 (suite limit): a request above 4 MiB is refused (RESOURCE_EXHAUSTED) before processing"},
    {F::kGrpcExtendedCardNoAuth, "grpc-extended-card-no-auth",
     "gRPC: serves GetExtendedAgentCard without authorization metadata",
     "R90/§13.3: the extended card requires authentication (else UNAUTHENTICATED)"},
    {F::kGrpcMalformedAsInternal, "grpc-malformed-as-internal",
     "gRPC: request bytes that are not the method's message are answered INTERNAL",
     "§10.6 (google.rpc codes): a malformed request is INVALID_ARGUMENT, not a server fault"},
}};

}  // namespace

std::span<const FaultInfo> all_faults() { return kFaults; }

std::optional<Fault> fault_from_name(std::string_view name) {
  for (const auto& f : kFaults) {
    if (f.name == name) return f.fault;
  }
  return std::nullopt;
}

const FaultInfo& fault_info(Fault f) { return kFaults[static_cast<size_t>(f)]; }

void apply_output_faults(const Faults& faults, nlohmann::json& value) {
  bool names = faults.has(Fault::kSemWrongStateName);
  bool numbers = faults.has(Fault::kBadTaskStateEnum);
  bool epoch = faults.has(Fault::kTimestampAsNumber);
  if (!names && !numbers && !epoch) return;
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key() == "state" && it->is_string() && (names || numbers)) {
        auto s = model::task_state_from(it->get<std::string>());
        if (names && *it == "TASK_STATE_COMPLETED") *it = "completed";
        else if (numbers && s) *it = static_cast<int>(*s);  // the TaskState proto number
      } else if (it.key() == "timestamp" && it->is_string() && epoch) {
        if (auto ms = model::parse_timestamp_ms(it->get<std::string>())) *it = *ms;
      } else {
        apply_output_faults(faults, *it);
      }
    }
  } else if (value.is_array()) {
    for (auto& v : value) apply_output_faults(faults, v);
  }
}

void apply_error_faults(const Faults& faults, nlohmann::json& error_object) {
  if (!error_object.is_object()) return;
  int code = error_object.value("code", 0);
  if (faults.has(Fault::kErrNoErrorData) && code <= -32001 && code >= -32099) error_object.erase("data");
  if (faults.has(Fault::kErrNotFoundCode) && code == -32001) error_object["code"] = -32603;
}

}  // namespace a2a::agent
