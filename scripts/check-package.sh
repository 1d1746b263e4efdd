#!/usr/bin/env bash
# The package phase of scripts/test.sh (docs/packaging.md): what a user gets
# from `cmake --install` and from the .deb works outside this checkout.
#   1. cmake --install the build into a fresh prefix; configure and ctest
#      examples/cmake-ctest against it (find_package(A2AConform),
#      a2a_conform_add_test with shards and the merge).
#   2. cpack -G DEB; apt-get install ./a2a-conform_<version>_amd64.deb; the
#      installed a2a-conform (from a folder with no suites/) against the
#      installed a2a-ref-agent; then the package is removed again.
# Prints ctest's summary line for each check it runs as a test; exits non-zero
# on the first failure. Needs the main build (BUILD_DIR, default build) and
# root for step 2 (A2A_SKIP_DEB=1 skips it, and says so).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
WORK="$(mktemp -d "${TMPDIR:-/tmp}/a2a-package.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0
check() {  # check NAME CMD...: one counted check
  local name="$1"
  shift
  echo "--- package: $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "!!! package: $name FAILED" >&2
    failed=$((failed + 1))
  fi
}

[ -f "$BUILD_DIR/CMakeCache.txt" ] || { echo "check-package: $BUILD_DIR is not built (scripts/build.sh)" >&2; exit 2; }

install_tree() {
  cmake --install "$BUILD_DIR" --prefix "$WORK/prefix" --strip >"$WORK/install.log" || { cat "$WORK/install.log"; return 1; }
  for f in bin/a2a-conform bin/a2a-ref-agent bin/a2a-ref-client bin/a2a-agent-double \
           share/a2a-conform/suites/profiles/p46.yaml lib/cmake/A2AConform/A2AConformConfig.cmake \
           share/doc/a2a-conform/README.md; do
    [ -e "$WORK/prefix/$f" ] || { echo "not installed: $f" >&2; return 1; }
  done
}

cmake_example() {
  cmake -S "$ROOT/examples/cmake-ctest" -B "$WORK/example" -G Ninja -DCMAKE_PREFIX_PATH="$WORK/prefix" >/dev/null || return 1
  # Three shards, their merge, and the stdio-json test.
  ctest --test-dir "$WORK/example" -j3 --output-on-failure --timeout 300 || return 1
  [ "$(ctest --test-dir "$WORK/example" -N | sed -n 's/^Total Tests: //p')" = 5 ] || { echo "expected 5 tests" >&2; return 1; }
  local merged="$WORK/example/a2a-conform/ref-agent-stdio/merged"
  for f in report.html report.json junit.xml; do
    [ -s "$merged/$f" ] || { echo "no merged $f" >&2; return 1; }
  done
  grep -q '"exit_code": 0' "$merged/report.json" || { echo "merged report is not conformant" >&2; return 1; }
}

debian_package() {
  (cd "$BUILD_DIR" && cpack -G DEB >"$WORK/cpack.log" 2>&1) || { cat "$WORK/cpack.log"; return 1; }
  local deb
  deb="$(ls "$BUILD_DIR"/a2a-conform_*_amd64.deb | head -1)"
  [ -f "$deb" ] || { echo "cpack wrote no a2a-conform_*_amd64.deb" >&2; return 1; }
  echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB), depends: $(dpkg-deb -f "$deb" Depends)"
  # A stale install of the same version would be kept by apt: remove it first.
  if dpkg-query -W -f='${Status}' a2a-conform 2>/dev/null | grep -q "install ok installed"; then
    apt-get remove -y -q a2a-conform >/dev/null
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >"$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log"; return 1; }
  local rc=0
  # From an empty folder, so the suites come from /usr/share/a2a-conform.
  mkdir -p "$WORK/elsewhere"
  (cd "$WORK/elsewhere" && /usr/bin/a2a-conform run --agent /usr/bin/a2a-ref-agent --id 'STDIO-LIFE-*' \
      --id 'A2A-CORE-00*' -j2 -q --color never --report-dir out) || rc=$?
  [ "$rc" = 0 ] && [ -s "$WORK/elsewhere/out/report.html" ] || { echo "installed run failed (exit $rc)" >&2; rc=1; }
  apt-get remove -y -q a2a-conform >/dev/null || rc=1
  return $rc
}

check "cmake --install" install_tree
check "examples/cmake-ctest against the installed tree" cmake_example
if [ "${A2A_SKIP_DEB:-0}" = 1 ]; then
  echo "--- package: .deb skipped (A2A_SKIP_DEB=1)"
elif [ "$(id -u)" != 0 ]; then
  echo "--- package: .deb skipped (apt-get install needs root)"
else
  check ".deb builds, installs and runs" debian_package
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
