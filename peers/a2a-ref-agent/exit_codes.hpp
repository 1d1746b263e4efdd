// Exit statuses of a2a-ref-agent; serve_stdio() returns them and main()
// exits with them (DESIGN.md: only main picks an exit code).
#pragma once

namespace a2a::agent {

inline constexpr int kExitOk = 0;              // clean EOF, rejected handshake, EOF before the ack
inline constexpr int kExitEofFault = 1;        // only with --fault life-exit-nonzero-on-eof
inline constexpr int kExitProtocol = 2;        // handshake/protocol error, fatal framing error, EOF mid-frame
inline constexpr int kExitIo = 3;              // p46: stdout unwritable (EPIPE, write timeout) or stdin unreadable
inline constexpr int kExitGeneric = 1;         // stdio-json: generic failure (stdout unwritable)
inline constexpr int kExitVersion = 3;         // stdio-json: A2A_PROTOCOL_VERSION major not supported
inline constexpr int kExitStartupDenied = 4;   // stdio-json: A2A_SESSION_ID missing or empty
inline constexpr int kExitUsage = 64;          // bad command line (EX_USAGE)
inline constexpr int kExitCrashFault = 70;     // only with --fault life-crash-mid-frame

}  // namespace a2a::agent
