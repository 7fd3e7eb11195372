#!/usr/bin/env bash
# Where the bytes of the web package go: every module the npm package ships for pages (wasm and
# JS) with its gzip -9 size and what loads it (scripts/module-map.mjs, over pkg/npm or
# SIZE_REPORT_NPM, when there is one: scripts/package.sh makes it), the gzip -9 size of every
# module of ENTRY's web build, and the wasm's code by crate and by project module (twiggy, on the
# build's own names).
#
#   bash scripts/size-report.sh [ENTRY]     ENTRY: full (default) or core
#
# It builds the web package of ENTRY into a temporary folder with scripts/build-wasm.sh (the
# release build, so the figures are the shipped ones) unless SIZE_REPORT_PKG names a built one
# (e.g. pkg/web). The per-crate table reads rustc's own output of that build
# (target/release-nightly/.../mcp_wasm_client.wasm) put through wasm-bindgen again with
# --keep-debug, so the function names stay: raw bytes after wasm-bindgen and before wasm-opt,
# which ranks the parts; the gzip figures are what ships.
# With SIZE_REPORT_PKG the table is of the last build, whichever entry that was. twiggy is
# installed with cargo when missing. Nothing is written into the tree.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
entry="${1:-full}"
case "$entry" in full|core) ;; *) echo "size-report.sh: ENTRY must be full or core, not '$entry'" >&2; exit 2 ;; esac
TWIGGY_VERSION=0.8.0
if [[ "$(twiggy --version 2>/dev/null)" != "twiggy $TWIGGY_VERSION" ]]; then
  echo "[size-report] cargo install twiggy $TWIGGY_VERSION" >&2
  cargo install --locked twiggy --version "$TWIGGY_VERSION" >&2
fi

pkg="${SIZE_REPORT_PKG:-}"
if [ -z "$pkg" ]; then
  pkg="$(mktemp -d)/web-$entry"
  echo "[size-report] building the $entry web package into $pkg" >&2
  bash "$ROOT/scripts/build-wasm.sh" web "$pkg" "$entry" >"$pkg.log" 2>&1 \
    || { cat "$pkg.log" >&2; exit 1; }
fi
raw="$ROOT/target/release-nightly/wasm32-unknown-unknown/release/mcp_wasm_client.wasm"
[ -f "$pkg/mcp_wasm_client_bg.wasm" ] || { echo "size-report.sh: no package in $pkg" >&2; exit 1; }

gz() { gzip -9c "$1" | wc -c; }
npm_pkg="${SIZE_REPORT_NPM:-$ROOT/pkg/npm}"
if [ -f "$npm_pkg/package.json" ]; then
  node "$ROOT/scripts/module-map.mjs" "$npm_pkg"
  echo
fi
echo "== shipped modules of the $entry web package (gzip -9, bytes) =="
total=0
while IFS= read -r f; do
  size=$(gz "$f"); total=$((total + size))
  printf '%9d  %s\n' "$size" "${f#"$pkg"/}"
done < <(find "$pkg" -type f \( -name '*.wasm' -o -name '*.js' \) | sort)
printf '%9d  total (wasm + glue + snippets)\n' "$total"
while IFS= read -r f; do
  printf '%9d  %s (beside the wasm: pkg-template)\n' "$(gz "$f")" "${f#"$ROOT"/pkg-template/}"
done < <(find "$ROOT/pkg-template/elements" "$ROOT/pkg-template/react" -name '*.js' | sort)

[ -f "$raw" ] || { echo "size-report.sh: rustc's module $raw is missing" >&2; exit 1; }
named="$(mktemp -d)"
wasm-bindgen --target web --keep-debug --out-dir "$named" "$raw"
twiggy top -n 1000000 --format json "$named/mcp_wasm_client_bg.wasm" >"$named/top.json"
echo
echo "== wasm code and data by crate (raw bytes after wasm-bindgen, before wasm-opt; names kept) =="
node "$ROOT/scripts/size-groups.mjs" "$named/top.json"
rm -rf "$named"
