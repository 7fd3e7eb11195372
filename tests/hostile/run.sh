#!/usr/bin/env bash
# Runs the hostile-server suite: starts tests/hostile/server.mjs (127.0.0.1 only), runs
# hostile.test.mjs against the built Node package, and stops the server by its PID; then
# auth.test.mjs (hostile authorization: its own OAuth world on an OS-assigned port).
#   MCP_PKG_NODE   the built `wasm-pack --target nodejs` package (default <repo>/pkg/nodejs)
#   HOSTILE_PORT   main server port (default 18801); HOSTILE_PORT2 the "other origin" (18802)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export HOSTILE_PORT="${HOSTILE_PORT:-18801}"
export HOSTILE_PORT2="${HOSTILE_PORT2:-18802}"
export MCP_PKG_NODE="${MCP_PKG_NODE:-$repo/pkg/nodejs}"
run_dir="${HOSTILE_RUN_DIR:-${TMPDIR:-/tmp}/mcp-hostile-$HOSTILE_PORT}"
mkdir -p "$run_dir"

node "$here/server.mjs" >"$run_dir/server.log" 2>&1 &
server_pid=$!
echo "$server_pid" >"$run_dir/server.pid"
stop() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  rm -f "$run_dir/server.pid"
}
trap stop EXIT

for _ in $(seq 1 50); do
  if curl -fsS -o /dev/null "http://127.0.0.1:$HOSTILE_PORT/_log" 2>/dev/null; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "hostile server failed to start:" >&2
    cat "$run_dir/server.log" >&2
    exit 1
  fi
  sleep 0.1
done

node --test --expose-gc --test-timeout=120000 "$@" "$here/hostile.test.mjs" "$here/auth.test.mjs"
