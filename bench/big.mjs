// The 1 MiB row in isolation: calls/s of the `big` tool (one 1 MiB text block, application/json)
// for the fetch floor and one or more builds of this client, rounds interleaved in one process
// so drift hits all alike; each build's ratio to the floor is the figure issue 23 asks for.
//
//   node bench/big.mjs <pkg-nodejs> [<pkg-nodejs>…] [--rounds 7] [--calls 40] [--mode legacy]
//
// Prints, per client, the median over rounds of calls/s (1 / its median call in the round, as
// run.mjs's bigMBps) and of its ratio to the floor's in the same round.
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { floorClient } from "./floor-client.mjs";

const argv = process.argv.slice(2);
const opt = (name, d) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : d);
const ROUNDS = Number(opt("--rounds", 7));
const CALLS = Number(opt("--calls", 40));
const MODE = opt("--mode", "legacy");
const pkgs = argv.filter((a, i) => !a.startsWith("--") && !(i > 0 && argv[i - 1].startsWith("--")));
if (!pkgs.length) throw new Error("usage: node bench/big.mjs <pkg-nodejs> [<pkg-nodejs>…] [--rounds N] [--calls N] [--mode M]");
const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

const port = 18890 + Math.floor(Math.random() * 100);
const server = spawn(process.execPath, [path.join(here, "server.mjs"), String(port)], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise((ok) => server.stdout.once("data", ok));
const url = `http://127.0.0.1:${port}/mcp`;
const info = { name: "bench-big", version: "0" };

const clients = { floor: () => floorClient(url, info) };
for (const p of pkgs) {
  const mod = require(path.resolve(p));
  clients[p] = () => {
    const c = new mod.Client(url, { mode: MODE, clientInfo: info });
    return { connect: () => c.connect(), call: (n, a) => c.callTool(n, a), close: () => c.close() };
  };
}

const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

// Calls are interleaved one by one (client order rotating each step), so load from anything
// else on the machine lands on every client alike; a round is CALLS calls of each client.
async function round(handles) {
  const ids = Object.keys(handles);
  const ms = Object.fromEntries(ids.map((id) => [id, []]));
  const cpu = Object.fromEntries(ids.map((id) => [id, 0]));
  for (let i = 0; i < CALLS; i++) {
    for (let j = 0; j < ids.length; j++) {
      const id = ids[(i + j) % ids.length];
      const start = performance.now();
      const used = process.cpuUsage();
      const r = await handles[id].call("big", {});
      ms[id].push(performance.now() - start);
      const d = process.cpuUsage(used);
      cpu[id] += (d.user + d.system) / 1000;
      if (r.content[0].text.length !== 1 << 20) throw new Error(`big: ${id} got ${r.content[0].text.length} chars`);
    }
  }
  // The median call, as run.mjs's figure takes it (a spike from elsewhere moves it least).
  return Object.fromEntries(ids.map((id) => [id, { rate: 1000 / median(ms[id]), cpuMs: cpu[id] / CALLS }]));
}

const rates = Object.fromEntries(Object.keys(clients).map((k) => [k, []]));
const ratios = Object.fromEntries(pkgs.map((k) => [k, []]));
const cpus = Object.fromEntries(Object.keys(clients).map((k) => [k, []]));
const handles = Object.fromEntries(Object.entries(clients).map(([id, make]) => [id, make()]));
try {
  for (const h of Object.values(handles)) {
    await h.connect();
    for (let i = 0; i < 3; i++) await h.call("big", {});
  }
  for (let r = 0; r < ROUNDS; r++) {
    const got = await round(handles);
    for (const id of Object.keys(clients)) rates[id].push(got[id].rate);
    for (const id of Object.keys(clients)) cpus[id].push(got[id].cpuMs);
    for (const p of pkgs) ratios[p].push(got[p].rate / got.floor.rate);
  }
  for (const h of Object.values(handles)) await h.close();
  console.log(`node ${process.version}, ${MODE}, ${ROUNDS} rounds × ${CALLS} calls of big (1 MiB) per client, interleaved`);
  const cpu = (id) => `${median(cpus[id]).toFixed(2)} CPU ms/call (the process's, the server excluded)`;
  console.log(`floor: ${median(rates.floor).toFixed(1)} calls/s, ${cpu("floor")}`);
  for (const p of pkgs) {
    const rs = ratios[p].map((x) => x.toFixed(2)).join(" ");
    console.log(`${p}: ${median(rates[p]).toFixed(1)} calls/s, ×floor median ${median(ratios[p]).toFixed(2)} (rounds: ${rs}), ${cpu(p)}`);
  }
} finally {
  server.kill();
}
