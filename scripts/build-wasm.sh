#!/usr/bin/env bash
# The one release build of the package's wasm: every place that makes a package (test.sh's build
# stage, package.sh, demo.sh) calls this, so the package the tests run is the package that ships.
#
# It builds with a pinned nightly (RELEASE_TOOLCHAIN below; scripts/setup.sh installs it with
# rust-src) so that std itself is rebuilt for size: -Z build-std with optimize_for_size, and
# -Cpanic=immediate-abort (a panic traps at once: no formatting machinery, no panic strings);
# -Zinline-mir=no leaves inlining to LLVM's size heuristics (MIR inlining copied bodies: −1.6 KB).
# Measured on the web package (wasm + JS glue, gzip -9): 268,351 B with stable → 246,645 B.
# RELEASE_STABLE=1 builds with the stable toolchain instead (for comparing; never shipped).
#
# Usage: bash scripts/build-wasm.sh TARGET OUT_DIR     (TARGET: nodejs | web | bundler)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/toolchain.env
. "$ROOT/scripts/toolchain.env"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
target="$1" out="$2"
cd "$ROOT"
if [ "${RELEASE_STABLE:-0}" = 1 ]; then
  exec wasm-pack build --mode no-install --release --target "$target" --out-dir "$out" .
fi
# A separate target dir: std built by build-std must not mix with the stable artifacts.
export CARGO_TARGET_DIR="$ROOT/target/release-nightly"
export RUSTUP_TOOLCHAIN="$RELEASE_TOOLCHAIN"
export RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zinline-mir=no"
exec wasm-pack build --mode no-install --release --target "$target" --out-dir "$out" . -- \
  -Z build-std=std,panic_abort -Z build-std-features=optimize_for_size
