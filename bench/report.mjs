// Renders bench/RESULTS.md from the results object of run.mjs. The "why" part of "Where we lose"
// is hand-written in bench/analysis.md (evidence from profiles) and embedded as is.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

const f = (x, d = 2) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x >= 1000 ? Math.round(x).toLocaleString("en-US") : x.toFixed(d));
/** ours/theirs with a verdict: better = "lower" | "higher"; ±5 % counts as a tie. */
function ratio(ours, theirs, better) {
  if (!Number.isFinite(ours) || !Number.isFinite(theirs) || theirs === 0) return "–";
  const r = ours / theirs;
  const win = better === "lower" ? r < 0.95 : r > 1.05;
  const lose = better === "lower" ? r > 1.05 : r < 0.95;
  return `${r.toFixed(2)}${win ? " ✓" : lose ? " ✗" : " ≈"}`;
}

const ROWS = [
  ["connect (ms)", "connectMs", "lower"],
  ["sequential callTool p50 (ms)", "p50", "lower"],
  ["sequential callTool p99 (ms)", "p99", "lower"],
  ["throughput, 1 in flight (calls/s)", "tput1", "higher"],
  ["throughput, 16 in flight (calls/s)", "tput16", "higher"],
  ["throughput, 64 in flight (calls/s)", "tput64", "higher"],
  ["1 MiB result (MiB/s)", "bigMBps", "higher"],
  ["10 000-event SSE stream (MiB/s)", "streamMBps", "higher"],
  ["10 000-event SSE stream (events/s)", "streamEvps", "higher"],
  ["3-round input_required exchange (ms)", "mrtrMs", "lower"],
];
const COLS = [
  ["ours-legacy", "ours (legacy)"],
  ["ours-auto", "ours (auto)"],
  ["ts1", "TS SDK 1.x"],
  ["ts2", "TS 2.x (legacy)"],
  ["ts2-auto", "TS 2.x (auto)"],
  ["ts1-aa", "TS SDK 1.x (A/A)"],
  ["floor", "fetch floor"],
];

export const LOSSES = [];

/** v(a) / v(b) without a verdict ("–" when either is missing). */
function plainRatio(v, a, b) {
  return Number.isFinite(v(a)) && Number.isFinite(v(b)) ? (v(a) / v(b)).toFixed(2) : "–";
}

/** The fetch floor against a TS client: the best ratio any client on the same fetch can reach. */
const floorRatio = (v, ts) => plainRatio(v, "floor", ts);

/** The TS SDK 1.x client against itself (ts1-aa / ts1): the run's own noise for a figure. */
const aaRatio = (v) => plainRatio(v, "ts1-aa", "ts1");

function figureTable(res, what, events = 10_000) {
  const lines = [];
  const ev = events.toLocaleString("en-US").replace(/,/g, " ");
  lines.push(`| figure | better | ${COLS.map((c) => c[1]).join(" | ")} | ours/1.x | ours/2.x | ours auto / 2.x auto | A/A: 1.x / 1.x | floor/1.x | floor/2.x |`);
  lines.push(`|---|---|${COLS.map(() => "--:").join("|")}|--:|--:|--:|--:|--:|--:|`);
  for (const [label0, key, better] of ROWS) {
    const label = label0.replace("10 000", ev);
    const v = (id) => res[id]?.[key];
    if (COLS.every(([id]) => !Number.isFinite(v(id)))) continue;
    const r1 = ratio(v("ours-legacy"), v("ts1"), better);
    const r2 = ratio(v("ours-legacy"), v("ts2"), better);
    const r3 = ratio(v("ours-auto"), v("ts2-auto"), better);
    for (const [r, who] of [[r1, "TS SDK 1.x"], [r2, "TS 2.x (legacy)"], [r3, "TS 2.x (auto), both in the 2026 era"]])
      if (r.endsWith("✗")) LOSSES.push(`${what}: ${label}: ours/${who} = ${r.replace(" ✗", "")}`);
    const aa = aaRatio(v);
    lines.push(`| ${label} | ${better} | ${COLS.map(([id]) => f(v(id))).join(" | ")} | ${r1} | ${r2} | ${r3} | ${aa} | ${floorRatio(v, "ts1")} | ${floorRatio(v, "ts2")} |`);
  }
  return lines.join("\n");
}

export function renderResults(R) {
  LOSSES.length = 0;
  const e = R.env;
  const out = [];
  out.push(`# Benchmarks: mcp-wasm-client vs the official TypeScript MCP SDK clients`);
  out.push("");
  out.push(`Written by \`node bench/run.mjs${R.quick ? " --quick" : ""}\` on ${R.started} in ${R.elapsedS.toFixed(0)} s. ` + (R.quick ? "**Quick smoke mode: the counts are tiny, the numbers mean nothing.**" : "Every in-process figure is the median over rounds in which the clients run interleaved (order rotated each round), in one Node process."));
  out.push("");
  out.push("## Machine and versions");
  out.push("");
  out.push(`* CPU: ${e.cpu}, ${e.cores} cores, ${e.memGiB} GiB RAM; load average at start: ${e.load} (other work shares this machine: absolute numbers are noisy, ratios of interleaved runs less so)`);
  out.push(`* Node ${e.node}; ${e.rustc}; Chromium: ${e.chromium}; playwright-core ${e.playwright}; esbuild ${e.esbuild}; Python SDK \`mcp\` ${e.python} (peer)`);
  out.push(`* ours: mcp-wasm-client ${e.crate} (wasm-bindgen ${e.wasmBindgen}), \`scripts/build-wasm.sh\` (the shipped build: pinned nightly, build-std, opt-level z, LTO, panic=immediate-abort, -Zlocation-detail=none, -Zcross-crate-inline-threshold=always, wasm-opt --flatten --rereloop -Oz), \`--target nodejs\` in Node, \`--target web\` in Chromium`);
  out.push(`* TS SDK 1.x: \`@modelcontextprotocol/sdk\` ${e.ts1} (\`Client\` + \`StreamableHTTPClientTransport\`); TS 2.x: \`@modelcontextprotocol/client\` ${e.ts2} (legacy = default \`versionNegotiation\`, auto = \`{ mode: "auto" }\`)`);
  out.push("");
  out.push("Ratios are **ours / theirs**: for times lower is better, for rates higher is better; ✓ we win by > 5 %, ✗ we lose by > 5 %, ≈ within 5 %. The A/A column runs the TS SDK 1.x client against itself in the same rounds: how far from 1.00 it lands is this run's own noise for that figure. The *fetch floor* (bench/floor-client.mjs) is not a client anyone would ship: one \`fetch\` POST, \`text()\` and \`JSON.parse\` per call, no validation, timeout or abort signal; floor/1.x and floor/2.x are the ratios a client whose own code cost nothing would reach in this run, so no client on the same \`fetch\` can beat them.");
  out.push("");
  out.push("## Against bench/server.mjs (fixed responses, so client cost dominates)");
  out.push("");
  out.push("`ours (auto)` and `TS 2.x (auto)` negotiate the 2026-07-28 era (`server/discover`, `_meta` envelope, `Mcp-Method` headers); the others use the legacy `initialize` handshake. The stream tool sends `notifications/message` events (level info, ~150 bytes each) and then the result, in one SSE response; every client counts the events in its logging handler and the run checks all of them arrive.");
  out.push("");
  out.push(R.bench ? figureTable(R.bench, "bench server", R.params.streamCount) : "_not run_");
  out.push("");
  out.push("## Against the Python SDK peer (tests/peers/python_server.py, `echo`)");
  out.push("");
  out.push(R.python ? `The server's own cost (Python, uvicorn) is in every figure here, so ratios are closer to 1.\n\n${figureTable(R.python, "python peer")}` : `_not run_ ${R.pythonSkipped ?? ""}`);
  out.push("");

  out.push("## Cold start (fresh `node` process: import the package, connect, one call)");
  out.push("");
  if (R.cold) {
    out.push(`Median of ${R.params.cold} spawned processes each. *wall* is spawn → exit as seen by the parent (Node's own boot, ~40 ms, included); the other columns are measured inside the child.`);
    out.push("");
    out.push("| client | wall (ms) | import (ms) | connect (ms) | first call (ms) | import→call (ms) |");
    out.push("|---|--:|--:|--:|--:|--:|");
    for (const [id, c] of Object.entries(R.cold)) out.push(`| ${id} | ${f(c.wallMs, 0)} | ${f(c.importMs, 1)} | ${f(c.connectMs, 1)} | ${f(c.callMs, 1)} | ${f(c.inProcessMs, 1)} |`);
    const o = R.cold["ours-legacy"];
    const ratios = ["ts1", "ts2"].filter((id) => R.cold[id] && o).map((id) => `ours/${id} wall ${ratio(o.wallMs, R.cold[id].wallMs, "lower")}, import→call ${ratio(o.inProcessMs, R.cold[id].inProcessMs, "lower")}`);
    out.push("");
    out.push(ratios.join("; "));
    for (const id of ["ts1", "ts2"]) if (o && R.cold[id] && ratio(o.inProcessMs, R.cold[id].inProcessMs, "lower").endsWith("✗")) LOSSES.push(`cold start: import→call ours/${id} = ${(o.inProcessMs / R.cold[id].inProcessMs).toFixed(2)}`);
  }
  out.push("");
  out.push("## Memory (fresh process per client, `--expose-gc`)");
  out.push("");
  if (R.mem) {
    out.push(`* **after N calls**: connect, ${R.params.memCalls.toLocaleString("en-US")} echo calls (16 in flight), gc; JS heap delta against the baseline before \`new Client\`, and for ours the wasm linear memory (which never shrinks).`);
    out.push("* **1 MiB / stream**: peak RSS and JS heap above the post-warm-up baseline, sampled every 2 ms and after each call (5 calls of 1 MiB; 1 call of the 10 000-event stream); the median of 3 processes, since one process's peak RSS moves by ±20 % from run to run.");
    out.push("");
    out.push("| client | heap after calls (MB) | heap Δ (MB) | wasm memory (MB) | RSS after (MB) | 1 MiB: peak RSS Δ | 1 MiB: peak heap Δ | stream: peak RSS Δ | stream: peak heap Δ |");
    out.push("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (const [id, m] of Object.entries(R.mem))
      out.push(`| ${id} | ${f(m.calls?.heapUsedMB)} | ${f(m.calls?.heapDeltaMB)} | ${id.startsWith("ours") ? f(m.calls?.wasmMB) : "–"} | ${f(m.calls?.rssMB, 0)} | ${f(m.big?.peakRssDeltaMB)} | ${f(m.big?.peakHeapDeltaMB)} | ${f(m.stream?.peakRssDeltaMB)} | ${f(m.stream?.peakHeapDeltaMB)} |`);
    const o = R.mem["ours-legacy"];
    if (o) {
      out.push("");
      const rs = [];
      for (const id of ["ts1", "ts2"]) {
        const t = R.mem[id];
        if (!t) continue;
        const ours = (o.calls?.heapDeltaMB ?? NaN) + (o.calls?.wasmDeltaMB ?? 0);
        rs.push(`ours (heap Δ + wasm growth) / ${id} heap Δ after calls: ${ratio(ours, t.calls?.heapDeltaMB, "lower")}; 1 MiB peak RSS Δ ${ratio(o.big?.peakRssDeltaMB, t.big?.peakRssDeltaMB, "lower")}; stream peak RSS Δ ${ratio(o.stream?.peakRssDeltaMB, t.stream?.peakRssDeltaMB, "lower")}`);
        for (const [k, label] of [["big", "1 MiB result peak RSS Δ"], ["stream", "SSE stream peak RSS Δ"]])
          if (ratio(o[k]?.peakRssDeltaMB, t[k]?.peakRssDeltaMB, "lower").endsWith("✗")) LOSSES.push(`memory: ${label} ours/${id} = ${(o[k].peakRssDeltaMB / t[k].peakRssDeltaMB).toFixed(2)}`);
      }
      out.push(rs.map((r) => `* ${r}`).join("\n"));
    }
  }
  out.push("");
  out.push("## Bundle size (gzip -9)");
  out.push("");
  if (R.bundles) {
    const b = R.bundles;
    out.push("TS: `Client` + `StreamableHTTPClientTransport` only, bundled by esbuild (`--bundle --minify --format=esm`, platform node / browser). Ours: `mcp_wasm_client_bg.wasm` + `mcp_wasm_client.js` (+ snippets), each gzipped.");
    out.push("");
    out.push("| target | ours (gzip) | ours wasm + JS | TS SDK 1.x (gzip) | TS 2.x (gzip) | ours/1.x | ours/2.x |");
    out.push("|---|--:|--:|--:|--:|--:|--:|");
    for (const [t, ours, tsk] of [["node", "ours.node", "node"], ["browser (web)", "ours.web", "browser"]]) {
      const o = b[ours];
      const r1 = ratio(o.gzip, b[`ts1.${tsk}`].gzip, "lower");
      const r2 = ratio(o.gzip, b[`ts2.${tsk}`].gzip, "lower");
      for (const [r, who] of [[r1, "1.x"], [r2, "2.x"]]) if (r.endsWith("✗")) LOSSES.push(`bundle size (${t}): ours/${who} = ${r.replace(" ✗", "")}`);
      out.push(`| ${t} | ${(o.gzip / 1024).toFixed(1)} KiB | ${(o.wasmGzip / 1024).toFixed(1)} + ${(o.jsGzip / 1024).toFixed(1)} KiB | ${(b[`ts1.${tsk}`].gzip / 1024).toFixed(1)} KiB | ${(b[`ts2.${tsk}`].gzip / 1024).toFixed(1)} KiB | ${r1} | ${r2} |`);
    }
  }
  out.push("");
  out.push("## Headless Chromium (the main figure in a browser)");
  out.push("");
  if (R.browser) {
    const b = R.browser;
    out.push(`Chromium (playwright-core, /usr/bin/chromium), page on one 127.0.0.1 origin, bench/server.mjs on another (CORS, \`Access-Control-Max-Age: 600\`, so preflights are cached). Ours: \`--target web\`, legacy and auto mode; TS 1.x and 2.x (legacy and auto) bundled by esbuild for the browser. ${R.params.browser.seq} sequential calls, then ${R.params.browser.tput} calls 16 in flight (Chromium allows 6 HTTP/1.1 connections per origin, so 16 in flight queue in the browser for every client); median of ${R.params.browser.rounds} rounds. \`performance.now()\` is coarsened to 0.1 ms in a page that is not cross-origin isolated.`);
    out.push("");
    out.push("| figure | better | ours (legacy) | ours (auto) | TS SDK 1.x | TS 2.x (legacy) | TS 2.x (auto) | fetch floor | ours/1.x | ours/2.x | ours auto / 2.x auto | A/A: 1.x / 1.x | floor/1.x | floor/2.x |");
    out.push("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (const [label, key, better] of [["sequential callTool p50 (ms)", "p50", "lower"], ["sequential callTool p99 (ms)", "p99", "lower"], ["throughput, 16 in flight (calls/s)", "tput16", "higher"]]) {
      const v = (id) => b[id]?.[key];
      const r1 = ratio(v("ours"), v("ts1"), better);
      const r2 = ratio(v("ours"), v("ts2"), better);
      const r3 = ratio(v("ours-auto"), v("ts2-auto"), better);
      const aa = aaRatio(v);
      for (const [r, who] of [[r1, "1.x"], [r2, "2.x"], [r3, "2.x auto (2026 era)"]]) if (r.endsWith("✗")) LOSSES.push(`Chromium: ${label}: ours/${who} = ${r.replace(" ✗", "")}`);
      out.push(`| ${label} | ${better} | ${["ours", "ours-auto", "ts1", "ts2", "ts2-auto", "floor"].map((id) => f(v(id))).join(" | ")} | ${r1} | ${r2} | ${r3} | ${aa} | ${floorRatio(v, "ts1")} | ${floorRatio(v, "ts2")} |`);
    }
  } else out.push("_not run_");
  out.push("");
  out.push("## Parsers: our SSE parser + JSON-RPC decode (criterion, native) vs eventsource-parser + JSON.parse (Node)");
  out.push("");
  out.push("Same input on both sides: the `stream` tool's body (10 000 `notifications/message` events, ~1.6 MB) fed in 4 KiB chunks, and the 1 MiB `big` result body. `bench/native/parsers.rs` (criterion) vs `bench/parser.mjs` (the TS SDK's pipeline: `TextDecoderStream` → `EventSourceParserStream`, then `JSON.parse`, and with the SDK 1.x's `JSONRPCMessageSchema` zod parse that its transport does on every message). Native Rust is not what runs in the browser: the wasm build of the same code is slower (the end-to-end stream figure above is the real one).");
  out.push("");
  const c = R.criterion ?? {};
  const j = R.parserJs ?? {};
  out.push("| work | ours, native (MiB/s) | JS (MiB/s) | ours/JS |");
  out.push("|---|--:|--:|--:|");
  const pairs = [
    ["SSE parse only, 4 KiB chunks", "sse/parse_4k", "sseParse"],
    ["JSON-RPC decode of each event (ours: decode(); JS: JSON.parse)", "decode/events", "jsonParseEvents"],
    ["SSE parse + decode (JS: + JSON.parse)", "sse_decode/stream_4k", "sseAndJsonParse"],
    ["SSE parse + decode (JS: + JSON.parse + zod JSONRPCMessageSchema)", "sse_decode/stream_4k", "sseAndJsonParseZod"],
    ["decode a 1 MiB result body", "decode/big_1mib", "jsonParseBig"],
  ];
  for (const [label, ck, jk] of pairs) out.push(`| ${label} | ${f(c[ck]?.MBps, 1)} | ${f(j[jk]?.MBps, 1)} | ${ratio(c[ck]?.MBps, j[jk]?.MBps, "higher")} |`);
  if (!R.criterion) out.push(`\n_criterion not run in this mode; run \`cargo bench --bench parsers\` (or the full \`node bench/run.mjs\`)._`);
  out.push("");
  if (R.profiles) {
    out.push("## CPU profiles (V8 CPU profiler, one child process each)");
    out.push("");
    out.push("The profile (the same `Profiler` as `node --cpu-prof`, via `node:inspector`, 200 µs sampling) covers only the measured loop, after import, connect and warm-up. Self time by category, as % of non-idle samples; top functions by self time (wasm functions are unnamed in the release build). Re-create one with `BENCH_PROFILE=/tmp/p.cpuprofile node bench/child.mjs seq ours-legacy <url> 3000` and `node bench/profile.mjs /tmp/p.cpuprofile`.");
    out.push("");
    for (const [name, p] of Object.entries(R.profiles)) {
      const cats = p.categories.filter((x) => x.pctBusy !== null && x.pctBusy >= 1).map((x) => `${x.name} ${x.pctBusy.toFixed(0)} %`).join(", ");
      const top = p.top.slice(0, 5).map((x) => `\`${x.name}\` ${x.pctBusy.toFixed(0)} %`).join(", ");
      out.push(`* **${name}** (busy ${p.busyMs.toFixed(0)} of ${p.totalMs.toFixed(0)} ms): ${cats}. Top functions: ${top}.`);
    }
    out.push("");
    out.push(...ownCodeBound(R.profiles));
  }
  out.push("## Where we lose");
  out.push("");
  out.push(LOSSES.length ? "Measured in this run (> 5 % worse than the TS client named):\n\n" + LOSSES.map((l) => `* ${l}`).join("\n") : "No figure in this run is more than 5 % worse than a TS client.");
  out.push("");
  const analysis = path.join(here, "analysis.md");
  if (fs.existsSync(analysis)) out.push(fs.readFileSync(analysis, "utf8").trim(), "");
  if (R.warnings && Object.keys(R.warnings).length) {
    out.push("## Process warnings seen during the in-process run");
    out.push("");
    out.push(Object.entries(R.warnings).map(([k, n]) => `* ${n}× ${k}`).join("\n"));
    out.push("");
    out.push("Run alone (`node bench/leakcheck.mjs ts1 ts2`), 1 700 sequential calls: TS SDK 1.x and TS 2.x both trip it at 1 501 listeners (whether it fires depends on when the GC runs) (stack: `StreamableHTTPClientTransport.send` → `fetch` → undici `new Request` → `addAbortListener` on the transport's one long-lived `AbortSignal`; Node 20's undici drops those listeners only when the Request is garbage-collected); ours never does (it makes one `AbortController` per exchange).");
    out.push("");
  }
  if (R.failures?.length) {
    out.push("## Failures in this run");
    out.push("");
    out.push(R.failures.map((x) => `* ${x}`).join("\n"));
    out.push("");
  }
  out.push("## Reproduce");
  out.push("");
  out.push("```sh");
  out.push("export PATH=/work/main/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH");
  out.push("bash scripts/build-wasm.sh nodejs /tmp/bench-pkg-node");
  out.push("bash scripts/build-wasm.sh web /tmp/bench-pkg-web");
  out.push("(cd bench && npm ci)");
  out.push("PEERS_RUN_DIR=/tmp/peers-bench PEERS_PYTHON_PORT=18701 PEERS_TS_PORT=18702 PEERS_EVERYTHING_PORT=18703 PEERS_MISBEHAVE_PORT=18704 PEERS_PYTHON_SSE_PORT=18705 tests/peers/peers.sh start");
  out.push("node bench/run.mjs            # full: writes bench/RESULTS.md and bench/results.json");
  out.push("node bench/run.mjs --quick    # smoke (< 30 s), exits 1 if any client fails");
  out.push("cargo bench --bench parsers   # criterion alone;  node bench/parser.mjs  for the JS side");
  out.push("PEERS_RUN_DIR=/tmp/peers-bench tests/peers/peers.sh stop");
  out.push("```");
  out.push("");
  return out.join("\n");
}

// `node bench/report.mjs [results.json] [RESULTS.md]`: re-render without re-running (e.g. after
// editing analysis.md).
import { pathToFileURL } from "node:url";
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const src = process.argv[2] ?? path.join(here, "results.json");
  const dst = process.argv[3] ?? path.join(here, "RESULTS.md");
  fs.writeFileSync(dst, renderResults(JSON.parse(fs.readFileSync(src, "utf8"))));
  console.log(`wrote ${dst}`);
}

// What the sequential profiles say a client's own code can win: CPU per call split into the
// client's own code (ours: wasm + glue; TS: the SDK, zod, ajv, eventsource-parser) and the rest
// (fetch, Node, web streams, GC), which every client pays. "ours with own code free" is ours'
// rest / the TS client's whole busy time: no change to our code can take the ratio below it.
export function ownCodeBound(profiles) {
  const OWN = new Set(["wasm (our Rust code)", "wasm-bindgen JS glue", "TS SDK", "zod (validation)", "ajv", "eventsource-parser"]);
  const perCall = (name) => {
    const p = profiles[name];
    if (!p?.calls) return null;
    const own = p.categories.filter((c) => OWN.has(c.name)).reduce((a, c) => a + c.ms, 0);
    return { busy: p.busyMs / p.calls, own: own / p.calls, rest: (p.busyMs - own) / p.calls };
  };
  const pairs = [
    ["seq ours-legacy", "seq ts1"],
    ["seq ours-legacy", "seq ts2"],
    ["seq ours-auto", "seq ts2-auto"],
  ].filter(([a, b]) => perCall(a) && perCall(b));
  if (!pairs.length) return [];
  const us = (x) => (x * 1000).toFixed(0);
  const out = [
    "### CPU per sequential call: the client's own code and the rest",
    "",
    "From the `seq` profiles above (µs of busy CPU per call). *Own* is ours' wasm + glue, or the TS SDK + zod; *rest* is fetch (undici), Node internals, web streams and GC, which every client pays. The last column is the CPU ratio ours would reach if our own code cost nothing: no change to our code alone can go below it.",
    "",
    "| ours vs | ours busy | ours own | ours rest | theirs busy | theirs own | theirs rest | busy ratio | ours with own code free |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const [a, b] of pairs) {
    const o = perCall(a), t = perCall(b);
    out.push(`| ${b.replace("seq ", "")} (${a.replace("seq ", "")}) | ${us(o.busy)} | ${us(o.own)} | ${us(o.rest)} | ${us(t.busy)} | ${us(t.own)} | ${us(t.rest)} | ${(o.busy / t.busy).toFixed(2)} | ${(o.rest / t.busy).toFixed(2)} |`);
  }
  out.push("");
  return out;
}
