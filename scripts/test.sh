#!/usr/bin/env bash
# README command (b): installs dependencies, builds, runs every test.
#
# Phases (each runs even when an earlier one failed, so one run shows every
# problem):
#   main   the g++ build and its ctest: unit, end-to-end, interop and the
#          meta-tests that prove each scenario can fail
#   asan   unit and end-to-end tests under ASan+UBSan (scripts/sanitize.sh)
#   tsan   the concurrency tests under TSan (scripts/sanitize.sh)
#   fuzz   a short bounded libFuzzer pass over every target (scripts/fuzz.sh)
# A2A_TEST_PHASES selects some of them (default "main asan tsan fuzz");
# FUZZ_SECONDS sets the fuzz time per target (default 20).
#
# Ends with one line "N passed, N failed": every ctest test of every phase,
# plus one entry per fuzz target. The exit status is 0 only when N failed is 0
# and every phase ran to its end.
set -uo pipefail
cd "$(dirname "$0")/.."
PHASES="${A2A_TEST_PHASES:-main asan tsan fuzz}"
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

run_phase() {
  local name="$1" log="$LOGS/$1.log" t0 rc
  shift
  echo "=== phase $name: $*"
  t0=$(date +%s)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  status_lines+=("$(printf '%-5s %s after %d s' "$name" "$([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")" $(($(date +%s) - t0)))")
  [ "$rc" = 0 ] || broken+=("$name")
  return 0
}

main_phase() {
  bash scripts/build.sh || return 1
  # The interop tests run partners built on the official A2A JavaScript SDK.
  bash scripts/interop-setup.sh || return 1
  ctest --test-dir "${BUILD_DIR:-build}" -j"${JOBS:-2}" --output-on-failure --timeout 300
}

fuzz_phase() {
  bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
}

for phase in $PHASES; do
  case "$phase" in
    main) run_phase main main_phase; count_ctest "$LOGS/main.log" ;;
    asan) run_phase asan bash scripts/sanitize.sh asan; count_ctest "$LOGS/asan.log" ;;
    tsan) run_phase tsan bash scripts/sanitize.sh tsan; count_ctest "$LOGS/tsan.log" ;;
    fuzz)
      run_phase fuzz fuzz_phase
      # one entry per target: "== <target>:" starts it, "!! <target> found" fails it
      n=$(grep -c '^== fuzz_' "$LOGS/fuzz.log" || true)
      f=$(grep -c '^!! fuzz_.* found a problem' "$LOGS/fuzz.log" || true)
      passed=$((passed + n - f))
      failed=$((failed + f))
      ;;
    *) echo "test.sh: unknown phase '$phase' (main asan tsan fuzz)" >&2; exit 64 ;;
  esac
done

echo
echo "=== summary (logs in $LOGS)"
printf '  %s\n' "${status_lines[@]}"
# A phase that failed without a failing test (a build error, a sanitizer report
# in a child process) still counts as a failure.
for b in "${broken[@]}"; do
  grep -qE '[1-9][0-9]* tests? failed out of|found a problem' "$LOGS/$b.log" || failed=$((failed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ ${#broken[@]} = 0 ]
