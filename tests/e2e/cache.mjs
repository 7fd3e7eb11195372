// mcp-wasm-client/cache's indexedDbCacheStore in Chromium: a page served from 127.0.0.1 imports
// pkg-template/cache/index.js (the file the package ships, as the package's cache/index.js) and
// uses the store: set and get, entries that survive a page reload, an expired entry dropped when
// read and swept when the database opens, clear(prefix) by key range (partitionPrefix's too) and clear(), stores of
// different names apart, the database's layout (object store "entries" keyed by key, records
// { key, entry, expires }, index "expires"), and the store after another page deletes the database.
// The memory store and the host without IndexedDB: tests/js/cache.test.mjs.
//
// One small static server (this process) on a free port of E2E_CACHE_PORTS (default 18651-18660).
// Prints `e2e-cache: N passed, M failed`.
import fs from "node:fs";
import path from "node:path";
import { ROOT, expect, freePorts, launchChromium, servePages, stepper } from "./lib.mjs";

const PORTS = process.env.E2E_CACHE_PORTS ?? "18651-18660";
const started = Date.now();
const steps = stepper(20_000);
const { step } = steps;

const PAGE = `<!doctype html><meta charset="utf-8"><title>cache store</title><body>
<script type="module">
import { indexedDbCacheStore, memoryCacheStore, partitionPrefix } from "/cache/index.js";
window.stores = { indexedDbCacheStore, memoryCacheStore, partitionPrefix };
// The database as it is, read without the store: { stores, keyPath, indexes, records }.
window.raw = (name = "mcp-wasm-client-cache") => new Promise((resolve, reject) => {
  const open = indexedDB.open(name);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("entries")) { db.close(); return resolve({ stores: [...db.objectStoreNames] }); }
    const tx = db.transaction("entries");
    const store = tx.objectStore("entries");
    const all = store.getAll();
    tx.oncomplete = () => {
      db.close();
      resolve({ stores: [...db.objectStoreNames], keyPath: store.keyPath, indexes: [...store.indexNames],
        version: db.version, records: all.result });
    };
  };
});
window.ready = true;
</script>`;

async function main() {
  const [port] = await freePorts(1, PORTS);
  const cacheModule = () => fs.readFileSync(path.join(ROOT, "pkg-template/cache/index.js"));
  const server = await servePages(port, { "/index.html": PAGE, "/cache/index.js": cacheModule });
  const origin = `http://127.0.0.1:${port}`;
  console.log(`# page ${origin}/index.html`);
  const browser = await launchChromium();
  const pageErrors = [];
  const context = await browser.newContext(); // a second page of it: another page of the origin
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  const load = async (reload) => {
    await (reload ? page.reload() : page.goto(`${origin}/index.html`));
    await page.waitForFunction(() => window.ready === true);
  };
  await load(false);

  await step("set then get: the entry comes back as set (a structured clone); a missing key is undefined", async () => {
    const r = await page.evaluate(async () => {
      const store = window.stores.indexedDbCacheStore();
      const entry = { result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] }, at: 1700000000000, bytes: new Uint8Array([1, 2]) };
      await store.set("p|http://a.example/mcp|tools/list", entry, 60_000);
      const got = await store.get("p|http://a.example/mcp|tools/list");
      return { same: JSON.stringify({ ...got, bytes: [...got.bytes] }) === JSON.stringify({ ...entry, bytes: [1, 2] }),
        bytes: got.bytes instanceof Uint8Array, missing: await store.get("p|http://a.example/mcp|prompts/list") };
    });
    expect(r.same && r.bytes && r.missing === undefined, JSON.stringify(r));
  });

  await step("the database: object store \"entries\" keyed by key, index \"expires\", records { key, entry, expires }", async () => {
    const raw = await page.evaluate(() => window.raw());
    expect(JSON.stringify(raw.stores) === '["entries"]' && raw.keyPath === "key" && JSON.stringify(raw.indexes) === '["expires"]', JSON.stringify(raw));
    const [record] = raw.records;
    expect(raw.records.length === 1 && Object.keys(record).sort().join() === "entry,expires,key", JSON.stringify(raw.records));
    const ahead = record.expires - Date.now();
    expect(ahead > 50_000 && ahead <= 60_000, `expires = Date.now() + ttlMs: ${ahead} ms ahead`);
  });

  await step("entries survive a page reload (a new store of the same name reads them)", async () => {
    await load(true);
    const got = await page.evaluate(async () => (await window.stores.indexedDbCacheStore().get("p|http://a.example/mcp|tools/list"))?.result?.tools?.[0]?.name);
    expect(got === "echo", `after reload: ${got}`);
  });

  await step("an expired entry: get answers undefined and drops its record", async () => {
    const r = await page.evaluate(async () => {
      const store = window.stores.indexedDbCacheStore();
      await store.set("short", { v: 1 }, 150);
      const before = await store.get("short");
      await new Promise((res) => setTimeout(res, 250));
      const after = await store.get("short");
      const keys = (await window.raw()).records.map((x) => x.key);
      return { before, after, keys };
    });
    expect(r.before?.v === 1 && r.after === undefined, JSON.stringify(r));
    expect(!r.keys.includes("short"), `the expired record is gone: ${r.keys}`);
  });

  await step("expired records are swept when the database opens (after a reload), unread ones too", async () => {
    await page.evaluate(async () => {
      const store = window.stores.indexedDbCacheStore();
      await store.set("sweep-1", { v: 1 }, 150);
      await store.set("sweep-2", { v: 2 }, 150);
      await store.set("stays", { v: 3 }, 60_000);
    });
    await new Promise((res) => setTimeout(res, 250));
    await load(true);
    const r = await page.evaluate(async () => {
      const before = (await window.raw()).records.map((x) => x.key);
      await window.stores.indexedDbCacheStore().get("stays"); // the first use opens the database
      const after = (await window.raw()).records.map((x) => x.key);
      return { before, after };
    });
    expect(r.before.includes("sweep-1") && r.before.includes("sweep-2"), `still stored before the store opened: ${r.before}`);
    expect(!r.after.includes("sweep-1") && !r.after.includes("sweep-2") && r.after.includes("stays"), `after: ${r.after}`);
  });

  await step("delete(key); clear(prefix) deletes the key range [prefix, prefix + \\uffff]; clear() all", async () => {
    const r = await page.evaluate(async () => {
      const store = window.stores.indexedDbCacheStore();
      await store.clear();
      for (const key of ["app1|a", "app1|b", "app10|c", "app2|a", "other"]) await store.set(key, { key }, 60_000);
      const keys = async () => (await window.raw()).records.map((x) => x.key).sort().join(" ");
      await store.delete("app1|a");
      const afterDelete = await keys();
      await store.clear("app1|");
      const afterPrefix = await keys();
      await store.clear("app");
      const afterApp = await keys();
      await store.clear();
      return { afterDelete, afterPrefix, afterApp, afterAll: await keys(), get: await store.get("other") };
    });
    expect(r.afterDelete === "app10|c app1|b app2|a other", JSON.stringify(r));
    expect(r.afterPrefix === "app10|c app2|a other", JSON.stringify(r));
    expect(r.afterApp === "other", JSON.stringify(r));
    expect(r.afterAll === "" && r.get === undefined, JSON.stringify(r));
  });

  await step("clear(partitionPrefix(p)) by key range: p's keys go, a partition p is a prefix of stays", async () => {
    const r = await page.evaluate(async () => {
      const { indexedDbCacheStore, partitionPrefix } = window.stores;
      const store = indexedDbCacheStore();
      const key = (p, method) => `${partitionPrefix(p).slice(0, -1)},"http://a.example/mcp","srv",${JSON.stringify(method)}]`;
      for (const p of ["user-4", "user-42", "ünï"]) for (const m of ["tools/list", "prompts/list"]) await store.set(key(p, m), { p }, 60_000);
      await store.clear(partitionPrefix("user-4"));
      const left = (await window.raw()).records.map((x) => JSON.parse(x.key)[1]);
      await store.clear();
      return left.sort().join(" ");
    });
    expect(r === "user-42 user-42 ünï ünï", `left: ${r}`);
  });

  await step("stores of different names are apart; the database opens once and is kept", async () => {
    const r = await page.evaluate(async () => {
      const a = window.stores.indexedDbCacheStore();
      const b = window.stores.indexedDbCacheStore("mcp-cache-other");
      await a.set("k", { in: "a" }, 60_000);
      await b.set("k", { in: "b" }, 60_000);
      let opens = 0;
      const open = indexedDB.open.bind(indexedDB);
      indexedDB.open = (...args) => (opens++, open(...args));
      const c = window.stores.indexedDbCacheStore("mcp-cache-third");
      for (let i = 0; i < 5; i++) await c.set(`k${i}`, { i }, 60_000);
      for (let i = 0; i < 5; i++) await c.get(`k${i}`);
      indexedDB.open = open;
      return { a: (await a.get("k")).in, b: (await b.get("k")).in, opens };
    });
    expect(r.a === "a" && r.b === "b", JSON.stringify(r));
    expect(r.opens === 1, `indexedDB.open called ${r.opens} times for ten operations`);
  });

  await step("another page deletes the database: the store closes it, then opens a fresh one when used", async () => {
    const other = await context.newPage(); // the same origin's storage
    try {
      await other.goto(`${origin}/index.html`);
      await other.waitForFunction(() => window.ready === true);
      await page.evaluate(async () => {
        window.kept = window.stores.indexedDbCacheStore("mcp-cache-deleted");
        await window.kept.set("k", { v: 1 }, 60_000);
      });
      const deleted = await other.evaluate(() => new Promise((resolve, reject) => {
        const del = indexedDB.deleteDatabase("mcp-cache-deleted");
        del.onsuccess = () => resolve("deleted");
        del.onerror = () => reject(del.error);
        del.onblocked = () => resolve("blocked");
      }));
      expect(deleted === "deleted", `deleteDatabase: ${deleted} (the store must close on versionchange)`);
      const r = await page.evaluate(async () => {
        const before = await window.kept.get("k");
        await window.kept.set("k2", { v: 2 }, 60_000);
        return { before, after: (await window.kept.get("k2"))?.v };
      });
      expect(r.before === undefined && r.after === 2, JSON.stringify(r));
    } finally {
      await other.close();
    }
  });

  await step("no page errors", async () => {
    expect(pageErrors.length === 0, pageErrors.join("\n"));
  });

  await browser.close();
  server.close();
  console.log(`e2e-cache: ${steps.passed} passed, ${steps.failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exitCode = steps.failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  console.log(`e2e-cache: ${steps.passed} passed, ${steps.failed + 1} failed`);
  process.exit(1);
});
