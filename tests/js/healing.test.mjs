// A transport that heals: resumption, reconnects, re-issue, and clear failures, against the
// misbehaving server's faults (tests/peers/misbehave.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, fault, MISBEHAVE, rejection, text } from "./peers.mjs";

const { Client } = pkg;
const get = async (path) => (await fetch(`${MISBEHAVE}/${path}`)).json();
const del = (path) => fetch(`${MISBEHAVE}/${path}`, { method: "DELETE" });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function connected(url, options = {}) {
  const c = new Client(url, options);
  await c.connect();
  return c;
}

test("legacy: a POST stream that drops after event ids is resumed with GET + Last-Event-ID", async () => {
  await del("resume-with-ids/resume-log");
  const logs = [];
  const c = await connected(fault("resume-with-ids"), { loggingCallback: (p) => logs.push(p.data) });
  assert.equal(text(await c.callTool("echo", { text: "x" })), "resumed");
  const resumes = await get("resume-with-ids/resume-log");
  assert.equal(resumes.length, 1);
  assert.match(resumes[0], /-1$/, "resumed after the last event seen");
  assert.equal(logs.filter((l) => /event 1/.test(l)).length, 1, "no duplicate delivery");
  await c.close();
});

test("legacy: repeated drops resume from the newest event id", async () => {
  await del("resume-twice/resume-log");
  const logs = [];
  const c = await connected(fault("resume-twice"), { loggingCallback: (p) => logs.push(p.data) });
  assert.equal(text(await c.callTool("echo", { text: "x" })), "resumed");
  const resumes = await get("resume-twice/resume-log");
  assert.equal(resumes.length, 2);
  assert.match(resumes[0], /-1$/);
  assert.match(resumes[1], /-2$/);
  assert.equal(logs.filter((l) => /event 2/.test(l)).length, 1, "event 2 delivered once");
  await c.close();
});

test("legacy: a stream without event ids cannot be resumed: the call fails clearly", async () => {
  const c = await connected(fault("drop-no-ids"));
  const e = await rejection(c.callTool("echo", { text: "x" }));
  assert.equal(e.code, -32000);
  assert.match(e.message, /carried no event ids, so it cannot be resumed/);
  await c.close();
});

test("legacy: the GET stream reconnects after it ends, and stops on close()", async () => {
  await del("get-stream-drops/get-count");
  const seen = [];
  const c = await connected(fault("get-stream-drops"), { messageHandler: (m) => m.method && seen.push(m.method) });
  for (let i = 0; i < 60 && (await get("get-stream-drops/get-count")).count < 3; i++) await sleep(100);
  const { count, gets } = await get("get-stream-drops/get-count");
  assert.ok(count >= 3, `reconnected: ${count} GETs`);
  assert.ok(gets[2].at - gets[1].at >= 400, "waited before reconnecting");
  assert.ok(seen.includes("notifications/tools/list_changed"));
  await c.close();
  const after = (await get("get-stream-drops/get-count")).count;
  await sleep(1500);
  assert.equal((await get("get-stream-drops/get-count")).count, after, "no GET after close()");
});

test("2026: a broken response stream is re-issued once with a new id", async () => {
  const key = `k${Date.now()}${Math.random()}`;
  const c = await connected(fault("modern-drop-once"));
  assert.equal(c.era, "modern");
  const r = await c.callTool("echo", { key });
  const ids = await get(`modern-drop-once/ids?key=${encodeURIComponent(key)}`);
  assert.equal(ids.length, 2);
  assert.notEqual(ids[0], ids[1]);
  assert.equal(text(r), `reissued ${ids[1]}`);
  await c.close();
});

test("a slow server within the timeout answers; beyond it, the call times out", async () => {
  const c = await connected(fault("slow"));
  assert.equal(text(await c.callTool("echo", { ms: 300 }, { timeoutMs: 2000 })), "ok");
  assert.equal((await rejection(c.callTool("echo", { ms: 1500 }, { timeoutMs: 300 }))).code, -32001);
  assert.equal(text(await c.callTool("echo", { ms: 10 })), "ok");
  await c.close();
});

test("garbage in an SSE event fails the call with a parse error naming it", async () => {
  const c = await connected(fault("garbage-sse"));
  const e = await rejection(c.callTool("echo", { text: "x" }));
  assert.equal(e.code, -32700);
  assert.match(e.message, /not json at all/);
  await c.close();
});

test("the deprecated HTTP+SSE transport (Python SDK sse_app): detected and used in auto and legacy mode", async () => {
  const { PY_SSE } = await import("./peers.mjs");
  for (const mode of ["auto", "legacy"]) {
    const c = await connected(PY_SSE, { mode });
    assert.equal(c.transport, "http+sse");
    assert.equal(c.era, "legacy");
    assert.equal(c.serverInfo.name.length > 0, true);
    const { tools } = await c.listTools();
    assert.ok(tools.some((t) => t.name === "add"));
    const results = await Promise.all([c.callTool("add", { a: 2, b: 40 }), c.callTool("echo", { text: "over sse" })]);
    assert.deepEqual(results[0].structuredContent, { sum: 42 });
    assert.equal(text(results[1]), "over sse");
    await c.close();
  }
});

test("redirects: same-origin 307 is followed; another origin is refused before anything is sent there", async () => {
  await del("ok/header-log");
  const c = await connected(fault("redirect-same"), { headers: { authorization: "Bearer s3cret" } });
  assert.equal(text(await c.callTool("echo", { text: "x" })), "ok");
  await c.close();
  const sameLog = await get("ok/header-log");
  assert.ok(sameLog.some((r) => r.headers.authorization === "Bearer s3cret"), "same origin got the credentials");
  await del("ok/header-log");
  const cross = new Client(fault("redirect-cross"), { headers: { authorization: "Bearer s3cret" } });
  const e = await rejection(cross.connect());
  assert.match(e.message, /does not follow cross-origin redirects/);
  assert.deepEqual(await get("ok/header-log"), [], "nothing reached the other origin");
});
