#!/usr/bin/env bash
# Installs every Debian package the build, the tests and the reports need
# (clang, its sanitizer/libFuzzer runtimes and llvm-symbolizer: the sanitizer
# and fuzzing passes, docs/sanitizers.md and docs/fuzzing.md; chromium and
# cmark-gfm: the render and GitHub-Markdown checks of the reports, docs/reports.md;
# libjemalloc2: a2a-ref-agent's allocator when present, docs/performance.md "HTTP";
# libnghttp2-dev: a2a-ref-agent's own gRPC server, docs/grpc.md).
# Safe to run again; needs root (or sudo). Only Debian's archive is used.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
PKGS=(
  build-essential cmake ninja-build pkg-config git
  libboost1.81-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev googletest
  libssl-dev
  libjemalloc2
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
  libnghttp2-dev
  clang libclang-rt-14-dev llvm-14
  chromium cmark-gfm
  curl
)
missing=()
# Node.js and npm run the interop partners built on the official A2A JavaScript
# SDK (tests/interop/js). A machine may already have them from another
# packaging (nodesource's nodejs bundles npm); only missing commands are installed.
command -v node >/dev/null 2>&1 || PKGS+=(nodejs)
command -v npm >/dev/null 2>&1 || PKGS+=(npm)
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
