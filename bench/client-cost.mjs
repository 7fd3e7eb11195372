// What a sequential tools/call costs the client itself: no network, no server process. Each client
// is given a `fetch` that answers at once from memory (a `Response` made per request, as undici
// makes one), so what is left per call is the client's own work plus one `new Response`.
// The clients take turns block by block in one process; a client's figure is the median over
// blocks of the µs per call (and the fastest block).
//
//   node bench/client-cost.mjs [--answers json|sse] [--mode legacy|auto] [--blocks 30] [--ts] --pkg DIR [--pkg DIR2]
//
// --ts adds the TS 2.x client (@modelcontextprotocol/client) over the same fetch. The figures are
// not the network rows of speed.mjs: they show how much of a call is the client's, where a profile
// of the network rows shows it drowned in undici and the socket.
import { createRequire } from "node:module";

const argv = process.argv.slice(2);
const opt = (name, d) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : d);
const SSE = opt("--answers", "json") === "sse";
const MODE = opt("--mode", "legacy");
const BLOCKS = Number(opt("--blocks", 30));
const PER = 200;
const pkgs = argv.flatMap((a, i) => (argv[i - 1] === "--pkg" ? [a] : []));
const require = createRequire(import.meta.url);

/** Answers initialize / server/discover / tools/call echo at once; notifications get 202. */
function fetchFromMemory(url, init) {
  const msg = JSON.parse(init.body);
  if (msg.id === undefined) return Promise.resolve(new Response(null, { status: 202 }));
  const info = { capabilities: { tools: {} }, serverInfo: { name: "memory", version: "1" } };
  const result =
    msg.method === "initialize"
      ? { protocolVersion: "2025-11-25", ...info }
      : msg.method === "server/discover"
        ? { supportedVersions: ["2026-07-28"], ...info }
        : { content: [{ type: "text", text: "ok" }], ...(MODE === "auto" ? { resultType: "complete" } : {}) };
  const body = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result });
  const type = SSE ? "text/event-stream" : "application/json";
  const headers = { "content-type": type, "mcp-session-id": "s1" };
  return Promise.resolve(new Response(SSE ? `event: message\ndata: ${body}\n\n` : body, { status: 200, headers }));
}

const clients = [];
if (argv.includes("--ts")) {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const c = new Client({ name: "bench", version: "1" }, { capabilities: {}, versionNegotiation: { mode: MODE } });
  await c.connect(new StreamableHTTPClientTransport(new URL("http://memory.invalid/mcp"), { fetch: fetchFromMemory }));
  clients.push({ name: "ts2", call: () => c.callTool({ name: "echo", arguments: { text: "hi" } }, { timeout: 60_000 }) });
}
for (const dir of pkgs) {
  const { Client } = require(dir);
  const c = new Client("http://memory.invalid/mcp", { mode: MODE, fetch: fetchFromMemory, clientInfo: { name: "bench", version: "1" }, timeoutMs: 60_000 });
  await c.connect();
  clients.push({ name: dir, call: () => c.callTool("echo", { text: "hi" }) });
}
for (const c of clients) for (let i = 0; i < PER; i++) await c.call();

const us = clients.map(() => []);
for (let b = 0; b < BLOCKS; b++) {
  for (let j = 0; j < clients.length; j++) {
    const k = (j + b) % clients.length;
    const s = performance.now();
    for (let i = 0; i < PER; i++) await clients[k].call();
    us[k].push(((performance.now() - s) * 1000) / PER);
  }
}
const median = (x) => [...x].sort((a, b) => a - b)[x.length >> 1];
console.log(`${SSE ? "SSE" : "JSON"} answers, ${MODE}, ${BLOCKS} blocks of ${PER} calls; µs per call (median of blocks, fastest block):`);
clients.forEach((c, i) => console.log(`  ${c.name}: ${median(us[i]).toFixed(1)} (${Math.min(...us[i]).toFixed(1)})`));
process.exit(0);
