#!/usr/bin/env bash
# Run @modelcontextprotocol/server-everything in Streamable HTTP mode on 127.0.0.1:<port>/mcp.
# Usage: ./everything.sh [port]      (default $PORT or 18103)
# The package has no host option; listen-localhost.cjs pins its listen() to 127.0.0.1.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
port="${1:-${PORT:-18103}}"
entry="$here/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
[[ -f "$entry" ]] || { echo "missing $entry (run npm ci in $here)" >&2; exit 1; }
export PORT="$port"
exec node -r "$here/listen-localhost.cjs" "$entry" streamableHttp
