#!/usr/bin/env bash
# README command (b): installs dependencies, builds, runs every test.
#
# Phases (each runs even when an earlier one failed, so one run shows every
# problem):
#   main     the g++ build and its ctest: end-to-end, interop, the action's
#            shell and the meta-tests that prove each scenario can fail (the
#            unit tests too when the asan phase is off: they run once, there)
#   package  cmake --install + the example CTest project, and the .deb
#            (scripts/check-package.sh)
#   asan     every unit test binary and the end-to-end tests under ASan+UBSan
#            (scripts/sanitize.sh)
#   tsan     the concurrency tests under TSan (scripts/sanitize.sh)
#   fuzz     a short bounded libFuzzer pass over every target (scripts/fuzz.sh)
# A2A_TEST_PHASES selects some of them (default "main package asan tsan fuzz");
# FUZZ_SECONDS sets the fuzz time per target (default 20). The CI budget
# and the measured phase times: docs/ci.md.
#
# Ends with a table of phase times and one line "N passed, N failed": every
# ctest test of every phase, every package check, one entry per fuzz target.
# The exit status is 0 only when N failed is 0 and every phase ran to its end.
set -uo pipefail
cd "$(dirname "$0")/.."
PHASES="${A2A_TEST_PHASES:-main package asan tsan fuzz}"
T_START=$(date +%s)
LOGS="$(mktemp -d "${TMPDIR:-/tmp}/a2a-test.XXXXXX")"

bash scripts/install-deps.sh || exit 1

passed=0
failed=0
broken=()
status_lines=()

# Adds the counts of every ctest summary in a log ("X tests failed out of Y").
count_ctest() {
  local log="$1" line f n
  while IFS= read -r line; do
    f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
    n=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
    passed=$((passed + n - f))
    failed=$((failed + f))
  done < <(grep -E '[0-9]+ tests? failed out of [0-9]+' "$log")
}

minutes() { awk -v s="$1" 'BEGIN { printf "%.1f", s / 60 }'; }

run_phase() {
  local name="$1" log="$LOGS/$1.log" t0 rc
  shift
  echo "=== phase $name: $*"
  t0=$(date +%s)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  local dt=$(($(date +%s) - t0))
  status_lines+=("$(printf '%-8s %-18s %5d s  %5s min' "$name" "$([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")" "$dt" "$(minutes "$dt")")")
  [ "$rc" = 0 ] || broken+=("$name")
  return 0
}

# The sanitizer builds (clang, ASan and TSan trees) in the background at the
# lowest CPU priority while the main phase's tests run: those mostly wait on
# deadlines and leave the cores idle, and at nice 19 the builds yield to them.
# Each sanitizer phase waits until its own tree is built (a marker file the
# background job writes), so the asan tests run while the tsan tree is still
# building; then it builds what is left (nothing, or all of it after a
# failure, with the errors in its own log).
BG_PID=""
BG_SEEN=""
BG_LOG="$LOGS/sanitizer-builds.log"
start_background_builds() {
  local presets=()
  for p in $PHASES; do case "$p" in asan | tsan) presets+=("$p") ;; esac; done
  [ ${#presets[@]} -gt 0 ] || return 0
  echo "=== background: sanitizer builds (${presets[*]}) at nice 19, log $BG_LOG"
  BG_T0=$(date +%s)
  # setsid gives it a process group to stop, and a new session: with the
  # kernel's autogroup scheduling a session's nice counts only within it, so
  # the session's own autogroup is set to 19 too (else it gets half the CPU).
  setsid nice -n 19 bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null
    logs="$1"; shift
    for p in "$@"; do
      bash scripts/sanitize.sh build "$p" || { echo "$p: failed" >"$logs/built-$p"; exit 1; }
      echo "$p: ok after $(($(date +%s) - $0)) s" >"$logs/built-$p"
    done' "$BG_T0" "$LOGS" "${presets[@]}" \
    >"$BG_LOG" 2>&1 </dev/null &
  BG_PID=$!
}
# wait_background_build PRESET: until that tree's marker exists or the job
# ended (bounded: the build's own time, at most 2 hours).
wait_background_build() {
  [ -n "${BG_T0:-}" ] || return 0
  local marker="$LOGS/built-$1" i
  for ((i = 0; i < 7200; i++)); do
    [ -n "$BG_PID" ] && [ ! -e "$marker" ] || break
    kill -0 "$BG_PID" 2>/dev/null || break
    sleep 1
  done
  if [[ " $BG_SEEN " != *" $1 "* ]]; then
    BG_SEEN="$BG_SEEN $1"
    local state="not built in the background"
    [ -e "$marker" ] && state="$(cat "$marker")"
    status_lines+=("$(printf '%-8s %s' "bg-$1" "$state (in the background at nice 19, from the start)")")
  fi
  if [ -n "$BG_PID" ] && ! kill -0 "$BG_PID" 2>/dev/null; then
    wait "$BG_PID" 2>/dev/null
    BG_PID=""
  fi
}
# A stopped run leaves no build behind (it runs in its own process group).
trap '[ -n "$BG_PID" ] && kill -- -"$BG_PID" 2>/dev/null' EXIT

main_phase() {
  # Unit tests run once: in the ASan tree, which runs every unit binary, when
  # the asan phase is on; the g++ tree builds them only when it is not.
  local unit=ON
  [[ " $PHASES " == *" asan "* ]] && unit=OFF
  A2A_UNIT_TESTS=$unit bash scripts/build.sh || return 1
  # The interop tests run partners built on the official A2A JavaScript SDK.
  bash scripts/interop-setup.sh || return 1
  local rc=0
  ctest --test-dir "${BUILD_DIR:-build}" -j"${JOBS:-2}" --output-on-failure --timeout 300 -LE '^a2a_meta_test$' || rc=1
  # The fault-matrix meta-tests: each row waits on the deadlines its fault
  # breaks, on little CPU, so more rows run at once than there are cores.
  ctest --test-dir "${BUILD_DIR:-build}" -j"${META_JOBS:-6}" --output-on-failure --timeout 900 -L '^a2a_meta_test$' || rc=1
  return $rc
}

# Adds a plain "N passed, N failed" line (the package checks).
count_plain() {
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)
  [ -n "$line" ] || return 0
  passed=$((passed + $(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$line")))
}

# A fixed libFuzzer seed (unless FUZZ_ARGS says otherwise): the same commit
# explores the same inputs first, so a finding repeats on a re-run instead of
# coming and going with the random seed (docs/fuzzing.md, "In CI").
fuzz_phase() {
  FUZZ_ARGS="${FUZZ_ARGS:--seed=1}" bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
}

# From the start: at nice 19 they take only what the main build and tests leave.
start_background_builds
for phase in $PHASES; do
  case "$phase" in
    main) run_phase main main_phase; count_ctest "$LOGS/main.log" ;;
    package) run_phase package bash scripts/check-package.sh; count_plain "$LOGS/package.log" ;;
    asan) wait_background_build asan; run_phase asan bash scripts/sanitize.sh asan; count_ctest "$LOGS/asan.log" ;;
    tsan) wait_background_build tsan; run_phase tsan bash scripts/sanitize.sh tsan; count_ctest "$LOGS/tsan.log" ;;
    fuzz)
      wait_background_build asan
      run_phase fuzz fuzz_phase
      # one entry per target: "== <target>:" starts it, "!! <target> found" fails it
      n=$(grep -c '^== fuzz_' "$LOGS/fuzz.log" || true)
      f=$(grep -c '^!! fuzz_.* found a problem' "$LOGS/fuzz.log" || true)
      passed=$((passed + n - f))
      failed=$((failed + f))
      ;;
    *) echo "test.sh: unknown phase '$phase' (main package asan tsan fuzz)" >&2; exit 64 ;;
  esac
done

echo
echo "=== summary (logs in $LOGS)"
printf '  %-8s %-18s %7s  %9s\n' phase status seconds minutes
printf '  %s\n' "${status_lines[@]}"
total=$(($(date +%s) - T_START))
printf '  %-8s %-18s %5d s  %5s min  (budget 40 min, docs/ci.md)\n' total "" "$total" "$(minutes "$total")"
# A phase that failed without a failing test (a build error, a sanitizer report
# in a child process) still counts as a failure.
for b in "${broken[@]}"; do
  grep -qE '[1-9][0-9]* tests? failed out of|found a problem' "$LOGS/$b.log" || failed=$((failed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ ${#broken[@]} = 0 ]
