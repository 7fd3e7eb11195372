#!/usr/bin/env bash
# Runs the tests, by stage, against the real peers (started and stopped here when a stage needs
# them).
#
#   bash scripts/test.sh                every stage, in the order below
#   bash scripts/test.sh native         only `cargo test`
#   bash scripts/test.sh wasm-node js   several stages (always run in the order below)
#   bash scripts/test.sh --list         the stage names
#
# Stages (needs: peers = tests/peers/peers.sh start, pkg = pkg/{nodejs,web}, the core
# entry's pkg/{core-nodejs,core-web} and the default entry's lean module pkg/lean-web, built by the
# build stage first when missing):
#   lint         cargo fmt --check; clippy -D warnings, native and wasm32, with and without the
#                default features (the lean module's build), and with `js-transport` alone (the
#                core entry's); ESLint's recommended rules over the
#                shipped JS (src/js, pkg-template) and the demo's (www), eslint.config.mjs
#   native       cargo test
#   build        scripts/build-wasm.sh of the nodejs and web packages into pkg/, and of the
#                core entry (no `auth` feature) for nodejs and web into pkg/core-*, and of the lean
#                module (the core build without `js-transport`) for web into pkg/lean-web (prints sizes;
#                fails when the web package is over SIZE_BUDGET_BYTES or its core over
#                CORE_SIZE_BUDGET_BYTES)
#   types        tsc --strict on tests/types/example.ts and core.ts, and on every js/ts code block
#                of README.md and pkg-template/README.md (tests/types/readme.mjs)       (pkg)
#   wasm-node    tests/wasm.rs in Node (wasm-pack test --node)                       (peers)
#   wasm-chrome  tests/wasm.rs in headless Chromium                                  (peers)
#   wasm-firefox tests/wasm.rs in headless Firefox ESR (geckodriver)                 (peers)
#   wasm-webkit  tests/wasm.rs in WebKitGTK's MiniBrowser (WebKitWebDriver, under xvfb-run) (peers)
#   js           node --test tests/js/ against pkg/nodejs (core.test.mjs: pkg/core-nodejs,
#                panic.test.mjs: pkg/nodejs-panic), and tests/ai/ (mcp-wasm-client/ai)  (peers, pkg)
#   conformance  the official MCP conformance suite's client scenarios (0.1.16 and
#                0.2.0-alpha.12) against pkg/nodejs (tests/conformance/run.sh)       (pkg)
#   hostile      tests/hostile/run.sh against pkg/nodejs (starts its own server)     (pkg)
#   bench        bench/run.mjs --quick --no-criterion (a smoke run, no figures kept), and the size
#                floor's build (bench/size-floor/build.sh)                            (peers, pkg)
#   e2e          the demo page in Chromium with Playwright (tests/e2e: run.mjs, auth.mjs, dpop.mjs,
#                transports.mjs: windowTransport, messagePortTransport, inMemoryPair; cache.mjs:
#                mcp-wasm-client/cache's indexedDbCacheStore; cache-client.mjs: a Client's
#                IndexedDB cache across a page reload)                                        (pkg)
#   e2e-firefox  a named subset of the demo's e2e steps in Firefox ESR and WebKitGTK through their
#   e2e-webkit   WebDriver servers (tests/engines/run.mjs: connect, a streamed call, the elicitation
#                form by keyboard, an MCP App through the sandbox origin, the legacy era, popup sign-in; webkit
#                under xvfb-run; ports ENGINES_PORTS 18986-18999)                      (pkg)
#   elements     the custom elements in Chromium (tests/elements: apps.mjs, <mcp-app-frame> with apps
#                built with the official View SDK, served by a TypeScript SDK server with the
#                official ext-apps server helpers, on ELEMENTS_APPS_PORTS 18940-18959; form.mjs,
#                <mcp-elicitation-form> against the Python peer, on ELEMENTS_FORM_PORTS 18930-18939;
#                the pages load pkg/lean-web, the default entry's lean module split into its parts) (pkg)
#   react        mcp-wasm-client/react with React 19 in Chromium against tests/react/peer.py (Python
#                SDK) on REACT_PORTS 18960-18979 (tests/react/run.mjs), and the entry in Node without
#                a DOM (tests/react/ssr.mjs)                                          (pkg)
#   packaging    the packed npm tarball in Node, Deno, Bun, workerd, Vite, webpack, workers, a
#                strict-CSP page, and its core entry in Node ESM/CJS, deno check and webpack; consumer
#                builds with Vite, webpack, Rollup, esbuild (a page, Node) calling the python peer
#                (tests/packaging; starts its own peers on 18920-18925)
#
# Every selected stage runs even if an earlier one failed. Each prints one summary line; the last
# line is `all: N passed, M failed, K skipped`, summed over the stages that count tests (native, wasm-node,
# wasm-chrome, wasm-firefox, wasm-webkit, js, conformance, hostile, e2e, e2e-firefox, e2e-webkit, elements, react, packaging). A stage that fails without a count of its own failures
# (lint, build, types, bench, or a test stage that broke before reporting) adds one failure.
# The exit status is 0 only when M is 0. Logs go to a fresh `mktemp -d` folder, printed first and
# last.
#
# Ports (env): PEERS_*_PORT as in tests/peers/peers.sh; HOSTILE_PORT (default 18811) is the hostile
# server the wasm stages use, HOSTILE_PORT+1 its second origin, and tests/wasm.rs reads HOSTILE_PORT
# at compile time; the hostile stage's own server is on HOSTILE_SUITE_PORT (default HOSTILE_PORT-10,
# so 18801) and HOSTILE_SUITE_PORT+1; WASM_CHROME_PORT (default 18821), WASM_FIREFOX_PORT (18822) and
# WASM_WEBKIT_PORT (18823) the browser stages' runner page servers; E2E_PORTS as in tests/e2e/run.mjs, E2E_AUTH_PORTS as in
# tests/e2e/auth.mjs, E2E_DPOP_PORTS as in tests/e2e/dpop.mjs, E2E_TRANSPORT_PORTS (default 18900-18919) as
# in tests/e2e/transports.mjs, E2E_CACHE_PORTS (default 18651-18660) as in tests/e2e/cache.mjs and
# cache-client.mjs; CACHE_TEST_PORTS (default 18141-18146) as in tests/js/cache-client.test.mjs. The conformance suite's mock servers take ephemeral ports.
# WASM_LAUNCH_TIMEOUT (default 120 s) bounds each launch of a wasm stage's compiled suite; a launch
# that reports nothing is made again, up to three launches (see wasm_tests).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

STAGES=(lint native build types wasm-node wasm-chrome wasm-firefox wasm-webkit js conformance hostile bench e2e e2e-firefox e2e-webkit elements react packaging)

usage() {
  echo "usage: bash scripts/test.sh [stage...]   (no stage: all of them)"
  echo "stages: ${STAGES[*]}"
}

# ---- which stages -----------------------------------------------------------------------------
is_stage() { local s; for s in "${STAGES[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
for arg in "$@"; do
  case "$arg" in
    -h | --help) usage; exit 0 ;;
    --list) printf '%s\n' "${STAGES[@]}"; exit 0 ;;
  esac
  is_stage "$arg" || { echo "test.sh: unknown stage '$arg'" >&2; usage >&2; exit 2; }
done
# In the canonical order whatever the order of the arguments (build before what uses pkg/).
selected=()
for stage in "${STAGES[@]}"; do
  if [ $# -eq 0 ] || [[ " $* " == *" $stage "* ]]; then selected+=("$stage"); fi
done

export HOSTILE_PORT="${HOSTILE_PORT:-18811}"
HOSTILE_SUITE_PORT="${HOSTILE_SUITE_PORT:-$((HOSTILE_PORT - 10))}"

LOG_DIR="$(mktemp -d -t mcp-test.XXXXXX)"
# The browser suites' screenshots go with the logs (E2E_SCREENSHOTS=docs: the README's, docs/screenshots)
export E2E_SCREENSHOTS="${E2E_SCREENSHOTS:-$LOG_DIR/screenshots}"
echo "stages: ${selected[*]}"
echo "logs: $LOG_DIR"

bash scripts/setup.sh

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# ---- tallies ----------------------------------------------------------------------------------
summary=()
retried_note=()
total_passed=0
total_failed=0
total_skipped=0
# record STAGE PASSED FAILED [NOTE] [SKIPPED]: a stage that counted its tests (and the ones it
# skipped, with their reasons in its log)
record() {
  total_passed=$((total_passed + $2))
  total_failed=$((total_failed + $3))
  total_skipped=$((total_skipped + ${5:-0}))
  summary+=("$1: $2 passed, $3 failed${5:+, $5 skipped}${4:+ ($4)}")
}
# record_check STAGE STATUS [NOTE]: a stage without test counts; a failure counts as one
record_check() {
  if [ "$2" -eq 0 ]; then
    summary+=("$1: ok${3:+ ($3)}")
  else
    total_failed=$((total_failed + 1))
    summary+=("$1: FAILED (exit $2; counted as 1 failure)${3:+ ($3)}")
  fi
}
# record_counts STAGE STATUS PASSED FAILED [SKIPPED]: a test stage. If the run exited non-zero without
# reporting any failure (a build error, a crash, a suite skipped), that counts as one failure.
record_counts() {
  local stage="$1" status="$2" passed="${3:-0}" failed="${4:-0}" skipped="${5:-}"
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    record "$stage" "$passed" 1 "exit $status without a failure count; see $LOG_DIR/$stage.log" "$skipped"
  else
    record "$stage" "$passed" "$failed" "" "$skipped"
  fi
}
# Sums of the `test result: ok. P passed; F failed; ...` lines (cargo test, wasm-bindgen-test).
test_result_passed() { grep -E '^test result' "$1" | awk '{n += $4} END {print n + 0}'; }
test_result_failed() { grep -E '^test result' "$1" | awk '{n += $6} END {print n + 0}'; }
# cargo's `ignored` count: the tests marked #[ignore] (each says why), counted as skipped.
test_result_ignored() { grep -E '^test result' "$1" | awk '{n += $8} END {print n + 0}'; }
# node --test's final `ℹ pass N` / `ℹ fail N` (spec reporter) or `# pass N` (TAP).
node_test_count() { grep -E "^(ℹ|#) $2 " "$1" | tail -1 | awk '{print $3 + 0}'; }
# run LOG CMD...: runs CMD, shows and keeps its output; returns CMD's status without set -e
# stopping the script.
run() {
  local log="$1"; shift
  local status=0
  "$@" 2>&1 | tee "$log" || status=$?
  return "$status"
}

# ---- shared resources: the peers and the built packages ---------------------------------------
peers_started=0
wasm_hostile_pid=""
cleanup() {
  # A wasm launch cut short: timeout passes the signal on to its process group (wasm-pack, the
  # runner, chromedriver, Chromium).
  if [ -n "${wasm_launch_pid:-}" ]; then kill "$wasm_launch_pid" 2>/dev/null || true; fi
  if [ -n "${wasm_unstick_pid:-}" ]; then kill "$wasm_unstick_pid" 2>/dev/null || true; fi
  if [ "$peers_started" = 1 ]; then
    PEERS_RUN_DIR="$LOG_DIR/peers" bash tests/peers/peers.sh stop >/dev/null 2>&1 || true
  fi
  if [ -n "$wasm_hostile_pid" ]; then kill "$wasm_hostile_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts the peers, once per run, and the hostile server the wasm suite uses.
need_peers() {
  [ "$peers_started" = 1 ] && return 0
  step "start the peers (logs in $LOG_DIR/peers)"
  mkdir -p "$LOG_DIR/peers"
  peers_started=1
  PEERS_RUN_DIR="$LOG_DIR/peers" bash tests/peers/peers.sh start \
    || { echo "test.sh: the peers did not start; logs in $LOG_DIR/peers" >&2; exit 1; }
  # The hostile server's faults, for the wasm suite (the hostile stage starts its own).
  HOSTILE_PORT2=$((HOSTILE_PORT + 1)) node tests/hostile/server.mjs >"$LOG_DIR/hostile-wasm-server.log" 2>&1 &
  wasm_hostile_pid=$!
  for _ in $(seq 1 50); do
    curl -fsS -o /dev/null "http://127.0.0.1:$HOSTILE_PORT/_log" 2>/dev/null && return 0
    kill -0 "$wasm_hostile_pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "test.sh: the hostile server on port $HOSTILE_PORT did not start:" >&2
  cat "$LOG_DIR/hostile-wasm-server.log" >&2
  exit 1
}

build_status=""   # "", ok or failed: the outcome of building the packages in this run
# The packages the build stage makes: DIR:TARGET:ENTRY[:FEATURES] (scripts/build-wasm.sh's ENTRY
# and FEATURES). The core entry is built only for the targets the tests use: nodejs
# (tests/js/core.test.mjs) and web (its size); the packaging stage packs these (package.sh
# PACKAGE_FROM=pkg), so each wasm is built once per run. nodejs-panic has
# the test-panic feature (tests/js/panic.test.mjs; never packaged). lean-web is the default web
# entry's lean module (package.sh: the clients without `auth`, and a returning user's): the core
# build without the `js-transport` feature.
PACKAGES=(nodejs:nodejs:full web:web:full core-nodejs:nodejs:core core-web:web:core lean-web:web:lean
  nodejs-panic:nodejs:full:test-panic)
build_packages() {
  local sizes=() package dir target entry features wasm
  for package in "${PACKAGES[@]}"; do
    IFS=: read -r dir target entry features <<<"$package"
    echo "wasm-pack build --target $target, $entry entry${features:+, features $features} (log: $LOG_DIR/build-$dir.log)"
    if ! bash scripts/build-wasm.sh "$target" "pkg/$dir" "$entry" "$features" \
        >"$LOG_DIR/build-$dir.log" 2>&1; then
      cat "$LOG_DIR/build-$dir.log"
      build_status=failed
      record_check build 1 "wasm-pack build --target $target ($entry)"
      return 1
    fi
    wasm="pkg/$dir/mcp_wasm_client_bg.wasm"
    sizes+=("  size $dir: wasm $(stat -c %s "$wasm") B raw, $(gzip -9c "$wasm" | wc -c) B gzip; JS glue $(gzip -9c "pkg/$dir/mcp_wasm_client.js" | wc -c) B gzip")
  done
  build_status=ok
  printf '%s\n' "${sizes[@]}"
  record_check build 0
  summary+=("${sizes[@]}")
  rm -f pkg/sizes.json
  check_size_budget "web package" pkg/web "$SIZE_BUDGET_BYTES" web
  check_size_budget "web package, core entry" pkg/core-web "$CORE_SIZE_BUDGET_BYTES" core
}

# The web package (what a page downloads: the .wasm, the JS glue and its snippets, each gzip -9)
# must stay within SIZE_BUDGET_BYTES, and the same of the core entry (no authorization) within
# CORE_SIZE_BUDGET_BYTES: lower them when the packages shrink, never raise them to let a change
# through. Their history (reset only by issues that added features): docs/SIZE.md.
SIZE_BUDGET_BYTES=319800
CORE_SIZE_BUDGET_BYTES=192700
# check_size_budget NAME DIR BUDGET KEY: also records the figures as KEY in pkg/sizes.json, the one
# source of the sizes README.md and docs/ quote (tests/packaging/doc-sizes.mjs checks them; not
# committed: pkg/ is build output).
check_size_budget() {
  local name="$1" dir="$2" budget="$3" key="$4" wasm glue snippets=0 total f
  wasm=$(gzip -9c "$dir/mcp_wasm_client_bg.wasm" | wc -c)
  glue=$(gzip -9c "$dir/mcp_wasm_client.js" | wc -c)
  while IFS= read -r -d '' f; do
    snippets=$((snippets + $(gzip -9c "$f" | wc -c)))
  done < <(find "$dir/snippets" -type f -name '*.js' -print0 2>/dev/null)
  total=$((wasm + glue + snippets))
  local parts="wasm $wasm + glue $glue + snippets $snippets"
  node -e '
    const fs = require("fs");
    const [file, key, wasm, glue, snippets, total] = process.argv.slice(1);
    let sizes = {};
    try { sizes = JSON.parse(fs.readFileSync(file, "utf8")); } catch {}
    sizes[key] = { wasm: +wasm, glue: +glue, snippets: +snippets, total: +total };
    fs.writeFileSync(file, JSON.stringify(sizes, null, 2) + "\n");
  ' pkg/sizes.json "$key" "$wasm" "$glue" "$snippets" "$total"
  if [ "$total" -le "$budget" ]; then
    record_check "size budget" 0 "$name $total B gzip ($parts) <= $budget B"
  else
    echo "size budget: the $name is $total B gzip ($parts), over the budget of $budget B"
    record_check "size budget" 1 "$name $total B gzip ($parts) > budget $budget B"
  fi
}

# The stages that test the built packages call this first: it builds them when missing (saying
# so) and otherwise says which build it is using. Fails when they cannot be built.
need_packages() {
  local package dir missing=()
  [ "$build_status" = ok ] && return 0
  [ "$build_status" = failed ] && return 1
  for package in "${PACKAGES[@]}"; do
    dir="${package%%:*}"
    [ -f "pkg/$dir/mcp_wasm_client_bg.wasm" ] || missing+=("pkg/$dir")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "using the packages already in pkg/ (built $(date -r pkg/nodejs/mcp_wasm_client_bg.wasm '+%F %T'); the build stage rebuilds them)"
    build_status=ok
    return 0
  fi
  step "build: ${missing[*]} missing, needed by the $1 stage: building the packages first"
  build_packages
}

# ---- the stages -------------------------------------------------------------------------------
stage_lint() {
  step "lint: format and clippy (native, wasm32); ESLint over the shipped JS (eslint.config.mjs)"
  local status=0
  tools/node_modules/.bin/eslint src/js pkg-template www || status=$?
  cargo fmt --all -- --check || status=$?
  cargo clippy --all-targets -q -- -D warnings || status=$?
  cargo clippy --target wasm32-unknown-unknown --all-targets -q -- -D warnings || status=$?
  cargo clippy --all-targets --no-default-features -q -- -D warnings || status=$?
  cargo clippy --target wasm32-unknown-unknown --all-targets --no-default-features -q -- -D warnings || status=$?
  cargo clippy --target wasm32-unknown-unknown --all-targets --no-default-features --features js-transport -q -- -D warnings || status=$?
  record_check lint "$status"
}

stage_native() {
  step "native: cargo test"
  local log="$LOG_DIR/native.log" status=0
  # --no-fail-fast: every test binary runs (and counts) even when one of them fails.
  run "$log" cargo test -q --no-fail-fast || status=$?
  record_counts native "$status" "$(test_result_passed "$log")" "$(test_result_failed "$log")" "$(test_result_ignored "$log")"
}

stage_build() {
  step "build: the packages (nodejs, web; core entry: nodejs, web) into pkg/"
  build_packages || true
}

stage_types() {
  need_packages types || { record_check types 1 "no built packages"; return; }
  step "types: tsc --noEmit --strict on tests/types/example.ts and core.ts (the core build), and the READMEs' code blocks"
  local status=0 note
  (cd tests/types && npx --no-install tsc --noEmit -p .) || status=$?
  node tests/types/readme.mjs >"$LOG_DIR/types-readme.log" 2>&1 || status=$?
  cat "$LOG_DIR/types-readme.log"
  note="$(tail -1 "$LOG_DIR/types-readme.log")"
  record_check types "$status" "$note"
}

# wasm_tests STAGE LAUNCH-COMMAND...: tests/wasm.rs, compiled for wasm32, then run by the command
# (wasm-pack test …, or cargo test under the wasm-bindgen-test-runner for WebKit, which wasm-pack
# cannot drive off macOS).
wasm_tests() {
  local stage="$1"; shift
  need_peers
  local log="$LOG_DIR/$stage.log" status=0
  # Once the page has loaded, the runner gives the suite 20 s by default; a cold Chromium on a
  # loaded CI machine can need more than that before the first test starts. 90 s: within
  # WASM_LAUNCH_TIMEOUT, so that the runner itself reports a suite that stalls.
  export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-90}"
  # Compile first, with the very command wasm-pack test starts with (so its own build step and
  # `cargo test` find it fresh): a launch's time limit then covers the runner alone.
  CARGO_BUILD_TARGET=wasm32-unknown-unknown run "$log" cargo build --tests --test wasm || status=$?
  if [ "$status" -ne 0 ]; then
    record_counts "$stage" "$status" 0 0
    return
  fi
  wasm_launch "$log" "$@" || status=$?
  # The last `test result` line is the suite's (wasm-pack prints none of its own).
  local result; result="$(grep -E '^test result' "$log" | tail -1 || true)"
  # No result line: the suite never reported (a launch cut at WASM_LAUNCH_TIMEOUT, exit 124, or
  # a browser that did not start), which is not a test failing. Launch it again, up to three
  # launches; each earlier log stays beside the last and the summary says so. A suite that
  # reports a failure never runs again.
  local attempt=1
  while [ -z "$result" ] && [ "$status" -ne 0 ] && [ "$attempt" -lt 3 ]; do
    mv "$log" "$LOG_DIR/$stage.attempt-$attempt.log"
    echo "test.sh: $stage reported no result (exit $status$([ "$status" -eq 124 ] && echo ", cut at ${WASM_LAUNCH_TIMEOUT}s")); launching it again (log of attempt $attempt: $LOG_DIR/$stage.attempt-$attempt.log)" >&2
    tail -20 "$LOG_DIR/$stage.attempt-$attempt.log" >&2
    attempt=$((attempt + 1))
    status=0
    wasm_launch "$log" "$@" || status=$?
    result="$(grep -E '^test result' "$log" | tail -1 || true)"
  done
  if [ "$attempt" -gt 1 ]; then
    retried_note+=("$stage: the suite reported nothing on $((attempt - 1)) launch(es) before the one counted")
  fi
  if [ -z "$result" ]; then
    record_counts "$stage" "$((status == 0 ? 1 : status))" 0 0
    return
  fi
  record_counts "$stage" "$status" "$(awk '{print $4 + 0}' <<<"$result")" "$(awk '{print $6 + 0}' <<<"$result")"
}

# One launch of the compiled suite may take WASM_LAUNCH_TIMEOUT seconds: wasm-pack test, the
# runner, chromedriver and Chromium all run in timeout's own process group, which the timeout
# kills whole (SIGTERM, SIGKILL 10 s later), so nothing is left running. A passing wasm-chrome
# launch took 9-11 s on this 2-core machine at load 1-2.4 (wasm-bindgen on the test wasm,
# Chromium, 4 s of tests) and 26 s at load 5 (11 s of tests).
WASM_LAUNCH_TIMEOUT="${WASM_LAUNCH_TIMEOUT:-120}"
wasm_launch_pid=""
wasm_unstick_pid=""
# wasm_launch LOG COMMAND...: one launch (appends to LOG, which the compile step began).
wasm_launch() {
  local log="$1"; shift
  local status=0 start=$SECONDS
  # The runner's page server (tiny_http 0.12 under rouille) hands each connection to a pool of 4+
  # threads, and its pool can lose a wakeup: when Chromium opens several connections at once
  # while the pool's idle threads have not yet been scheduled (a loaded machine), it counts those
  # threads as idle, queues the extra connection and starts no thread for it. That connection's
  # request (one of the page's module imports) is never read, the page never loads, and the
  # runner waits out chromedriver's 300 s page-load limit (seen with gdb: all 4 pool threads in
  # recv on Chromium's keep-alive connections, a 5th connection with its 610 B request unread).
  # A queued connection is served as soon as any connection closes, so while the runner is up a
  # loop opens and closes a connection to it every second (the server listens on
  # WASM_BINDGEN_TEST_ADDRESS, a fixed port, set by the wasm-chrome stage). Measured on this
  # 2-core machine (the runner launched directly, 2026-12-05): without it 10 of 16 launches hung
  # (5 of 8 with the fixed port alone), with it 30 of 30 loaded; and in 3 launches left to hang,
  # one such connection 15 s into the hang made the suite run and finish within 2 s.
  if [ -n "${WASM_BINDGEN_TEST_ADDRESS:-}" ]; then
    wasm_unstick "${WASM_BINDGEN_TEST_ADDRESS##*:}" &
    wasm_unstick_pid=$!
  fi
  # In the background and waited for, so that a signal to this script (Ctrl-C, an outer timeout)
  # interrupts the wait at once and cleanup ends the launch's process group through timeout.
  local out tee_pid
  exec {out}> >(tee "$log.launch")
  tee_pid=$!
  timeout -k 10 "$WASM_LAUNCH_TIMEOUT" "$@" >&"$out" 2>&1 &
  wasm_launch_pid=$!
  exec {out}>&-
  wait "$wasm_launch_pid" || status=$?
  wasm_launch_pid=""
  wait "$tee_pid" 2>/dev/null || true
  cat "$log.launch" >>"$log" && rm -f "$log.launch"
  echo "test.sh: the launch took $((SECONDS - start)) s (exit $status)" | tee -a "$log"
  if [ -n "$wasm_unstick_pid" ]; then
    kill "$wasm_unstick_pid" 2>/dev/null || true
    wait "$wasm_unstick_pid" 2>/dev/null || true
    wasm_unstick_pid=""
  fi
  return "$status"
}

# wasm_unstick PORT: opens and closes a connection to 127.0.0.1:PORT every second while this
# script runs (see wasm_launch).
wasm_unstick() {
  while kill -0 $$ 2>/dev/null; do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null || true
    sleep 1
  done
}

stage_wasm-node() {
  step "wasm-node: tests/wasm.rs in Node (wasm-pack test --node)"
  wasm_tests wasm-node wasm-pack test --node --mode no-install -- --test wasm
}

stage_wasm-chrome() {
  step "wasm-chrome: tests/wasm.rs in headless Chromium (wasm-pack test --headless --chrome)"
  # tests/wasm.rs has no wasm_bindgen_test_configure!(run_in_browser): this variable is what makes
  # wasm-bindgen-test-runner use the browser (without it the runner would skip the suite).
  # The runner's page server on a fixed port, so that wasm_launch can keep its pool unstuck.
  WASM_BINDGEN_USE_BROWSER=1 WASM_BINDGEN_TEST_ADDRESS="127.0.0.1:${WASM_CHROME_PORT:-18821}" \
    wasm_tests wasm-chrome wasm-pack test --headless --chrome --chromedriver "$(command -v chromedriver)" \
      --mode no-install -- --test wasm
}

stage_wasm-firefox() {
  step "wasm-firefox: tests/wasm.rs in headless Firefox ESR (wasm-pack test --headless --firefox)"
  WASM_BINDGEN_USE_BROWSER=1 WASM_BINDGEN_TEST_ADDRESS="127.0.0.1:${WASM_FIREFOX_PORT:-18822}" \
    wasm_tests wasm-firefox wasm-pack test --headless --firefox --geckodriver "$(command -v geckodriver)" \
      --mode no-install -- --test wasm
}

stage_wasm-webkit() {
  step "wasm-webkit: tests/wasm.rs in WebKitGTK's MiniBrowser (WebKitWebDriver under xvfb-run)"
  # The runner drives any W3C WebDriver named by SAFARIDRIVER with empty capabilities, which
  # WebKitWebDriver answers with its MiniBrowser; MiniBrowser needs a display, hence xvfb-run.
  SAFARIDRIVER="$(command -v WebKitWebDriver)" WASM_BINDGEN_USE_BROWSER=1 \
    WASM_BINDGEN_TEST_ADDRESS="127.0.0.1:${WASM_WEBKIT_PORT:-18823}" \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    wasm_tests wasm-webkit xvfb-run -a cargo test --target wasm32-unknown-unknown --test wasm
}

stage_js() {
  need_packages js || { record_check js 1 "no built packages"; return; }
  need_peers
  step "js: the built package with node --test (tests/js/)"
  local log="$LOG_DIR/js.log" status=0
  # tests/ai/: mcp-wasm-client/ai (pkg-template/ai) with the AI SDK and the provider rules (AI_TEST_PORT 18148)
  run "$log" node --expose-gc --test --test-reporter=spec tests/js/ tests/ai/ || status=$?
  # node --test's skipped tests (each with its reason in the log: a peer that is not up, no --expose-gc)
  record_counts js "$status" "$(node_test_count "$log" pass)" "$(node_test_count "$log" fail)" "$(node_test_count "$log" skipped)"
}

stage_conformance() {
  need_packages conformance || { record_check conformance 1 "no built packages"; return; }
  step "conformance: the MCP conformance suite's client scenarios (tests/conformance/)"
  local log="$LOG_DIR/conformance.log" status=0
  CONFORMANCE_LOG_DIR="$LOG_DIR/conformance" MCP_PKG_NODE="$ROOT/pkg/nodejs" \
    run "$log" bash tests/conformance/run.sh || status=$?
  # Each scenario run whose outcome matches expected.json counts as a pass; every other outcome
  # (an expected pass that failed, a scenario expected.json does not know) as a failure.
  local line; line="$(grep -E '^conformance: [0-9]+ passed' "$log" | tail -1 || true)"
  record_counts conformance "$status" "$(awk '{print $2 + 0}' <<<"$line")" "$(awk '{print $4 + 0}' <<<"$line")"
}

stage_hostile() {
  need_packages hostile || { record_check hostile 1 "no built packages"; return; }
  step "hostile: the hostile-server suite (tests/hostile/)"
  local log="$LOG_DIR/hostile.log" status=0
  HOSTILE_PORT="$HOSTILE_SUITE_PORT" HOSTILE_PORT2=$((HOSTILE_SUITE_PORT + 1)) \
    HOSTILE_RUN_DIR="$LOG_DIR/hostile-server" MCP_PKG_NODE="$ROOT/pkg/nodejs" \
    run "$log" bash tests/hostile/run.sh || status=$?
  record_counts hostile "$status" "$(node_test_count "$log" pass)" "$(node_test_count "$log" fail)"
}

stage_bench() {
  need_packages bench || { record_check bench 1 "no built packages"; return; }
  need_peers
  step "bench: benchmark smoke (bench/run.mjs --quick, no criterion)"
  local log="$LOG_DIR/bench.log" status=0
  (cd bench && BENCH_PKG_NODE="$ROOT/pkg/nodejs" BENCH_PKG_WEB="$ROOT/pkg/web" \
    BENCH_PYTHON_URL="http://127.0.0.1:${PEERS_PYTHON_PORT:-18101}/mcp" \
    node run.mjs --quick --no-criterion --out "$LOG_DIR/bench-quick-RESULTS.md") >"$log" 2>&1 || status=$?
  tail -n 25 "$log"
  # The size floor (bench/size-floor: the smallest client on our dependency stack), so its build
  # script keeps working; it prints its size next to the package's.
  bash bench/size-floor/build.sh "$LOG_DIR/size-floor" >>"$log" 2>&1 || status=$?
  tail -n 1 "$log"
  record_check bench "$status"
}

# node_scripts STAGE DIR MAIN SCRIPT...: runs each node SCRIPT in DIR; each prints a last line
# `LABEL: N passed, M failed` where LABEL is STAGE for the script MAIN and STAGE-NAME for NAME.mjs.
# The stage records the sums; a script that fails without counting its failures adds one.
node_scripts() {
  local stage="$1" dir="$2" main="$3"; shift 3
  local passed=0 failed=0 status=0 script label log s line p f
  for script in "$@"; do
    label="$stage"; [ "$script" != "$main" ] && label="$stage-${script%.mjs}"
    log="$LOG_DIR/$label.log"; s=0
    (cd "$dir" && run "$log" node "$script") || s=$?
    line="$(grep -E "^$label: " "$log" | tail -1 || true)"
    p="$(awk '{print $2 + 0}' <<<"$line")"; f="$(awk '{print $4 + 0}' <<<"$line")"
    [ "$s" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    passed=$((passed + p)); failed=$((failed + f)); [ "$s" -ne 0 ] && status=$s
  done
  record_counts "$stage" "$status" "$passed" "$failed"
}

# The demo (www/js/pkg.js) imports the npm package's default entry: pkg/npm, packed from the builds
# of pkg/ (package.sh PACKAGE_FROM=pkg) when missing or older than them.
need_npm_package() {
  if [ -f pkg/npm/index.js ] && [ pkg/npm/index.js -nt pkg/web/mcp_wasm_client_bg.wasm ] \
      && [ pkg/npm/index.js -nt pkg/core-web/mcp_wasm_client_bg.wasm ] \
      && [ pkg/npm/index.js -nt pkg/lean-web/mcp_wasm_client_bg.wasm ]; then
    return 0
  fi
  echo "packing pkg/npm from the builds of pkg/ for the demo (log: $LOG_DIR/package-$1.log)"
  PACKAGE_FROM=pkg bash scripts/package.sh >"$LOG_DIR/package-$1.log" 2>&1 \
    || { cat "$LOG_DIR/package-$1.log"; return 1; }
}
stage_e2e() {
  need_packages e2e || { record_check e2e 1 "no built packages"; return; }
  need_npm_package e2e || { record_check e2e 1 "pkg/npm could not be packed"; return; }
  step "e2e: the demo end to end in Chromium (Playwright); sign-in against the OAuth peer"
  # run.mjs (the demo), auth.mjs (sign-in), dpop.mjs (DPoP, private_key_jwt) and transports.mjs
  # (windowTransport, messagePortTransport; ports E2E_TRANSPORT_PORTS, 18900-18919), cache.mjs
  # (mcp-wasm-client/cache's indexedDbCacheStore; E2E_CACHE_PORTS, 18651-18660) and cache-client.mjs
  # (a Client with that store across a reload, against a Python peer it starts; the same ports),
  # each with its own servers and ports; a script that fails without counting its failures adds one.
  node_scripts e2e tests/e2e run.mjs run.mjs auth.mjs dpop.mjs transports.mjs cache.mjs cache-client.mjs
}

# engine_pages STAGE ENGINE [WRAPPER...]: tests/engines/run.mjs in one engine; its
# `engines-ENGINE: P passed, F failed, S skipped` line is the stage's count.
engine_pages() {
  local stage="$1" engine="$2"; shift 2
  need_packages "$stage" || { record_check "$stage" 1 "no built packages"; return; }
  need_npm_package "$stage" || { record_check "$stage" 1 "pkg/npm could not be packed"; return; }
  local log="$LOG_DIR/$stage.log" status=0
  (cd tests/engines && ENGINES="$engine" run "$log" "$@" node run.mjs) || status=$?
  local line; line="$(grep -E "^engines-$engine: " "$log" | tail -1 || true)"
  record_counts "$stage" "$status" "$(awk '{print $2 + 0}' <<<"$line")" "$(awk '{print $4 + 0}' <<<"$line")" \
    "$(awk '{print $6 + 0}' <<<"$line")"
}

stage_e2e-firefox() {
  step "e2e-firefox: the demo's subset in Firefox ESR (geckodriver, selenium-webdriver)"
  engine_pages e2e-firefox firefox
}

stage_e2e-webkit() {
  step "e2e-webkit: the demo's subset in WebKitGTK's MiniBrowser (WebKitWebDriver under xvfb-run)"
  engine_pages e2e-webkit webkit xvfb-run -a
}

stage_elements() {
  need_packages elements || { record_check elements 1 "no built packages"; return; }
  step "elements: <mcp-app-frame> and <mcp-elicitation-form> in Chromium (Playwright) against real peers"
  # apps.mjs (MCP Apps: View SDK apps, a TS SDK server, a hostile app) and form.mjs (the elicitation
  # form), each with its own servers and ports; a script that fails without counting its failures adds one.
  node_scripts elements tests/elements "" apps.mjs form.mjs
}

stage_react() {
  need_packages react || { record_check react 1 "no built packages"; return; }
  step "react: mcp-wasm-client/react (React 19) in Chromium against the Python SDK; the entry in Node without a DOM"
  node_scripts react tests/react run.mjs run.mjs
}

stage_packaging() {
  step "packaging: the packed tarball in Node ESM/CJS, Deno, Bun, workerd, Vite, webpack, workers, plain modules, a strict-CSP page; Vite, webpack, Rollup, esbuild consumer builds"
  local log="$LOG_DIR/packaging.log" status=0
  # package.sh packs the builds of pkg/ (need_packages: this run's build stage, or the packages
  # already there) instead of building the four again
  need_packages packaging || { record_check packaging 1 "no packages to pack"; return; }
  run "$log" env PACKAGE_FROM=pkg bash tests/packaging/run.sh || status=$?
  local line; line="$(grep -E '^packaging: ' "$log" | tail -1 || true)"
  record_counts packaging "$status" "$(awk '{print $2 + 0}' <<<"$line")" "$(awk '{print $4 + 0}' <<<"$line")" "$(awk '{print $6 + 0}' <<<"$line")"
}

# Each stage's summary lines end with its time (the build's size lines aside).
for stage in "${selected[@]}"; do
  summary_before=${#summary[@]} stage_started=$SECONDS
  "stage_$stage"
  for ((i = summary_before; i < ${#summary[@]}; i++)); do
    [[ "${summary[i]}" == " "* ]] || summary[i]+=" [$((SECONDS - stage_started)) s]"
  done
done

step "summary (logs: $LOG_DIR)"
printf '%s\n' "${summary[@]}"
[ "${#retried_note[@]}" -gt 0 ] && printf 'note: %s\n' "${retried_note[@]}"
echo "time: $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "all: $total_passed passed, $total_failed failed, $total_skipped skipped"
[ "$total_failed" -eq 0 ]
