#!/usr/bin/env bash
# Tests the shell of the GitHub Action (scripts/action-run.sh, what
# action.yml runs) against the real runner and reference agent: outputs,
# verdicts, exit codes, a matrix of shards and the merge job, input errors.
# Not GitHub itself: GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are files here.
#   action_test.sh BIN_DIR     (build/bin: a2a-conform, a2a-ref-agent)
# Ends with "N passed, N failed"; exit 1 when anything failed.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BIN="$(cd "${1:?usage: action_test.sh BIN_DIR}" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/a2a-action.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAILED: $*"; }
expect_eq() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: expected '$3', got '$2'"; fi; }
out_of() { sed -n "s/^$2=//p" "$1" | tail -1; }

# Runs the action's step with the given environment; sets $code and $outputs.
step() {
  outputs="$WORK/out.$RANDOM"
  : >"$outputs"
  env GITHUB_OUTPUT="$outputs" GITHUB_STEP_SUMMARY="$WORK/summary.md" A2A_CONFORM="$BIN/a2a-conform" "$@" \
    bash "$ROOT/scripts/action-run.sh" "${MODE:-run}" >"$WORK/log" 2>&1
  code=$?
}

# Every input action.yml passes is one the script reads, and back.
for var in $(grep -oE 'A2A_[A-Z_]+' "$ROOT/action.yml" | sort -u); do
  if grep -q "$var" "$ROOT/scripts/action-run.sh"; then ok "action.yml's $var is read by the script"
  else bad "action.yml passes $var, which the script never reads"; fi
done

sel="$ROOT/suites/stdio"
step A2A_AGENT="$BIN/a2a-ref-agent" A2A_SUITES="$sel" A2A_ARGS="--id 'STDIO-LIFE-00*' -q" A2A_REPORT_DIR=clean
expect_eq "a clean agent: exit code 0" "$code" 0
expect_eq "a clean agent: verdict" "$(out_of "$outputs" verdict)" CONFORMANT
expect_eq "a clean agent: exit-code output" "$(out_of "$outputs" exit-code)" 0
for f in report-html report-json junit; do
  p="$(out_of "$outputs" $f)"
  if [ -s "$p" ]; then ok "output $f names a file ($p)"; else bad "output $f: '$p' is not a written file"; fi
done
grep -q 'CONFORMANT' "$WORK/summary.md" && ok "the step summary states the verdict" || bad "no verdict in the step summary"

faulty="$BIN/a2a-ref-agent --fault life-exit-nonzero-on-eof"  # fails STDIO-LIFE-001..003 at MUST level
step A2A_AGENT="$faulty" A2A_SUITES="$sel" A2A_ARGS="--id STDIO-LIFE-001 -q" A2A_REPORT_DIR=faulty
expect_eq "a faulty agent fails the step" "$code" 1
expect_eq "a faulty agent: verdict" "$(out_of "$outputs" verdict)" "NOT CONFORMANT"
step A2A_AGENT="$faulty" A2A_SUITES="$sel" A2A_ARGS="--id STDIO-LIFE-001 -q" A2A_REPORT_DIR=faulty A2A_FAIL_ON_NONCONFORMANCE=false
expect_eq "fail-on-nonconformance false: the step passes" "$code" 0
expect_eq "fail-on-nonconformance false: the verdict still says so" "$(out_of "$outputs" verdict)" "NOT CONFORMANT"

# A matrix of three shard jobs, then the merge job.
for k in 1 2 3; do
  step A2A_AGENT="$faulty" A2A_SUITES="$sel" A2A_SHARD="$k/3" A2A_ARGS="--id 'STDIO-LIFE-*' -q" \
    A2A_REPORT_DIR="shards/s$k" A2A_FAIL_ON_NONCONFORMANCE=false
  expect_eq "shard $k/3 job" "$code" 0
done
MODE=merge step A2A_REPORTS="shards/*/report.json" A2A_REPORT_DIR=merged
expect_eq "the merge job fails on the faulty agent" "$code" 1
expect_eq "the merge job's verdict" "$(out_of "$outputs" verdict)" "NOT CONFORMANT"
[ -s merged/report.html ] && ok "the merge job wrote report.html" || bad "no merged report.html"
n_whole=$("$BIN/a2a-conform" list "$sel" --id 'STDIO-LIFE-*' | wc -l)
n_merged=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["scenarios"]))' merged/report.json)
[ "$n_whole" -gt 5 ] && ok "the selection has $n_whole scenarios" || bad "the selection is nearly empty ($n_whole)"
expect_eq "the merged report has every scenario once" "$n_merged" "$n_whole"

# Input errors: exit 2 and a message that says what is wrong.
step A2A_SUITES="$sel"
expect_eq "no agent and no url: exit 2" "$code" 2
grep -q 'give the agent' "$WORK/log" && ok "no target: the message says what to give" || bad "no target: $(cat "$WORK/log")"
step A2A_AGENT=x A2A_URL=http://127.0.0.1:1
expect_eq "agent and url: exit 2" "$code" 2
MODE=merge step A2A_REPORTS="nothing/*/report.json"
expect_eq "merge with no report: exit 2" "$code" 2
grep -q 'no report matches' "$WORK/log" && ok "merge names the pattern that matched nothing" || bad "merge: $(cat "$WORK/log")"
MODE=bogus step
expect_eq "an unknown mode: exit 2" "$code" 2

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
