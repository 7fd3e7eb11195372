#!/usr/bin/env bash
# Start/stop the loopback MCP test peers.
#
#   tests/peers/peers.sh start    # (re)start all peers, wait until each answers, print URLs
#   tests/peers/peers.sh stop     # stop all peers (safe to call repeatedly)
#   tests/peers/peers.sh status   # show pid / liveness / URL per peer
#
# Ports (override via env):  PEERS_PYTHON_PORT=18101  PEERS_TS_PORT=18102
#                            PEERS_EVERYTHING_PORT=18103  PEERS_MISBEHAVE_PORT=18104
#                            PEERS_PYTHON_SSE_PORT=18105 (deprecated HTTP+SSE transport, URL /sse)
#                            PEERS_OAUTH_PORT=18106 (OAuth-protected MCP, URL /mcp; its authorization
#                            server on PEERS_OAUTH_AS_PORT=18107, access tokens live
#                            PEERS_OAUTH_TOKEN_TTL=3 seconds, /authorize auto-approves)
# Other env: PEERS_PYTHON (python interpreter, default python3), PEERS_WAIT_SECONDS (default 30).
# Logs and PID files live in tests/peers/.run/ (git-ignored). Installs nothing, except
# `npm ci` in tests/peers when node_modules is missing. Python needs `mcp>=2` + uvicorn already.
set -uo pipefail
trap "" PIPE   # keep going (and finish starting/stopping) even if stdout is a closed pipe

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN="${PEERS_RUN_DIR:-$HERE/.run}"
PY="${PEERS_PYTHON:-python3}"
WAIT="${PEERS_WAIT_SECONDS:-30}"

PYTHON_PORT="${PEERS_PYTHON_PORT:-18101}"
TS_PORT="${PEERS_TS_PORT:-18102}"
EVERYTHING_PORT="${PEERS_EVERYTHING_PORT:-18103}"
MISBEHAVE_PORT="${PEERS_MISBEHAVE_PORT:-18104}"
PYTHON_SSE_PORT="${PEERS_PYTHON_SSE_PORT:-18105}"
OAUTH_PORT="${PEERS_OAUTH_PORT:-18106}"
OAUTH_AS_PORT="${PEERS_OAUTH_AS_PORT:-18107}"
OAUTH_TOKEN_TTL="${PEERS_OAUTH_TOKEN_TTL:-3}"

PEERS=(python ts everything misbehave python-sse oauth)

port_of() {
  case "$1" in
    python) echo "$PYTHON_PORT" ;; ts) echo "$TS_PORT" ;;
    everything) echo "$EVERYTHING_PORT" ;; misbehave) echo "$MISBEHAVE_PORT" ;;
    python-sse) echo "$PYTHON_SSE_PORT" ;; oauth) echo "$OAUTH_PORT" ;;
  esac
}
url_of() {
  local p; p="$(port_of "$1")"
  case "$1" in
    misbehave) echo "http://127.0.0.1:$p/<fault>/mcp   (index: http://127.0.0.1:$p/)" ;;
    python-sse) echo "http://127.0.0.1:$p/sse   (HTTP+SSE 2024-11-05; POSTs go to /messages/?session_id=...)" ;;
    oauth) echo "http://127.0.0.1:$p/mcp   (OAuth; AS http://127.0.0.1:$OAUTH_AS_PORT, token TTL ${OAUTH_TOKEN_TTL}s)" ;;
    *) echo "http://127.0.0.1:$p/mcp" ;;
  esac
}
probe_url() {
  local p; p="$(port_of "$1")"
  case "$1" in misbehave) echo "http://127.0.0.1:$p/" ;; python-sse) echo "http://127.0.0.1:$p/sse" ;; *) echo "http://127.0.0.1:$p/mcp" ;; esac
}
# Any HTTP answer (even 400/401/405/406; oauth's /mcp answers 401) means "up"; 000 means nothing is listening.
# A GET on python-sse's /sse would be an endless SSE stream, so that peer is probed with POST (405).
http_code() {
  local method=GET
  [[ "$1" == */sse ]] && method=POST
  curl -s -o /dev/null -m 2 -X "$method" -w '%{http_code}' "$1" 2>/dev/null || true
}

launch() {
  local name="$1" port; port="$(port_of "$name")"
  local log="$RUN/$name.log"
  : >"$log"
  cd "$HERE" || return 1
  # setsid: each peer leads its own process group, so stop can kill it with its children.
  case "$name" in
    python) setsid "$PY" "$HERE/python_server.py" "$port" >"$log" 2>&1 </dev/null & ;;
    ts) setsid node "$HERE/ts_server.mjs" "$port" >"$log" 2>&1 </dev/null & ;;
    everything) PORT="$port" setsid "$HERE/everything.sh" "$port" >"$log" 2>&1 </dev/null & ;;
    misbehave) setsid node "$HERE/misbehave.mjs" "$port" >"$log" 2>&1 </dev/null & ;;
    python-sse) setsid "$PY" "$HERE/python_sse_server.py" "$port" >"$log" 2>&1 </dev/null & ;;
    # The AS listens before the RS starts, so the RS answering (401) means both are up.
    oauth) setsid "$PY" "$HERE/oauth_server.py" --port "$port" --as-port "$OAUTH_AS_PORT" \
      --auto-approve --token-ttl "$OAUTH_TOKEN_TTL" >"$log" 2>&1 </dev/null & ;;
  esac
  echo $! >"$RUN/$name.pid"
}

alive() { [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null; }

wait_up() {
  local name="$1" pid url deadline
  pid="$(cat "$RUN/$name.pid")"; url="$(probe_url "$name")"
  deadline=$((SECONDS + WAIT))
  while ((SECONDS < deadline)); do
    if ! alive "$pid"; then
      echo "ERROR: $name (pid $pid) exited during startup. Log tail ($RUN/$name.log):" >&2
      tail -n 30 "$RUN/$name.log" >&2
      return 1
    fi
    [[ "$(http_code "$url")" != "000" ]] && return 0
    sleep 0.3
  done
  echo "ERROR: $name did not answer on $url within ${WAIT}s. Log tail ($RUN/$name.log):" >&2
  tail -n 30 "$RUN/$name.log" >&2
  return 1
}

stop_one() {
  local name="$1" pidf="$RUN/$1.pid" pid
  [[ -f "$pidf" ]] || return 0
  pid="$(cat "$pidf" 2>/dev/null)"
  if alive "$pid"; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
      sleep 0.2
    fi
    echo "stopped $name (pid $pid)"
  fi
  rm -f "$pidf"
}

cmd_stop() {
  local n
  for n in "${PEERS[@]}"; do stop_one "$n"; done
  return 0
}

cmd_start() {
  mkdir -p "$RUN"
  cmd_stop
  if [[ ! -d "$HERE/node_modules/@modelcontextprotocol/sdk" || ! -d "$HERE/node_modules/@modelcontextprotocol/server-everything" ]]; then
    echo "node_modules missing: running npm ci in $HERE"
    (cd "$HERE" && npm ci --no-audit --no-fund) || { echo "ERROR: npm ci failed" >&2; return 1; }
  fi
  if ! "$PY" -c 'import mcp.server, uvicorn; from mcp.server import MCPServer' 2>/dev/null; then
    echo "ERROR: $PY cannot import mcp 2.x (MCPServer) + uvicorn; install them first: pip install 'mcp>=2' uvicorn" >&2
    return 1
  fi
  local n failed=0
  for n in "${PEERS[@]}"; do
    if [[ "$(http_code "$(probe_url "$n")")" != "000" ]]; then
      echo "ERROR: port $(port_of "$n") for $n is already in use by another process" >&2
      failed=1
    fi
  done
  if [[ "$(http_code "http://127.0.0.1:$OAUTH_AS_PORT/")" != "000" ]]; then
    echo "ERROR: port $OAUTH_AS_PORT for the oauth peer's authorization server is already in use by another process" >&2
    failed=1
  fi
  ((failed)) && return 1
  for n in "${PEERS[@]}"; do launch "$n"; done
  for n in "${PEERS[@]}"; do wait_up "$n" || failed=1; done
  if ((failed)); then
    cmd_stop >/dev/null
    return 1
  fi
  echo "MCP test peers are up:"
  for n in "${PEERS[@]}"; do printf '  %-10s %s  (pid %s)\n' "$n" "$(url_of "$n")" "$(cat "$RUN/$n.pid")"; done
}

cmd_status() {
  local n pid code rc=0
  for n in "${PEERS[@]}"; do
    pid="$(cat "$RUN/$n.pid" 2>/dev/null || true)"
    if alive "$pid"; then
      code="$(http_code "$(probe_url "$n")")"
      printf '  %-10s running  pid %-7s http %s  %s\n' "$n" "$pid" "$code" "$(url_of "$n")"
      [[ "$code" == "000" ]] && rc=1
    else
      printf '  %-10s stopped\n' "$n"
      rc=1
    fi
  done
  return $rc
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  restart) cmd_start ;;
  status) cmd_status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
