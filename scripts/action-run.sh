#!/usr/bin/env bash
# The shell of action.yml (the GitHub Action), testable without GitHub
# (tests/action/action_test.sh runs it as it is).
#
#   action-run.sh install   apt-installs the build dependencies and builds
#                           a2a-conform and the reference peers into
#                           $A2A_BUILD_DIR (default <repo>/build-action),
#                           putting bin/ on $GITHUB_PATH
#   action-run.sh run       runs a2a-conform (A2A_AGENT or A2A_URL, A2A_SUITES,
#                           A2A_SHARD, A2A_KNOWN_FAILURES, A2A_ARGS,
#                           A2A_REPORT_DIR) and writes verdict, exit-code,
#                           report-html, report-json, junit to $GITHUB_OUTPUT
#   action-run.sh merge     the same outputs for `a2a-conform merge` of A2A_REPORTS
#
# A2A_CONFORM names the runner (default: a2a-conform on PATH). The step's exit
# status: 2 on a harness or usage error; 1 on a non-conformant run unless
# A2A_FAIL_ON_NONCONFORMANCE=false; else 0. The verdict also goes to
# $GITHUB_STEP_SUMMARY when set.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
MODE="${1:-${A2A_MODE:-run}}"

fail() {
  echo "::error::a2a-conform action: $*" >&2
  exit 2
}

output() {  # output NAME VALUE: a step output (stdout when not on GitHub)
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
  else
    printf 'output %s=%s\n' "$1" "$2"
  fi
}

# Words of a space-separated input, split like a shell would (quotes kept
# together), without running anything in it.
split_words() {
  local text="$1"
  [ -z "$text" ] && return 0
  python3 -c 'import shlex,sys; print("\0".join(shlex.split(sys.argv[1])), end="")' "$text" ||
    fail "cannot split: $text"
}

install_runner() {
  local build="${A2A_BUILD_DIR:-$ROOT/build-action}"
  bash "$ROOT/scripts/install-deps.sh" || fail "installing the build dependencies failed"
  cmake -S "$ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DA2A_BUILD_TESTS=OFF >/dev/null ||
    fail "cmake configure failed"
  cmake --build "$build" -j"$(nproc)" --target a2a-conform a2a-ref-agent a2a-ref-client a2a-agent-double ||
    fail "the build failed"
  if [ -n "${GITHUB_PATH:-}" ]; then echo "$build/bin" >>"$GITHUB_PATH"; fi
  echo "a2a-conform built: $build/bin/a2a-conform"
}

finish() {  # finish EXIT_CODE REPORT_DIR
  local code="$1" dir="$2" verdict
  case "$code" in
    0) verdict="CONFORMANT" ;;
    1) verdict="NOT CONFORMANT" ;;
    *) verdict="ERROR" ;;
  esac
  # A run can exit 0 and not be conformant (MUST-level known failures).
  if [ "$code" = 0 ] && [ -f "$dir/report.json" ] && grep -q '"conformant": *false' "$dir/report.json"; then
    verdict="NOT CONFORMANT"
  fi
  output verdict "$verdict"
  output exit-code "$code"
  output report-html "$dir/report.html"
  output report-json "$dir/report.json"
  output junit "$dir/junit.xml"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '### a2a-conform: %s (exit code %s)\n\nReports: `%s`\n' "$verdict" "$code" "$dir" >>"$GITHUB_STEP_SUMMARY"
  fi
  echo "a2a-conform action: $verdict (exit code $code), reports in $dir"
  if [ "$code" = 1 ] && [ "${A2A_FAIL_ON_NONCONFORMANCE:-true}" = false ]; then return 0; fi
  return "$code"
}

run_runner() {
  local conform="${A2A_CONFORM:-a2a-conform}" dir="${A2A_REPORT_DIR:-a2a-conform-report}"
  command -v "$conform" >/dev/null 2>&1 || fail "$conform not found (install: true builds it)"
  local argv=("$conform" run)
  if [ -n "${A2A_AGENT:-}" ] && [ -n "${A2A_URL:-}" ]; then fail "give agent or url, not both"; fi
  if [ -n "${A2A_AGENT:-}" ]; then argv+=(--agent "$A2A_AGENT")
  elif [ -n "${A2A_URL:-}" ]; then argv+=(--url "$A2A_URL")
  else fail "give the agent (a command line) or the url input"; fi
  [ -n "${A2A_SHARD:-}" ] && argv+=(--shard "$A2A_SHARD")
  [ -n "${A2A_KNOWN_FAILURES:-}" ] && argv+=(--known-failures "$A2A_KNOWN_FAILURES")
  argv+=(--report-dir "$dir" --color never)
  local words
  mapfile -d '' -t words < <(split_words "${A2A_ARGS:-}")
  argv+=("${words[@]}")
  mapfile -d '' -t words < <(split_words "${A2A_SUITES:-}")
  argv+=("${words[@]}")
  echo "a2a-conform action: ${argv[*]}"
  "${argv[@]}"
  finish $? "$dir"
}

merge_reports() {
  local conform="${A2A_CONFORM:-a2a-conform}" dir="${A2A_REPORT_DIR:-a2a-conform-report}"
  command -v "$conform" >/dev/null 2>&1 || fail "$conform not found (install: true builds it)"
  [ -n "${A2A_REPORTS:-}" ] || fail "mode merge needs the reports input (the shards' report.json files)"
  local files=() pattern match
  # Globs expand here (not in the input's quoting): shard-*/report.json.
  for pattern in ${A2A_REPORTS}; do
    match=0
    for f in $pattern; do
      [ -e "$f" ] || continue
      files+=("$f")
      match=1
    done
    [ "$match" = 1 ] || fail "no report matches $pattern"
  done
  "$conform" merge "${files[@]}" --report-dir "$dir" --color never
  finish $? "$dir"
}

case "$MODE" in
  install) install_runner ;;
  run) run_runner ;;
  merge) merge_reports ;;
  *) fail "unknown mode '$MODE' (install, run or merge)" ;;
esac
