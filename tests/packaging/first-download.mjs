// What a page downloads before its first tool call's result, measured the way a page does it: a
// headless Chromium page with no bundler, an import map pointing "mcp-wasm-client" at the unpacked
// npm package's browser entry. Three pages (--page):
//   plain      `new Client(url, { elicitationCallback })`, `connect()`, `listTools()` and
//              `callTool("echo", …)` against the Python SDK peer (the default; both eras, so a
//              2026 session);
//   legacy     the same page against a legacy-only server (the TypeScript SDK 1.x peer, which
//              answers on SSE streams): the legacy era's parts come with it;
//   signed-in  a returning signed-in user: `auth` with `webStorage(sessionStorage)` against the
//              OAuth peer (tests/peers/oauth_server.py); a first visit signs in (the popup's
//              consent page approved), then a reload connects, lists and calls `whoami` with the
//              stored token. Only the reload is measured: attaching a stored token must not load
//              the sign-in flow.
// Every response the measured page receives from the package's server is counted: the file, its
// bytes and its gzip -9 size.
//
//   node tests/packaging/first-download.mjs [PACKAGE_DIR | TARBALL.tgz] [--page plain|legacy|signed-in] [--budget BYTES] [--write FILE]
//
// PACKAGE_DIR defaults to pkg/npm (scripts/package.sh assembles it); a .tgz is unpacked. The peer is
// started on FIRST_DOWNLOAD_PORT (default 18985; the OAuth peer's authorization server on the next
// port), 127.0.0.1, and stopped by PID. With --budget, exits 1 when the gzip total is over BYTES;
// with --write, the total and the files go to FILE as JSON (pkg/first-download.json, which
// doc-sizes.mjs reads). Prints one line per file, then the total.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { launchChromium, start, waitAnswering } from "../e2e/lib.mjs";
import { approveConsent } from "./page-tests.mjs";
import { placePackage, serveStatic } from "./serve.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const args = process.argv.slice(2);
const budgetAt = args.indexOf("--budget");
const budget = budgetAt >= 0 ? Number(args.splice(budgetAt, 2)[1]) : null;
if (budgetAt >= 0 && !Number.isFinite(budget)) throw new Error("first-download: --budget takes a byte count");
const writeAt = args.indexOf("--write");
const writeTo = writeAt >= 0 ? args.splice(writeAt, 2)[1] : null;
if (writeAt >= 0 && !writeTo) throw new Error("first-download: --write takes a file");
const pageAt = args.indexOf("--page");
const which = pageAt >= 0 ? args.splice(pageAt, 2)[1] : "plain";
if (!["plain", "legacy", "signed-in"].includes(which)) throw new Error("first-download: --page takes plain, legacy or signed-in");
const source = path.resolve(args[0] ?? path.join(root, "pkg/npm"));
const port = Number(process.env.FIRST_DOWNLOAD_PORT ?? 18985);
const label = which === "plain" ? "first-download" : `first-download-${which}`;

const site = await mkdtemp(path.join(tmpdir(), "first-download-"));
await placePackage(source, path.join(site, "pkg"));
try {
  await readFile(path.join(site, "pkg/package.json"));
} catch {
  console.error(`first-download: no package in ${source} (run scripts/package.sh)`);
  await rm(site, { recursive: true, force: true });
  process.exit(2);
}
const mcpUrl = `http://127.0.0.1:${port}/mcp`;
const PAGES = {
  plain: `import { Client } from "mcp-wasm-client";
  try {
    const client = new Client("${mcpUrl}", { elicitationCallback: async () => ({ action: "decline" }) });
    await client.connect();
    const { tools } = await client.listTools();
    const result = await client.callTool("echo", { text: "first call" });
    window.done = { tools: tools.length, text: result.content?.[0]?.text };
  } catch (e) {
    window.done = { error: String(e && e.message || e) };
  }`,
  // ?sign-in: the first visit, a Sign in button whose click opens the popup (client.signIn()).
  "signed-in": `import { Client, webStorage } from "mcp-wasm-client";
  const client = new Client("${mcpUrl}", {
    auth: {
      clientMetadata: { client_name: "first download", redirect_uris: [new URL("callback.html", location.href).href] },
      storage: webStorage(sessionStorage),
    },
  });
  const run = async () => {
    if (client.state !== "connected") await client.connect();
    const { tools } = await client.listTools();
    const result = await client.callTool("whoami", {});
    window.done = { tools: tools.length, text: result.content?.[0]?.text, signedIn: client.authorization !== null };
  };
  const fail = (e) => (window.done = { error: String(e && e.message || e) });
  if (new URLSearchParams(location.search).has("sign-in")) {
    const button = Object.assign(document.createElement("button"), { id: "sign-in", textContent: "Sign in" });
    button.onclick = () => client.signIn().then(run).catch(fail);
    document.body.append(button);
  } else {
    run().catch(fail);
  }`,
};
PAGES.legacy = PAGES.plain;
const IMPORTS = `<script type="importmap">{ "imports": { "mcp-wasm-client": "./pkg/index.js" } }</script>`;
await writeFile(
  path.join(site, "index.html"),
  `<!doctype html><meta charset="utf-8"><title>first download</title>\n${IMPORTS}\n<script type="module">\n  ${PAGES[which]}\n</script>`,
);
// The README's callback page (the signed-in page's popup).
await writeFile(
  path.join(site, "callback.html"),
  `<!doctype html><meta charset="utf-8"><title>signing in</title>\n${IMPORTS}\n<script type="module">\n  import { completeAuthorizationPopup } from "mcp-wasm-client";\n  completeAuthorizationPopup();\n</script>`,
);

const peer = {
  plain: () => start("the Python peer", "python3", ["tests/peers/python_server.py", String(port)]),
  legacy: () => start("the TypeScript SDK 1.x peer", "node", ["tests/peers/ts_server.mjs", String(port)]),
  "signed-in": () => start("the OAuth peer", "python3", ["tests/peers/oauth_server.py", "--port", String(port), "--as-port", String(port + 1)]),
}[which]();
const { server, base } = await serveStatic(site);
let browser;
let failed = false;
try {
  await waitAnswering(mcpUrl, peer);
  browser = await launchChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  if (which === "signed-in") await signIn(context, page);
  const fetched = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.origin === base && url.pathname.startsWith("/pkg/")) fetched.push(response);
  });
  let popups = 0;
  context.on("page", () => popups++);
  await page.goto(`${base}/index.html`); // the signed-in page: the same tab, its sessionStorage kept
  await page.waitForFunction(() => window.done, null, { timeout: 60_000 });
  const done = await page.evaluate(() => window.done);
  const expected = which === "signed-in" ? done.signedIn && popups === 0 && /./.test(done.text ?? "") : done.text === "first call";
  if (done.error || !expected) throw new Error(`the page's first call failed: ${JSON.stringify({ ...done, popups })}`);
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
  console.log(`${String(gzip).padStart(9)} B gzip  ${String(raw).padStart(9)} B  total (${which} page): ${rows.length} files before the first call's result (${done.tools} tools listed)`);
  if (writeTo) await writeFile(writeTo, JSON.stringify({ total: gzip, files: rows.map(([gz, bytes, name]) => ({ name, gzip: gz, bytes })) }, null, 2) + "\n");
  if (budget !== null) {
    failed = gzip > budget;
    console.log(failed ? `${label}: ${gzip} B gzip is over the budget of ${budget} B` : `${label}: ${gzip} B gzip is within the budget of ${budget} B`);
  }
} catch (e) {
  console.log(`${label}: ${e.message}`);
  failed = true;
} finally {
  await browser?.close();
  server.close();
  peer.kill();
  await rm(site, { recursive: true, force: true });
}
// The packaging stage sums this line with the matrix's (tests/packaging/run.sh).
if (budget !== null) console.log(`${label}: ${failed ? 0 : 1} passed, ${failed ? 1 : 0} failed`);
process.exit(failed ? 1 : 0);

// The first visit of the signed-in page: connect() opens the sign-in popup (the default
// authorizer), its consent page is approved, the tokens land in sessionStorage; then the page's
// call succeeds. The reload that follows is what is measured.
async function signIn(context, page) {
  await page.goto(`${base}/index.html?sign-in`);
  const popup = context.waitForEvent("page", { timeout: 30_000 });
  await page.locator("#sign-in").click();
  await approveConsent(popup).catch(async (e) => {
    const done = await page.evaluate(() => window.done).catch(() => undefined);
    throw new Error(`the sign-in popup's consent page was not approved (${e.message.split("\n")[0]}); the page: ${JSON.stringify(done)}`);
  });
  await page.waitForFunction(() => window.done, null, { timeout: 60_000 });
  const done = await page.evaluate(() => window.done);
  if (done.error || !done.signedIn) throw new Error(`the first visit did not sign in: ${JSON.stringify(done)}`);
}
