// Nothing that grows per call: 10 000 calls leave the JS heap and the wasm memory flat and no
// request, listener or timer behind. Run with --expose-gc (scripts/test.sh does).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, fault, text } from "./peers.mjs";

const { Client, wasmMemoryBytes } = pkg;

async function calls(c, n) {
  for (let i = 0; i < n; i += 50) {
    const batch = await Promise.all(Array.from({ length: 50 }, () => c.callTool("echo", { text: "x" }, { timeoutMs: 10_000, signal: new AbortController().signal })));
    assert.equal(text(batch[49]), "ok");
  }
}

function settle() {
  globalThis.gc?.();
  globalThis.gc?.();
  return { heap: process.memoryUsage().heapUsed, wasm: wasmMemoryBytes() };
}

test("10 000 calls: heap and wasm memory stay flat, nothing left pending", { skip: !globalThis.gc && "needs node --expose-gc" }, async () => {
  const c = new Client(fault("ok"));
  await c.connect();
  await calls(c, 1000);
  await new Promise((r) => setTimeout(r, 100));
  const before = settle();
  await calls(c, 10_000);
  await new Promise((r) => setTimeout(r, 100));
  const after = settle();
  assert.equal(c.pendingRequests, 0);
  const heapGrowth = after.heap - before.heap;
  const wasmGrowth = after.wasm - before.wasm;
  console.log(`heap ${before.heap} → ${after.heap} (${heapGrowth} B), wasm ${before.wasm} → ${after.wasm} (${wasmGrowth} B)`);
  assert.ok(heapGrowth < 4 * 1024 * 1024, `JS heap grew ${heapGrowth} bytes over 10 000 calls`);
  assert.ok(wasmGrowth <= 1024 * 1024, `wasm memory grew ${wasmGrowth} bytes over 10 000 calls`);
  await c.close();
});
