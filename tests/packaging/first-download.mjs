// What a plain page downloads before its first tool call, measured the way a page does it: a
// headless Chromium page with no bundler, an import map pointing "mcp-wasm-client" at the unpacked
// npm package's browser entry, that does `new Client(url, { elicitationCallback })`, `connect()`,
// `listTools()` and `callTool("echo", …)` against the Python SDK peer. Every response the page
// receives from the package's server is counted: the file, its bytes and its gzip -9 size.
//
//   node tests/packaging/first-download.mjs [PACKAGE_DIR | TARBALL.tgz] [--budget BYTES] [--write FILE]
//
// PACKAGE_DIR defaults to pkg/npm (scripts/package.sh assembles it); a .tgz is unpacked. The Python peer is started
// on FIRST_DOWNLOAD_PORT (default 18985, 127.0.0.1) and stopped by PID. With --budget, exits 1
// when the gzip total is over BYTES; with --write, the total and the files go to FILE as JSON
// (pkg/first-download.json, which doc-sizes.mjs reads). Prints one line per file, then the total.
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { launchChromium, start, waitAnswering } from "../e2e/lib.mjs";
import { serveStatic } from "./serve.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const args = process.argv.slice(2);
const budgetAt = args.indexOf("--budget");
const budget = budgetAt >= 0 ? Number(args.splice(budgetAt, 2)[1]) : null;
if (budgetAt >= 0 && !Number.isFinite(budget)) throw new Error("first-download: --budget takes a byte count");
const writeAt = args.indexOf("--write");
const writeTo = writeAt >= 0 ? args.splice(writeAt, 2)[1] : null;
if (writeAt >= 0 && !writeTo) throw new Error("first-download: --write takes a file");
const source = path.resolve(args[0] ?? path.join(root, "pkg/npm"));
const port = Number(process.env.FIRST_DOWNLOAD_PORT ?? 18985);

const site = await mkdtemp(path.join(tmpdir(), "first-download-"));
if (source.endsWith(".tgz")) {
  await mkdir(path.join(site, "pkg"));
  execFileSync("tar", ["xzf", source, "-C", path.join(site, "pkg"), "--strip-components=1"]);
} else {
  await cp(source, path.join(site, "pkg"), { recursive: true });
}
try {
  await readFile(path.join(site, "pkg/package.json"));
} catch {
  console.error(`first-download: no package in ${source} (run scripts/package.sh)`);
  await rm(site, { recursive: true, force: true });
  process.exit(2);
}
await writeFile(
  path.join(site, "index.html"),
  `<!doctype html><meta charset="utf-8"><title>first download</title>
<script type="importmap">{ "imports": { "mcp-wasm-client": "./pkg/index.js" } }</script>
<script type="module">
  import { Client } from "mcp-wasm-client";
  try {
    const client = new Client("http://127.0.0.1:${port}/mcp", { elicitationCallback: async () => ({ action: "decline" }) });
    await client.connect();
    const { tools } = await client.listTools();
    const result = await client.callTool("echo", { text: "first call" });
    window.done = { tools: tools.length, text: result.content?.[0]?.text };
  } catch (e) {
    window.done = { error: String(e && e.message || e) };
  }
</script>`,
);

const peer = start("the Python peer", "python3", ["tests/peers/python_server.py", String(port)]);
const { server, base } = await serveStatic(site);
let browser;
let failed = false;
try {
  await waitAnswering(`http://127.0.0.1:${port}/mcp`, peer);
  browser = await launchChromium();
  const page = await browser.newPage();
  const fetched = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.origin === base && url.pathname.startsWith("/pkg/")) fetched.push(response);
  });
  await page.goto(`${base}/index.html`);
  await page.waitForFunction(() => window.done, null, { timeout: 60_000 });
  const done = await page.evaluate(() => window.done);
  if (done.error || done.text !== "first call") throw new Error(`the page's first call failed: ${JSON.stringify(done)}`);
  let raw = 0;
  let gzip = 0;
  const rows = [];
  for (const response of fetched) {
    const body = await response.body();
    const gz = gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gzip += gz;
    rows.push([gz, body.length, new URL(response.url()).pathname.slice("/pkg/".length)]);
  }
  rows.sort((a, b) => b[0] - a[0]);
  for (const [gz, bytes, name] of rows) console.log(`${String(gz).padStart(9)} B gzip  ${String(bytes).padStart(9)} B  ${name}`);
  console.log(`${String(gzip).padStart(9)} B gzip  ${String(raw).padStart(9)} B  total: ${rows.length} files before the first call's result (${done.tools} tools listed)`);
  if (writeTo) await writeFile(writeTo, JSON.stringify({ total: gzip, files: rows.map(([gz, bytes, name]) => ({ name, gzip: gz, bytes })) }, null, 2) + "\n");
  if (budget !== null) {
    failed = gzip > budget;
    console.log(failed ? `first-download: ${gzip} B gzip is over the budget of ${budget} B` : `first-download: ${gzip} B gzip is within the budget of ${budget} B`);
  }
} catch (e) {
  console.log(`first-download: ${e.message}`);
  failed = true;
} finally {
  await browser?.close();
  server.close();
  peer.kill();
  await rm(site, { recursive: true, force: true });
}
// The packaging stage sums this line with the matrix's (tests/packaging/run.sh).
if (budget !== null) console.log(`first-download: ${failed ? 0 : 1} passed, ${failed ? 1 : 0} failed`);
process.exit(failed ? 1 : 0);
