// The packaging matrix: installs the packed tarball into tiny consumer projects (copies of
// fixtures/*) in a temp dir and checks `import { Client } from "mcp-wasm-client"` in each
// environment. Prints one line per environment and `packaging: N passed, M failed`.
// Usage: node tests/packaging/matrix.mjs <tarball>   (run.sh builds and passes it)
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, "fixtures");
const tarball = path.resolve(process.argv[2] ?? "");
if (!process.argv[2] || !existsSync(tarball)) {
  console.error(`usage: node matrix.mjs <tarball> (got ${process.argv[2] ?? "nothing"})`);
  process.exit(2);
}
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const KEEP = process.env.PACKAGING_KEEP === "1";
const DENO_CACHE = process.env.PACKAGING_DENO_DIR
  ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "mcp-wasm-client-packaging", "deno");

const results = [];
function record(name, status, detail = "") {
  results.push({ name, status, detail });
  const tag = { pass: "PASS", fail: "FAIL", skip: "SKIP" }[status];
  console.log(`${tag}  ${name.padEnd(44)} ${detail}`);
}
function fromCheck(name, result, extra = "") {
  if (!result) return record(name, "fail", "no result");
  if (result.ok) return record(name, "pass", extra);
  const { error, ...flags } = result;
  return record(name, "fail", `${JSON.stringify(flags)}${error ? ` ${error.split("\n").slice(0, 3).join(" | ")}` : ""}`);
}

function run(cmd, args, { cwd, env, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d) => { stdout += d; });
    child.stderr.on("data", (d) => { stderr += d; });
    const timer = setTimeout(() => { stderr += `\n(timed out after ${timeoutMs} ms)`; child.kill("SIGKILL"); }, timeoutMs);
    child.on("error", (e) => { clearTimeout(timer); resolve({ code: -1, stdout, stderr: stderr + String(e) }); });
    child.on("close", (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}
const lastJson = (text) => {
  const line = text.trim().split("\n").reverse().find((l) => l.startsWith("{"));
  try { return line ? JSON.parse(line) : null; } catch { return null; }
};
const brief = (r) => `exit ${r.code}: ${(r.stderr || r.stdout).trim().split("\n").slice(-4).join(" | ")}`;

// ---- consumer projects ------------------------------------------------------------------------
const tmp = await mkdtemp(path.join(os.tmpdir(), "mcp-wasm-client-packaging-"));
const consumers = ["node-esm", "node-cjs", "vite", "webpack", "plain", "deno"];
const installed = {};
await Promise.all(consumers.map(async (name) => {
  const dir = path.join(tmp, name);
  await cp(path.join(FIXTURES, name), dir, { recursive: true });
  const checkDir = name === "webpack" ? path.join(dir, "src") : dir;
  await cp(path.join(FIXTURES, "check.js"), path.join(checkDir, name === "node-cjs" ? "check.mjs" : "check.js"));
  const r = await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: dir });
  installed[name] = r.code === 0 ? null : brief(r);
}));
const dirOf = (name) => path.join(tmp, name);
const installOk = (label, name) => {
  if (installed[name] === null) return true;
  record(label, "fail", `npm install of the tarball failed: ${installed[name]}`);
  return false;
};

// ---- Node -------------------------------------------------------------------------------------
if (installOk("node ESM (import)", "node-esm")) {
  const r = await run(process.execPath, ["test.js"], { cwd: dirOf("node-esm"), timeoutMs: 30_000 });
  const res = lastJson(r.stdout);
  if (r.code !== 0 || !res) record("node ESM (import)", "fail", brief(r));
  else fromCheck("node ESM (import)", res, "import = require instance; /manual = same");
}
if (installOk("node CJS (require)", "node-cjs")) {
  const r = await run(process.execPath, ["test.js"], { cwd: dirOf("node-cjs"), timeoutMs: 30_000 });
  const res = lastJson(r.stdout);
  if (r.code !== 0 || !res) record("node CJS (require)", "fail", brief(r));
  else fromCheck("node CJS (require)", res, r.stderr.trim() ? `stderr: ${r.stderr.trim().split("\n")[0]}` : "");
}

// ---- Deno (npm: specifier, node_modules from the tarball) ---------------------------------------
async function denoBinary() {
  const bin = path.join(DENO_CACHE, "node_modules", ".bin", "deno");
  const probe = async () => {
    const r = await run(bin, ["--version"], { timeoutMs: 60_000 });
    return r.code === 0 ? r.stdout.split("\n")[0] : null;
  };
  if (existsSync(bin)) { const v = await probe(); if (v) return { bin, version: v }; }
  await mkdir(DENO_CACHE, { recursive: true });
  if (!existsSync(path.join(DENO_CACHE, "package.json"))) {
    await run("npm", ["init", "-y"], { cwd: DENO_CACHE });
  }
  const r = await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "deno@2"], { cwd: DENO_CACHE, timeoutMs: 150_000 });
  if (r.code !== 0) return { reason: `npm i deno failed (${brief(r)})` };
  const v = await probe();
  return v ? { bin, version: v } : { reason: "npm i deno installed no runnable linux-x64 binary (deno --version failed)" };
}
if (installOk("deno (npm:mcp-wasm-client)", "deno")) {
  const deno = await denoBinary();
  if (!deno.bin) record("deno (npm:mcp-wasm-client)", "skip", deno.reason);
  else {
    const r = await run(deno.bin, ["run", "--quiet", "--no-prompt", "--allow-read", "--allow-env", "test.ts"], {
      cwd: dirOf("deno"), env: { DENO_DIR: path.join(tmp, ".deno-dir"), NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" }, timeoutMs: 60_000,
    });
    const res = lastJson(r.stdout);
    if (r.code !== 0 || !res) record("deno (npm:mcp-wasm-client)", "fail", brief(r));
    else fromCheck("deno (npm:mcp-wasm-client)", res, deno.version);
    const t = await run(deno.bin, ["check", "--quiet", "types.ts"], {
      cwd: dirOf("deno"), env: { DENO_DIR: path.join(tmp, ".deno-dir"), NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" }, timeoutMs: 90_000,
    });
    if (t.code === 0) record("deno check: types via exports (., ./manual)", "pass", "index.d.ts -> dist/mcp_wasm_client.d.ts");
    else record("deno check: types via exports (., ./manual)", "fail", brief(t).replace(/\s+/g, " ").slice(0, 400));
  }
}

// ---- bundles ----------------------------------------------------------------------------------
const pages = []; // { label, workerLabel?, url }
const vite = await import("vite");
if (installOk("vite build", "vite")) {
  try {
    await vite.build({ root: dirOf("vite"), logLevel: "error" });
    pages.push({ label: `vite ${vite.version} build`, workerLabel: `vite ${vite.version} build: module worker`, path: "/vite/dist/index.html" });
  } catch (e) {
    record(`vite ${vite.version} build`, "fail", `build failed: ${String(e.message ?? e).split("\n")[0]}`);
  }
}
let viteDev = null;
if (installed.vite === null) {
  try {
    viteDev = await vite.createServer({ root: dirOf("vite"), logLevel: "error", server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false } });
    await viteDev.listen();
    const { port } = viteDev.httpServer.address();
    pages.push({ label: `vite ${vite.version} dev server`, workerLabel: `vite ${vite.version} dev server: module worker`, url: `http://127.0.0.1:${port}/` });
  } catch (e) {
    record(`vite ${vite.version} dev server`, "fail", `server failed: ${String(e.message ?? e).split("\n")[0]}`);
  }
}
if (installOk("webpack build", "webpack")) {
  const { default: webpack } = await import("webpack");
  const { default: config } = await import(path.join(dirOf("webpack"), "webpack.config.js"));
  const label = `webpack ${webpack.version}`;
  const stats = await new Promise((resolve) => webpack(config, (err, s) => resolve(err ? { err } : { s })));
  if (stats.err || stats.s.hasErrors()) {
    const msg = stats.err ? String(stats.err) : stats.s.toJson({ all: false, errors: true }).errors.map((e) => e.message).join(" | ");
    record(label, "fail", `build failed: ${msg.split("\n").slice(0, 3).join(" ")}`);
  } else {
    await cp(path.join(dirOf("webpack"), "index.html"), path.join(dirOf("webpack"), "dist", "index.html"));
    pages.push({ label, workerLabel: `${label}: module worker`, path: "/webpack/dist/index.html" });
  }
}
if (installed.plain === null) {
  pages.push({ label: "browser <script type=module> + import map", workerLabel: "module worker, plain relative URL", path: "/plain/index.html" });
  pages.push({ label: "browser explicit init (mcp-wasm-client/manual)", path: "/plain/manual.html", manual: true });
} else installOk("browser <script type=module> + import map", "plain");

// ---- a static server on 127.0.0.1 and headless Chromium -----------------------------------------
const MIME = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".css": "text/css", ".map": "application/json" };
const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, "http://x");
    const file = path.join(tmp, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ""));
    if (!file.startsWith(tmp + path.sep) || !(await stat(file)).isFile()) throw new Error("not found");
    res.writeHead(200, { "content-type": MIME[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    res.end(await readFile(file));
  } catch {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;

if (pages.length) {
  let browser;
  try {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-quic", "--no-first-run"],
    });
  } catch (e) {
    for (const p of pages) record(p.label, "fail", `chromium did not start: ${String(e.message ?? e).split("\n")[0]}`);
  }
  if (browser) {
    for (const p of pages) {
      const page = await browser.newPage();
      const problems = [];
      page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
      page.on("console", (m) => {
        // the deliberate connect() to the refused port 1 in check.js logs a failed load: expected
        if (m.location()?.url?.startsWith("http://127.0.0.1:1/")) return;
        if (m.type() === "error" || m.type() === "warning") problems.push(`console.${m.type()}: ${m.text()}`);
      });
      page.on("response", (r) => { if (r.status() >= 400) problems.unshift(`HTTP ${r.status()} ${r.url()}`); });
      let result = null;
      try {
        await page.goto(p.url ?? base + p.path, { waitUntil: "load", timeout: 20_000 });
        await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 20_000 });
        result = await page.evaluate(() => window.__result);
      } catch (e) {
        problems.unshift(String(e.message ?? e).split("\n")[0]);
      }
      const why = problems.slice(0, 4).join(" | ");
      if (!result) {
        record(p.label, "fail", why || "no result");
        if (p.workerLabel) record(p.workerLabel, "fail", "page did not finish");
      } else {
        const note = p.manual && result.main?.before?.client ? `before init: "${result.main.before.client.slice(0, 60)}…"` : "";
        if (result.main?.ok && problems.length) record(p.label, "fail", `checks passed but: ${why}`);
        else fromCheck(p.label, result.main, note);
        if (p.workerLabel) fromCheck(p.workerLabel, result.worker);
      }
      await page.close();
    }
    await browser.close();
  }
}
server.close();
if (viteDev) await viteDev.close();

const passed = results.filter((r) => r.status === "pass").length;
const failed = results.filter((r) => r.status === "fail").length;
const skipped = results.filter((r) => r.status === "skip").length;
if (KEEP) console.log(`(consumer projects kept in ${tmp})`);
else await rm(tmp, { recursive: true, force: true });
if (skipped) console.log(`(${skipped} skipped: ${results.filter((r) => r.status === "skip").map((r) => r.name).join(", ")})`);
console.log(`packaging: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
