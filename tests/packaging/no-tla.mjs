// The default entry without top-level await, in headless Chromium: a page imports the packed
// package's index.js and uses Client and ClientGroup before the WebAssembly module is ready
// (construct, read the state, add listeners, connect() to a refused port; an option error rejects
// connect()), then after init() uses them as usual. Then, with Chromium's popup blocker on,
// client.signIn() clicked while the .wasm is held back opens its window inside the click (before
// init) and closes it unused when the connect fails; and pages whose .wasm fails to load (404, an
// HTML page in its place, a CSP without 'wasm-unsafe-eval') get an McpError of kind wasm_load
// naming the URL from every call that needs it (the `auth` builders, plain JS, still work). The page's files are served by Playwright's
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
}

// ---- signIn() before init, and wasm load failures

// The module a client without `auth` needs: the lean one (the core build's .wasm)
const WASM_URL = `${ORIGIN}/pkg/dist/mcp_wasm_client_lean_bg.wasm`;

const SIGN_IN = `import { Client, McpError } from "/pkg/index.js";
const out = (window.__result = { opens: [] });
const open = window.open.bind(window);
let inClick = false;
window.open = (...args) => {
  const w = open(...args);
  out.opens.push({ url: String(args[0] ?? ""), inClick, opened: !!w, readyAtOpen: window.__wasmServed === true });
  out.window = w;
  return w;
};
document.getElementById("sign-in").onclick = () => {
  inClick = true;
  try {
    const c = new Client("http://127.0.0.1:1/mcp", { timeoutMs: 3000, auth: {
      clientMetadata: { client_name: "no-tla", redirect_uris: [location.origin + "/callback.html"] },
    } });
    out.state = c.state;
    c.signIn().then((a) => (out.signIn = { resolved: a }), (e) => (out.signIn = { kind: e instanceof McpError ? e.data?.kind : String(e) }))
      .finally(() => { out.closed = out.window ? out.window.closed : null; out.done = true; });
  } finally {
    inClick = false;
  }
};
document.body.dataset.ready = "true";`;

const FAILING = `import { Client, McpError, init, authorizeWithPopup, elicitationForm } from "/pkg/index.js";
const out = {};
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, url: e?.data?.url, message: String(e?.message ?? e) });
try {
  const c = new Client("http://127.0.0.1:1/mcp");
  try { await c.connect(); out.connect = "resolved"; } catch (e) { out.connect = seen(e); }
  try { await c.listTools(); out.listTools = "resolved"; } catch (e) { out.listTools = seen(e); }
  out.state = c.state;
  try { await init(); out.init = "resolved"; } catch (e) { out.init = seen(e); }
  try { elicitationForm({ message: "m", requestedSchema: { type: "object", properties: {} } }); out.helper = "returned"; } catch (e) { out.helper = seen(e); }
  try { out.builder = typeof authorizeWithPopup(); } catch (e) { out.builder = seen(e); }
} catch (e) {
  out.error = String(e?.stack ?? e);
}
window.__result = out;`;

const said = (r, re) => ["connect", "listTools", "init", "helper"].every((k) => {
  const e = r[k];
  return e?.mcp === true && e.kind === "wasm_load" && e.url === WASM_URL && e.message.includes(WASM_URL) && re.test(e.message)
    && !/used before the WebAssembly module was initialised/.test(e.message);
});
const FAILURES = [
  ["the .wasm answers 404", { wasm: "404" }, /404/],
  ["an HTML page is served in place of the .wasm", { wasm: "html" }, /not the WebAssembly module/],
  ["the page's CSP has no 'wasm-unsafe-eval'", { csp: "script-src 'self'; connect-src 'self'" }, /Content-Security-Policy/],
];

/** Serves the package and one page (script at /page.js) on ORIGIN; returns { page, release }. */
async function openPage(browser, script, { wasm = "ok", csp, hold = false, body = "" } = {}) {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  let release;
  const held = hold ? new Promise((r) => (release = r)) : null;
  const html = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${body}<script type="module" src="/page.js"></script>`;
  const headers = csp ? { "content-security-policy": csp } : {};
  await page.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === "/") return route.fulfill({ contentType: "text/html", headers, body: html });
    if (url.pathname === "/page.js") return route.fulfill({ contentType: "text/javascript", body: script });
    const file = path.join(pkgDir, path.normalize(url.pathname.replace(/^\/pkg\//, "/")));
    if (!url.pathname.startsWith("/pkg/") || !file.startsWith(pkgDir)) return route.fulfill({ status: 404, body: "" });
    if (file.endsWith(".wasm")) {
      if (wasm === "404") return route.fulfill({ status: 404, contentType: "text/plain", body: "not found" });
      if (wasm === "html") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>app</title>" });
      if (held) await held;
    }
    try {
      route.fulfill({ contentType: MIME[path.extname(file)] ?? "application/octet-stream", body: await readFile(file) });
    } catch {
      route.fulfill({ status: 404, body: "" });
    }
  });
  await page.goto(`${ORIGIN}/`, { waitUntil: "load", timeout: 30_000 });
  return { page, problems, release };
}

const report = (name, good, detail) => {
  good ? passed++ : failed++;
  console.log(`${good ? "pass" : "FAIL"}  ${name}`);
  if (!good) console.log(`      ${JSON.stringify(detail)}`);
};

const blocking = await launchChromium({ popupBlocking: true });
try {
  const { page, problems, release } = await openPage(blocking, SIGN_IN, { hold: true, body: '<button id="sign-in">Sign in</button>' });
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  const popup = page.waitForEvent("popup", { timeout: 10_000 });
  await page.click("#sign-in");
  const w = await popup;
  const before = await page.evaluate(() => ({ ...window.__result, window: undefined }));
  await page.evaluate(() => (window.__wasmServed = true));
  release();
  await page.waitForFunction(() => window.__result.done === true, null, { timeout: 60_000 });
  const r = await page.evaluate(() => ({ ...window.__result, window: undefined }));
  report("signIn() in a click, before init: its window opens inside the click (popup blocker on), before the .wasm arrived",
    before.opens.length === 1 && before.opens[0].inClick === true && before.opens[0].opened === true && before.opens[0].readyAtOpen === false
      && before.state === "idle" && !before.done, before);
  report("then the connect fails (refused port): signIn() rejects with its kind, the unused window closed", 
    (r.signIn?.kind === "network" || r.signIn?.kind === "cors") && r.closed === true && w.isClosed() && r.opens.length === 1 && !problems.length, { r, problems });
} finally {
  await blocking.close();
}

const browser2 = await launchChromium();
try {
  for (const [name, how, re] of FAILURES) {
    const { page } = await openPage(browser2, FAILING, how);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const r = await page.evaluate(() => window.__result);
    report(`${name}: connect(), listTools(), init() and a helper fail with McpError kind wasm_load naming ${WASM_URL}; an auth builder (plain JS) still works`,
      !r.error && r.state === "failed" && said(r, re) && r.builder === "function", r);
    console.log(`      ${r.connect?.message}`);
    await page.close();
  }
} finally {
  await browser2.close();
  if (unpacked) await rm(unpacked, { recursive: true, force: true });
}
console.log(`no-tla: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
