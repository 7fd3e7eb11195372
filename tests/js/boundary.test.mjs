// Wrong argument types never trap the wasm instance: the cases of boundary-cases.mjs (every
// export, constructor, Client method and options field given undefined, null, numbers, plain
// objects, Symbols, arrays, URL objects) must each end in an McpError or a promised coercion, in
// Node (pkg/nodejs) and in headless Chromium (pkg/web, served from 127.0.0.1 with a tiny page),
// against the Python peer (it answers CORS). One test per case per host, so a failure names it.
//
//   Env: MCP_PKG_NODE / MCP_PKG_WEB (the built packages, default pkg/nodejs and pkg/web),
//        CHROMIUM (default /usr/bin/chromium), PEERS_PYTHON_PORT (tests/peers/peers.sh),
//        BOUNDARY_RESULTS (a directory: each host's outcomes, every case, as <host>.json).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pkg, PY } from "./peers.mjs";
import { caseNames, runBoundaryCases } from "./boundary-cases.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB_PKG = process.env.MCP_PKG_WEB ?? path.join(here, "../../pkg/web");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const HOST_TIMEOUT_MS = 300_000;
const NAMES = caseNames();

function save(host, results) {
  const dir = process.env.BOUNDARY_RESULTS;
  if (!dir || !results) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${host}.json`), `${JSON.stringify(results, null, 1)}\n`);
}

function caseTests(results) {
  for (const name of NAMES) {
    test(name, () => {
      const r = results();
      assert.ok(r, "the cases did not run (see the hook's error)");
      assert.ok(r[name], "this case did not run");
      assert.ok(r[name].ok, `${r[name].outcome}: ${r[name].detail}`);
    });
  }
}

describe("boundary: Node (pkg/nodejs)", () => {
  let results;
  before(async () => {
    results = await runBoundaryCases(pkg, PY);
    save("node", results);
  }, { timeout: HOST_TIMEOUT_MS });
  caseTests(() => results);
});

// ---- Chromium: pkg/web and the cases module from a loopback static server ------------------------

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>mcp-wasm-client boundary cases</title>
<script type="module">
  import init, * as mod from "/pkg/web/mcp_wasm_client.js";
  import { runBoundaryCases } from "/cases/boundary-cases.mjs";
  window.runBoundary = async (url) => {
    await init();
    return runBoundaryCases(mod, url);
  };
  window.boundaryReady = true;
</script>
`;

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

/** Serves the page, pkg/web/** and this directory's boundary-cases.mjs and the modules it imports
 *  (boundary-cases-*.mjs); nothing else. */
function staticServer() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let file = null;
    if (url.pathname === "/" || url.pathname === "/boundary.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
      return;
    }
    const cases = /^\/cases\/(boundary-cases(?:-[a-z]+)?\.mjs)$/.exec(url.pathname);
    if (cases) file = path.join(here, cases[1]);
    else if (url.pathname.startsWith("/pkg/web/")) {
      const rel = path.normalize(decodeURIComponent(url.pathname.slice("/pkg/web/".length)));
      if (!rel.startsWith("..") && !path.isAbsolute(rel)) file = path.join(WEB_PKG, rel);
    }
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

describe("boundary: Chromium (pkg/web)", () => {
  let results;
  let browser;
  let server;
  before(async () => {
    assert.ok(fs.existsSync(path.join(WEB_PKG, "mcp_wasm_client_bg.wasm")), `no ${WEB_PKG}/mcp_wasm_client_bg.wasm`);
    assert.ok(fs.existsSync(CHROMIUM), `no Chromium at ${CHROMIUM} (scripts/setup.sh installs Debian's)`);
    server = await staticServer();
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"], headless: true });
    const page = await browser.newPage();
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(String(e?.message ?? e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/boundary.html`);
    await page
      .waitForFunction(() => window.boundaryReady === true, null, { timeout: 20_000 })
      .catch((e) => {
        throw new Error(`the page did not load its modules: ${pageErrors.join("; ") || e.message}`);
      });
    results = await page.evaluate((url) => window.runBoundary(url), PY);
    save("chromium", results);
  }, { timeout: HOST_TIMEOUT_MS });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  });
  caseTests(() => results);
});
