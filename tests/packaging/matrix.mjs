// The packaging matrix: installs the packed tarball into tiny consumer projects (copies of
// fixtures/*) in a temp dir and checks `import { Client } from "mcp-wasm-client"` in each
// environment (and `mcp-wasm-client/core` in Node ESM, Node CJS, Deno's types and webpack). Prints one line per environment and `packaging: N passed, M failed`.
// Usage: node tests/packaging/matrix.mjs <tarball>   (run.sh builds and passes it)
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../e2e/lib.mjs";
import { serveStatic } from "./serve.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, "fixtures");
const tarball = path.resolve(process.argv[2] ?? "");
if (!process.argv[2] || !existsSync(tarball)) {
  console.error(`usage: node matrix.mjs <tarball> (got ${process.argv[2] ?? "nothing"})`);
  process.exit(2);
}
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
const consumers = ["node-esm", "node-cjs", "vite", "webpack", "webpack-core", "plain", "deno", "bun", "workerd", "csp", "ts-dom", "ts-cjs", "ts-min", "react-ssr"];
const installed = {};
await Promise.all(consumers.map(async (name) => {
  const dir = path.join(tmp, name);
  await cp(path.join(FIXTURES, name), dir, { recursive: true });
  const checkDir = name.startsWith("webpack") ? path.join(dir, "src") : dir;
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
  else fromCheck("node ESM (import)", res, "import = require instance; /manual = same; /core: its own build, auth refused");
}
if (installOk("node CJS (require)", "node-cjs")) {
  const r = await run(process.execPath, ["test.js"], { cwd: dirOf("node-cjs"), timeoutMs: 30_000 });
  const res = lastJson(r.stdout);
  if (r.code !== 0 || !res) record("node CJS (require)", "fail", brief(r));
  else fromCheck("node CJS (require)", res, r.stderr.trim() ? `stderr: ${r.stderr.trim().split("\n")[0]}` : "/core: auth refused");
}

// ---- mcp-wasm-client/react in Node without a DOM (a server render), React from tests/react ---------
if (installOk("react entry in Node (SSR: idle, no fetch)", "react-ssr")) {
  const label = "react entry in Node (SSR: idle, no fetch)";
  const reactModules = path.join(HERE, "..", "react", "node_modules");
  if (!existsSync(path.join(reactModules, "react"))) record(label, "fail", `${reactModules} has no react (scripts/setup.sh installs tests/react)`);
  else {
    for (const name of ["react", "react-dom", "scheduler"])
      await cp(path.join(reactModules, name), path.join(dirOf("react-ssr"), "node_modules", name), { recursive: true });
    const r = await run(process.execPath, ["test.js"], { cwd: dirOf("react-ssr"), timeoutMs: 30_000 });
    const res = lastJson(r.stdout);
    if (r.code !== 0 || !res) record(label, "fail", brief(r));
    else fromCheck(label, res, `renderToString: ${res.html}`);
    // ... and through require(): react/index.cjs, which loads the package with require (node.cjs)
    const cjsLabel = "react entry in Node CJS (require; SSR: idle, no fetch)";
    const c = await run(process.execPath, ["test.cjs"], { cwd: dirOf("react-ssr"), timeoutMs: 30_000 });
    const cjs = lastJson(c.stdout);
    if (c.code !== 0 || !cjs) record(cjsLabel, "fail", brief(c));
    else fromCheck(cjsLabel, cjs, `${cjs.entry}; renderToString: ${cjs.html}; callTool before mount: ${cjs.packageFile} McpError ${cjs.error?.split(":")[0]}`);
  }
}

// ---- the package's metadata: licenses as Cargo.toml says, no placeholder URLs ----------------------
if (installOk("package metadata: LICENSE-MIT and LICENSE-APACHE, no placeholder URL", "node-esm")) {
  const label = "package metadata: LICENSE-MIT and LICENSE-APACHE, no placeholder URL";
  const installedDir = path.join(dirOf("node-esm"), "node_modules", "mcp-wasm-client");
  const manifest = await readFile(path.join(installedDir, "package.json"), "utf8");
  const problems = [];
  const pkg = JSON.parse(manifest);
  if (pkg.license !== "MIT OR Apache-2.0") problems.push(`license is ${JSON.stringify(pkg.license)}`);
  for (const [file, mark] of [["LICENSE-MIT", "MIT License"], ["LICENSE-APACHE", "Apache License"]]) {
    const text = existsSync(path.join(installedDir, file)) ? await readFile(path.join(installedDir, file), "utf8") : "";
    if (!text.includes(mark)) problems.push(`${file} missing or not the ${mark}`);
  }
  const placeholders = manifest.match(/https?:\/\/[^"]*\.(?:invalid|example)\b[^"]*/g) ?? [];
  if (placeholders.length) problems.push(`placeholder URLs: ${placeholders.join(", ")}`);
  record(label, problems.length ? "fail" : "pass", problems.length ? problems.join("; ") : `license ${pkg.license}; repository ${pkg.repository?.url ?? "(none)"}`);
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
  const r = await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "deno@2.9.6"], { cwd: DENO_CACHE, timeoutMs: 150_000 });
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
    if (t.code === 0) record("deno check: types via exports (., ./manual, ./core)", "pass", "index.d.ts -> dist/mcp_wasm_client.d.ts");
    else record("deno check: types via exports (., ./manual, ./core)", "fail", brief(t).replace(/\s+/g, " ").slice(0, 400));
  }
}

// ---- tsc on consumer projects: the declarations as a page (DOM types) and a CommonJS project see them
const TSC = path.join(HERE, "../types/node_modules/.bin/tsc");
/** Runs tsc -p . in the installed fixture `name` and records `label` (`note` on success). */
async function tscFixture(name, label, note) {
  if (!installOk(label, name)) return;
  if (!existsSync(TSC)) return record(label, "fail", `${TSC} is missing (scripts/setup.sh installs tests/types)`);
  const t = await run(TSC, ["-p", "."], { cwd: dirOf(name), timeoutMs: 90_000 });
  if (t.code === 0) record(label, "pass", note);
  else record(label, "fail", brief(t).replace(/\s+/g, " ").slice(0, 400));
}
await tscFixture("ts-dom", "tsc --strict, lib DOM: the custom elements' types", "createElement tags, event details, ElicitationForm.ask as the elicitationCallback");
await tscFixture("ts-cjs", "tsc --strict, module node16, a CommonJS project: require types (index.d.cts)", "mcp-wasm-client, /core and /react resolve index.d.cts; init/initSync as node.cjs has them");
await tscFixture("ts-min", "tsc --strict, the README's minimum: lib ES2018 + DOM, target ES2017, bundler resolution", "every entry; McpError narrows by kind; internals not exported; init() gives back nothing");
// ... and the minimum is the minimum: lib ES2017 lacks what the declarations use (AsyncIterableIterator)
if (installOk("tsc: lib ES2017 + DOM, below the README's minimum, fails", "ts-min")) {
  const label = "tsc: lib ES2017 + DOM, below the README's minimum, fails";
  const t = await run(TSC, ["-p", "tsconfig.below.json"], { cwd: dirOf("ts-min"), timeoutMs: 90_000 });
  const out = t.stdout + t.stderr;
  if (t.code !== 0 && out.includes("TS2583")) record(label, "pass", "TS2583: AsyncIterableIterator needs lib es2018");
  else record(label, "fail", t.code === 0 ? "it compiled: lower the minimum the package README states" : brief(t).replace(/\s+/g, " ").slice(0, 400));
}

// ---- docs/package.md's runtime sections are the files run below -----------------------------------
{
  const label = "docs/package.md: Bun, workerd and CSP code = the files run here";
  const readme = await readFile(path.join(HERE, "..", "..", "docs", "package.md"), "utf8");
  const blocks = new Set([...readme.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1].trim()));
  const missing = [];
  for (const file of ["bun/main.mjs", "workerd/worker.js", "workerd/config.mjs"]) {
    if (!blocks.has((await readFile(path.join(FIXTURES, file), "utf8")).trim())) missing.push(file);
  }
  const csp = (await readFile(path.join(FIXTURES, "csp", "serve.mjs"), "utf8")).match(/^const CSP = "(.*)";$/m)?.[1];
  if (!csp || !readme.includes(`Content-Security-Policy: ${csp}`)) missing.push(`the CSP header of csp/serve.mjs (${csp})`);
  record(label, missing.length ? "fail" : "pass", missing.length ? `docs/package.md has no block equal to ${missing.join(", ")}` : "bun/main.mjs, workerd/worker.js, workerd/config.mjs, csp/serve.mjs's header");
}

// ---- real peers for the runtime checks (Bun, workerd, the CSP page) ------------------------------
// This run's own peers on PACKAGING_PORT_BASE.. (default 18920..18925), so it never meets the
// peers another stage or checkout started: the python peer (both eras) and the misbehaving server.
const PORT_BASE = Number(process.env.PACKAGING_PORT_BASE ?? 18920);
const PORTS = { csp: PORT_BASE, python: PORT_BASE + 1, misbehave: PORT_BASE + 2, workerd: PORT_BASE + 3, workerdProbe: PORT_BASE + 4, workerdLegacy: PORT_BASE + 5 };
const PEERS_DIR = path.join(HERE, "..", "peers");
const BIN = path.join(HERE, "node_modules", ".bin");
const children = []; // long-running processes of this run: each leads its own process group
function background(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { ...opts, env: { ...process.env, ...opts.env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => { log += d; });
  child.stderr.on("data", (d) => { log += d; });
  child.on("error", (e) => { log += String(e); });
  child.log = () => log.trim().split("\n").slice(-4).join(" | ");
  children.push(child);
  return child;
}
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try { process.kill(-child.pid, "SIGTERM"); } catch { /* gone */ }
}
process.on("exit", () => children.forEach(stopChild));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
const answers = async (url) => {
  try { await fetch(url, { signal: AbortSignal.timeout(2_000) }); return true; } catch { return false; }
};
async function waitUp(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return `exited (${child.exitCode}): ${child.log()}`;
    if (await answers(url)) return null;
    await new Promise((r) => setTimeout(r, 200));
  }
  return `no answer on ${url} within ${timeoutMs} ms: ${child.log()}`;
}
async function startPeer(name, cmd, args, port) {
  const url = `http://127.0.0.1:${port}/`;
  if (await answers(url)) return { error: `port ${port} is already in use (PACKAGING_PORT_BASE moves this run's ports)` };
  const child = background(cmd, args, { cwd: PEERS_DIR });
  const error = await waitUp(url, child);
  return error ? { error: `${name} peer: ${error}` } : { child };
}
const [pyPeer, badPeer] = await Promise.all([
  startPeer("python", process.env.PEERS_PYTHON ?? "python3", ["python_server.py", String(PORTS.python)], PORTS.python),
  startPeer("misbehave", process.execPath, ["misbehave.mjs", String(PORTS.misbehave)], PORTS.misbehave),
]);
const PY_URL = `http://127.0.0.1:${PORTS.python}/mcp`;
const BAD_OUTPUT_URL = `http://127.0.0.1:${PORTS.misbehave}/bad-output/mcp`;
const peersOk = (label, ...peers) => {
  const down = peers.map((p) => p.error).filter(Boolean);
  if (!down.length) return true;
  record(label, "fail", down.join("; "));
  return false;
};

// A binary from an npm package: node_modules/.bin/NAME (the package's postinstall put the
// platform binary there), else the platform package's own copy.
async function npmBinary(name, fallbacks) {
  for (const bin of [path.join(BIN, name), ...fallbacks.map((f) => path.join(HERE, "node_modules", f))]) {
    if (!existsSync(bin)) continue;
    const r = await run(bin, ["--version"], { timeoutMs: 30_000 });
    if (r.code === 0) return { bin, version: r.stdout.trim().split("\n")[0] };
  }
  return { reason: `no runnable ${name} in ${path.join(HERE, "node_modules")} (npm ci in tests/packaging)` };
}
const npmVersion = async (name) => JSON.parse(await readFile(path.join(HERE, "node_modules", name, "package.json"), "utf8")).version;

// ---- Bun (npm bun): import and require, then a real peer -----------------------------------------
const bun = await npmBinary("bun", ["@oven/bun-linux-x64/bin/bun", "@oven/bun-linux-x64-baseline/bin/bun"]);
if (installOk("bun (import + require)", "bun")) {
  if (!bun.bin) record("bun (import + require)", "fail", bun.reason);
  else {
    const r = await run(bun.bin, ["test.mjs"], { cwd: dirOf("bun"), env: { NO_COLOR: "1" }, timeoutMs: 60_000 });
    const res = lastJson(r.stdout);
    if (r.code !== 0 || !res) record(`bun ${bun.version} (import + require)`, "fail", brief(r));
    else fromCheck(`bun ${bun.version} (import + require)`, res, `import -> ${res.importResolves}, require -> ${res.requireResolves}`);
    for (const [script, want] of [["main.mjs", (o) => o.sum === 42], ["main.cjs", (o) => o.text === "hello from bun"]]) {
      const label = `bun ${bun.version}: ${script} against the python peer`;
      if (!peersOk(label, pyPeer)) continue;
      const m = await run(bun.bin, [script], { cwd: dirOf("bun"), env: { NO_COLOR: "1", MCP_URL: PY_URL }, timeoutMs: 60_000 });
      const out = lastJson(m.stdout);
      if (m.code === 0 && out && want(out) && out.tools > 0) record(label, "pass", m.stdout.trim().split("\n").pop());
      else record(label, "fail", brief(m));
    }
  }
}

// ---- workerd (npm workerd): a module worker that calls a tool on a real peer ----------------------
const workerd = await npmBinary("workerd", ["@cloudflare/workerd-linux-64/bin/workerd"]);
if (installOk("workerd", "workerd")) {
  const version = workerd.bin ? `workerd ${await npmVersion("workerd")}` : "workerd";
  // the README's worker (auto mode: the python peer's 2026 era), and the same worker pinned to the
  // legacy era (initialize, Mcp-Session-Id, SSE responses) in a copy of the project
  const eras = [
    { label: `${version}: worker calls echo on the python peer`, dir: dirOf("workerd"), port: PORTS.workerd, era: "modern" },
    { label: `${version}: the same worker, mode "legacy"`, dir: path.join(tmp, "workerd-legacy"), port: PORTS.workerdLegacy, era: "legacy" },
  ];
  if (!workerd.bin) record(eras[0].label, "fail", workerd.reason);
  else if (peersOk(eras[0].label, pyPeer)) {
    await cp(eras[0].dir, eras[1].dir, { recursive: true });
    const source = await readFile(path.join(eras[1].dir, "worker.js"), "utf8");
    await writeFile(path.join(eras[1].dir, "worker.js"), source.replace("new Client(env.MCP_URL)", 'new Client(env.MCP_URL, { mode: "legacy" })'));
    for (const { label, dir, port, era } of eras) {
      const cfg = await run(process.execPath, ["config.mjs", `127.0.0.1:${port}`, PY_URL], { cwd: dir });
      if (cfg.code !== 0) { record(label, "fail", `config.mjs: ${brief(cfg)}`); continue; }
      const child = background(workerd.bin, ["serve", "config.capnp"], { cwd: dir });
      const down = await waitUp(`http://127.0.0.1:${port}/`, child, 60_000);
      if (down) record(label, "fail", `workerd serve: ${down}`);
      else {
        let body = null, status = 0;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(30_000) });
          status = res.status;
          body = await res.json();
        } catch (e) { body = { error: String(e) }; }
        if (status === 200 && body?.text === "hello from workerd" && body.tools?.includes("echo") && body.era === era) {
          record(label, "pass", `era ${body.era}, ${body.tools.length} tools, "${body.text}"`);
        } else record(label, "fail", `HTTP ${status} ${JSON.stringify(body).slice(0, 300)} ${child.log()}`);
      }
      stopChild(child);
    }
    // negative control: this workerd refuses code generation from strings in a request (so the
    // passes above show that a call needs none; workerd allows it while modules load, which the
    // CSP page below catches)
    const probeLabel = `${version}: eval / new Function refused in a request (control)`;
    const probeDir = path.join(tmp, "workerd-probe");
    await mkdir(probeDir, { recursive: true });
    await writeFile(path.join(probeDir, "probe.capnp"), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = (modules = [(name = "probe.js", esModule = ${JSON.stringify(
    `export default { fetch() { const out = {};
      try { new Function("return 1")(); out.newFunction = "ran"; } catch (e) { out.newFunction = e.name; }
      try { eval("1"); out.eval = "ran"; } catch (e) { out.eval = e.name; }
      return Response.json(out); } };`)})], compatibilityDate = "2026-11-01"))],
  sockets = [(name = "http", address = "127.0.0.1:${PORTS.workerdProbe}", http = (), service = "main")],
);
`);
    const probe = background(workerd.bin, ["serve", "probe.capnp"], { cwd: probeDir });
    const probeDown = await waitUp(`http://127.0.0.1:${PORTS.workerdProbe}/`, probe, 60_000);
    let out = null;
    if (!probeDown) out = await fetch(`http://127.0.0.1:${PORTS.workerdProbe}/`).then((r) => r.json()).catch((e) => ({ error: String(e) }));
    stopChild(probe);
    if (out?.newFunction === "EvalError" && out.eval === "EvalError") record(probeLabel, "pass", JSON.stringify(out));
    else record(probeLabel, "fail", probeDown ?? JSON.stringify(out));
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
// webpack: the full entry (a page and a module worker), and a page that imports only the core
// entry, whose bundle must hold the core .wasm alone (the full one is not downloaded)
for (const name of ["webpack", "webpack-core"]) {
  if (!installOk(`${name} build`, name)) continue;
  const { default: webpack } = await import("webpack");
  const { default: config } = await import(path.join(dirOf(name), "webpack.config.js"));
  const label = name === "webpack" ? `webpack ${webpack.version}` : `webpack ${webpack.version}: mcp-wasm-client/core`;
  const stats = await new Promise((resolve) => webpack(config, (err, s) => resolve(err ? { err } : { s })));
  if (stats.err || stats.s.hasErrors()) {
    const msg = stats.err ? String(stats.err) : stats.s.toJson({ all: false, errors: true }).errors.map((e) => e.message).join(" | ");
    record(label, "fail", `build failed: ${msg.split("\n").slice(0, 3).join(" ")}`);
    continue;
  }
  await cp(path.join(dirOf(name), "index.html"), path.join(dirOf(name), "dist", "index.html"));
  if (name === "webpack") {
    pages.push({ label, workerLabel: `${label}: module worker`, path: "/webpack/dist/index.html" });
    continue;
  }
  const installedPkg = path.join(dirOf(name), "node_modules", "mcp-wasm-client", "dist");
  const size = async (file) => (await stat(file)).size;
  const [coreWasm, fullWasm] = [await size(path.join(installedPkg, "core", "mcp_wasm_client_bg.wasm")), await size(path.join(installedPkg, "mcp_wasm_client_bg.wasm"))];
  const emitted = await Promise.all((await readdir(path.join(dirOf(name), "dist"))).filter((f) => f.endsWith(".wasm")).map((f) => size(path.join(dirOf(name), "dist", f))));
  const wasmLabel = `${label}: the bundle holds the core .wasm only`;
  if (emitted.length === 1 && emitted[0] === coreWasm && coreWasm < fullWasm) record(wasmLabel, "pass", `${coreWasm} B (the full entry's: ${fullWasm} B)`);
  else record(wasmLabel, "fail", `emitted .wasm sizes ${JSON.stringify(emitted)}; core ${coreWasm} B, full ${fullWasm} B`);
  pages.push({ label, path: "/webpack-core/dist/index.html" });
}
if (installed.plain === null) {
  pages.push({ label: "browser <script type=module> + import map", workerLabel: "module worker, plain relative URL", path: "/plain/index.html" });
  pages.push({ label: "browser explicit init (mcp-wasm-client/manual)", path: "/plain/manual.html", manual: true });
} else installOk("browser <script type=module> + import map", "plain");

// ---- a static server on 127.0.0.1 and headless Chromium -----------------------------------------
const { server, base } = await serveStatic(tmp);

if (pages.length) {
  let browser;
  try {
    browser = await launchChromium();
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

// ---- consumer builds with real bundlers (bundlers.mjs): a real call from each bundle -------------
{
  const { consumerBuilds } = await import("./bundlers.mjs");
  await consumerBuilds({ tmp, tarball, pyUrl: PY_URL, pyDown: pyPeer.error, record, run, brief, lastJson, chromium: launchChromium });
}

// ---- a page under a strict Content-Security-Policy (no 'unsafe-eval') ----------------------------
// fixtures/csp/serve.mjs serves the page with the header; main.js runs elicitation and outputSchema
// validation against the peers. Any CSP violation fails the check, except the negative control's
// (eval-probe.js), which must be refused, or the check would pass vacuously.
{
  const label = "browser page, CSP without 'unsafe-eval' or 'unsafe-inline': elicitation (validation, <mcp-elicitation-form>) + outputSchema";
  const controlLabel = "CSP page: eval / new Function refused (control)";
  const wasmLabel = "CSP page without 'wasm-unsafe-eval': the .wasm is refused (control)";
  const workerLabel = "CSP page: module worker under the same CSP (validation, a call; eval refused)";
  if (installOk(label, "csp") && peersOk(label, pyPeer, badPeer)) {
    const serveCsp = background(process.execPath, ["serve.mjs", String(PORTS.csp)], { cwd: dirOf("csp") });
    const down = await waitUp(`http://127.0.0.1:${PORTS.csp}/index.html`, serveCsp);
    let browser = null;
    try {
      if (down) throw new Error(`serve.mjs: ${down}`);
      browser = await launchChromium();
      const page = await browser.newPage();
      const problems = [];
      page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
      // the peers' 4xx answers are the protocol at work (auto mode's 2026 probe of a legacy
      // server, a GET stream the server does not offer); the page's own files must all load
      const peerOrigins = [PY_URL, BAD_OUTPUT_URL].map((u) => new URL(u).origin + "/");
      const fromPeer = (url) => peerOrigins.some((o) => url?.startsWith(o));
      page.on("console", (m) => {
        if (m.type() !== "error" && m.type() !== "warning") return;
        const url = m.location()?.url;
        if (url?.endsWith("/eval-probe.js")) return; // the control's own refusals
        else if (!(fromPeer(url) && m.text().startsWith("Failed to load resource"))) problems.push(`console.${m.type()}: ${m.text()}`);
      });
      page.on("response", (r) => { if (r.status() >= 400 && !fromPeer(r.url())) problems.push(`HTTP ${r.status()} ${r.url()}`); });
      const query = new URLSearchParams({ python: PY_URL, badOutput: BAD_OUTPUT_URL });
      const response = await page.goto(`http://127.0.0.1:${PORTS.csp}/index.html?${query}`, { waitUntil: "load", timeout: 20_000 });
      const header = response.headers()["content-security-policy"] ?? "";
      let state = null;
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
        state = await page.evaluate(() => ({ result: window.__result, violations: window.__violations, probe: window.__evalProbe }));
        if (state.result) break;
      }
      // violations after the result count too: read them once more a moment later
      await new Promise((r) => setTimeout(r, 300));
      const violations = (await page.evaluate(() => window.__violations).catch(() => null)) ?? state?.violations ?? [];
      const fromProbe = violations.filter((v) => v.sourceFile?.endsWith("/eval-probe.js"));
      const others = violations.filter((v) => !v.sourceFile?.endsWith("/eval-probe.js"));
      const probe = state?.probe ?? {};
      const strict = /script-src 'self' 'wasm-unsafe-eval'(;|$)/.test(header) && !/'unsafe-(eval|inline)'/.test(header);
      if (strict && probe.newFunction === "blocked" && probe.eval === "blocked" && fromProbe.length >= 1) {
        record(controlLabel, "pass", `${fromProbe.length} violation events (${[...new Set(fromProbe.map((v) => `${v.directive} ${v.blockedURI}`))].join(", ")}), header: ${header}`);
      } else {
        record(controlLabel, "fail", `header ${JSON.stringify(header)}, probe ${JSON.stringify(probe)}, probe violations ${fromProbe.length}`);
      }
      const result = state?.result;
      const version = `Chromium ${browser.version()}`;
      if (!result) record(label, "fail", `no result within 30 s: ${problems.slice(0, 4).join(" | ")}`);
      else if (others.length || problems.length) {
        record(label, "fail", `CSP violations ${JSON.stringify(others).slice(0, 400)}; ${problems.slice(0, 4).join(" | ")}`);
      } else fromCheck(label, result, `${version}; era ${result.era}; ${result.fields?.length} fields; refused answer: ${JSON.stringify(result.badAnswer)}; refused output: ${result.badOutput?.split(": ").slice(1).join(": ")}`);
      const w = result?.worker;
      const workerProbe = (w?.violations ?? []).filter((v) => v.sourceFile?.endsWith("/worker.js"));
      const workerOthers = (w?.violations ?? []).filter((v) => !v.sourceFile?.endsWith("/worker.js"));
      if (!w) record(workerLabel, "fail", "no worker result");
      else if (workerOthers.length) record(workerLabel, "fail", `CSP violations in the worker ${JSON.stringify(workerOthers).slice(0, 400)}`);
      else if (w.evalProbe !== "blocked" || !workerProbe.length) record(workerLabel, "fail", `the worker's eval control was not refused: ${JSON.stringify({ probe: w.evalProbe, violations: workerProbe.length })}`);
      else fromCheck(workerLabel, w, `sum ${w.sum}; its control: ${workerProbe.length} violation event (${workerProbe[0].directive} ${workerProbe[0].blockedURI})`);
      // second control: the same page with 'wasm-unsafe-eval' taken out of its header cannot
      // compile the .wasm, so the header above is the policy the package ran under
      const bare = await browser.newPage();
      await bare.route("**/index.html?*", async (route) => {
        const original = await route.fetch();
        const headers = { ...original.headers() };
        headers["content-security-policy"] = headers["content-security-policy"].replace(" 'wasm-unsafe-eval'", "");
        await route.fulfill({ response: original, headers });
      });
      await bare.goto(`http://127.0.0.1:${PORTS.csp}/index.html?${query}`, { waitUntil: "load", timeout: 20_000 });
      let seen = null;
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
        seen = await bare.evaluate(() => ({ result: window.__result, violations: window.__violations }));
        if (seen.violations.some((v) => v.blockedURI === "wasm-eval") || seen.result) break;
      }
      const refusedWasm = seen?.violations.filter((v) => v.blockedURI === "wasm-eval") ?? [];
      if (refusedWasm.length && !seen.result?.ok) record(wasmLabel, "pass", `${refusedWasm[0].directive} ${refusedWasm[0].blockedURI} from ${refusedWasm[0].sourceFile?.split("/").slice(-2).join("/")}`);
      else record(wasmLabel, "fail", `violations ${JSON.stringify(seen?.violations ?? null).slice(0, 300)}, result ok: ${seen?.result?.ok}`);
      await bare.close();
    } catch (e) {
      for (const name of [label, controlLabel, workerLabel, wasmLabel]) {
        if (!results.some((r) => r.name === name)) record(name, "fail", String(e.message ?? e).split("\n")[0]);
      }
    } finally {
      if (browser) await browser.close();
      stopChild(serveCsp);
    }
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
console.log(`packaging: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
