// A/B of two builds of this client in one process: sequential callTool latency against
// bench/server.mjs (in a child process), both eras, rounds interleaved so drift hits both alike.
//
//   node bench/ab.mjs <pkg-nodejs-A> <pkg-nodejs-B> [rounds=10] [calls=500]
//
// Prints per-mode median (over rounds) of each round's p50 and p90, and B/A.
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [a, b, roundsArg, callsArg] = process.argv.slice(2);
if (!a || !b) throw new Error("usage: node bench/ab.mjs <pkg-nodejs-A> <pkg-nodejs-B> [rounds] [calls]");
const ROUNDS = Number(roundsArg ?? 10);
const CALLS = Number(callsArg ?? 500);
const require = createRequire(import.meta.url);
const builds = { A: require(path.resolve(a)), B: require(path.resolve(b)) };
const here = path.dirname(fileURLToPath(import.meta.url));

const port = 18790 + Math.floor(Math.random() * 100);
const server = spawn(process.execPath, [path.join(here, "server.mjs"), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise((ok) => server.stdout.once("data", ok));
const url = `http://127.0.0.1:${port}/mcp`;

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

async function round(mod, mode) {
  const c = new mod.Client(url, { mode });
  await c.connect();
  for (let i = 0; i < 50; i++) await c.callTool("echo", { text: "hi" });
  const lat = [];
  for (let i = 0; i < CALLS; i++) {
    const s = performance.now();
    await c.callTool("echo", { text: "hi" });
    lat.push(performance.now() - s);
  }
  await c.close();
  lat.sort((x, y) => x - y);
  return { p50: pct(lat, 50), p90: pct(lat, 90) };
}

try {
  for (const mode of ["legacy", "auto"]) {
    const r = { A: { p50: [], p90: [] }, B: { p50: [], p90: [] } };
    for (let i = 0; i < ROUNDS; i++) {
      for (const id of i % 2 ? ["B", "A"] : ["A", "B"]) {
        const { p50, p90 } = await round(builds[id], mode);
        r[id].p50.push(p50);
        r[id].p90.push(p90);
      }
    }
    const m = (id, k) => median(r[id][k]);
    console.log(
      `${mode}: p50 A ${m("A", "p50").toFixed(3)} ms, B ${m("B", "p50").toFixed(3)} ms, B/A ${(m("B", "p50") / m("A", "p50")).toFixed(2)}; ` +
        `p90 A ${m("A", "p90").toFixed(3)} ms, B ${m("B", "p90").toFixed(3)} ms, B/A ${(m("B", "p90") / m("A", "p90")).toFixed(2)}`,
    );
  }
} finally {
  server.kill();
}
