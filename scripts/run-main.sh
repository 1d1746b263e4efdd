#!/usr/bin/env bash
# README command (a): installs dependencies, builds, and runs the main job:
# a2a-conform against the reference agent over stdio (profile p46), every
# suite under suites/, reports in out/ (report.html, report.json, junit.xml,
# the ACTS report). Exits with the runner's exit code.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR="${BUILD_DIR:-build}"
OUT="${OUT:-out}"
set +e
"$BUILD_DIR/bin/a2a-conform" run --agent "$BUILD_DIR/bin/a2a-ref-agent" --profile p46 -j2 \
  --report-dir "$OUT" suites/
rc=$?
set -e
echo "reports: $OUT/report.html $OUT/report.json $OUT/junit.xml"
exit $rc
