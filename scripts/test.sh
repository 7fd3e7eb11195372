#!/usr/bin/env bash
# Runs every test: native cargo tests, the wasm suite in Node and headless Chromium, and the JS
# tests of the built package, against the real peers (started and stopped here).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
bash scripts/setup.sh

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
summary=()

step "format and lints"
cargo fmt --all -- --check
cargo clippy --all-targets -q -- -D warnings
cargo clippy --target wasm32-unknown-unknown --all-targets -q -- -D warnings

step "native tests (cargo test)"
cargo test -q 2>&1 | tee /tmp/mcp-cargo-test.log
summary+=("cargo test: $(grep -E '^test result' /tmp/mcp-cargo-test.log | awk '{p+=$4; f+=$6} END {print p" passed, "f" failed"}')")

step "build the packages (nodejs, web, bundler)"
for target in nodejs web bundler; do
  wasm-pack build --mode no-install --release --target "$target" --out-dir "pkg/$target" >/tmp/mcp-build-$target.log 2>&1 || { cat /tmp/mcp-build-$target.log; exit 1; }
  wasm="pkg/$target/mcp_wasm_client_bg.wasm"
  summary+=("size $target: wasm $(stat -c %s "$wasm") B raw, $(gzip -9c "$wasm" | wc -c) B gzip; JS glue $(gzip -9c "pkg/$target/mcp_wasm_client.js" | wc -c) B gzip")
done

step "TypeScript declarations (tsc --noEmit --strict on a typed example)"
(cd tests/types && npx --no-install tsc --noEmit -p .)
summary+=("types: tsc --strict on tests/types/example.ts: ok")

step "start the peers"
hostile_pid=""
trap 'bash tests/peers/peers.sh stop >/dev/null 2>&1 || true; [ -n "$hostile_pid" ] && kill "$hostile_pid" 2>/dev/null || true' EXIT
bash tests/peers/peers.sh start
# The hostile server's faults, for the wasm suite (the Node hostile suite starts its own later).
export HOSTILE_PORT=18811
HOSTILE_PORT2=18812 node tests/hostile/server.mjs >/tmp/mcp-hostile-wasm.log 2>&1 &
hostile_pid=$!
for _ in $(seq 1 50); do curl -fsS -o /dev/null "http://127.0.0.1:$HOSTILE_PORT/_log" 2>/dev/null && break; sleep 0.2; done

step "wasm tests in Node (wasm-pack test --node)"
wasm-pack test --node --mode no-install -- --test wasm 2>&1 | tee /tmp/mcp-wasm-node.log
summary+=("wasm node: $(grep -E '^test result' /tmp/mcp-wasm-node.log | tail -1)")

step "wasm tests in headless Chromium (wasm-pack test --headless --chrome)"
# tests/wasm.rs has no run_in_browser: WASM_BINDGEN_USE_BROWSER makes the runner use Chromium.
WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --chrome --chromedriver "$(command -v chromedriver)" --mode no-install -- --test wasm 2>&1 | tee /tmp/mcp-wasm-chrome.log
summary+=("wasm chromium: $(grep -E '^test result' /tmp/mcp-wasm-chrome.log | tail -1)")

step "JS tests of the built package (node --test)"
node --expose-gc --test --test-reporter=spec tests/js/ 2>&1 | tee /tmp/mcp-js.log
summary+=("js: $(grep -E '^ℹ (pass|fail) ' /tmp/mcp-js.log | tr '\n' ' ')")

step "hostile-server suite"
HOSTILE_PORT=18801 MCP_PKG_NODE="$ROOT/pkg/nodejs" bash tests/hostile/run.sh 2>&1 | tee /tmp/mcp-hostile.log
summary+=("hostile: $(grep -E '^(ℹ|#) (pass|fail) ' /tmp/mcp-hostile.log | tr '\n' ' ')")

step "benchmark smoke (bench/run.mjs --quick, no criterion)"
(cd bench && BENCH_PKG_NODE="$ROOT/pkg/nodejs" BENCH_PKG_WEB="$ROOT/pkg/web" \
  BENCH_PYTHON_URL="http://127.0.0.1:${PEERS_PYTHON_PORT:-18101}/mcp" node run.mjs --quick --no-criterion) 2>&1 | tail -n 25

step "demo end to end in Chromium (Playwright)"
(cd tests/e2e && node run.mjs) 2>&1 | tee /tmp/mcp-e2e.log
summary+=("e2e: $(grep -E '^e2e: ' /tmp/mcp-e2e.log | tail -1)")

step "npm packaging matrix (packed tarball: Node ESM/CJS, Deno, Vite, webpack, workers, plain modules)"
bash tests/packaging/run.sh 2>&1 | tee /tmp/mcp-packaging.log
summary+=("$(grep -E '^packaging: ' /tmp/mcp-packaging.log | tail -1)")

step "summary"
printf '%s\n' "${summary[@]}"
passed=$(( $(grep -E '^test result' /tmp/mcp-cargo-test.log | awk '{p+=$4} END {print p+0}') \
  + $(grep -E '^test result' /tmp/mcp-wasm-node.log | tail -1 | awk '{print $4+0}') \
  + $(grep -E '^test result' /tmp/mcp-wasm-chrome.log | tail -1 | awk '{print $4+0}') \
  + $(grep -E '^ℹ pass ' /tmp/mcp-js.log | awk '{print $3+0}') \
  + $(grep -E '^(ℹ|#) pass ' /tmp/mcp-hostile.log | awk '{print $3+0}') \
  + $(grep -E '^e2e: ' /tmp/mcp-e2e.log | tail -1 | awk '{print $2+0}') \
  + $(grep -E '^packaging: ' /tmp/mcp-packaging.log | tail -1 | awk '{print $2+0}') ))
failed=$(( $(grep -E '^test result' /tmp/mcp-cargo-test.log | awk '{f+=$6} END {print f+0}') \
  + $(grep -E '^ℹ fail ' /tmp/mcp-js.log | awk '{print $3+0}') \
  + $(grep -E '^(ℹ|#) fail ' /tmp/mcp-hostile.log | awk '{print $3+0}') \
  + $(grep -E '^e2e: ' /tmp/mcp-e2e.log | tail -1 | awk '{print $4+0}') \
  + $(grep -E '^packaging: ' /tmp/mcp-packaging.log | tail -1 | awk '{print $4+0}') ))
echo "all: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
