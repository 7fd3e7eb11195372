#!/usr/bin/env bash
# Browser demo: builds the web package, starts the bundled demo MCP server (demo/server.py)
# and serves the repo root.
#
#   scripts/demo.sh                                  # then open http://localhost:8080/www/
#   DEMO_PORT=9000 DEMO_MCP_PORT=9001 scripts/demo.sh
#
#   DEMO_OAUTH=1 scripts/demo.sh                     # the demo server behind OAuth (see below)
#   DEMO_DPOP=1 scripts/demo.sh                      # the same with DPoP-bound tokens (implies DEMO_OAUTH=1)
#
# Several servers as one ClientGroup: type "name=url name=url …" into the URL field (or ?url=…);
# the sidebar lists each server with its status, forms and dialogs name the server that asked.
# Page query parameters: ?url=<mcp url>&mode=auto|legacy|2026-07-28&autoconnect=1&call=echo
#   &auth=popup|redirect (ticks "Sign in"), &dpop=1 (ticks "DPoP"), &asproxy=<prefix> (auth.fetch through a proxy route)
#
# DEMO_OAUTH=1 starts `demo/server.py <port> --oauth --as-port $DEMO_AS_PORT` (default 8082):
# /mcp then answers 401 until the client has a token from the authorization server at
# http://127.0.0.1:$DEMO_AS_PORT (RFC 9728 PRM on the MCP origin, RFC 8414 metadata, dynamic
# registration, PKCE S256, refresh tokens, iss on the callback). Its consent page is not
# auto-approved: the user clicks Approve in the popup. Scopes mcp:read (every tool) and
# mcp:write (the extra `write_note` tool; without it the server answers 403
# insufficient_scope, so the client steps up). DEMO_TOKEN_TTL sets the access-token lifetime
# in seconds (default 3600). DEMO_DPOP=1 adds --dpop (DEMO_DPOP=nonce: --dpop-nonce): the
# page's "DPoP" box then gets DPoP-bound tokens. The same AS + RS serve the `oauth` test peer
# (tests/peers/oauth_server.py, tests/peers/README.md).
# Ctrl-C stops the static server and the demo MCP server.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${DEMO_PORT:-8080}"
MCP_PORT="${DEMO_MCP_PORT:-8081}"   # www/js/main.js defaults to http://127.0.0.1:8081/mcp
# The MCP Apps sandbox proxy (pkg-template/mcp-app-sandbox.html) must come from another origin than
# the page: the repository root is served a second time on this port (www/js/apps.js defaults to 8083).
SANDBOX_PORT="${DEMO_SANDBOX_PORT:-8083}"
OAUTH="${DEMO_OAUTH:-0}"
DPOP="${DEMO_DPOP:-0}"
DPOP_FLAGS=()
case "$DPOP" in
  0|"") ;;
  nonce) OAUTH=1; DPOP_FLAGS=(--dpop-nonce) ;;
  *) OAUTH=1; DPOP_FLAGS=(--dpop) ;;
esac
AS_PORT="${DEMO_AS_PORT:-8082}"
TOKEN_TTL="${DEMO_TOKEN_TTL:-3600}"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
say() { printf '\033[1m[demo]\033[0m %s\n' "$*"; }
http_code() { curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" 2>/dev/null || true; }

SERVER_PID=""
SANDBOX_PID=""
MCP_PID=""
cleanup() {
  trap - EXIT INT TERM
  if [[ -n "$SANDBOX_PID" ]] && kill -0 "$SANDBOX_PID" 2>/dev/null; then
    say "stopping the sandbox static server (pid $SANDBOX_PID)"
    kill "$SANDBOX_PID" 2>/dev/null || true
    wait "$SANDBOX_PID" 2>/dev/null || true
  fi
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
if [[ "$(http_code "http://127.0.0.1:$SANDBOX_PORT/")" != "000" ]]; then
  echo "ERROR: port $SANDBOX_PORT is already in use; stop that process or set DEMO_SANDBOX_PORT" >&2
  exit 1
fi
if [[ "$OAUTH" == "1" && "$(http_code "http://127.0.0.1:$AS_PORT/")" != "000" ]]; then
  echo "ERROR: port $AS_PORT is already in use; stop that process or set DEMO_AS_PORT" >&2
  exit 1
fi

say "building the npm package into pkg/npm (scripts/package.sh: the web and nodejs builds of both modules, ~5 min the first time)"
bash "$ROOT/scripts/package.sh" >/dev/null

if [[ "$OAUTH" == "1" ]]; then
  say "starting the demo MCP server (demo/server.py --oauth) on http://127.0.0.1:$MCP_PORT/mcp, authorization server http://127.0.0.1:$AS_PORT"
  python3 "$ROOT/demo/server.py" "$MCP_PORT" --oauth --as-port "$AS_PORT" --token-ttl "$TOKEN_TTL" ${DPOP_FLAGS[@]+"${DPOP_FLAGS[@]}"} &
else
  say "starting the demo MCP server (demo/server.py) on http://127.0.0.1:$MCP_PORT/mcp"
  python3 "$ROOT/demo/server.py" "$MCP_PORT" &
fi
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
say "serving the MCP Apps sandbox proxy on http://127.0.0.1:$SANDBOX_PORT/ (another origin)"
python3 -m http.server --bind 127.0.0.1 --directory "$ROOT" "$SANDBOX_PORT" >/dev/null 2>&1 &
SANDBOX_PID=$!
wasm_type="$(curl -s -o /dev/null -m 2 -w '%{content_type}' "http://127.0.0.1:$PORT/pkg/npm/dist/mcp_wasm_client_lean_bg.wasm" || true)"
if [[ "$wasm_type" != "application/wasm" ]]; then
  echo "WARNING: .wasm is served as '$wasm_type', not application/wasm; the page may fail to load" >&2
fi

QUERY=""
[[ "$MCP_PORT" != "8081" ]] && QUERY="url=http://127.0.0.1:$MCP_PORT/mcp&"
[[ "$SANDBOX_PORT" != "8083" ]] && QUERY+="sandbox=http://localhost:$SANDBOX_PORT/pkg-template/mcp-app-sandbox.html&"
echo
say "Open http://localhost:$PORT/www/${QUERY:+?${QUERY%&}}"
say "  auto-connect and call echo: http://localhost:$PORT/www/?${QUERY}autoconnect=1&call=echo"
if [[ "$OAUTH" == "1" ]]; then
  say "OAuth: authorization server http://127.0.0.1:$AS_PORT (consent page: click Approve in the popup)"
  say "  sign in with a popup:   http://localhost:$PORT/www/?${QUERY}auth=popup"
  say "  sign in by redirecting: http://localhost:$PORT/www/?${QUERY}auth=redirect"
  if [[ ${#DPOP_FLAGS[@]} -gt 0 ]]; then say "  with DPoP:              http://localhost:$PORT/www/?${QUERY}auth=popup&dpop=1"; fi
fi
say "Press Ctrl-C to stop."
wait "$SERVER_PID"
