// One memory scenario of tests/hostile/hostile.test.mjs in a process of its own, so its RSS
// figure is not mixed with the other tests': prints one JSON line
// {before, after, peakRss, ...the scenario's own figures}.
// Run: node --expose-gc flood-child.mjs <scenario>   (env as hostile.test.mjs: MCP_PKG_NODE, HOSTILE_PORT)
import { pkg } from "../js/peers.mjs";

const { Client, McpError, wasmMemoryBytes } = pkg;
const BASE = `http://127.0.0.1:${Number(process.env.HOSTILE_PORT ?? 18801)}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function settle() {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, wasm: wasmMemoryBytes() };
}

const SCENARIOS = {
  /** 1 000 ping / roots/list / elicitation/create requests at once on the POST's stream. */
  async "request-flood"() {
    let running = 0;
    let maxRunning = 0;
    const slow = async (answer) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await sleep(1 + Math.floor(Math.random() * 4));
      running--;
      return answer;
    };
    const c = new Client(`${BASE}/request-flood/mcp`, {
      mode: "legacy",
      timeoutMs: 60_000,
      listRootsCallback: () => slow({ roots: [{ uri: "file:///r", name: "r" }] }),
      elicitationCallback: () => slow({ action: "accept", content: { name: "Ada" } }),
    });
    await c.connect();
    const r = await c.callTool("hostile", {}, { timeoutMs: 120_000 });
    await c.close();
    return { text: r.content[0].text, maxRunning };
  },
  /** 10 000 notifications on one call's stream, all handed to messageHandler. */
  async "notify-flood"() {
    let notes = 0;
    const c = new Client(`${BASE}/notify-flood/mcp`, { mode: "legacy", messageHandler: (m) => (m?.method === "notifications/message" ? notes++ : 0) });
    await c.connect();
    const r = await c.callTool("hostile", {}, { timeoutMs: 60_000 });
    await c.close();
    return { text: r.content[0].text, notes };
  },
  /** 1 000 progress events on one call. */
  async "progress-flood"() {
    let events = 0;
    const c = new Client(`${BASE}/progress-flood/mcp`, { mode: "legacy" });
    await c.connect();
    const r = await c.callTool("hostile", {}, { timeoutMs: 60_000, onProgress: () => events++ });
    await c.close();
    return { text: r.content[0].text, events };
  },
  /** 10 000 calls, each with its own timeoutMs (its timer must not outlive the call), 50 at once. */
  async "calls-timeout"() {
    const c = new Client(`${BASE}/plain/mcp`, { mode: "legacy" });
    await c.connect();
    let ok = 0;
    for (let i = 0; i < Number(process.env.FLOOD_CALLS ?? 10_000); i += 50) {
      const batch = Array.from({ length: 50 }, () => c.callTool("echo", { text: "x" }, { timeoutMs: 30_000 }));
      for (const r of await Promise.all(batch)) if (r.content[0].text === "ok") ok++;
    }
    const pending = c.pendingRequests;
    await c.close();
    return { ok, pending };
  },
  /** A GET stream that carries one notification and ends, 100 times (tests/hostile/server.mjs
   *  get-reconnects): reconnected on `reconnection: { initialDelayMs: 5, maxDelayMs: 20 }`. */
  async "get-reconnects"() {
    const seqs = [];
    const others = [];
    const c = new Client(`${BASE}/get-reconnects/mcp`, {
      mode: "legacy",
      reconnection: { initialDelayMs: 5, maxDelayMs: 20 },
      messageHandler: (m) => (m?.method === "notifications/message" ? seqs.push(m.params.data.seq) : others.push(String(m?.message ?? m?.method))),
    });
    const t0 = Date.now();
    await c.connect();
    while (seqs.length < 100 && Date.now() - t0 < 60_000) await sleep(20);
    const ms = Date.now() - t0;
    await sleep(100); // a 101st notification would come now (the server sends none)
    await c.close();
    return { seqs, others, ms };
  },
};

/** A call whose result is a 50 MiB body (`fault` huge-50-json or huge-50-sse), maxMessageBytes
 *  1 MiB; measured from after a first call (fetch and the client warmed up) to the refusal. */
async function hugeBody(fault) {
  const c = new Client(`${BASE}/${fault}/mcp`, { mode: "legacy", maxMessageBytes: 1024 * 1024 });
  await c.connect();
  await c.callTool("echo", {});
  await sleep(20);
  restart();
  let err;
  try {
    await c.callTool("hostile", {}, { timeoutMs: 30_000 });
  } catch (e) {
    err = { message: e.message.slice(0, 300), code: e.code, data: e.data, isMcpError: e instanceof McpError };
  }
  const next = (await c.callTool("echo", {})).content[0].text;
  await c.close();
  return { err, next };
}
SCENARIOS["huge-50-json"] = () => hugeBody("huge-50-json");
SCENARIOS["huge-50-sse"] = () => hugeBody("huge-50-sse");

const name = process.argv[2];
await sleep(20);
let before;
let peakRss;
/** Starts the measurement over (a scenario that warms up first calls it). */
function restart() {
  before = settle();
  peakRss = before.rss;
}
restart();
const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
const figures = await SCENARIOS[name]();
await sleep(50);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
clearInterval(timer);
const after = settle();
console.log(JSON.stringify({ before, after, peakRss, ...figures }));
