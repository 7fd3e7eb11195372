#!/usr/bin/env bash
# Installs everything the build, the demo and the tests need, idempotently, on a fresh
# Debian 12 machine with rustup, Node 20, npm and Python 3 (only package registries reachable).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WASM_PACK_VERSION=0.15.1
GECKODRIVER_VERSION=0.37.1
# The splitter of the default web entry's lean module (scripts/build-wasm.sh, src/parts): pinned,
# with the wasm_split_helpers version in Cargo.toml.
WASM_SPLIT_VERSION=0.2.4
WASM_BINDGEN_VERSION=$(grep -A1 '^name = "wasm-bindgen"$' "$ROOT/Cargo.lock" | sed -n 's/^version = "\(.*\)"/\1/p')
export PATH="$HOME/.cargo/bin:$PATH"
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

rustup target list --installed | grep -qx wasm32-unknown-unknown || { say "rustup target wasm32"; rustup target add wasm32-unknown-unknown; }
# The release build's pinned nightly (scripts/build-wasm.sh): std is rebuilt from rust-src.
. "$ROOT/scripts/toolchain.env"
if ! rustup component list --toolchain "$RELEASE_TOOLCHAIN" --installed 2>/dev/null | grep -q '^rust-src'; then
  say "rustup toolchain $RELEASE_TOOLCHAIN with rust-src (the release wasm build)"
  rustup toolchain install "$RELEASE_TOOLCHAIN" --profile minimal --component rust-src
fi

# The downloads (apt, pip, npm) run in the background while cargo compiles (the CPU-bound part):
# on the 2-core CI machine that overlaps a few minutes. Their output is shown when they are done.
downloads() {
  # The three engines of the browser stages: Chromium, Firefox ESR and WebKitGTK (WebKitWebDriver
  # drives its MiniBrowser, which needs a display: xvfb-run).
  apt_missing=()
  command -v chromium >/dev/null || apt_missing+=(chromium)
  command -v chromedriver >/dev/null || apt_missing+=(chromium-driver)
  command -v firefox-esr >/dev/null || apt_missing+=(firefox-esr)
  command -v WebKitWebDriver >/dev/null || apt_missing+=(webkit2gtk-driver)
  command -v xvfb-run >/dev/null || apt_missing+=(xvfb xauth)
  if [ "${#apt_missing[@]}" -gt 0 ]; then
    say "apt-get install ${apt_missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${apt_missing[@]}" >/dev/null
  fi
  if ! python3 -c 'import mcp, uvicorn, cryptography, sys; from importlib.metadata import version; sys.exit(0 if version("mcp").startswith("2.") else 1)' 2>/dev/null; then
    say "pip install mcp 2.x, uvicorn, cryptography"
    python3 -m pip install -q -r "$ROOT/tests/peers/requirements.txt"
  fi

  for dir in tools tests/peers tests/js tests/ai tests/conformance tests/types tests/e2e tests/engines tests/elements tests/react tests/packaging bench; do
    if [[ -f "$ROOT/$dir/package-lock.json" ]] && [[ ! -d "$ROOT/$dir/node_modules" || "$ROOT/$dir/package-lock.json" -nt "$ROOT/$dir/node_modules/.package-lock.json" ]]; then
      say "npm ci in $dir"
      (cd "$ROOT/$dir" && npm ci --no-audit --no-fund --loglevel=error)
    fi
  done
}
downloads_log="$(mktemp -t mcp-setup-downloads.XXXXXX)"
downloads >"$downloads_log" 2>&1 &
downloads_pid=$!
downloads_done() { # waits for the downloads, shows what they printed; fails when they failed
  local status=0
  wait "$downloads_pid" || status=$?
  cat "$downloads_log"
  rm -f "$downloads_log"
  [ "$status" = 0 ] || { say "the downloads (apt, pip, npm ci) failed (exit $status; above)"; exit "$status"; }
}
trap 'kill "$downloads_pid" 2>/dev/null || true' EXIT

if [[ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack $WASM_PACK_VERSION" ]]; then
  say "cargo install wasm-pack $WASM_PACK_VERSION (~3 min)"
  cargo install --locked wasm-pack --version "$WASM_PACK_VERSION"
fi
if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  # Not --locked: the CLI's own lock names a crate version the registry no longer serves.
  say "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (~3 min)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "cargo install wasm_split_cli_support $WASM_SPLIT_VERSION (~3 min; wasm-split-cli, the lean module's splitter)"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --force
fi

if [[ "$(geckodriver --version 2>/dev/null | head -1)" != "geckodriver $GECKODRIVER_VERSION"* ]]; then
  say "cargo install geckodriver $GECKODRIVER_VERSION (~3 min; Firefox's WebDriver, not a Debian package)"
  cargo install --locked geckodriver --version "$GECKODRIVER_VERSION"
fi

downloads_done
trap - EXIT
say "ready"
