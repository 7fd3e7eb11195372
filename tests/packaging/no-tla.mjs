// The default entry without top-level await, in headless Chromium: a page imports the packed
// package's index.js and uses Client and ClientGroup before the WebAssembly module is ready
// (construct, read the state, add listeners, connect() to a refused port; an option error rejects
// connect()), then after init() uses them as usual. The page's files are served by Playwright's
// request routing from pkg/npm (no server is started). Usage: node tests/packaging/no-tla.mjs
// [PKG_DIR | TARBALL] (default pkg/npm, as scripts/package.sh leaves it; a .tgz is unpacked into a
// temp dir); prints one line per check and `no-tla: N passed, M failed`; exits non-zero on a failure.
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../e2e/lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const given = path.resolve(process.argv[2] ?? path.join(here, "../../pkg/npm"));
const unpacked = given.endsWith(".tgz") ? await mkdtemp(path.join(os.tmpdir(), "no-tla-")) : null;
if (unpacked) execFileSync("tar", ["-xzf", given, "-C", unpacked]);
const pkgDir = unpacked ? path.join(unpacked, "package") : given;
const ORIGIN = "http://pkg.test";
const MIME = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

const PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module">
import { Client, ClientGroup, McpError, init } from "/pkg/index.js";
const out = {};
try {
  // before init: nothing awaited yet
  const c = new Client("http://127.0.0.1:1/mcp", { timeoutMs: 3000 });
  out.beforeInstance = c instanceof Client && c instanceof EventTarget;
  out.beforeState = c.state;
  out.beforePending = c.pendingRequests;
  const states = [];
  c.addEventListener("statechange", (e) => states.push(e.detail.state + (e.target === c ? "" : "!target")));
  const bad = new Client("ftp://example.com/mcp");
  const group = new ClientGroup({ servers: { down: { url: "http://127.0.0.1:1/mcp", timeoutMs: 3000 } } });
  out.groupInstance = group instanceof ClientGroup;
  try { await c.connect(); out.refused = "resolved"; } catch (e) { out.refused = e instanceof McpError ? e.data?.kind ?? "mcp" : String(e); }
  out.states = states;
  out.afterState = c.state;
  try { await bad.connect(); out.optionError = "resolved"; } catch (e) { out.optionError = e instanceof McpError && e.data?.kind === "input" ? e.message : String(e); }
  out.badState = bad.state;
  await group.connect();
  out.groupStatus = group.status.down;
  await init();
  const later = new Client("http://127.0.0.1:1/mcp");
  out.afterInit = later instanceof Client && later.state === "idle";
  try { new Client("ftp://example.com/mcp"); out.afterInitThrows = false; } catch (e) { out.afterInitThrows = e instanceof McpError; }
} catch (e) {
  out.error = String(e?.stack ?? e);
}
window.__result = out;
</script>`;

const checks = [
  ["a Client made before init is a Client and an EventTarget", (r) => r.beforeInstance === true],
  ["before init its getters answer their not-connected values", (r) => r.beforeState === "idle" && r.beforePending === 0],
  ["connect() before init waits for the module, then fails on the refused port", (r) => r.refused === "network" || r.refused === "cors"],
  ["statechange events: connecting, failed (e.target the client)", (r) => JSON.stringify(r.states) === '["connecting","failed"]' && r.afterState === "failed"],
  ["an option error of a Client made before init rejects connect() (kind input)", (r) => /ftp:/.test(r.optionError ?? "") && r.badState === "failed"],
  ["a ClientGroup made before init works (its server failed)", (r) => r.groupInstance === true && r.groupStatus === "failed"],
  ["after init: construction is synchronous, an option error throws", (r) => r.afterInit === true && r.afterInitThrows === true],
];

const browser = await launchChromium();
let passed = 0;
let failed = 0;
try {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === "/") return route.fulfill({ contentType: "text/html", body: PAGE });
    const file = path.join(pkgDir, path.normalize(url.pathname.replace(/^\/pkg\//, "/")));
    if (!url.pathname.startsWith("/pkg/") || !file.startsWith(pkgDir)) return route.fulfill({ status: 404, body: "" });
    try {
      route.fulfill({ contentType: MIME[path.extname(file)] ?? "application/octet-stream", body: await readFile(file) });
    } catch {
      route.fulfill({ status: 404, body: "" });
    }
  });
  await page.goto(`${ORIGIN}/`, { waitUntil: "load", timeout: 30_000 });
  await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
  const result = await page.evaluate(() => window.__result);
  for (const [name, ok] of checks) {
    const good = !result.error && ok(result);
    good ? passed++ : failed++;
    console.log(`${good ? "pass" : "FAIL"}  ${name}`);
  }
  if (result.error || problems.length || failed) console.log(JSON.stringify({ result, problems }, null, 1));
} finally {
  await browser.close();
  if (unpacked) await rm(unpacked, { recursive: true, force: true });
}
console.log(`no-tla: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
