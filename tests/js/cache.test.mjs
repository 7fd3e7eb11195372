// mcp-wasm-client/cache in Node (pkg-template/cache/index.js, the file the package ships):
// memoryCacheStore's semantics (ttl, copies, delete, prefix clear, the 1024-entry bound) and
// indexedDbCacheStore in a host without IndexedDB (every method rejects, saying so). The
// IndexedDB store itself runs in Chromium: tests/e2e/cache.mjs. The two subpath entries are
// checked in the package template: exported, listed in "files", imported by no main entry.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const TEMPLATE = path.join(here, "../../pkg-template");
const { indexedDbCacheStore, memoryCacheStore, partitionPrefix } = await import(path.join(TEMPLATE, "cache/index.js"));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("memoryCacheStore", () => {
  test("set then get; a missing key is undefined; every method returns a promise", async () => {
    const store = memoryCacheStore();
    const entry = { result: { tools: [{ name: "echo" }] }, etag: 1 };
    const set = store.set("p|https://a.example/mcp|tools/list", entry, 60_000);
    assert.ok(set instanceof Promise);
    assert.equal(await set, undefined);
    assert.deepEqual(await store.get("p|https://a.example/mcp|tools/list"), entry);
    assert.equal(await store.get("p|https://a.example/mcp|prompts/list"), undefined);
    assert.ok(store.delete("nothing") instanceof Promise);
    assert.ok(store.clear("nothing") instanceof Promise);
  });

  test("entries are copies: changing what was set or got changes nothing stored", async () => {
    const store = memoryCacheStore();
    const entry = { list: [1, 2, 3], nested: { deep: true } };
    await store.set("k", entry, 60_000);
    entry.list.push(4);
    const got = await store.get("k");
    assert.deepEqual(got, { list: [1, 2, 3], nested: { deep: true } });
    got.nested.deep = false;
    assert.deepEqual(await store.get("k"), { list: [1, 2, 3], nested: { deep: true } });
  });

  test("ttl: an entry is there until Date.now() + ttlMs, then undefined; ttl <= 0 keeps nothing", async () => {
    const store = memoryCacheStore();
    await store.set("short", { v: 1 }, 80);
    await store.set("long", { v: 2 }, 60_000);
    await store.set("zero", { v: 3 }, 0);
    await store.set("negative", { v: 4 }, -5);
    assert.deepEqual(await store.get("short"), { v: 1 });
    assert.equal(await store.get("zero"), undefined);
    assert.equal(await store.get("negative"), undefined);
    await sleep(120);
    assert.equal(await store.get("short"), undefined);
    assert.deepEqual(await store.get("long"), { v: 2 });
    // set again, it lives again (the expired one was dropped, not kept in the way)
    await store.set("short", { v: 5 }, 60_000);
    assert.deepEqual(await store.get("short"), { v: 5 });
  });

  test("delete drops one key; clear(prefix) the keys starting with it; clear() all", async () => {
    const store = memoryCacheStore();
    for (const key of ["app1|a", "app1|b", "app10|c", "app2|a", "other"]) await store.set(key, { key }, 60_000);
    await store.delete("app1|a");
    assert.equal(await store.get("app1|a"), undefined);
    assert.deepEqual(await store.get("app1|b"), { key: "app1|b" });
    await store.clear("app1|");
    assert.equal(await store.get("app1|b"), undefined);
    assert.deepEqual(await store.get("app10|c"), { key: "app10|c" }, "a prefix is a string prefix: app1| is not app10|");
    assert.deepEqual(await store.get("app2|a"), { key: "app2|a" });
    await store.clear("app");
    assert.equal(await store.get("app10|c"), undefined);
    assert.equal(await store.get("app2|a"), undefined);
    assert.deepEqual(await store.get("other"), { key: "other" });
    await store.set("again", {}, 60_000);
    await store.clear();
    assert.equal(await store.get("other"), undefined);
    assert.equal(await store.get("again"), undefined);
  });

  test("at most 1024 entries: one more drops the oldest set (a key set again is the newest)", async () => {
    const store = memoryCacheStore();
    for (let i = 0; i < 1024; i++) await store.set(`k${i}`, { i }, 60_000);
    await store.set("k0", { i: 0, again: true }, 60_000); // k0 is now the newest, k1 the oldest
    await store.set("k1024", { i: 1024 }, 60_000);
    assert.equal(await store.get("k1"), undefined, "the oldest entry was dropped");
    assert.deepEqual(await store.get("k0"), { i: 0, again: true });
    assert.deepEqual(await store.get("k2"), { i: 2 });
    assert.deepEqual(await store.get("k1024"), { i: 1024 });
    await store.set("k1025", { i: 1025 }, 60_000);
    assert.equal(await store.get("k2"), undefined);
    let kept = 0;
    for (let i = 0; i <= 1025; i++) if ((await store.get(`k${i}`)) !== undefined) kept++;
    assert.equal(kept, 1024);
  });

  test("stores are independent; a key must be a string", async () => {
    const a = memoryCacheStore();
    const b = memoryCacheStore();
    await a.set("k", { in: "a" }, 60_000);
    assert.equal(await b.get("k"), undefined);
    await assert.rejects(a.get(42), TypeError);
    await assert.rejects(a.set(undefined, {}, 1000), TypeError);
  });
});

test("partitionPrefix: clear(partitionPrefix(p)) drops p's keys only (not a partition it is a prefix of)", async () => {
  // keys shaped as partitionPrefix documents them: the JSON text of [tag, partition, server URL, ...]
  const key = (partition, method) => `${partitionPrefix(partition).slice(0, -1)},"http://a.example/mcp","srv",${JSON.stringify(method)}]`;
  assert.ok(JSON.parse(key("user-4", "tools/list")).includes("user-4"), key("user-4", "tools/list"));
  const store = memoryCacheStore();
  for (const p of ["user-4", "user-42", 'quo"te', "ünï"]) {
    await store.set(key(p, "tools/list"), { p }, 60_000);
    await store.set(key(p, "prompts/list"), { p }, 60_000);
  }
  await store.clear(partitionPrefix("user-4"));
  assert.equal(await store.get(key("user-4", "tools/list")), undefined);
  assert.equal(await store.get(key("user-4", "prompts/list")), undefined);
  assert.deepEqual(await store.get(key("user-42", "tools/list")), { p: "user-42" });
  await store.clear(partitionPrefix('quo"te'));
  assert.equal(await store.get(key('quo"te', "tools/list")), undefined);
  assert.deepEqual(await store.get(key("ünï", "tools/list")), { p: "ünï" });
  assert.notEqual(partitionPrefix("a"), partitionPrefix("b"));
  assert.ok(partitionPrefix("a").endsWith(","));
});

test("indexedDbCacheStore without IndexedDB (Node): every method rejects, saying so", async () => {
  assert.equal(typeof globalThis.indexedDB, "undefined");
  const store = indexedDbCacheStore();
  for (const p of [store.get("k"), store.set("k", {}, 1000), store.delete("k"), store.clear("p"), store.clear()]) {
    await assert.rejects(p, (e) => e instanceof Error && e.message === "indexedDB is not available in this host");
  }
  assert.throws(() => indexedDbCacheStore(""), TypeError);
});

test("the subpath entries: exported with types, shipped, and imported by no main entry", () => {
  const pkg = JSON.parse(readFileSync(path.join(TEMPLATE, "package.json"), "utf8"));
  for (const sub of ["middleware", "cache"]) {
    assert.deepEqual(pkg.exports[`./${sub}`], { types: `./${sub}/index.d.ts`, default: `./${sub}/index.js` });
    assert.ok(pkg.files.includes(`${sub}/`), `"files" lists ${sub}/`);
    const js = readFileSync(path.join(TEMPLATE, sub, "index.js"), "utf8");
    assert.ok(!/^\s*import\s/m.test(js), `${sub}/index.js imports nothing`);
    for (const entry of ["index.js", "manual.js", "node.mjs", "node.cjs", "workerd.js", "elements/index.js"]) {
      assert.ok(!readFileSync(path.join(TEMPLATE, entry), "utf8").includes(`${sub}/`), `${entry} does not load ${sub}/`);
    }
  }
});
