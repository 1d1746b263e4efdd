#!/usr/bin/env bash
# Bounded libFuzzer pass (docs/fuzzing.md).
#
#   scripts/fuzz.sh [seconds-per-target] [target...]
#
# Builds the fuzz targets (clang, ASan+UBSan, -DA2A_FUZZ=ON; the `asan`
# preset's configuration) in $BUILD_DIR (default build-asan), then runs each
# target for the given time (default 60 s) on a scratch copy of its seed
# corpus in fixtures/fuzz/<target>/: fixtures/ is never written. Exits 1 when
# a target finds something, naming the crash file and the command that
# replays it; the findings are kept under $FUZZ_WORK.
#
# Environment: BUILD_DIR, JOBS (build parallelism, 2), FUZZ_WORK (scratch
# folder, default a fresh mktemp -d), FUZZ_NO_BUILD=1 (use the binaries as
# they are), FUZZ_RSS_MB (per-target memory cap; default 2048, fuzz_scenario
# 512), FUZZ_TIMEOUT (seconds
# one input may take, 10), FUZZ_ARGS (extra libFuzzer flags), FUZZ_JOBS
# (targets fuzzed at once, default 2: one libFuzzer process per core).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-asan}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
SECONDS_PER_TARGET="${1:-60}"
shift || true
TIMEOUT="${FUZZ_TIMEOUT:-10}"

# target -> largest input (bytes). Small caps keep every input cheap and no
# target near the memory cap; each is well above its largest seed.
declare -A MAX_LEN=(
  [fuzz_content_length]=4096
  [fuzz_sse]=4096
  [fuzz_jsonrpc]=4096
  [fuzz_scenario]=8192
  [fuzz_rest_routes]=1024
  [fuzz_agent_dispatch]=4096
)
# target -> memory cap (MB) when FUZZ_RSS_MB is not set. The scenario loader
# bounds what YAML aliases and nesting may cost (docs/scenario-format.md
# "Limits"): a tighter cap turns any input that gets past those bounds into a
# finding instead of a slow one.
declare -A RSS_CAP=(
  [fuzz_scenario]=512
)
ALL=(fuzz_content_length fuzz_sse fuzz_jsonrpc fuzz_scenario fuzz_rest_routes fuzz_agent_dispatch)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")
for t in "${TARGETS[@]}"; do
  [ -n "${MAX_LEN[$t]:-}" ] || { echo "fuzz.sh: unknown target '$t' (known: ${ALL[*]})" >&2; exit 2; }
done
[[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: seconds must be a number, got '$SECONDS_PER_TARGET'" >&2; exit 2; }

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
      -DA2A_SANITIZE=address,undefined -DA2A_FUZZ=ON >/dev/null
  elif ! grep -q '^A2A_FUZZ:BOOL=ON' "$BUILD_DIR/CMakeCache.txt"; then
    echo "fuzz.sh: $BUILD_DIR is not configured with -DA2A_FUZZ=ON (use the asan preset or another BUILD_DIR)" >&2
    exit 2
  fi
  cmake --build "$BUILD_DIR" -j"${JOBS:-2}" --target "${TARGETS[@]}"
fi

WORK="${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/a2a-fuzz.XXXXXX")}"
mkdir -p "$WORK"
# A UBSan report is a finding too; leaks are checked by ASan at each input's end.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}"

# One target's run: its libFuzzer process, then a status file (exit code).
run_target() {
  local t="$1" bin="$BUILD_DIR/fuzz/$1" corpus="$WORK/corpus/$1" artifacts="$WORK/artifacts/$1/"
  local log="$WORK/$1.log" dict=() status=0
  mkdir -p "$corpus" "$artifacts"
  cp -R "$ROOT/fixtures/fuzz/$t/." "$corpus/" 2>/dev/null || true
  [ -f "$ROOT/fixtures/fuzz/$t.dict" ] && dict=(-dict="$ROOT/fixtures/fuzz/$t.dict")
  echo "== $t: ${SECONDS_PER_TARGET}s, corpus $corpus, log $log"
  # shellcheck disable=SC2086
  "$bin" "${FLAGS[@]}" -rss_limit_mb="${FUZZ_RSS_MB:-${RSS_CAP[$t]:-2048}}" -max_len="${MAX_LEN[$t]}" "${dict[@]}" -max_total_time="$SECONDS_PER_TARGET" \
    -print_final_stats=1 -artifact_prefix="$artifacts" ${FUZZ_ARGS:-} "$corpus" >"$log" 2>&1 || status=$?
  echo "$status" >"$WORK/$t.status"
}

FLAGS=(-timeout="$TIMEOUT")
for t in "${TARGETS[@]}"; do
  [ -x "$BUILD_DIR/fuzz/$t" ] || { echo "fuzz.sh: $BUILD_DIR/fuzz/$t not built" >&2; exit 2; }
  rm -f "$WORK/$t.status"
done
# FUZZ_JOBS targets at a time (each libFuzzer process uses one core): the
# wall time is the per-target time x targets / FUZZ_JOBS, each target still
# gets its full time.
JOBS_AT_ONCE="${FUZZ_JOBS:-2}"
[[ "$JOBS_AT_ONCE" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: FUZZ_JOBS must be a positive number, got '$JOBS_AT_ONCE'" >&2; exit 2; }
running=0
for t in "${TARGETS[@]}"; do
  if [ "$running" -ge "$JOBS_AT_ONCE" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$t" &
  running=$((running + 1))
done
wait

failed=()
summary=()
for t in "${TARGETS[@]}"; do
  log="$WORK/$t.log"
  status=$(cat "$WORK/$t.status" 2>/dev/null || echo "no status (the run was lost)")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" 2>/dev/null | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" 2>/dev/null | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" 2>/dev/null | tail -1 || true)
  summary+=("$(printf '%-22s %10s execs %7s/s  rss %5s MB  %s' "$t" "${execs:-?}" "${rate:-?}" "${rss:-?}" "${cov:-}")")
  if [ "$status" != 0 ]; then
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" 2>/dev/null | tail -1)
    echo "!! $t found a problem (exit $status). Log: $log" >&2
    grep -m1 -E 'ERROR: |invariant violated|runtime error:|Timeout|out-of-memory' "$log" >&2 || tail -5 "$log" >&2 || true
    if [ -n "$crash" ]; then
      echo "   crash file: $crash" >&2
      echo "   reproduce:  $BUILD_DIR/fuzz/$t ${FLAGS[*]} -rss_limit_mb=${FUZZ_RSS_MB:-${RSS_CAP[$t]:-2048}} -max_len=${MAX_LEN[$t]} $crash" >&2
    fi
    failed+=("$t")
  fi
done

echo
echo "fuzz.sh summary (${SECONDS_PER_TARGET}s per target; scratch: $WORK)"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: FAILED: ${failed[*]} (see the crash files above; add each as a regression unit test)" >&2
  exit 1
fi
echo "fuzz.sh: no findings"
