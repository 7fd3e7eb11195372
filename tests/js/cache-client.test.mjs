// The `cache: { store, partition, mode }` option of the built package (pkg/nodejs; docs/client.md
// "Cache store") against two Python peers this file starts itself: tests/peers/python_server.py
// with MCP_TOOLS_TTL_MS=60000 (tools/list cacheable 60 s, private) and with
// MCP_TOOLS_CACHE_SCOPE=public too, on free ports of CACHE_TEST_PORTS (default 18141-18146),
// stopped by PID when the file ends. What goes on the wire is counted by a recording `fetch` (each
// request's Mcp-Method header, or its body's method on the legacy era); what reaches the store, by
// a memoryCacheStore that records its calls. The stores themselves: cache.test.mjs.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eventually, pkg, sleep, text } from "./peers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { memoryCacheStore, partitionPrefix } = await import(path.join(here, "../../pkg-template/cache/index.js"));
const { Client, McpError } = pkg;
const TAG = "mcp-wasm-client/cache/1";
const IDENTITY = JSON.stringify(["python-peer", "1.0.0", "2026-07-28"]);
const sha256 = (text) => createHash("sha256").update(text).digest("hex");

/** The first `n` free 127.0.0.1 ports of CACHE_TEST_PORTS ("lo-hi"). */
async function freePorts(n) {
  const [lo, hi] = (process.env.CACHE_TEST_PORTS ?? "18141-18146").split("-").map(Number);
  const free = (port) => new Promise((resolve) => {
    const srv = net.createServer().once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
  const out = [];
  for (let p = lo; p <= hi && out.length < n; p++) if (await free(p)) out.push(p);
  if (out.length < n) throw new Error(`need ${n} free ports in CACHE_TEST_PORTS ${lo}-${hi}`);
  return out;
}

const children = [];
const stopPeers = () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGTERM");
};
process.on("exit", stopPeers);

/** python_server.py on `port` with `env` added; resolves with its /mcp URL once it answers. */
async function startPython(port, env) {
  const child = spawn("python3", [path.join(here, "../peers/python_server.py"), String(port)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  let log = "";
  child.stderr.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}/mcp`;
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`python_server.py on ${port} exited: ${log}`);
    return fetch(url).then(() => true, () => false);
  }, 20_000);
  return url;
}

/** A `fetch` that records each request's MCP method (`methods`); `count(m)` of one method. */
function recorder() {
  const methods = [];
  const fetchLike = (url, init = {}) => {
    let method = new Headers(init.headers).get("mcp-method");
    if (!method && typeof init.body === "string") method = JSON.parse(init.body).method ?? "(response)";
    methods.push(method ?? init.method ?? "GET");
    return fetch(url, init);
  };
  return { methods, fetch: fetchLike, count: (m) => methods.filter((x) => x === m).length };
}

/** A memoryCacheStore that records every call ([op, key, entry?]) and can show what it holds. */
function spyStore(inner = memoryCacheStore()) {
  const calls = [];
  return {
    calls,
    inner,
    ops: () => calls.map(([op]) => op),
    sets: () => calls.filter(([op]) => op === "set"),
    get: (key) => (calls.push(["get", key]), inner.get(key)),
    set: (key, entry, ttl) => (calls.push(["set", key, structuredClone(entry), ttl]), inner.set(key, entry, ttl)),
    delete: (key) => (calls.push(["delete", key]), inner.delete(key)),
    clear: (prefix) => (calls.push(["clear", prefix]), inner.clear(prefix)),
  };
}

/** The store key of tools/list's first page for `partition` on `url` (its layout, as written). */
const toolsKey = (partition, url) => JSON.stringify([TAG, partition, url, IDENTITY, "tools/list", null]);

const opened = [];
async function connected(url, options = {}) {
  const c = new Client(url, options);
  opened.push(c);
  await c.connect();
  return c;
}

describe("a Client with cache: { store } (Python peers caching tools/list)", { timeout: 60_000 }, () => {
  let PRIVATE; // tools/list: ttlMs 60000, cacheScope private
  let PUBLIC; // tools/list: ttlMs 60000, cacheScope public
  before(async () => {
    const [a, b] = await freePorts(2);
    [PRIVATE, PUBLIC] = await Promise.all([
      startPython(a, { MCP_TOOLS_TTL_MS: "60000" }),
      startPython(b, { MCP_TOOLS_TTL_MS: "60000", MCP_TOOLS_CACHE_SCOPE: "public" }),
    ]);
  });
  after(async () => {
    for (const c of opened.splice(0)) await c.close().catch(() => {});
    stopPeers();
  });

  test("two clients sharing one memoryCacheStore: the second's listTools() sends no tools/list", async () => {
    const store = spyStore();
    const wire = recorder();
    const first = await connected(PRIVATE, { fetch: wire.fetch, cache: { store, partition: "app" } });
    const listed = await first.listTools();
    assert.equal(listed.ttlMs, 60_000);
    assert.equal(wire.count("tools/list"), 1);
    await eventually(() => store.sets().length === 1);
    const [[, key, , ttl]] = store.sets();
    assert.equal(ttl, 60_000);
    // the key: partition, server URL, server identity (name, version, protocol), method, cursor
    assert.deepEqual(JSON.parse(key), [TAG, "app", PRIVATE, IDENTITY, "tools/list", null]);

    const second = await connected(PRIVATE, { fetch: wire.fetch, cache: { store, partition: "app" } });
    const again = await second.listTools();
    assert.equal(wire.count("tools/list"), 1, `on the wire: ${wire.methods}`);
    assert.equal(wire.count("server/discover"), 2);
    assert.deepEqual(again.tools.map((t) => t.name), listed.tools.map((t) => t.name));
    assert.deepEqual(again.tools, listed.tools);
    // prompts/list (the peer's own 60 s private hint) goes through the same store
    await second.listPrompts();
    await eventually(() => store.sets().length === 2);
    await first.listPrompts();
    assert.equal(wire.count("prompts/list"), 1);
  });

  test("partitions alice and bob on one store are kept apart; clear(partitionPrefix) drops one", async () => {
    const store = spyStore();
    const wire = recorder();
    const as = (partition) => connected(PRIVATE, { fetch: wire.fetch, cache: { store, partition } });
    await (await as("alice")).listTools();
    await eventually(() => store.sets().length === 1);
    const bob = await as("bob");
    await bob.listTools();
    assert.equal(wire.count("tools/list"), 2, "bob's first listTools went to the server");
    await eventually(() => store.sets().length === 2);
    assert.deepEqual(store.sets().map(([, key]) => JSON.parse(key)[1]), ["alice", "bob"]);
    await bob.listTools();
    await (await as("alice")).listTools();
    assert.equal(wire.count("tools/list"), 2, "each partition's own entry served it");

    await store.clear(partitionPrefix("alice"));
    assert.equal(await store.inner.get(toolsKey("alice", PRIVATE)), undefined);
    assert.ok(await store.inner.get(toolsKey("bob", PRIVATE)), "bob's entry stays");
    await (await as("alice")).listTools();
    await bob.listTools();
    assert.equal(wire.count("tools/list"), 3, "alice's went to the server again, bob's did not");
  });

  test("private entries are served only to the same Authorization; public ones to anyone; no credential in the store", async () => {
    const store = spyStore();
    const wire = recorder();
    const as = (url, token) =>
      connected(url, { fetch: wire.fetch, cache: { store }, ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}) });
    const A = "tok-alice-7f3e91";
    const B = "tok-bob-0c55aa";

    await (await as(PRIVATE, A)).listTools();
    await eventually(() => store.sets().length === 1);
    const [[, , entryA]] = store.sets();
    assert.ok(JSON.stringify(entryA).includes(sha256(`Bearer ${A}`)), "A's entry names A's SHA-256 fingerprint");
    await (await as(PRIVATE, A)).listTools();
    assert.equal(wire.count("tools/list"), 1, "another client with A's credential is served A's entry");
    await (await as(PRIVATE, B)).listTools();
    assert.equal(wire.count("tools/list"), 2, "B is not served A's private entry");
    await eventually(() => store.sets().length === 2);
    await (await as(PRIVATE)).listTools();
    assert.equal(wire.count("tools/list"), 3, "nor is a client without a credential B's");
    await eventually(() => store.sets().length === 3);
    await (await as(PRIVATE, B)).listTools();
    assert.equal(wire.count("tools/list"), 4, "nor B the anonymous client's");
    await eventually(() => store.sets().length === 4);

    await (await as(PUBLIC, A)).listTools();
    await eventually(() => store.sets().length === 5);
    const publicWire = wire.count("tools/list");
    await (await as(PUBLIC, B)).listTools();
    await (await as(PUBLIC)).listTools();
    assert.equal(wire.count("tools/list"), publicWire, "a public entry is shared by every credential");

    const stored = JSON.stringify(store.calls);
    for (const secret of [A, B]) assert.ok(!stored.includes(secret), `no key or entry holds ${secret}`);
    assert.ok(!/Bearer/.test(stored));
  });

  test("cacheMode refresh: to the server, its answer stored; bypass: to the server, nothing read or stored", async () => {
    const store = spyStore();
    const wire = recorder();
    const c = await connected(PRIVATE, { fetch: wire.fetch, cache: { store, partition: "modes" } });
    const key = toolsKey("modes", PRIVATE);
    await c.listTools();
    await eventually(() => store.sets().length === 1);
    const firstEntry = await store.inner.get(key);

    const gets = store.ops().filter((op) => op === "get").length;
    await c.listTools({ cacheMode: "refresh" });
    assert.equal(wire.count("tools/list"), 2);
    await eventually(() => store.sets().length === 2);
    assert.equal(store.ops().filter((op) => op === "get").length, gets, "refresh never reads the store");
    const refreshed = await store.inner.get(key);
    assert.notDeepEqual(refreshed, firstEntry, "the refreshed answer replaced the entry");

    const before = store.calls.length;
    await c.listTools({ cacheMode: "bypass" });
    assert.equal(wire.count("tools/list"), 3);
    await sleep(300);
    assert.equal(store.calls.length, before, "bypass touches nothing in the store");
    assert.deepEqual(await store.inner.get(key), refreshed);

    await c.listTools();
    assert.equal(wire.count("tools/list"), 3, "use: the stored entry");

    // cache.mode sets the default: bypass unless a call says otherwise
    const store2 = spyStore();
    const d = await connected(PRIVATE, { fetch: wire.fetch, cache: { store: store2, mode: "bypass" } });
    await d.listTools();
    await d.listTools();
    assert.equal(wire.count("tools/list"), 5);
    await sleep(300);
    assert.deepEqual(store2.calls, []);
    await d.listTools({ cacheMode: "use" });
    assert.equal(wire.count("tools/list"), 6);
    await eventually(() => store2.sets().length === 1);
    await d.listTools({ cacheMode: "use" });
    assert.equal(wire.count("tools/list"), 6);
  });

  // Each store fails in its own way; every call is still answered by the server, and
  // messageHandler hears of it (kind cache_store, the operation).
  const boom = (op) => () => {
    throw new Error(`store ${op} exploded`);
  };
  const never = () => new Promise(() => {});
  const quiet = { set: async () => {}, delete: async () => {}, clear: async () => {} };
  const failing = {
    "throws in every method": [{ get: boom("get"), set: boom("set"), delete: boom("delete"), clear: boom("clear") }, ["get", "set"]],
    "rejects get": [{ ...quiet, get: async () => Promise.reject(new Error("no")) }, ["get"]],
    "answers a function": [{ ...quiet, get: async () => () => 1 }, ["get"]],
    "answers a BigInt": [{ ...quiet, get: async () => 10n }, ["get"]],
    "never settles (get and set)": [{ get: never, set: never, delete: never, clear: never }, ["get", "set"]],
  };
  for (const [name, [store, operations]] of Object.entries(failing)) {
    test(`a store that ${name}: listTools() still answers from the server; messageHandler gets cache_store ${operations}`, async () => {
      const wire = recorder();
      const heard = [];
      const c = await connected(PRIVATE, { fetch: wire.fetch, cache: { store }, messageHandler: (m) => heard.push(m) });
      const started = Date.now();
      const { tools } = await c.listTools();
      assert.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`);
      assert.ok(tools.some((t) => t.name === "echo"));
      assert.equal(wire.count("tools/list"), 1);
      const storeErrors = () => heard.filter((m) => m instanceof McpError && m.data?.kind === "cache_store");
      await eventually(() => storeErrors().length >= operations.length, 4000);
      assert.deepEqual(storeErrors().map((e) => e.data.operation), operations);
      for (const e of storeErrors()) assert.match(e.message, /cache store's (get|set) failed; the call went to the server/);
      assert.equal(text(await c.callTool("echo", { text: "still fine" })), "still fine");
    });
  }

  test("a store answering entries that are not entries (text, wrong shapes): the call goes to the server", async () => {
    for (const junk of ["junk", 42, [1, 2], { result: 5, receivedMs: 0, ttlMs: 1e15 }, { result: { tools: [] } }]) {
      const wire = recorder();
      const c = await connected(PRIVATE, { fetch: wire.fetch, cache: { store: { ...quiet, get: async () => junk } } });
      const { tools } = await c.listTools();
      assert.ok(tools.length > 1, `served from the server, not ${JSON.stringify(junk)}`);
      assert.equal(wire.count("tools/list"), 1);
    }
  });

  test("a store answering something that is not an entry says so on messageHandler (get)", async () => {
    const heard = [];
    const c = await connected(PRIVATE, { cache: { store: { ...quiet, get: async () => "junk" } }, messageHandler: (m) => heard.push(m) });
    await c.listTools();
    await eventually(() => heard.some((m) => m.data?.kind === "cache_store" && m.data.operation === "get"), 2000);
  });

  test("clear and delete: a list_changed clears the server's tools/list entries (prefix), resources/updated deletes a read; failures heard", async () => {
    const store = spyStore();
    const wire = recorder();
    const c = await connected(PRIVATE, { fetch: wire.fetch, cache: { store, partition: "inv" } });
    await c.listTools();
    await eventually(() => store.sets().length === 1);
    const sub = await c.listen({ toolsListChanged: true });
    const seen = [];
    const reading = (async () => {
      for await (const n of sub) seen.push(n.method);
    })();
    const before = await store.inner.get(toolsKey("inv", PRIVATE));
    await c.callTool("poke", { kind: "tools" });
    await eventually(() => store.ops().includes("clear"));
    const [, prefix] = store.calls.find(([op]) => op === "clear");
    assert.ok(toolsKey("inv", PRIVATE).startsWith(prefix), `the prefix ${prefix} covers the tools/list pages`);
    assert.ok(prefix.endsWith(`"tools/list",`) && prefix.startsWith(partitionPrefix("inv")));
    // the client lists the tools again at once (its registry): a new tools/list, a new entry
    await eventually(() => wire.count("tools/list") === 2 && store.sets().length === 2);
    const cleared = store.calls.findIndex(([op]) => op === "clear");
    assert.ok(store.calls.findLastIndex(([op]) => op === "set") > cleared, "set again after the clear");
    const after = await store.inner.get(toolsKey("inv", PRIVATE));
    assert.ok(after.receivedMs > before.receivedMs, "the entry is the new answer's");
    await c.listTools();
    assert.equal(wire.count("tools/list"), 2, "which serves the next listTools");
    await sub.close();
    await reading;
    assert.ok(seen.includes("notifications/tools/list_changed"));

    // the same through a store whose clear and delete throw
    const heard = [];
    const thrower = { get: async () => undefined, set: async () => {}, delete: boom("delete"), clear: boom("clear") };
    const d = await connected(PRIVATE, { cache: { store: thrower }, messageHandler: (m) => heard.push(m) });
    const sub2 = await d.listen({ toolsListChanged: true, resourceSubscriptions: ["demo://hello"] });
    await d.callTool("poke", { kind: "tools" });
    await d.callTool("poke", { kind: "updated" });
    const ops = () => heard.filter((m) => m.data?.kind === "cache_store").map((m) => m.data.operation);
    await eventually(() => ops().length === 2);
    assert.deepEqual(ops(), ["clear", "delete"]);
    await sub2.close();
  });

  test("a legacy-era client (mode legacy) never touches the store", async () => {
    const store = spyStore();
    const wire = recorder();
    const c = await connected(PRIVATE, { mode: "legacy", fetch: wire.fetch, cache: { store, partition: "old" } });
    assert.equal(c.era, "legacy");
    await c.listTools();
    await c.listTools();
    await c.listPrompts();
    await c.listTools({ cacheMode: "refresh" });
    assert.equal(text(await c.callTool("echo", { text: "x" })), "x");
    await sleep(300);
    assert.equal(wire.count("tools/list"), 3);
    assert.deepEqual(store.calls, []);
  });

  test("a legacy-era client never touches the store, even when the server announces changes", async () => {
    const store = spyStore();
    const c = await connected(PRIVATE, { mode: "legacy", cache: { store } });
    await c.listTools();
    await c.callTool("poke", { kind: "tools" });
    await c.callTool("poke", { kind: "updated" });
    await sleep(500);
    assert.deepEqual(store.ops(), []);
  });
});
