#!/usr/bin/env bash
# README command (b): installs dependencies, builds, runs every test.
# Ends with ctest's summary line ("100% tests passed, 0 tests failed out of N").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
# The interop tests run partners built on the official A2A JavaScript SDK.
bash scripts/interop-setup.sh
BUILD_DIR="${BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" -j"${JOBS:-2}" --output-on-failure --timeout 300
