// The 1 MiB row in isolation: calls/s of the `big` tool (one 1 MiB text block, application/json)
// for the fetch floor and one or more builds of this client in one process, each client's calls
// in a block per round as run.mjs measures them (the order rotating each round), or with
// --by-call interleaved one by one (bench/big-loop.mjs); each build's ratio to the floor in the
// same round is the figure issue 23 asks for.
//
//   node bench/big.mjs <pkg-nodejs> [<pkg-nodejs>…] [--rounds 7] [--calls 30] [--mode legacy]
//   node bench/big.mjs --browser <pkg-web> [<pkg-web>…] [...]     (headless /usr/bin/chromium)
//
// Prints, per client, the median over rounds of calls/s (1 / its median call) and of its ratio
// to the floor's, and (Node) the process's CPU ms per call, the server (a child) excluded.
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { floorClient } from "./floor-client.mjs";
import { measure, median } from "./big-loop.mjs";

const argv = process.argv.slice(2);
const opt = (name, d) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : d);
const ROUNDS = Number(opt("--rounds", 7));
const CALLS = Number(opt("--calls", 30));
const MODE = opt("--mode", "legacy");
const BROWSER = argv.includes("--browser");
// --by-call: interleave call by call instead of client blocks (see big-loop.mjs).
const BY_CALL = argv.includes("--by-call");
const pkgs = argv.filter((a, i) => !a.startsWith("--") && !(i > 0 && ["--rounds", "--calls", "--mode"].includes(argv[i - 1])));
if (!pkgs.length) throw new Error("usage: node bench/big.mjs [--browser] <pkg> [<pkg>…] [--rounds N] [--calls N] [--mode M]");
const here = path.dirname(fileURLToPath(import.meta.url));
const info = { name: "bench-big", version: "0" };

const port = 18890 + Math.floor(Math.random() * 100);
const server = spawn(process.execPath, [path.join(here, "server.mjs"), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise((ok) => server.stdout.once("data", ok));
const url = `http://127.0.0.1:${port}/mcp`;

function inNode() {
  const require = createRequire(import.meta.url);
  const handles = { floor: floorClient(url, info) };
  for (const p of pkgs) {
    const c = new (require(path.resolve(p)).Client)(url, { mode: MODE, clientInfo: info });
    handles[p] = { connect: () => c.connect(), call: (n, a) => c.callTool(n, a), close: () => c.close() };
  }
  return measure(handles, ROUNDS, CALLS, process.cpuUsage, BY_CALL);
}

async function inChromium() {
  const { chromium } = await import("playwright-core");
  const files = (p) => {
    if (p === "/") return [null, "text/html"];
    if (p === "/floor-client.mjs" || p === "/big-loop.mjs") return [path.join(here, p), "text/javascript"];
    const m = /^\/pkg(\d+)\/(.+)$/.exec(p);
    if (!m || m[2].includes("..")) return [];
    return [path.join(path.resolve(pkgs[Number(m[1])]), m[2]), m[2].endsWith(".wasm") ? "application/wasm" : "text/javascript"];
  };
  const statics = http.createServer((req, res) => {
    const [file, type] = files(new URL(req.url, "http://x").pathname);
    if (file === null) return res.writeHead(200, { "Content-Type": type }).end("<!doctype html><title>big</title>");
    if (!file || !fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": type });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => statics.listen(0, "127.0.0.1", ok));
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${statics.address().port}/`);
    return await page.evaluate(
      async ([url, n, mode, rounds, calls, info, byCall]) => {
        const { floorClient } = await import("/floor-client.mjs");
        const { measure } = await import("/big-loop.mjs");
        const handles = { floor: floorClient(url, info) };
        for (let i = 0; i < n; i++) {
          const mod = await import(`/pkg${i}/mcp_wasm_client.js`);
          await mod.default();
          const c = new mod.Client(url, { mode, clientInfo: info });
          handles[i] = { connect: () => c.connect(), call: (t, a) => c.callTool(t, a), close: () => c.close() };
        }
        return measure(handles, rounds, calls, undefined, byCall);
      },
      [url, pkgs.length, MODE, ROUNDS, CALLS, info, BY_CALL],
    ).then((rounds) => rounds.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k === "floor" ? k : pkgs[k], v]))));
  } finally {
    await browser.close();
    statics.close();
  }
}

try {
  const rounds = BROWSER ? await inChromium() : await inNode();
  const host = BROWSER ? `chromium (${(await import("node:child_process")).execFileSync("/usr/bin/chromium", ["--version"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim()})` : `node ${process.version}`;
  console.log(`${host}, ${MODE}, ${ROUNDS} rounds × ${CALLS} calls of big (1 MiB) per client, ${BY_CALL ? "interleaved call by call" : "in blocks"}`);
  const of = (id, k) => median(rounds.map((r) => r[id][k]));
  const cpu = (id) => (BROWSER ? "" : `, ${of(id, "cpuMs").toFixed(2)} CPU ms/call`);
  console.log(`floor: ${of("floor", "rate").toFixed(1)} calls/s${cpu("floor")}`);
  for (const p of pkgs) {
    const ratios = rounds.map((r) => r[p].rate / r.floor.rate);
    console.log(`${p}: ${of(p, "rate").toFixed(1)} calls/s, ×floor median ${median(ratios).toFixed(2)} (rounds: ${ratios.map((x) => x.toFixed(2)).join(" ")})${cpu(p)}`);
  }
} finally {
  server.kill();
}
