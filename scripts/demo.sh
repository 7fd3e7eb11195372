#!/usr/bin/env bash
# Browser demo: builds the web package, starts the MCP test peers and serves the repo root.
#
#   scripts/demo.sh                 # then open http://localhost:8080/www/
#   DEMO_PORT=9000 scripts/demo.sh
#
# Page query parameters: ?url=<mcp url>&mode=auto|legacy|2026-07-28&autoconnect=1&call=echo
# Ctrl-C stops the static server and the peers.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${DEMO_PORT:-8080}"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
say() { printf '\033[1m[demo]\033[0m %s\n' "$*"; }
http_code() { curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" 2>/dev/null || true; }

SERVER_PID=""
PEERS_STARTED=0
cleanup() {
  trap - EXIT INT TERM
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    say "stopping the static server (pid $SERVER_PID)"
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if ((PEERS_STARTED)); then
    say "stopping the peers"
    "$ROOT/tests/peers/peers.sh" stop || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$ROOT/scripts/setup.sh"

if [[ "$(http_code "http://127.0.0.1:$PORT/")" != "000" ]]; then
  echo "ERROR: port $PORT is already in use; stop that process or set DEMO_PORT" >&2
  exit 1
fi

say "building the web package (wasm-pack, ~40 s)"
(cd "$ROOT" && wasm-pack build --mode no-install --release --target web --out-dir pkg/web)

say "starting the MCP test peers"
PEERS_STARTED=1
"$ROOT/tests/peers/peers.sh" start

say "serving $ROOT on http://127.0.0.1:$PORT/"
# Python's mimetypes maps .wasm to application/wasm, which WebAssembly.instantiateStreaming needs.
python3 -m http.server --bind 127.0.0.1 --directory "$ROOT" "$PORT" >/dev/null 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 50); do
  [[ "$(http_code "http://127.0.0.1:$PORT/www/")" == "200" ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "ERROR: the static server exited" >&2; exit 1; }
  sleep 0.1
done
wasm_type="$(curl -s -o /dev/null -m 2 -w '%{content_type}' "http://127.0.0.1:$PORT/pkg/web/mcp_wasm_client_bg.wasm" || true)"
if [[ "$wasm_type" != "application/wasm" ]]; then
  echo "WARNING: .wasm is served as '$wasm_type', not application/wasm; the page may fail to load" >&2
fi

echo
say "Open http://localhost:$PORT/www/"
say "  auto-connect and call echo: http://localhost:$PORT/www/?autoconnect=1&call=echo"
say "Press Ctrl-C to stop."
wait "$SERVER_PID"
