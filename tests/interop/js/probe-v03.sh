#!/usr/bin/env bash
# probe-v03.sh: starts agent-v03.mjs (the A2A 0.3 agent on @a2a-js/sdk's 0.3 compat layer),
# sends it the curl probes of README.md ("agent-v03.mjs: what goes on the wire") and checks
# the key facts with grep/sed only. Exit 0 when every fact holds, 1 at the first that does
# not (with what was expected and the response); also 1 when node, curl or node_modules
# is missing (as the other interop tests: CI must not lose them silently). Every wait is bounded; the agent is killed on exit.
#
#   tests/interop/js/probe-v03.sh [-v]     (-v prints every response)
set -u

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VERBOSE=0
[[ "${1:-}" == "-v" ]] && VERBOSE=1

skip() { echo "probe-v03: cannot run: $*"; exit 1; }
command -v node >/dev/null 2>&1 || skip "node not found (install Node.js >= 20)"
command -v curl >/dev/null 2>&1 || skip "curl not found"
[[ -d "$DIR/node_modules/@a2a-js/sdk" ]] || skip "tests/interop/js/node_modules is missing: run scripts/interop-setup.sh"

TMP="$(mktemp -d)"
PID=""
cleanup() {
  if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then
    kill "$PID" 2>/dev/null
    for _ in $(seq 20); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$PID" 2>/dev/null
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT

fail() {
  echo "probe-v03: FAIL: $1" >&2
  [[ $# -ge 2 ]] && printf 'response was:\n%s\n' "$(head -c 2000 "$2")" >&2
  exit 1
}

node "$DIR/agent-v03.mjs" --port 0 >"$TMP/agent.out" 2>"$TMP/agent.err" &
PID=$!
BASE=""
for _ in $(seq 150); do  # at most 30 s
  BASE="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$TMP/agent.out")"
  [[ -n "$BASE" ]] && break
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.2
done
[[ -n "$BASE" ]] || fail "agent-v03.mjs printed no 'listening on' line within 30 s; stderr: $(head -c 1000 "$TMP/agent.err")"
RPC="$BASE/a2a/jsonrpc"
echo "probe-v03: agent at $BASE"

N=0
# request NAME CURL-ARGS...: body to $TMP/NAME, HTTP status to $TMP/NAME.status
request() {
  local name="$1"; shift
  N=$((N + 1))
  curl -s --max-time 15 -o "$TMP/$name" -w '%{http_code}' "$@" >"$TMP/$name.status" || true
  if [[ $VERBOSE -eq 1 ]]; then
    echo "== $name: HTTP $(cat "$TMP/$name.status")"; head -c 1500 "$TMP/$name"; echo
  fi
}
rpc() {  # rpc NAME JSON [extra curl args]
  local name="$1" body="$2"; shift 2
  request "$name" -H 'Content-Type: application/json' "$@" -d "$body" "$RPC"
}
has() {  # has NAME LITERAL WHY
  grep -qF -- "$2" "$TMP/$1" || fail "$3: expected $2" "$TMP/$1"
}
status_is() {
  [[ "$(cat "$TMP/$1.status")" == "$2" ]] || fail "$3: expected HTTP $2, got $(cat "$TMP/$1.status")" "$TMP/$1"
}
msg03() {  # a 0.3 JSON-RPC message/send|stream request for TEXT
  printf '{"jsonrpc":"2.0","id":%s,"method":"%s","params":{"message":{"kind":"message","messageId":"probe-%s","role":"user","parts":[{"kind":"text","text":"%s"}]}}}' \
    "$1" "$2" "$1" "$3"
}

# --- the card -------------------------------------------------------------------------
request card "$BASE/.well-known/agent-card.json"
status_is card 200 "GET /.well-known/agent-card.json"
has card '"protocolVersion":"0.3.0"' "the card is not a 0.3 card"
has card "\"url\":\"$RPC\"" "the card's main url is not the JSON-RPC endpoint"
has card '"preferredTransport":"JSONRPC"' "the card's preferredTransport"
has card '"additionalInterfaces":[' "the card has no additionalInterfaces"
has card "{\"url\":\"$RPC\",\"transport\":\"JSONRPC\"}" "additionalInterfaces lacks the JSONRPC endpoint"
has card "{\"url\":\"$BASE\",\"transport\":\"HTTP+JSON\"}" "additionalInterfaces lacks the HTTP+JSON endpoint"
has card '"capabilities":{"streaming":true,"pushNotifications":true}' "the card's capabilities"

# --- JSON-RPC 0.3 ---------------------------------------------------------------------
rpc send "$(msg03 1 message/send 'tck-complete-task hi')"
status_is send 200 "message/send"
has send '"result":{"kind":"task",' "message/send of tck-complete-task does not return a bare Task with kind"
has send '"state":"completed"' "message/send: lowercase 0.3 state"
has send '"parts":[{"kind":"text","text":"Task completed: tck-complete-task hi"}]' "message/send: the artifact's 0.3 text part"
TASK="$(sed -n 's/.*"result":{"kind":"task","id":"\([^"]*\)".*/\1/p' "$TMP/send")"
[[ -n "$TASK" ]] || fail "message/send: no task id" "$TMP/send"

rpc direct "$(msg03 2 message/send 'tck-message-response hi')"
has direct '"result":{"kind":"message",' "message/send of tck-message-response does not return a bare Message with kind"
has direct '"role":"agent"' "message/send: lowercase 0.3 role"

rpc stream "$(msg03 3 message/stream 'tck-stream-basic hi')"
status_is stream 200 "message/stream"
grep '^data: ' "$TMP/stream" >"$TMP/stream.data"
[[ "$(wc -l <"$TMP/stream.data")" -ge 3 ]] || fail "message/stream: fewer than 3 SSE items" "$TMP/stream"
head -n1 "$TMP/stream.data" | grep -qF '"result":{"kind":"task",' || fail "message/stream: the first item is not the Task" "$TMP/stream"
has stream.data '"result":{"kind":"artifact-update",' "message/stream: no artifact-update item"
tail -n1 "$TMP/stream.data" | grep -qF '"kind":"status-update"' || fail "message/stream: the last item is not a status-update" "$TMP/stream"
tail -n1 "$TMP/stream.data" | grep -qF '"state":"completed"' || fail "message/stream: the last item is not completed" "$TMP/stream"
tail -n1 "$TMP/stream.data" | grep -qF '"final":true' || fail "message/stream: the last status-update lacks final:true" "$TMP/stream"
[[ "$(grep -cF '"final":true' "$TMP/stream.data")" == 1 ]] || fail "message/stream: final:true on more than the last item" "$TMP/stream"

rpc get "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/get\",\"params\":{\"id\":\"$TASK\"}}"
has get "\"result\":{\"kind\":\"task\",\"id\":\"$TASK\"" "tasks/get of the task just created"

rpc get404 '{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{"id":"probe-no-such-task"}}'
status_is get404 200 "tasks/get of an unknown id"
has get404 '"error":{"code":-32001,' "tasks/get of an unknown id: TaskNotFoundError"

rpc v10 "$(msg03 6 message/send hi)" -H 'A2A-Version: 1.0'
has v10 '"error":{"code":-32009,' "A2A-Version: 1.0 on the 0.3-only agent: VersionNotSupportedError"
rpc v99 "$(msg03 7 message/send hi)" -H 'A2A-Version: 9.9'
has v99 '"error":{"code":-32009,' "A2A-Version: 9.9: VersionNotSupportedError"
rpc v03 '{"jsonrpc":"2.0","id":8,"method":"tasks/get","params":{"id":"probe-no-such-task"}}' -H 'A2A-Version: 0.3'
has v03 '"error":{"code":-32001,' "A2A-Version: 0.3 is served like no header"

# --- REST 0.3 (/v1, ProtoJSON of the 0.3 proto) ---------------------------------------
RMSG='{"message":{"messageId":"probe-r1","role":"ROLE_USER","content":[{"text":"tck-complete-task hi"}]}}'
request rsend -H 'Content-Type: application/json' -d "$RMSG" "$BASE/v1/message:send"
status_is rsend 201 "POST /v1/message:send"
has rsend '{"task":{"id":"' "POST /v1/message:send: a {task} wrapper"
has rsend '"state":"TASK_STATE_COMPLETED"' "POST /v1/message:send: 0.3 proto enum state"
RTASK="$(sed -n 's/^{"task":{"id":"\([^"]*\)".*/\1/p' "$TMP/rsend")"
[[ -n "$RTASK" ]] || fail "POST /v1/message:send: no task id" "$TMP/rsend"

request rget "$BASE/v1/tasks/$RTASK"
status_is rget 200 "GET /v1/tasks/{id}"
has rget "{\"id\":\"$RTASK\"," "GET /v1/tasks/{id}: a bare Task"

request rget404 "$BASE/v1/tasks/probe-no-such-task"
status_is rget404 404 "GET /v1/tasks/{unknown}"
has rget404 '{"code":-32001,"message":"' "GET /v1/tasks/{unknown}: the bare {code,message} error body"

RSTREAM='{"message":{"messageId":"probe-r2","role":"ROLE_USER","content":[{"text":"tck-stream-basic hi"}]}}'
request rstream -H 'Content-Type: application/json' -d "$RSTREAM" "$BASE/v1/message:stream"
status_is rstream 200 "POST /v1/message:stream"
grep '^data: ' "$TMP/rstream" >"$TMP/rstream.data"
head -n1 "$TMP/rstream.data" | grep -qF 'data: {"task":{' || fail "POST /v1/message:stream: the first item is not {task}" "$TMP/rstream"
has rstream.data 'data: {"artifactUpdate":{' "POST /v1/message:stream: no artifactUpdate item"
tail -n1 "$TMP/rstream.data" | grep -qF 'data: {"statusUpdate":{' || fail "POST /v1/message:stream: the last item is not a statusUpdate" "$TMP/rstream"
tail -n1 "$TMP/rstream.data" | grep -qF '"final":true' || fail "POST /v1/message:stream: the last statusUpdate lacks final:true" "$TMP/rstream"

echo "probe-v03: PASS ($N requests)"
