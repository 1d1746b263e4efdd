// Injected defects (`--fault NAME`). Each fault breaks exactly one stated
// requirement so the meta-tests can prove a conformance scenario catches it
// (DESIGN.md: "a scenario that no fault can make fail is decoration").
// A Faults value is passed to whoever checks it; there is no global state.
#pragma once

#include <bitset>
#include <optional>
#include <span>
#include <string_view>

#include <nlohmann/json.hpp>

namespace a2a::agent {

enum class Fault {
  // framing (writer applies them after the handshake frame)
  kFrameLowercaseHeader,
  kFrameLengthOffByOne,
  kFrameBareLf,
  kFrameCountChars,
  kReaderCaseSensitive,
  kReaderNoBodyCap,
  kReaderSurviveFatal,
  // handshake
  kHsMissing,
  kHsIgnoreSessionEnv,
  kHsStdoutNoise,
  kHsServeAfterReject,
  kHsAcceptUnknownVariant,
  kHsEmptyVariants,
  // ids
  kIdAsString,
  kIdNullResponse,
  // error codes
  kErrParseAsInvalidRequest,
  kErrReplyToNotification,
  kErrNotFoundCode,
  kErrMethodNotFoundCode,
  kErrBatchPartial,
  kErrNoErrorData,
  kErrExitOnParseError,
  // streams
  kStreamFinalNonnull,
  kStreamNoFinal,
  kStreamFinalWrongId,
  kStreamEventsAsResponses,
  kStreamReorder,
  kStreamErrorEventAsFinal,
  // concurrency
  kConcSerialize,
  kConcDropQueuedStream,
  kConcInterleaveStreams,
  kConcReorderIds,
  // lifecycle
  kLifeIgnoreEof,
  kLifeExitNonzeroOnEof,
  kLifeExitZeroOnFatal,
  kLifeCrashMidFrame,
  // A2A semantics
  kSemTerminalMutable,
  kSemIgnoreHistoryLength,
  kSemListNoNextToken,
  kSemListIgnoresPageSize,
  kSemCancelNoop,
  kSemBlockingReturnsEarly,
  kSemMultiTurnNewTask,
  kSemListIncludesArtifacts,
  kSemPushDeleteNoop,
  kSemWrongStateName,
  kSemSubscribeNoSnapshot,
  kSemStreamNoTaskFirst,
  // A2A payload types and formats (ProtoJSON per a2a.proto)
  kTimestampAsNumber,
  kBadTaskStateEnum,
  kPushGetIgnoresConfigId,
  // HTTP bindings (JSON-RPC over HTTP, REST, SSE, the card endpoint)
  kHttpRestErrorStatus200,
  kHttpRestNoErrorInfo,
  kHttpRestProblemJson,
  kHttpJsonrpcContentType,
  kHttpSseContentType,
  kHttpSseNoBlankLine,
  kHttpSseCloseEarly,
  kHttpVersionIgnored,
  kHttpNoPathProtection,
  kHttpNoBodyLimit,
  kHttpRestWrongVerbOk,
  kHttpExtendedCardNoAuth,
  kHttpJsonrpcAnyVersionMember,
  kHttpRestUnwrappedSend,
  kHttpNoQueryLimit,
  kCardNoCacheHeaders,
  // agent card
  kCardMissingInterfaces,
  kCardWrongBindingName,
  kCardNoCapabilities,
  kCardRelativeInterfaceUrl,
  // push notification delivery
  kPushNoDelivery,
  kPushNoAuthHeader,
  kPushBareTaskBody,
  kPushNoTokenHeader,
  // A2A 0.3 served beside 1.0 (--serve-0.3, JSON-RPC)
  kV03NoFinal,
  kV03V1States,
  kV03WrappedResult,
  kV03NoKind,
  kV03ErrorCodes,
  kV03NoCardFields,
  // stdio-json profile (stdio-binding.md §4)
  kJsonHsNoVersion,
  kJsonAckSessionNotChecked,
  kJsonSessionEnvOptional,
  kJsonVersionIgnored,
  kJsonNoStreamEnd,
  kJsonStreamEndAfterError,
  kJsonIgnoreCancelStream,
  kJsonStreamIdReuse,
  kJsonShutdownNoExit,
  kJsonHeartbeatFatal,
  kJsonWrongExitCode,
  kJsonServiceParamsIgnored,
  kJsonParseErrorContinues,
  kJsonOversizeSilent,
  // gRPC binding (--grpc; peers/a2a-ref-agent/grpc/grpc_faults.cpp)
  kGrpcWrongStatus,
  kGrpcNoDetails,
  kGrpcWrongReason,
  kGrpcWrongDomain,
  kGrpcJsonRpcCodeAsStatus,
  kGrpcStreamNoTerminal,
  kGrpcEventsAfterTerminal,
  kGrpcStreamErrorAsOk,
  kGrpcVersionNotChecked,
  kGrpcAbsentVersionAsCurrent,
  kGrpcUnimplementedAsUnknown,
  kGrpcNoSizeLimit,
  kGrpcExtendedCardNoAuth,
  kGrpcMalformedAsInternal,
  // WebSocket binding (--websocket; peers/a2a-ref-agent/websocket/websocket_faults.cpp)
  kWsNoStreamComplete,
  kWsCompleteWrongId,
  kWsEventsAfterComplete,
  kWsEventWrongId,
  kWsErrorThenComplete,
  kWsBinaryFrames,
  kWsTwoMessagesPerFrame,
  kWsWrongJsonrpc,
  kWsVersionNotChecked,
  kWsAcceptBinarySilently,
  kWsAnswerNotifications,
  kWsNoBusyLimit,
  kWsIgnoreUpgradeAuth,
  kWsNoSizeLimit,
  kWsIgnoreControl,
  kCount,  // keep last
};

struct FaultInfo {
  Fault fault;
  std::string_view name;      // "frame-bare-lf"
  std::string_view defect;    // what the agent does wrong
  std::string_view breaks;    // the requirement it violates, with its reference
};

std::span<const FaultInfo> all_faults();
std::optional<Fault> fault_from_name(std::string_view name);
const FaultInfo& fault_info(Fault f);

class Faults {
 public:
  Faults() = default;
  void add(Fault f) { bits_.set(static_cast<size_t>(f)); }
  bool has(Fault f) const { return bits_.test(static_cast<size_t>(f)); }
  bool any() const { return bits_.any(); }

 private:
  std::bitset<static_cast<size_t>(Fault::kCount)> bits_;
};

// Output-side payload faults applied to every result and stream event a
// binding sends (sem-wrong-state-name, timestamp-as-number,
// bad-task-state-enum). No-op without faults.
void apply_output_faults(const Faults& faults, nlohmann::json& value);
// Error-shape faults applied by every binding to an error object
// {code, message, data} before it is sent (err-not-found-code, err-no-error-data).
void apply_error_faults(const Faults& faults, nlohmann::json& error_object);

}  // namespace a2a::agent
