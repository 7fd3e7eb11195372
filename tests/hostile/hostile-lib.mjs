// What the cases of hostile.test.mjs share: the hostile server's URLs and logs, the outcome of a
// call and its checks, memory measured around a scenario, and one fault run on a legacy client
// that must still work afterwards.
import assert from "node:assert/strict";
import { pkg } from "../js/peers.mjs";

export const { Client, McpError, wasmMemoryBytes } = pkg;

export const PORT = Number(process.env.HOSTILE_PORT ?? 18801);
export const PORT2 = Number(process.env.HOSTILE_PORT2 ?? 18802);
export const BASE = `http://127.0.0.1:${PORT}`;
export const BASE2 = `http://127.0.0.1:${PORT2}`;
export const url = (fault) => `${BASE}/${fault}/mcp`;
export const MiB = 1024 * 1024;

export const text = (r) => r?.content?.[0]?.text;
export const getJson = async (u) => (await fetch(u)).json();
export const log = () => getJson(`${BASE}/_log`);
export const traps = () => getJson(`${BASE}/_traps`);
export const log2 = () => getJson(`${BASE2}/_log`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The call's outcome: { ok: result } or { err: McpError }; anything else thrown fails. */
export async function outcome(p) {
  try {
    return { ok: await p };
  } catch (e) {
    assert.ok(e instanceof McpError, `a rejection that is not an McpError: ${e?.stack ?? e}`);
    assert.ok(e instanceof Error);
    assert.equal(typeof e.code, "number");
    assert.ok(e.message.length > 0);
    return { err: e };
  }
}

/** A clear local error of one of `kinds`. */
export function assertLocal(o, kinds, what) {
  assert.ok(o.err, `${what}: expected an error, got ${JSON.stringify(o.ok)?.slice(0, 200)}`);
  assert.equal(o.err.data?.local, true, `${what}: a local error (${o.err.message})`);
  assert.ok(kinds.includes(o.err.data?.kind), `${what}: kind ${o.err.data?.kind} not in ${kinds}: ${o.err.message}`);
}

/** Either the correct "ok" result or a clear local error of `kinds`. */
export function assertOkOrLocal(o, kinds, what) {
  if (o.ok) assert.match(text(o.ok) ?? "", /^ok/, `${what}: result`);
  else assertLocal(o, kinds, what);
}

export function settle() {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, ext: m.external + m.arrayBuffers, wasm: wasmMemoryBytes() };
}

/** Runs fn while sampling RSS every 20 ms; returns { value, before, after, peakRss }. */
export async function measured(fn) {
  await sleep(20);
  const before = settle();
  let peakRss = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  try {
    const value = await fn();
    await sleep(50);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const after = settle();
    return { value, before, after, peakRss };
  } finally {
    clearInterval(timer);
  }
}
export const mb = (n) => `${(n / MiB).toFixed(1)} MiB`;
export function report(name, m) {
  console.log(
    `[memory] ${name}: RSS ${mb(m.before.rss)} → peak ${mb(m.peakRss)} (+${mb(m.peakRss - m.before.rss)}) → ${mb(m.after.rss)}; ` +
      `heap ${mb(m.before.heap)} → ${mb(m.after.heap)}; wasm ${mb(m.before.wasm)} → ${mb(m.after.wasm)}`,
  );
}

/** A connected legacy client on `fault` and a check that it still works afterwards. */
export async function client(fault, options = {}) {
  const c = new Client(url(fault), { mode: "legacy", timeoutMs: 10_000, ...options });
  await c.connect();
  return c;
}
export async function stillUsable(c, what) {
  const r = await c.callTool("echo", { text: "x" }, { timeoutMs: 5_000 });
  assert.equal(text(r), "ok", `${what}: the next call on the same client`);
  assert.equal(c.pendingRequests, 0, `${what}: nothing left pending`);
}

/** One fault: call the hostile tool, check the outcome, then the same client again. */
export async function fault(name, check, options = {}, callOpts = {}) {
  const c = await client(name, options);
  try {
    const t0 = Date.now();
    const o = await outcome(c.callTool("hostile", {}, { timeoutMs: 10_000, ...callOpts }));
    const ms = Date.now() - t0;
    console.log(`[${name}] ${o.ok ? `result ${JSON.stringify(o.ok).slice(0, 120)}` : `${o.err.code} ${o.err.data?.kind}: ${o.err.message.slice(0, 200)}`} (${ms} ms)`);
    await check(o, ms, c);
    await stillUsable(c, name);
    return o;
  } finally {
    await c.close();
  }
}
