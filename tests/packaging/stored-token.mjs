// A returning signed-in user on the default entry, in headless Chromium against the OAuth peer
// (tests/peers/oauth_server.py): a client with `auth` whose storage holds a fresh token is made in
// the lean module (pkg-template/auth-part.js sends the token); the full module comes only when the
// token is not enough. One tab signs in first (the popup's consent approved; the tokens land in
// sessionStorage), then loads the page again, once per check, the stored document changed first
// where the check needs it:
//   - as stored: connect, list and call `whoami` with no popup, the full module (full.js, its glue
//     and .wasm) never fetched, client.authorization from the stored grant;
//   - the stored access token refused (changed, so the server answers 401): the full module is
//     loaded, its flow refreshes with the stored refresh token, the call succeeds, the new tokens
//     are stored;
//   - the stored token about to expire (within the minute the flow refreshes ahead): the full
//     module refreshes before the first request;
//   - signOut(): the full module signs out, the stored grant is gone, client.authorization is null;
//   - both stored tokens dead: the full module signs in again in a popup in the middle of the call,
//     whose 3 s timeout pauses while the person takes 4.5 s;
//   - a call of write_note, which needs mcp:write (403 insufficient_scope): the lean module's
//     challenge part reads the refusal, the full module steps up in a popup, the call succeeds;
//   - the refused token with full.js answering 404: the call rejects with an McpError of kind
//     module_load naming the part ("authorization") and the URL;
//   - a client without `auth`: connect() rejects with kind unauthorized, the challenge's
//     resource_metadata read by the lean module's challenge part.
// The lean module's stored-token part (the seam's loop over auth-part.js) arrives with a returning
// user's first request; the challenge part only with a refusal a client without `auth` meets.
// Usage: node tests/packaging/stored-token.mjs [PKG_DIR | TARBALL] (default pkg/npm); peer ports
// STORED_TOKEN_PORT (default 18993) and the next one; prints a line per check and
// `stored-token: N passed, M failed`.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, start, waitAnswering } from "../e2e/lib.mjs";
import { checks } from "./checks.mjs";
import { placePackage, serveStatic } from "./serve.mjs";
import { approveConsent, closeAll } from "./page-tests.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const given = path.resolve(process.argv[2] ?? path.join(here, "../../pkg/npm"));
const PORT = Number(process.env.STORED_TOKEN_PORT ?? 18993);
const MCP = `http://127.0.0.1:${PORT}/mcp`;
const FULL = ["full.js", "manual.js", "dist/mcp_wasm_client.js", "dist/mcp_wasm_client_bg.wasm"];

// ?mode= sign-in (a Sign in button), as-stored, refused, expiring, sign-in-again, step-up, sign-out, and
// no-auth (a client without `auth`, refused).
const PAGE = `import { Client, McpError, webStorage } from "/pkg/index.js";
const key = "mcp-wasm-client:auth:${MCP}";
const mode = new URLSearchParams(location.search).get("mode");
const stored = () => JSON.parse(sessionStorage.getItem(key) ?? "null");
const change = (f) => { const d = stored(); f(d.grant); sessionStorage.setItem(key, JSON.stringify(d)); };
const out = (window.__result = { mode });
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, part: e?.data?.part, url: e?.data?.url, message: String(e?.message ?? e) });
if (mode === "refused") change((g) => (g.access_token = "refused-" + g.access_token));
if (mode === "expiring") change((g) => (g.expires_at = Date.now() + 30_000));
if (mode === "sign-in-again") change((g) => ((g.access_token = "refused-" + g.access_token), (g.refresh_token = "dead-" + g.refresh_token)));
out.before = stored()?.grant ?? null;
const client = new Client("${MCP}", mode === "no-auth" ? { timeoutMs: 3000 } : {
  timeoutMs: 3000,
  auth: {
    clientMetadata: { client_name: "stored token", redirect_uris: [new URL("callback.html", location.href).href] },
    storage: webStorage(sessionStorage),
  },
});
const run = async () => {
  if (mode === "no-auth") out.data = await client.connect().then(() => "connected", (e) => e?.data);
  if (client.state !== "connected") await client.connect();
  out.authorization = client.authorization;
  const { tools } = await client.listTools();
  out.tools = tools.length;
  out.text = (await client.callTool("whoami", {})).content?.[0]?.text;
  if (mode === "step-up") out.note = (await client.callTool("write_note", { text: "step" })).content?.[0]?.text;
  if (mode === "sign-out") {
    await client.signOut();
    out.signedOut = { authorization: client.authorization, grant: stored()?.grant ?? null };
  }
  out.after = stored()?.grant ?? null;
};
const finish = (p) => p.catch((e) => (out.error = seen(e))).finally(() => (out.done = true));
if (mode === "sign-in") {
  const button = Object.assign(document.createElement("button"), { id: "sign-in", textContent: "Sign in" });
  button.onclick = () => finish(client.signIn().then(run));
  document.body.append(button);
} else {
  finish(run());
}`;

const { report, done } = checks("stored-token");
const site = await mkdtemp(path.join(os.tmpdir(), "stored-token-"));
await placePackage(given, path.join(site, "pkg"));
await writeFile(path.join(site, "page.js"), PAGE);
await writeFile(path.join(site, "index.html"), `<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>`);
await writeFile(
  path.join(site, "callback.html"),
  `<!doctype html><meta charset="utf-8"><script type="module">import { completeAuthorizationPopup } from "/pkg/index.js"; completeAuthorizationPopup();</script>`,
);
const { server, base } = await serveStatic(site);
const peer = start("the OAuth peer", "python3", ["tests/peers/oauth_server.py", "--port", String(PORT), "--as-port", String(PORT + 1)]);
const browser = await launchChromium();

// One tab for every load (sessionStorage is the tab's); `missing` package files answer 404.
const context = await browser.newContext();
const page = await context.newPage();
let fetched = [];
let missing = [];
let popups = 0;
context.on("page", () => popups++);
await page.route(`${base}/pkg/**`, (route) => {
  const file = new URL(route.request().url()).pathname.slice("/pkg/".length);
  if (missing.includes(file)) return route.fulfill({ status: 404, body: "not found" });
  fetched.push(file);
  return route.continue();
});

/** Loads the page in `mode` (missing: package files answering 404); its result, the files fetched. */
async function load(mode, absent = []) {
  fetched = [];
  missing = absent;
  popups = 0;
  await page.goto(`${base}/index.html?mode=${mode}`);
  await page.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
  return { r: await page.evaluate(() => window.__result), files: [...fetched], popups };
}

const fullFetched = (files) => FULL.filter((f) => files.includes(f));

/** Signs in through the Sign in button's popup, its consent approved; fails unless tokens were stored. */
async function signIn(when) {
  await page.goto(`${base}/index.html?mode=sign-in`);
  const popup = context.waitForEvent("page", { timeout: 30_000 });
  await page.locator("#sign-in").click();
  await approveConsent(popup);
  await page.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
  const r = await page.evaluate(() => window.__result);
  if (r.error || !r.after?.access_token) throw new Error(`${when}: the sign-in stored no tokens: ${JSON.stringify(r)}`);
}

try {
  await waitAnswering(MCP, peer);
  await signIn("the first visit");

  let { r, files, popups: opened } = await load("as-stored");
  report("a stored token: connect, list and call with no popup, on the lean module; the full module is never fetched",
    !r.error && r.tools > 0 && /./.test(r.text ?? "") && opened === 0 && files.includes("dist/mcp_wasm_client_lean_bg.wasm")
      && files.includes("auth-part.js") && fullFetched(files).length === 0, { r, files });
  const STORED_TOKEN_PART = "dist/mcp_wasm_client_lean_stored_token.wasm";
  const CHALLENGES_PART = "dist/mcp_wasm_client_lean_challenges.wasm";
  report("…its requests go through the stored-token part, fetched once with the first; the 401 challenge part is not fetched",
    files.filter((f) => f === STORED_TOKEN_PART).length === 1 && !files.includes(CHALLENGES_PART), { files });
  report("client.authorization is the stored grant's issuer, scope and expiry (never a token)",
    r.authorization?.issuer === r.before?.issuer && r.authorization.scope === r.before.scope
      && r.authorization.expiresAt === r.before.expires_at && !JSON.stringify(r.authorization).includes(r.before.access_token), r.authorization);

  ({ r, files, popups: opened } = await load("refused"));
  report("a stored token the server refuses (401): the full module is loaded, refreshes with the stored refresh token, and the call succeeds",
    !r.error && /./.test(r.text ?? "") && opened === 0 && fullFetched(files).length === FULL.length
      && r.after?.access_token && r.after.access_token !== r.before.access_token && r.after.refresh_token !== r.before.refresh_token, { r, files });

  ({ r, files, popups: opened } = await load("expiring"));
  report("a stored token within a minute of expiry: the full module refreshes it before the first request",
    !r.error && /./.test(r.text ?? "") && opened === 0 && fullFetched(files).length === FULL.length
      && r.after?.access_token !== r.before.access_token && r.after.expires_at > r.before.expires_at, { r, files });

  // Both stored tokens dead: the flow signs in again in a popup mid-call; the person takes longer
  // than the call's timeoutMs (3 s), which pauses while the page is open.
  fetched = [];
  missing = [];
  const shown = context.waitForEvent("page", { timeout: 30_000 });
  await page.goto(`${base}/index.html?mode=sign-in-again`);
  await approveConsent(shown, 4500);
  await page.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
  r = await page.evaluate(() => window.__result);
  report("both stored tokens dead: the full module signs in again in a popup mid-call, the call's 3 s timeout paused while the page is open (4.5 s)",
    !r.error && /./.test(r.text ?? "") && fullFetched(fetched).length === FULL.length && r.after?.access_token
      && !r.after.access_token.startsWith("refused-"), { r, fetched });

  // A call that needs more scope (write_note: 403 insufficient_scope): the challenge part reads the
  // refusal, the full module steps up in a popup, and the call succeeds with the wider grant.
  fetched = [];
  missing = [];
  const stepUp = context.waitForEvent("page", { timeout: 30_000 });
  await page.goto(`${base}/index.html?mode=step-up`);
  await approveConsent(stepUp);
  await page.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
  r = await page.evaluate(() => window.__result);
  report("a call needing more scope (403 insufficient_scope): the challenge part reads the refusal (fetched once), the full module steps up in a popup, the call succeeds",
    !r.error && /./.test(r.note ?? "") && fetched.filter((f) => f === CHALLENGES_PART).length === 1 && fullFetched(fetched).length === FULL.length
      && /mcp:write/.test(r.after?.scope ?? ""), { r, fetched });

  ({ r, files } = await load("sign-out"));
  report("signOut() on such a client: the full module signs out, the stored grant is gone, client.authorization is null",
    !r.error && /./.test(r.text ?? "") && r.signedOut?.authorization === null && r.signedOut.grant === null
      && fullFetched(files).length === FULL.length, { r, files });

  // Signed in again (the sign-out forgot the tokens), then the refused token without full.js.
  await signIn("after the sign-out");
  ({ r } = await load("refused", ["full.js"]));
  report("the refused token with full.js answering 404: the call rejects with module_load, part \"authorization\", the URL",
    r.error?.mcp === true && r.error.kind === "module_load" && r.error.part === "authorization" && r.error.url === `${base}/pkg/full.js`, r);

  ({ r, files } = await load("no-auth"));
  report("a client without auth refused (401): connect() rejects with kind unauthorized and the challenge's resourceMetadata, read by the challenge part (fetched once); no stored-token part, no full module",
    r.data?.kind === "unauthorized" && /^http:\/\/127\.0\.0\.1:/.test(r.data.resourceMetadata ?? "") && files.filter((f) => f === CHALLENGES_PART).length === 1
      && !files.includes(STORED_TOKEN_PART) && fullFetched(files).length === 0, { r, files });
} catch (e) {
  report(`the run: ${e.message}`, false, e.stack);
} finally {
  await closeAll({ browser, server, site });
}
process.exit(done());
