// Benchmarks mcp-wasm-client against the official TypeScript MCP SDK clients (1.x and 2.x).
//
//   node bench/run.mjs            full run (a few minutes), writes bench/RESULTS.md + bench/results.json
//   node bench/run.mjs --quick    smoke run (< 30 s): every figure with tiny counts, exits 1 if any
//                                 client fails; writes /tmp/bench-quick-RESULTS.md (not RESULTS.md)
//   options: --no-browser --no-python --no-criterion --no-profile --out FILE
//
// Needs: the nodejs and web packages (built to $BENCH_PKG_NODE=/tmp/bench-pkg-node and
// $BENCH_PKG_WEB=/tmp/bench-pkg-web, see RESULTS.md), `npm ci` in bench/, the Python peer at
// $BENCH_PYTHON_URL (default http://127.0.0.1:18701/mcp, tests/peers/peers.sh; skipped with a note
// when it is not up), /usr/bin/chromium for the browser figure, cargo for criterion.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import zlib from "node:zlib";
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startServer, streamBytes } from "./server.mjs";
import { CLIENTS, PKG_NODE, PKG_WEB, makeClient, loadClient, deadline, checkResult } from "./clients.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const argv = process.argv.slice(2);
const flag = (f) => argv.includes(f);
const QUICK = flag("--quick");
const outIdx = argv.indexOf("--out");
const OUT = outIdx >= 0 ? argv[outIdx + 1] : QUICK ? "/tmp/bench-quick-RESULTS.md" : path.join(here, "RESULTS.md");
const PYTHON_URL = process.env.BENCH_PYTHON_URL ?? "http://127.0.0.1:18701/mcp";
const T_START = performance.now();

// Counts. Full: medians over ROUNDS rounds (clients interleaved, order rotated each round).
// 5 rounds, 30 connects and 25 calls of 1 MiB per round: with 3 rounds, 10 connects and 5 calls,
// one GC pause moved a median by 2x (the TS 1.x A/A ratio was 2.36 on the 1 MiB row, 1.47 on connect).
// Against the Python peer, 4 rounds of 15 connects (2 of 5 left connect ratios 1.0–1.4 run to run).
const P = QUICK
  ? { rounds: 1, connects: 2, warmup: 3, seq: 20, tput: { 1: 20, 16: 32, 64: 64 }, big: 2, stream: 1, streamCount: 1_000, mrtr: 3,
      py: { rounds: 1, connects: 1, seq: 10, tput: { 1: 10, 16: 16, 64: 64 } }, cold: 1, memCalls: 200, browser: { warmup: 3, seq: 20, tput: 32, rounds: 1 } }
  : { rounds: 5, connects: 30, warmup: 30, seq: 500, tput: { 1: 500, 16: 1000, 64: 1000 }, big: 25, stream: 2, streamCount: 10_000, mrtr: 30,
      py: { rounds: 4, connects: 15, seq: 150, tput: { 1: 200, 16: 300, 64: 300 } }, cold: 10, memCalls: 10_000, browser: { warmup: 30, seq: 500, tput: 1000, rounds: 3 } };

// Process warnings (the TS SDK clients trip Node's MaxListenersExceededWarning: undici adds an
// abort listener per fetch to the transport's long-lived AbortSignal) are counted, not printed.
const warnings = new Map();
process.removeAllListeners("warning");
process.on("warning", (w) => {
  const k = `${w.name}: ${w.message.replace(/\d+ abort listeners/, "N abort listeners")}`;
  warnings.set(k, (warnings.get(k) ?? 0) + 1);
});

const failures = [];
const log = (...a) => console.log(`[${((performance.now() - T_START) / 1000).toFixed(1)}s]`, ...a);
const median = (xs) => {
  const v = xs.filter((x) => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const now = () => performance.now();

async function guarded(what, fn, ms = 120_000) {
  try {
    return await deadline(fn(), ms, what);
  } catch (e) {
    failures.push(`${what}: ${String(e?.message ?? e).split("\n")[0]}`);
    log(`FAIL ${what}: ${String(e?.message ?? e).split("\n")[0]}`);
    return null;
  }
}

// ---- the figures (one client, one measurement) -----------------------------------------------------

const ECHO_ARGS = { text: "hi" };

async function connected(id, url) {
  const h = await makeClient(id, url);
  await h.connect();
  return h;
}
async function figConnect(id, url, n) {
  const ts = [];
  for (let i = 0; i < n; i++) {
    const h = await makeClient(id, url);
    const s = now();
    await h.connect();
    ts.push(now() - s);
    await h.close();
  }
  return { connectMs: median(ts) };
}
async function figSeq(id, url, warm, n) {
  const h = await connected(id, url);
  try {
    for (let i = 0; i < warm; i++) checkResult(await h.call("echo", ECHO_ARGS), "warmup");
    const lat = [];
    for (let i = 0; i < n; i++) {
      const s = now();
      checkResult(await h.call("echo", ECHO_ARGS), "seq");
      lat.push(now() - s);
    }
    lat.sort((a, b) => a - b);
    return { p50: pct(lat, 50), p99: pct(lat, 99) };
  } finally {
    await h.close();
  }
}
async function figTput(id, url, warm, inflight, total) {
  const h = await connected(id, url);
  try {
    for (let i = 0; i < warm; i++) checkResult(await h.call("echo", ECHO_ARGS), "warmup");
    let next = 0;
    const s = now();
    await Promise.all(
      Array.from({ length: inflight }, async () => {
        while (next < total) {
          next++;
          checkResult(await h.call("echo", ECHO_ARGS), "tput");
        }
      }),
    );
    return { [`tput${inflight}`]: total / ((now() - s) / 1000) };
  } finally {
    await h.close();
  }
}
async function figBig(id, url, n) {
  const h = await connected(id, url);
  try {
    checkResult(await h.call("big", {}), "big warmup");
    const ts = [];
    for (let i = 0; i < n; i++) {
      const s = now();
      const r = checkResult(await h.call("big", {}), "big");
      ts.push(now() - s);
      if (r.content[0].text.length !== 1 << 20) throw new Error(`big: got ${r.content[0].text.length} chars`);
    }
    return { bigMBps: (1 << 20) / 1048576 / (median(ts) / 1000) };
  } finally {
    await h.close();
  }
}
async function figStream(id, url, n, count) {
  const h = await connected(id, url);
  try {
    const ts = [];
    for (let i = 0; i < n; i++) {
      const before = h.notifications;
      const s = now();
      checkResult(await h.call("stream", { count }), "stream");
      ts.push(now() - s);
      if (h.notifications - before !== count) throw new Error(`stream: ${h.notifications - before} notifications delivered, expected ${count}`);
    }
    const sec = median(ts) / 1000;
    return { streamMBps: streamBytes(count) / 1048576 / sec, streamEvps: count / sec };
  } finally {
    await h.close();
  }
}
async function figMrtr(id, url, n) {
  const h = await connected(id, url);
  try {
    const era = h.era();
    if (!String(era).includes("2026")) throw new Error(`mrtr: negotiated ${era}, not 2026-07-28`);
    const ts = [];
    for (let i = 0; i < n + 2; i++) {
      const before = h.elicitations;
      const s = now();
      const r = checkResult(await h.call("mrtr", {}), "mrtr");
      if (i >= 2) ts.push(now() - s);
      if (h.elicitations - before !== 2 || r.content[0].text !== "mrtr complete") throw new Error(`mrtr: ${h.elicitations - before} elicitations, result ${JSON.stringify(r.content)}`);
    }
    return { mrtrMs: median(ts) };
  } finally {
    await h.close();
  }
}

// ---- child processes (cold start, memory, profiles) -------------------------------------------------

function runChild(nodeArgs, childArgs, timeoutMs = 120_000) {
  return new Promise((resolve) => {
    const s = now();
    const p = spawn(process.execPath, [...nodeArgs, path.join(here, "child.mjs"), ...childArgs], { cwd: here, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    const t = setTimeout(() => p.kill("SIGKILL"), timeoutMs);
    p.on("close", (code) => {
      clearTimeout(t);
      const wallMs = now() - s;
      let r;
      try {
        r = JSON.parse(out.trim().split("\n").pop());
      } catch {
        r = { ok: false, error: `exit ${code}: ${err.slice(0, 500)}` };
      }
      resolve({ ...r, wallMs });
    });
  });
}
async function childFig(what, nodeArgs, args) {
  const r = await runChild(nodeArgs, args);
  if (!r.ok) {
    failures.push(`${what}: ${String(r.error).split("\n")[0]}`);
    log(`FAIL ${what}: ${String(r.error).split("\n").slice(0, 3).join(" | ")}`);
    return null;
  }
  return r;
}

/** `n` runs of childFig; each numeric field is the median of the runs (null if none succeeded). */
async function medianChildFig(what, nodeArgs, args, n) {
  const rs = [];
  for (let i = 0; i < n; i++) {
    const r = await childFig(what, nodeArgs, args);
    if (r) rs.push(r);
  }
  if (!rs.length) return null;
  const out = { ...rs[0] };
  for (const [k, v] of Object.entries(out)) if (typeof v === "number") out[k] = median(rs.map((r) => r[k]));
  return out;
}

// ---- bundles ------------------------------------------------------------------------------------------

const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const BUNDLE_DIR = "/tmp/bench-bundles";
const ENTRIES = {
  ts1: `export { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";\n`,
  ts2: `export { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";\n`,
};
async function buildBundles() {
  const esbuild = await import("esbuild");
  fs.mkdirSync(BUNDLE_DIR, { recursive: true });
  const sizes = {};
  for (const [name, contents] of Object.entries(ENTRIES)) {
    for (const platform of ["node", "browser"]) {
      const outfile = path.join(BUNDLE_DIR, `${name}.${platform}.js`);
      await esbuild.build({
        stdin: { contents, resolveDir: here, loader: "js" },
        bundle: true,
        minify: true,
        format: "esm",
        platform,
        target: platform === "node" ? "node20" : "es2022",
        outfile,
        logLevel: "error",
        // node builtins stay external on node; in the browser the SDK's node-only paths are shimmed
        ...(platform === "node" ? { packages: undefined } : {}),
      });
      const buf = fs.readFileSync(outfile);
      sizes[`${name}.${platform}`] = { raw: buf.length, gzip: gz(buf) };
    }
  }
  for (const [name, dir] of [["ours.node", PKG_NODE], ["ours.web", PKG_WEB]]) {
    const wasm = fs.readFileSync(path.join(dir, "mcp_wasm_client_bg.wasm"));
    const glue = fs.readFileSync(path.join(dir, "mcp_wasm_client.js"));
    const snippets = listFiles(path.join(dir, "snippets")).map((f) => fs.readFileSync(f));
    const js = Buffer.concat([glue, ...snippets]);
    sizes[name] = { raw: wasm.length + js.length, gzip: gz(wasm) + gz(js), wasmGzip: gz(wasm), jsGzip: gz(js) };
  }
  return sizes;
}
function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

// ---- browser -------------------------------------------------------------------------------------------

function startStatic() {
  const types = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, "http://x");
    let file;
    if (u.pathname === "/") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end(`<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="/page.mjs"></script>`);
    }
    if (u.pathname === "/page.mjs") file = path.join(here, "browser-page.mjs");
    else if (u.pathname === "/floor.mjs") file = path.join(here, "floor-client.mjs");
    else if (u.pathname.startsWith("/ours/")) file = path.join(PKG_WEB, u.pathname.slice(6));
    else if (u.pathname.startsWith("/bundles/")) file = path.join(BUNDLE_DIR, path.basename(u.pathname));
    if (!file || file.includes("..") || !fs.existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { "Content-Type": types[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({ server, origin: `http://127.0.0.1:${server.address().port}` })));
}
async function browserFigures(mcpUrl) {
  const { chromium } = await import("playwright-core");
  const st = await startStatic();
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-quic", "--no-first-run"],
  });
  const out = {};
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(st.origin + "/");
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30_000 }).catch((e) => {
      throw new Error(`page did not load: ${errors.join("; ") || e.message}`);
    });
    const ids = ["ours", "ours-auto", "ts1", "ts2", "ts2-auto", "ts1-aa", "floor"];
    const per = Object.fromEntries(ids.map((i) => [i, []]));
    for (let r = 0; r < P.browser.rounds; r++) {
      for (const id of rotate(ids, r)) {
        const v = await guarded(`browser ${id}`, () => page.evaluate(([id, url, o]) => window.benchRun(id, url, o), [id, mcpUrl, P.browser]), 120_000);
        if (v) per[id].push(v);
      }
    }
    for (const id of ids) out[id] = { p50: median(per[id].map((v) => v.p50)), p99: median(per[id].map((v) => v.p99)), tput16: median(per[id].map((v) => v.tput16)) };
  } finally {
    await browser.close();
    st.server.close();
  }
  return out;
}

// ---- criterion + eventsource-parser ------------------------------------------------------------------

function sh(cmd, args, opts = {}) {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...opts }).trim();
  } catch (e) {
    return null;
  }
}
function criterionFigures() {
  const env = { ...process.env, PATH: `${os.homedir()}/.cargo/bin:${process.env.PATH}`, CARGO_TARGET_DIR: process.env.BENCH_CARGO_TARGET_DIR ?? "/tmp/bench-target-native" };
  log("cargo bench --bench parsers (criterion; first run compiles) ...");
  try {
    execFileSync("cargo", ["bench", "--bench", "parsers", "--", "--warm-up-time", "1", "--measurement-time", "3"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 });
  } catch (e) {
    failures.push(`criterion: ${String(e.stderr ?? e).slice(-300)}`);
    return null;
  }
  const dir = path.join(env.CARGO_TARGET_DIR, "criterion");
  const out = {};
  for (const group of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const gdir = path.join(dir, group);
    for (const bench of fs.readdirSync(gdir)) {
      const est = path.join(gdir, bench, "new", "estimates.json");
      const bm = path.join(gdir, bench, "new", "benchmark.json");
      if (!fs.existsSync(est) || !fs.existsSync(bm)) continue;
      const e = JSON.parse(fs.readFileSync(est, "utf8"));
      const b = JSON.parse(fs.readFileSync(bm, "utf8"));
      const bytes = b.throughput?.Bytes ?? b.throughput?.BytesDecimal;
      if (!bytes) continue;
      out[`${group}/${bench}`] = { MBps: bytes / 1048576 / (e.median.point_estimate / 1e9), medianMs: e.median.point_estimate / 1e6 };
    }
  }
  return out;
}
async function parserJsFigures() {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(here, "parser.mjs"), "--json", ...(QUICK ? ["--quick"] : [])], { cwd: here, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    const t = setTimeout(() => p.kill("SIGKILL"), 120_000);
    p.on("close", (code) => {
      clearTimeout(t);
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()));
      } catch {
        failures.push(`parser.mjs: exit ${code}`);
        resolve(null);
      }
    });
  });
}

// ---- profiles --------------------------------------------------------------------------------------------

async function profiles(url) {
  const { summarize } = await import("./profile.mjs");
  const dir = fs.mkdtempSync("/tmp/bench-prof-");
  const out = {};
  const jobs = [
    ["seq ours-legacy", "seq", "ours-legacy", 3000],
    ["seq ts2", "seq", "ts2", 3000],
    ["seq ours-auto", "seq", "ours-auto", 3000],
    ["seq ts2-auto", "seq", "ts2-auto", 3000],
    ["seq ts1", "seq", "ts1", 3000],
    ["big ours-legacy", "big", "ours-legacy", 30],
    ["big ts2", "big", "ts2", 30],
    ["stream ours-legacy", "stream", "ours-legacy", 5],
    ["stream ts2", "stream", "ts2", 5],
  ].slice(0, QUICK ? 1 : undefined); // quick: one tiny profile, just to exercise the path
  if (QUICK) jobs[0][3] = 20;
  for (const [name, task, id, n] of jobs) {
    const file = path.join(dir, `${name.replace(/\W+/g, "-")}.cpuprofile`);
    process.env.BENCH_PROFILE = file;
    const r = await childFig(`profile ${name}`, [], [task, id, url, String(n), String(P.streamCount)]);
    delete process.env.BENCH_PROFILE;
    if (r && fs.existsSync(file)) out[name] = { ...summarize(file, 8), file, calls: task === "seq" ? n : undefined };
  }
  return out;
}

// ---- environment -------------------------------------------------------------------------------------

function environment() {
  const cpuinfo = fs.readFileSync("/proc/cpuinfo", "utf8");
  const meminfo = fs.readFileSync("/proc/meminfo", "utf8");
  const pkgVersion = (p) => JSON.parse(fs.readFileSync(path.join(here, "node_modules", p, "package.json"), "utf8")).version;
  const cargoToml = fs.readFileSync(path.join(root, "Cargo.toml"), "utf8");
  const lock = fs.readFileSync(path.join(root, "Cargo.lock"), "utf8");
  return {
    cpu: cpuinfo.match(/model name\s*:\s*(.*)/)?.[1] ?? "?",
    cores: os.cpus().length,
    memGiB: (Number(meminfo.match(/MemTotal:\s*(\d+)/)[1]) / 1048576).toFixed(1),
    load: os.loadavg().map((x) => x.toFixed(2)).join(" "),
    node: process.version,
    rustc: sh(path.join(os.homedir(), ".cargo/bin/rustc"), ["--version"]) ?? sh("rustc", ["--version"]) ?? "?",
    crate: cargoToml.match(/^version\s*=\s*"([^"]+)"/m)?.[1],
    wasmBindgen: lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/)?.[1],
    ts1: pkgVersion("@modelcontextprotocol/sdk"),
    ts2: pkgVersion("@modelcontextprotocol/client"),
    esbuild: pkgVersion("esbuild"),
    eventsourceParser: pkgVersion("eventsource-parser"),
    playwright: pkgVersion("playwright-core"),
    chromium: (sh("/usr/bin/chromium", ["--version"]) ?? "?").split("\n")[0],
    python: sh("python3", ["-c", "import importlib.metadata as m; print(m.version('mcp'))"]) ?? "?",
  };
}

const rotate = (xs, r) => xs.map((_, i) => xs[(i + r) % xs.length]);

// ---- main ------------------------------------------------------------------------------------------------

async function suite(label, url, ids, p, withPayloads) {
  const per = {}; // id -> metric -> [values]
  const add = (id, v) => {
    if (!v) return;
    per[id] ??= {};
    for (const [k, x] of Object.entries(v)) (per[id][k] ??= []).push(x);
  };
  for (let r = 0; r < p.rounds; r++) {
    log(`${label}: round ${r + 1}/${p.rounds}`);
    for (const id of rotate(ids, r)) {
      add(id, await guarded(`${label} connect ${id}`, () => figConnect(id, url, p.connects)));
      add(id, await guarded(`${label} seq ${id}`, () => figSeq(id, url, P.warmup, p.seq)));
      for (const c of [1, 16, 64]) add(id, await guarded(`${label} tput${c} ${id}`, () => figTput(id, url, P.warmup, c, p.tput[c])));
      if (withPayloads) add(id, await guarded(`${label} big ${id}`, () => figBig(id, url, P.big)));
      // The floor client reads no event streams and answers no input requests.
      if (withPayloads && CLIENTS[id].kind !== "floor") {
        add(id, await guarded(`${label} stream ${id}`, () => figStream(id, url, P.stream, P.streamCount)));
        if (id.endsWith("auto")) add(id, await guarded(`${label} mrtr ${id}`, () => figMrtr(id, url, P.mrtr)));
      }
    }
  }
  const med = {};
  for (const [id, m] of Object.entries(per)) {
    med[id] = {};
    for (const [k, xs] of Object.entries(m)) med[id][k] = median(xs);
  }
  return med;
}

async function pythonUp() {
  try {
    const r = await fetch(PYTHON_URL, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "probe", version: "0" } } }), signal: AbortSignal.timeout(3000) });
    await r.body?.cancel();
    return r.ok;
  } catch {
    return false;
  }
}

async function main() {
  log(`mode: ${QUICK ? "quick" : "full"}; packages ${PKG_NODE} and ${PKG_WEB}`);
  for (const f of [path.join(PKG_NODE, "mcp_wasm_client.js"), path.join(PKG_WEB, "mcp_wasm_client.js")])
    if (!fs.existsSync(f)) throw new Error(`${f} missing: build the packages first (see bench/RESULTS.md)`);
  const env = environment();
  const srv = await startServer(0);
  log(`bench server ${srv.url}`);
  const ids = Object.keys(CLIENTS);
  for (const id of ids) await loadClient(id); // module load is not part of the in-process figures
  const results = { env, quick: QUICK, params: P, started: new Date().toISOString() };
  try {
    results.bench = await suite("bench-server", srv.url, ids, P, true);

    if (!flag("--no-python")) {
      if (await pythonUp()) results.python = await suite("python-peer", PYTHON_URL, ids, { ...P.py }, false);
      else {
        results.pythonSkipped = `Python peer not reachable at ${PYTHON_URL}`;
        failures.push(results.pythonSkipped);
      }
    }

    log("cold start (child processes)");
    results.cold = {};
    for (const id of ["ours-legacy", "ts1", "ts2"]) {
      const rs = [];
      for (let i = 0; i < P.cold; i++) {
        const r = await childFig(`cold ${id}`, [], ["cold", id, srv.url]);
        if (r) rs.push(r);
      }
      if (rs.length) results.cold[id] = { wallMs: median(rs.map((r) => r.wallMs)), importMs: median(rs.map((r) => r.importMs)), connectMs: median(rs.map((r) => r.connectMs)), callMs: median(rs.map((r) => r.callMs)), inProcessMs: median(rs.map((r) => r.totalMs)) };
    }

    log(`memory (child processes): ${P.memCalls} calls, 1 MiB, 10k-event stream`);
    results.mem = {};
    for (const id of ["ours-legacy", "ts1", "ts2"]) {
      if (QUICK) {
        const r = await childFig(`mem ${id}`, ["--expose-gc"], ["all", id, srv.url, String(P.memCalls), String(P.streamCount)]);
        results.mem[id] = r ? { calls: r.calls, big: r.big, stream: r.stream } : {};
        continue;
      }
      results.mem[id] = {
        calls: await childFig(`mem calls ${id}`, ["--expose-gc"], ["calls", id, srv.url, String(P.memCalls)]),
        // Peak RSS of one child moved by ±20 % from run to run (30–43 MB for the same build): the
        // median of 3 children.
        big: await medianChildFig(`mem big ${id}`, ["--expose-gc"], ["big", id, srv.url, "5"], 3),
        stream: await medianChildFig(`mem stream ${id}`, ["--expose-gc"], ["stream", id, srv.url, "1", String(P.streamCount)], 3),
      };
    }

    log("bundles (esbuild, gzip -9)");
    results.bundles = await guarded("bundles", buildBundles);

    if (!flag("--no-browser")) {
      log("headless Chromium");
      results.browser = await guarded("browser", () => browserFigures(srv.url), 600_000);
    }

    if (!flag("--no-profile")) {
      log("cpu profiles (V8 profiler of the measured loop, child processes)");
      results.profiles = await guarded("profiles", () => profiles(srv.url), 300_000);
    }

    log("parsers: eventsource-parser + JSON.parse in Node");
    results.parserJs = await parserJsFigures();
    if (!QUICK && !flag("--no-criterion")) results.criterion = criterionFigures();
    else if (fs.existsSync("/tmp/bench-target-native/criterion")) results.criterionNote = "criterion not run in this mode";
  } finally {
    await srv.close();
  }
  results.elapsedS = (performance.now() - T_START) / 1000;
  results.failures = failures;
  results.warnings = Object.fromEntries(warnings);
  const { renderResults } = await import("./report.mjs");
  fs.writeFileSync(OUT, renderResults(results));
  fs.writeFileSync(OUT.replace(/\.md$/, ".json").replace(/RESULTS\.json$/, "results.json"), JSON.stringify(results, null, 2));
  log(`wrote ${OUT} (${results.elapsedS.toFixed(1)} s)`);
  if (failures.length) {
    console.error(`${failures.length} failure(s):\n  ${failures.join("\n  ")}`);
    process.exit(1);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
