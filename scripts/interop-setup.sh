#!/usr/bin/env bash
# Installs the JavaScript interop partners' dependencies (tests/interop/js: the official
# A2A JavaScript SDK and express, pinned by package-lock.json) from the npm registry.
# Idempotent: runs `npm ci` only when node_modules is missing or older than the lock file.
# Needs node (>= 20) and npm: scripts/install-deps.sh installs Debian's nodejs and npm.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="$ROOT/tests/interop/js"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "interop-setup: '$tool' not found; install Node.js >= 20 and npm (scripts/install-deps.sh does)" >&2
    exit 1
  fi
done
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
  echo "interop-setup: node $(node --version) is too old; @a2a-js/sdk needs node >= 20" >&2
  exit 1
fi

stamp="$DIR/node_modules/.package-lock.json"  # npm rewrites it on every install
if [ -f "$stamp" ] && [ ! "$DIR/package-lock.json" -nt "$stamp" ]; then
  echo "interop-setup: $DIR/node_modules is up to date"
  exit 0
fi
echo "interop-setup: npm ci in $DIR"
cd "$DIR"
timeout 600 npm ci --no-audit --no-fund
touch "$stamp"
