// The client's `cache: { store: indexedDbCacheStore(), partition }` in Chromium across a page reload:
// a page served from 127.0.0.1 (pkg/web and pkg-template/cache/index.js, the file the package
// ships as cache/index.js) lists the tools of a Python peer whose tools/list is cacheable
// (tests/peers/python_server.py with MCP_TOOLS_TTL_MS=60000; its CORS allows the page's origin),
// reloads, and lists again: Playwright's page.on("request") shows no tools/list on the wire the
// second time (server/discover is), and the tools are the same. Another partition asks the server.
// The store alone in Chromium: cache.mjs; the option in Node: tests/js/cache-client.test.mjs.
//
// The page's static server (this process) and the peer (stopped by PID on exit) on two free ports
// of E2E_CACHE_PORTS (default 18651-18660, as cache.mjs, which runs before this script).
// Prints `e2e-cache-client: N passed, M failed`.
import fs from "node:fs";
import path from "node:path";
import { ROOT, expect, freePorts, launchChromium, needWebPackage, servePages, start, stepper, stopChildren, waitAnswering } from "./lib.mjs";

const PORTS = process.env.E2E_CACHE_PORTS ?? "18651-18660";
const started = Date.now();
const steps = stepper(30_000);
const { step } = steps;

const PAGE = `<!doctype html><meta charset="utf-8"><title>cache across reloads</title><body>
<script type="module">
import init, { Client } from "/pkg/web/mcp_wasm_client.js";
import { indexedDbCacheStore } from "/cache/index.js";
await init();
// Connects a client with the IndexedDB store under \`partition\`, lists the tools, closes.
window.listTools = async (url, partition) => {
  const heard = [];
  const client = new Client(url, {
    cache: { store: indexedDbCacheStore(), partition },
    messageHandler: (m) => heard.push(m?.data?.kind ?? m?.method ?? String(m)),
  });
  await client.connect();
  const listed = await client.listTools();
  await client.close();
  return { names: listed.tools.map((t) => t.name), ttlMs: listed.ttlMs, heard };
};
// The keys of the store's records (database "mcp-wasm-client-cache", object store "entries").
window.keys = () => new Promise((resolve, reject) => {
  const open = indexedDB.open("mcp-wasm-client-cache");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("entries")) { db.close(); return resolve([]); }
    const all = db.transaction("entries").objectStore("entries").getAllKeys();
    all.onsuccess = () => { db.close(); resolve(all.result); };
    all.onerror = () => reject(all.error);
  };
});
window.ready = true;
</script>`;

async function main() {
  needWebPackage();
  const [pagePort, peerPort] = await freePorts(2, PORTS);
  const cacheModule = () => fs.readFileSync(path.join(ROOT, "pkg-template/cache/index.js"));
  const server = await servePages(pagePort, { "/index.html": PAGE, "/cache/index.js": cacheModule });
  const origin = `http://127.0.0.1:${pagePort}`;
  const mcp = `http://127.0.0.1:${peerPort}/mcp`;
  process.env.MCP_TOOLS_TTL_MS = "60000"; // the peer's tools/list: ttlMs 60000, private
  const peer = start("python_server.py (tools/list ttl 60 s)", "python3", ["tests/peers/python_server.py", String(peerPort)]);
  await waitAnswering(mcp, peer);
  console.log(`# page ${origin}/index.html, peer ${mcp}`);

  const browser = await launchChromium();
  const pageErrors = [];
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  // What reaches the peer: each request's Mcp-Method (the 2026 header), by page load.
  let wire = [];
  page.on("request", (r) => {
    if (r.url().startsWith(mcp)) wire.push(r.headers()["mcp-method"] ?? r.method());
  });
  const load = async (reload) => {
    await (reload ? page.reload() : page.goto(`${origin}/index.html`));
    await page.waitForFunction(() => window.ready === true);
    wire = [];
  };

  try {
    let first;
    await step("first load: listTools goes to the server; its answer is written to IndexedDB (in the background)", async () => {
      await load(false);
      first = await page.evaluate((url) => window.listTools(url, "p1"), mcp);
      expect(first.names.includes("echo") && first.ttlMs === 60_000, JSON.stringify(first));
      expect(wire.filter((m) => m === "tools/list").length === 1, `on the wire: ${wire}`);
      const until = Date.now() + 5000;
      let keys = [];
      while (Date.now() < until) {
        keys = await page.evaluate(() => window.keys());
        if (keys.some((k) => k.includes('"tools/list"'))) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const key = keys.find((k) => k.includes('"tools/list"'));
      expect(key, `no tools/list record in IndexedDB: ${JSON.stringify(keys)}`);
      const parts = JSON.parse(key);
      expect(parts[1] === "p1" && parts[2] === mcp && parts[4] === "tools/list", `the key names partition, server, method: ${key}`);
      expect(first.heard.length === 0, `messageHandler: ${first.heard}`);
    });

    await step("after a reload: the same tools from IndexedDB, no tools/list on the wire (server/discover is)", async () => {
      await load(true);
      const again = await page.evaluate((url) => window.listTools(url, "p1"), mcp);
      expect(JSON.stringify(again.names) === JSON.stringify(first.names), `${again.names} vs ${first.names}`);
      expect(!wire.includes("tools/list"), `tools/list went to the server after the reload: ${wire}`);
      expect(wire.includes("server/discover"), `the client connected: ${wire}`);
      expect(again.heard.length === 0, `messageHandler: ${again.heard}`);
    });

    await step("another partition on the same store asks the server", async () => {
      await load(true);
      const other = await page.evaluate((url) => window.listTools(url, "p2"), mcp);
      expect(JSON.stringify(other.names) === JSON.stringify(first.names), JSON.stringify(other));
      expect(wire.filter((m) => m === "tools/list").length === 1, `on the wire: ${wire}`);
    });

    await step("no page errors", async () => {
      expect(pageErrors.length === 0, pageErrors.join("\n"));
    });
  } finally {
    await browser.close();
    server.close();
    stopChildren();
  }
  console.log(`e2e-cache-client: ${steps.passed} passed, ${steps.failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exitCode = steps.failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  stopChildren();
  console.log(`e2e-cache-client: ${steps.passed} passed, ${steps.failed + 1} failed`);
  process.exit(1);
});
