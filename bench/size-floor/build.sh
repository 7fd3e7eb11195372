#!/usr/bin/env bash
# Builds the size floor (src/lib.rs: one async method — a gloo-net POST, text(), an SSE line
# parser, the host's JSON.parse; no JSON code in the wasm) exactly as
# scripts/build-wasm.sh builds the shipped package (pinned nightly, build-std, immediate-abort,
# opt-level z, LTO, wasm-bindgen, wasm-opt -Oz with the same flags), then prints the web package's
# size (gzip -9). It is what any client on this dependency stack costs before it does anything
# MCP-specific.   Usage: bash bench/size-floor/build.sh [OUT_DIR]   (needs scripts/setup.sh first)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
. "$ROOT/scripts/toolchain.env"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
out="${1:-/tmp/size-floor-pkg}"; T="$ROOT/target/size-floor"
cd "$HERE"
CARGO_TARGET_DIR="$T" RUSTUP_TOOLCHAIN="$RELEASE_TOOLCHAIN" \
  RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zinline-mir=no -Zlocation-detail=none -Zcross-crate-inline-threshold=always" \
  cargo build --release --target wasm32-unknown-unknown -q \
  -Z build-std=std,panic_abort -Z build-std-features=optimize_for_size
rm -rf "$out"
wasm-bindgen --target web --out-dir "$out" "$T/wasm32-unknown-unknown/release/size_floor.wasm"
# The same wasm-opt flags as Cargo.toml's [package.metadata.wasm-pack.profile.release].
flags=$(sed -n 's/^wasm-opt = \[\(.*\)\]/\1/p' "$ROOT/Cargo.toml" | tr -d '",')
# shellcheck disable=SC2086
wasm-opt $flags "$out/size_floor_bg.wasm" -o "$out/size_floor_bg.wasm"
esbuild "$out/size_floor.js" --minify --log-level=warning --outfile="$out/size_floor.js" --allow-overwrite
w=$(gzip -9c "$out/size_floor_bg.wasm" | wc -c); g=$(gzip -9c "$out/size_floor.js" | wc -c)
echo "size floor: wasm $w + glue $g = $((w + g)) B gzip -9 (wasm raw $(stat -c %s "$out/size_floor_bg.wasm"))"
