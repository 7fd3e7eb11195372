// What the e2e scripts share: child processes stopped by PID on exit, free
// ports from a range, waiting for HTTP, numbered steps with a timeout, screenshots, Chromium, and
// servePages, the test pages' static server.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { docJsBlocks } from "../support/docs.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SHOTS_ENV = process.env.E2E_SCREENSHOTS ?? "";
/**
 * Where screenshots go: E2E_SCREENSHOTS=docs writes the README's, docs/screenshots (to update
 * them); another value is a folder; 0 takes none; unset, a temporary folder, so that a test run
 * never rewrites tracked files.
 */
export const SHOTS = SHOTS_ENV === "docs" ? path.join(ROOT, "docs/screenshots")
  : SHOTS_ENV && SHOTS_ENV !== "0" ? path.resolve(SHOTS_ENV) : path.join(os.tmpdir(), "mcp-wasm-client-screenshots");
export const TAKE_SHOTS = SHOTS_ENV !== "0";

const children = [];
export function stopChildren() {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      try { process.kill(child.pid, "SIGTERM"); } catch { /* already gone */ }
    }
  }
}
process.on("exit", stopChildren);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { stopChildren(); process.exit(130); });

function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** n free 127.0.0.1 ports from "lo-hi". */
export async function freePorts(n, range) {
  const [lo, hi] = range.split("-").map(Number);
  const out = [];
  for (let p = lo; p <= hi && out.length < n; p++) if (await portFree(p)) out.push(p);
  if (out.length < n) throw new Error(`need ${n} free ports in ${lo}-${hi}`);
  return out;
}

/** Starts a child in the repository root; its output is kept for failures (child.log()). */
export function start(name, cmd, args) {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => { log += d; });
  child.stderr.on("data", (d) => { log += d; });
  child.log = () => log;
  child.label = name;
  children.push(child);
  return child;
}

/** Waits until `url` answers 2xx, failing when `child` exits. */
export function waitHttp(url, child, ms = 15_000) {
  return waitFor(url, child, ms, (res) => res.ok);
}

/** Waits until something answers HTTP at `url` (any status), failing when `child` exits. */
export function waitAnswering(url, child, ms = 30_000) {
  return waitFor(url, child, ms, () => true);
}

/** Polls `url` every 100 ms until `accept(response)`, failing when `child` exits or after `ms`. */
async function waitFor(url, child, ms, accept) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child && child.exitCode !== null) throw new Error(`${child.label} exited: ${child.log()}`);
    try {
      if (accept(await fetch(url))) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** Runs a script's `main`: a throw counts as one failed step ("FAIL setup"); then the started
 *  children are stopped and `servers` closed. */
export async function runMain(steps, main, servers = []) {
  try {
    await main();
  } catch (err) {
    steps.failed++;
    console.log(`FAIL setup: ${err?.stack ?? err}`);
  } finally {
    stopChildren();
    for (const s of servers) s.close();
  }
}

/** Steps: one line each, counted; a step that throws or times out is a failure. */
export function stepper(timeoutMs = 20_000) {
  const s = {
    passed: 0,
    failed: 0,
    async step(name, fn) {
      const t0 = Date.now();
      try {
        await Promise.race([
          fn(),
          new Promise((_, rej) => setTimeout(() => rej(new Error(`step timed out after ${timeoutMs} ms`)), timeoutMs)),
        ]);
        s.passed++;
        console.log(`ok   ${name} (${Date.now() - t0} ms)`);
        return true;
      } catch (err) {
        s.failed++;
        console.log(`FAIL ${name}: ${String(err?.message || err?.name || err).split("\n").slice(0, 6).join("\n     ")}`);
        return false;
      }
    },
  };
  return s;
}

export function expect(cond, message) {
  if (!cond) throw new Error(message);
}

const shots = [];
/** Saves <file> in SHOTS (unless E2E_SCREENSHOTS=0). */
export async function shot(page, file) {
  if (!TAKE_SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const out = path.join(SHOTS, file);
  await page.screenshot({ path: out });
  shots.push(`${file} ${Math.round(fs.statSync(out).size / 1024)} KB`);
}
export const shotsTaken = () => shots;
/** The folder the screenshots went to, for the log. */
export const shotsFolder = () => SHOTS;

/** The ```js blocks of the README and its docs/ guides, in order (the scripts run the examples as written). */
export const readmeJsBlocks = () => docJsBlocks();

/**
 * Debian's chromium (or $CHROMIUM) through playwright-core (never a downloaded browser). `popupBlocking`: keep
 * Chromium's popup blocker (playwright turns it off by default).
 */
export function launchChromium({ popupBlocking = false } = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    ...(popupBlocking ? { ignoreDefaultArgs: ["--disable-popup-blocking"] } : {}),
    headless: process.env.E2E_HEADED !== "1",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-quic", "--no-first-run"],
  });
}

/** Content types of what the test pages serve. */
export const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

/**
 * A test page server on 127.0.0.1:`port` (resolves once listening): `pages` maps a path to its
 * body (a string, or a function returning one, read at each request), typed by its extension;
 * `/pkg/web/…` serves the built web package; anything else is a 404. Nothing is cached.
 */
export function servePages(port, pages) {
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, `http://127.0.0.1:${port}`);
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    };
    const type = (file) => TYPES[path.extname(file)] ?? "application/octet-stream";
    if (Object.hasOwn(pages, pathname)) {
      const body = pages[pathname];
      return send(200, type(pathname), typeof body === "function" ? body() : body);
    }
    if (pathname.startsWith("/pkg/web/")) {
      const dir = path.join(ROOT, "pkg/web");
      const file = path.join(dir, path.normalize(pathname.slice("/pkg/web/".length)));
      if (file.startsWith(dir) && fs.existsSync(file) && fs.statSync(file).isFile()) return send(200, type(file), fs.readFileSync(file));
    }
    send(404, "text/plain", "not found");
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** Exits with 2 when pkg/web or pkg/npm (the demo's package) is missing. */
export function needWebPackage() {
  const wasm = path.join(ROOT, "pkg/web/mcp_wasm_client_bg.wasm");
  if (!fs.existsSync(wasm)) {
    console.error("pkg/web is missing: run bash scripts/test.sh build");
    process.exit(2);
  }
  // the demo (www/js/pkg.js) imports the npm package's default entry, pkg/npm/index.js
  if (!fs.existsSync(path.join(ROOT, "pkg/npm/index.js"))) {
    console.error("pkg/npm is missing: run PACKAGE_FROM=pkg bash scripts/package.sh");
    process.exit(2);
  }
}

/** The OAuth peer (tests/peers/oauth_server.py; E2E_OAUTH_SERVER overrides the path). */
export const OAUTH_SERVER = process.env.E2E_OAUTH_SERVER ?? "tests/peers/oauth_server.py";

/** Exits with a message when the OAuth peer's script is missing. */
export function needOauthServer() {
  if (!fs.existsSync(path.join(ROOT, OAUTH_SERVER)) && !fs.existsSync(OAUTH_SERVER)) {
    console.error(`${OAUTH_SERVER} is missing`);
    process.exit(2);
  }
}

/**
 * Starts the OAuth peer (MCP server on `rs`, authorization server on `as`, with `flags`) and
 * waits for both metadata documents; its test hooks: stats(), expire(), staticClient(body).
 */
export async function oauthPeer(name, rs, as, flags) {
  const child = start(name, "python3", [OAUTH_SERVER, "--port", String(rs), "--as-port", String(as), ...flags]);
  const issuer = `http://127.0.0.1:${as}`;
  const peer = {
    child,
    mcp: `http://127.0.0.1:${rs}/mcp`,
    issuer,
    origins: [`http://127.0.0.1:${rs}`, issuer],
    stats: async () => (await fetch(`${issuer}/test/stats`)).json(),
    expire: async () => (await fetch(`${issuer}/test/expire-tokens`, { method: "POST" })).json(),
    staticClient: async (body) => {
      const r = await fetch(`${issuer}/test/static-client`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
      });
      const text = await r.text();
      expect(r.ok, `static client: ${r.status} ${text}`);
      return JSON.parse(text);
    },
  };
  await waitHttp(`${issuer}/.well-known/oauth-authorization-server`, child, 30_000);
  await waitHttp(`http://127.0.0.1:${rs}/.well-known/oauth-protected-resource/mcp`, child, 30_000);
  return peer;
}
