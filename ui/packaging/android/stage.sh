#!/usr/bin/env bash
# Copy the packages python-for-android needs into build/src, with the entry point main.py.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$here/build/src"
rm -rf "$out"
mkdir -p "$out"
for pkg in companion vision calibration firmware_bridge ui; do
  rsync -a --exclude '__pycache__' --exclude 'packaging' "$root/$pkg" "$out/"
done
mkdir -p "$out/docs"   # the rules reference shows the readings of docs/assumptions.md
cp "$root/docs/assumptions.md" "$out/docs/"
cp "$here/main.py" "$out/main.py"
echo "staged into $out"
