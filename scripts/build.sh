#!/usr/bin/env bash
# Configures and builds everything into build/ (override with BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-2}"
EXTRA=()
# CI (docs/ci.md, "The g++ tree in CI") keeps line tables only (-g1): stack
# traces still name file:line, and the 2-core build is about a fifth shorter
# than with full debug info. It optimises at -O1 (a quarter less compile time
# than -O2; no CI test measures speed, bench/ does) and leaves out bench/,
# which only prints numbers. A developer's or a packager's build keeps -O2 and
# the benchmarks.
if [ -n "${CI:-}" ]; then EXTRA+=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"); fi
bench=ON
[ -n "${CI:-}" ] && bench=OFF
EXTRA+=(-DA2A_BENCH="${A2A_BENCH:-$bench}")
# A2A_UNIT_TESTS=OFF leaves out the unit test binaries (scripts/test.sh does
# when the asan phase runs them; docs/ci.md). Always passed, so a build dir
# that test.sh configured gets them back from a plain scripts/build.sh.
EXTRA+=(-DA2A_UNIT_TESTS="${A2A_UNIT_TESTS:-ON}")
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" "${EXTRA[@]}" >/dev/null
cmake --build "$BUILD_DIR" -j"$JOBS"
