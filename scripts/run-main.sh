#!/usr/bin/env bash
# README command (a): installs dependencies, builds, and runs the main job:
# a2a-conform against the reference agent
#   1. over stdio (profile p46), every suite under suites/ -> out/stdio/
#   2. over the network (a2a-ref-agent --http 0 --grpc 0; JSON-RPC, REST and
#      gRPC, found through its agent card), every suite under suites/ -> out/http/
# Each report dir holds report.html, report.json, junit.xml and the ACTS report.
# Exits 0 only if both runs are conformant.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR="${BUILD_DIR:-build}"
OUT="${OUT:-out}"
set +e
"$BUILD_DIR/bin/a2a-conform" run --agent "$BUILD_DIR/bin/a2a-ref-agent" --behaviors peers/a2a-ref-agent/sut-behaviors.yaml --profile p46 -j2 \
  --report-dir "$OUT/stdio" suites/
rc_stdio=$?

# The HTTP agent prints "a2a-ref-agent listening on URL" once it listens.
agent_log="$(mktemp)"
"$BUILD_DIR/bin/a2a-ref-agent" --http 0 --grpc 0 -q >"$agent_log" &
agent_pid=$!
trap 'kill "$agent_pid" 2>/dev/null; rm -f "$agent_log"' EXIT
url=""
for _ in $(seq 1 100); do
  url="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$agent_log" | head -n1)"
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "run-main: a2a-ref-agent --http 0 --grpc 0 did not report its URL within 10 s:" >&2
  cat "$agent_log" >&2
  exit 2
fi
"$BUILD_DIR/bin/a2a-conform" run --url "$url" --behaviors peers/a2a-ref-agent/sut-behaviors.yaml --header "Authorization: Bearer a2a-conform" -j2 --report-dir "$OUT/http" suites/
rc_http=$?
set -e
echo "reports: $OUT/stdio/report.html $OUT/http/report.html (and report.json, junit.xml beside each)"
if [ "$rc_stdio" -ne 0 ]; then exit "$rc_stdio"; fi
exit "$rc_http"
