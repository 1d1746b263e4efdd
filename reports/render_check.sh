#!/usr/bin/env bash
# Renders an HTML report in headless Chromium and checks that a real page came
# out: usage: render_check.sh REPORT.html OUT.png [MIN_BYTES [TEXT=COUNT ...]]
# Exits 0 when OUT.png is a PNG of at least MIN_BYTES (default 20000: a blank
# 1280x2000 page compresses to a few KB) and, for each TEXT=COUNT (one line), the DOM
# Chromium built from the page (--dump-dom, after parsing and the inline
# script) holds TEXT exactly COUNT times: markup the parser had to repair (a
# table row outside its table, an unclosed element) shows as a wrong count.
# 1 when a check fails, 2 on usage errors or when no Chromium is installed.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 REPORT.html OUT.png [MIN_BYTES]" >&2
  exit 2
fi
html=$(realpath -- "$1")
out=$2
min_bytes=${3:-20000}
shift $(( $# < 3 ? $# : 3 ))
expects=("$@")
[[ -f "$html" ]] || { echo "render_check: no such file: $1" >&2; exit 2; }

browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
[[ -n "$browser" ]] || { echo "render_check: chromium not installed (apt-get install chromium)" >&2; exit 2; }

profile=$(mktemp -d)
trap 'rm -rf -- "$profile"' EXIT
rm -f -- "$out"
out_abs=$(realpath -m -- "$out")

# The flags keep Chromium off the network (the report must not need it) and
# quiet; --no-sandbox because CI containers run as root.
timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$profile" \
  --screenshot="$out_abs" --window-size=1280,2000 "file://$html" >"$profile/log" 2>&1 || {
  echo "render_check: $browser failed:" >&2
  tail -n 20 "$profile/log" >&2
  exit 1
}

if [[ ! -f "$out_abs" ]]; then
  echo "render_check: no screenshot written to $out" >&2
  tail -n 20 "$profile/log" >&2
  exit 1
fi
size=$(stat -c %s -- "$out_abs")
signature=$(head -c 8 -- "$out_abs" | od -An -tx1 | tr -d ' \n')
if [[ "$signature" != "89504e470d0a1a0a" ]]; then
  echo "render_check: $out is not a PNG" >&2
  exit 1
fi
if (( size < min_bytes )); then
  echo "render_check: $out is only $size bytes (< $min_bytes): blank page?" >&2
  exit 1
fi
echo "render_check: $out ($size bytes)"

if (( ${#expects[@]} > 0 )); then
  dom="$profile/dom.html"
  timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-dev-shm-usage --user-data-dir="$profile" --dump-dom "file://$html" >"$dom" 2>"$profile/log" || {
    echo "render_check: $browser --dump-dom failed:" >&2
    tail -n 20 "$profile/log" >&2
    exit 1
  }
  status=0
  for e in "${expects[@]}"; do
    text=${e%=*}
    want=${e##*=}
    got=$(grep -oF -- "$text" "$dom" | wc -l)
    if [[ "$got" != "$want" ]]; then
      echo "render_check: the rendered DOM has '$text' $got times, expected $want" >&2
      status=1
    else
      echo "render_check: DOM has '$text' $got times"
    fi
  done
  exit "$status"
fi
