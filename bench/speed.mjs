// The speed rows of issue 42 alone, A/B against the TS 2.x client in one process: sequential p50,
// calls/s with 1, 16 and 64 calls in flight, and 1 MiB results, each with JSON answers and with
// SSE answers (bench/server.mjs's /mcp-sse sends every answer as a one-event stream).
//
//   node bench/speed.mjs [--rounds 7] [--mode legacy|auto|both] [--only seq,tput1,…] [--json FILE]
//                        [--pkg DIR [--pkg DIR2]] [--in-process] [--quick]
//
// The server runs in a child process (--in-process: in this one, as run.mjs has it, so its cost
// is in every figure). Each round connects every client once per answer kind, then runs each row
// for every client in turn, the order rotated from row to row and round to round, so drift and
// other work on the machine hit every client alike. A row's figure is the median over rounds of
// that round's ratio to TS 2.x (time: ours ÷ TS, ≤ 1 is at or below TS's time; rates: ours ÷ TS,
// ≥ 1 is at or above TS's rate), next to the median of each client's own figure.
// Packages: --pkg (repeatable, to compare builds in the same rounds), else $BENCH_PKG_NODE.
import fs from "node:fs";
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeClient, checkResult, PKG_NODE, TIMEOUT_MS } from "./clients.mjs";

const argv = process.argv.slice(2);
const opt = (name, d) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : d);
const QUICK = argv.includes("--quick");
const ROUNDS = Number(opt("--rounds", QUICK ? 1 : 7));
const MODES = { legacy: ["legacy"], auto: ["auto"], both: ["legacy", "auto"] }[opt("--mode", "legacy")];
const ROWS = ["seq", "tput1", "tput16", "tput64", "big"];
const ONLY = opt("--only", ROWS.join(",")).split(",");
const KINDS = opt("--answers", "json,sse").split(",");
const pkgs = argv.flatMap((a, i) => (argv[i - 1] === "--pkg" ? [a] : []));
if (!pkgs.length) pkgs.push(PKG_NODE);
// Per block: seq calls and tput calls of each client; big: 1 MiB calls per client per round.
const N = QUICK
  ? { warm: 5, blocks: 2, seq: 10, tput: { 1: 10, 16: 32, 64: 64 }, big: 2 }
  : { warm: 30, blocks: 10, seq: 40, tput: { 1: 40, 16: 96, 64: 192 }, big: 12 };
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ECHO = { text: "hi" };

const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

async function startServer() {
  if (argv.includes("--in-process")) {
    const { startServer } = await import("./server.mjs");
    const s = await startServer(0);
    return { base: `http://127.0.0.1:${s.port}`, stop: () => s.close() };
  }
  const port = 19000 + Math.floor(Math.random() * 500);
  const child = spawn(process.execPath, [path.join(here, "server.mjs"), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((ok) => child.stdout.once("data", ok));
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** A client of ours from the package at `dir`, with clients.mjs's options. */
function ours(dir, mode, url) {
  const { Client } = require(path.resolve(dir));
  const c = new Client(url, { mode, clientInfo: { name: "bench", version: "1.0.0" }, timeoutMs: TIMEOUT_MS, loggingCallback: () => {} });
  return { connect: () => c.connect(), call: (n, a) => c.callTool(n, a), close: () => c.close() };
}

// Each row runs in BLOCKS small blocks per round, every client in turn per block (the order
// rotated block to block): a burst of other work on the machine lands on every client alike.
// The figure of a round: the median latency over all its blocks (seq), calls over summed time
// (tput), 1 MiB calls over the median call (big).
const rows = {
  async seq(hs, order) {
    const lat = new Map(order.map((id) => [id, []]));
    const cpu = new Map(order.map((id) => [id, 0]));
    for (let b = 0; b < N.blocks; b++) {
      for (const id of rotate(order, b)) {
        const h = hs[id];
        const c0 = process.cpuUsage();
        for (let i = 0; i < N.seq; i++) {
          const s = performance.now();
          checkResult(await h.call("echo", ECHO), "seq");
          lat.get(id).push(performance.now() - s);
        }
        const c = process.cpuUsage(c0);
        cpu.set(id, cpu.get(id) + c.user + c.system);
      }
    }
    cpuPerCall.push(Object.fromEntries([...cpu].map(([id, us]) => [id, us / (N.blocks * N.seq)])));
    return Object.fromEntries([...lat].map(([id, xs]) => [id, median(xs)]));
  },
  tput1: (hs, order) => tput(hs, order, 1),
  tput16: (hs, order) => tput(hs, order, 16),
  tput64: (hs, order) => tput(hs, order, 64),
  async big(hs, order) {
    const ts = new Map(order.map((id) => [id, []]));
    for (let b = 0; b < N.big; b++) {
      for (const id of rotate(order, b)) {
        const s = performance.now();
        const r = checkResult(await hs[id].call("big", {}), "big");
        ts.get(id).push(performance.now() - s);
        if (r.content[0].text.length !== 1 << 20) throw new Error(`big: ${r.content[0].text.length} chars`);
      }
    }
    return Object.fromEntries([...ts].map(([id, xs]) => [id, 1000 / median(xs)])); // MiB/s
  },
};
// CPU µs per sequential call of each client, per seq row run (the server is in another process
// unless --in-process): what each client's own work costs, which drift in wall time hides less.
const cpuPerCall = [];
const rotate = (xs, r) => xs.map((_, i) => xs[(i + r) % xs.length]);
async function tput(hs, order, inflight) {
  const spent = new Map(order.map((id) => [id, 0]));
  const total = N.tput[inflight];
  for (let b = 0; b < N.blocks; b++) {
    for (const id of rotate(order, b)) {
      const h = hs[id];
      let next = 0;
      const s = performance.now();
      await Promise.all(
        Array.from({ length: inflight }, async () => {
          while (next < total) {
            next++;
            checkResult(await h.call("echo", ECHO), "tput");
          }
        }),
      );
      spent.set(id, spent.get(id) + performance.now() - s);
    }
  }
  return Object.fromEntries([...spent].map(([id, ms]) => [id, (total * N.blocks) / (ms / 1000)]));
}
const UNIT = { seq: "ms p50", tput1: "calls/s", tput16: "calls/s", tput64: "calls/s", big: "MiB/s" };

const server = await startServer();
const out = { rounds: ROUNDS, counts: N, pkgs, inProcess: argv.includes("--in-process"), load: fs.readFileSync("/proc/loadavg", "utf8").trim(), rows: {} };
try {
  for (const mode of MODES) {
    const ids = ["ts2", ...pkgs.map((_, i) => `ours${i}`)];
    const fig = {}; // `${kind} ${row}` -> id -> [values]
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of KINDS) {
        const url = `${server.base}/${kind === "sse" ? "mcp-sse" : "mcp"}`;
        const handles = {};
        for (const id of ids) {
          if (id === "ts2") {
            const h = await makeClient(mode === "auto" ? "ts2-auto" : "ts2", url);
            handles[id] = h;
          } else handles[id] = ours(pkgs[Number(id.slice(4))], mode, url);
          await handles[id].connect();
          for (let i = 0; i < N.warm; i++) checkResult(await handles[id].call("echo", ECHO), "warm-up");
          checkResult(await handles[id].call("big", {}), "big warm-up");
        }
        for (const [k, row] of ROWS.filter((x) => ONLY.includes(x)).entries()) {
          const got = await rows[row](handles, rotate(ids, r + k));
          for (const id of ids) ((fig[`${kind} ${row}`] ??= {})[id] ??= []).push(got[id]);
        }
        for (const id of ids) await handles[id].close();
      }
      process.stderr.write(`${mode}: round ${r + 1}/${ROUNDS} done\n`);
    }
    console.log(`\n${mode} era, ${ROUNDS} rounds, server ${out.inProcess ? "in process" : "in a child process"}; load ${out.load}`);
    for (const [key, per] of Object.entries(fig)) {
      const row = key.split(" ")[1];
      const line = { unit: UNIT[row], ts2: median(per.ts2) };
      const parts = [`ts2 ${line.ts2.toFixed(row === "seq" ? 3 : 0)}`];
      pkgs.forEach((p, i) => {
        const mine = per[`ours${i}`];
        const ratios = mine.map((v, j) => v / per.ts2[j]);
        line[`ours${i}`] = { value: median(mine), ratio: median(ratios), ratios };
        parts.push(`${pkgs.length > 1 ? p : "ours"} ${median(mine).toFixed(row === "seq" ? 3 : 0)} (${median(ratios).toFixed(2)}x; rounds ${ratios.map((x) => x.toFixed(2)).join(" ")})`);
      });
      out.rows[`${mode} ${key}`] = line;
      console.log(`  ${key.padEnd(11)} ${UNIT[row].padEnd(8)} ${parts.join(", ")}`);
    }
    if (cpuPerCall.length) {
      const cpu = Object.fromEntries(ids.map((id) => [id, median(cpuPerCall.map((c) => c[id]))]));
      out.cpuPerCall = { ...out.cpuPerCall, [mode]: cpu };
      console.log(`  CPU per sequential call (µs, median of ${cpuPerCall.length} seq rows): ${ids.map((id) => `${id === "ts2" ? "ts2" : pkgs.length > 1 ? pkgs[Number(id.slice(4))] : "ours"} ${cpu[id].toFixed(0)}`).join(", ")}`);
      cpuPerCall.length = 0;
    }
  }
} finally {
  await server.stop();
}
if (opt("--json")) fs.writeFileSync(opt("--json"), JSON.stringify(out, null, 2));
process.exit(0);
