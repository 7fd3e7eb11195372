#!/usr/bin/env bash
# Browser demo: builds the web package, starts the bundled demo MCP server (demo/server.py)
# and serves the repo root.
#
#   scripts/demo.sh                                  # then open http://localhost:8080/www/
#   DEMO_PORT=9000 DEMO_MCP_PORT=9001 scripts/demo.sh
#
# Page query parameters: ?url=<mcp url>&mode=auto|legacy|2026-07-28&autoconnect=1&call=echo
# Ctrl-C stops the static server and the demo MCP server.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${DEMO_PORT:-8080}"
MCP_PORT="${DEMO_MCP_PORT:-8081}"   # www/js/main.js defaults to http://127.0.0.1:8081/mcp
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
say() { printf '\033[1m[demo]\033[0m %s\n' "$*"; }
http_code() { curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" 2>/dev/null || true; }

SERVER_PID=""
MCP_PID=""
cleanup() {
  trap - EXIT INT TERM
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    say "stopping the static server (pid $SERVER_PID)"
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ -n "$MCP_PID" ]] && kill -0 "$MCP_PID" 2>/dev/null; then
    say "stopping the demo MCP server (pid $MCP_PID)"
    kill "$MCP_PID" 2>/dev/null || true
    wait "$MCP_PID" 2>/dev/null || true
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
if [[ "$(http_code "http://127.0.0.1:$MCP_PORT/")" != "000" ]]; then
  echo "ERROR: port $MCP_PORT is already in use; stop that process or set DEMO_MCP_PORT" >&2
  exit 1
fi

say "building the web package (wasm-pack, ~40 s)"
(cd "$ROOT" && wasm-pack build --mode no-install --release --target web --out-dir pkg/web)

say "starting the demo MCP server (demo/server.py) on http://127.0.0.1:$MCP_PORT/mcp"
python3 "$ROOT/demo/server.py" "$MCP_PORT" &
MCP_PID=$!
for _ in $(seq 1 100); do
  [[ "$(http_code "http://127.0.0.1:$MCP_PORT/connect")" == "200" ]] && break
  kill -0 "$MCP_PID" 2>/dev/null || { echo "ERROR: the demo MCP server exited" >&2; exit 1; }
  sleep 0.1
done

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

QUERY=""
[[ "$MCP_PORT" != "8081" ]] && QUERY="url=http://127.0.0.1:$MCP_PORT/mcp&"
echo
say "Open http://localhost:$PORT/www/${QUERY:+?${QUERY%&}}"
say "  auto-connect and call echo: http://localhost:$PORT/www/?${QUERY}autoconnect=1&call=echo"
say "Press Ctrl-C to stop."
wait "$SERVER_PID"
