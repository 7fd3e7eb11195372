// The default entry's parts loaded on first use, in headless Chromium against real peers: a page
// imports the packed package's index.js (files served by Playwright's request routing from the
// unpacked package; every package file the page fetches is recorded) and checks, for each part,
// that it was not fetched before its first use and works after:
//   - the `auth` builders (plain JS): usable right after the import, before any module is ready;
//   - the lean module (the core build, dist/mcp_wasm_client_lean_bg.wasm): a client without `auth` connects and calls a tool
//     on the Python SDK peer, and the full module (full.js, dist/mcp_wasm_client_bg.wasm) is not
//     fetched;
//   - the full module for `client.skills` of such a client: skills.list() and skills.read() against
//     the TypeScript SDK's skills peer (through a same-origin route: it sends no CORS headers)
//     fetch it once, then work, the client's own calls unaffected;
//   - a returning user (a token stored for the skills peer, which takes any request): a client with
//     `auth` connects on the lean module (auth-part.js, no full module), every request carrying the
//     stored token, and its client.skills lists through the full module's companion, which sends it
//     too;
//   - a full module that cannot be fetched (full.js 404; its .wasm 404): a client with `auth` (and
//     one over a JS transport, also the full module's) rejects connect() with an McpError naming
//     the part, the URL and the reason, while a client without `auth` keeps working;
//   - helpers.js (the full module's authorization JS): not fetched by that page, though it calls the
//     builders; an IndexedDB store from indexedDbStorage() fetches it on its first use, then works;
//   - ClientGroup's lists and routed calls (group-calls.js): not fetched by a page that makes no
//     group; a page that makes one fetches it once: its status changes at once on connect(), it
//     lists and calls a tool on the Python peer; when it cannot be fetched, the group still connects
//     and closes, and a list call rejects with an McpError naming it (module_load, part "group");
//   - the elements' drawing (elements/elicitation-view.js) and an app's dialogue
//     (elements/view-session.js): not fetched by a page that shows no form; on a page with an
//     <mcp-elicitation-form> in its markup (upgraded when the import defines the tag), that form
//     draws, is filled and submitted, ElicitationForm.ask() answers in a <dialog>, a form made
//     with createElement draws, and <mcp-app-frame> is AppFrame with its properties; when it
//     cannot be fetched, ask() rejects naming it (module_load) and a form set by hand answers cancel.
// Usage: node tests/packaging/lazy-parts.mjs [PKG_DIR | TARBALL] (default pkg/npm); prints one line
// per check and `lazy-parts: N passed, M failed`; exits non-zero on a failure.
import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, start, waitAnswering } from "../e2e/lib.mjs";
import { checks } from "./checks.mjs";
import { placePackage, serveStatic } from "./serve.mjs";
import { closeAll } from "./page-tests.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const given = path.resolve(process.argv[2] ?? path.join(here, "../../pkg/npm"));
const PY_PORT = Number(process.env.LAZY_PARTS_PORT ?? 18991);
const SKILLS_PORT = PY_PORT + 1;
const PY = `http://127.0.0.1:${PY_PORT}/mcp`;
const FULL = ["full.js", "manual.js", "dist/mcp_wasm_client.js", "dist/mcp_wasm_client_bg.wasm"];
/** What a page fetches only when it uses it: the elements' drawing and dialogue, the full module's authorization JS. */
const ON_USE = ["elements/elicitation-view.js", "elements/view-session.js", /\/src\/js\/auth\/helpers\.js$/, /\/src\/js\/api\/group-calls\.js$/];
const isGroupCalls = (file) => /\/src\/js\/api\/group-calls\.js$/.test(file);
const isOnUse = (file) => ON_USE.some((p) => (typeof p === "string" ? file === p : p.test(file)));

const PAGE = `import { Client, McpError, authorizeWithPopup, indexedDbStorage, webStorage, memoryStorage } from "/pkg/index.js";
const out = (window.__result = { steps: [] });
const mark = (name) => out.steps.push(name);
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, part: e?.data?.part, url: e?.data?.url, message: String(e?.message ?? e) });
try {
  // right after the import: the builders are plain JS
  out.builders = [typeof authorizeWithPopup(), typeof webStorage(sessionStorage).get, typeof memoryStorage().set];
  const plain = new Client("${PY}");
  await plain.connect();
  out.echo = (await plain.callTool("echo", { text: "lean" })).content?.[0]?.text;
  mark("plain");
  await window.__step("plain");
  // helpers.js: fetched on an IndexedDB store's first use, not by the builders
  const store = indexedDbStorage("lazy-parts");
  await store.set("k", "kept");
  out.stored = await store.get("k");
  await window.__step("store");
  const skilled = new Client(location.origin + "/skills/mcp");
  await skilled.connect();
  out.supported = skilled.skills.supported;
  const { skills } = await skilled.skills.list();
  out.skills = skills.map((s) => s.frontmatter?.name).sort();
  const manifest = await skilled.skills.read(skills[0]);
  out.verified = manifest.verified === true && typeof manifest.text === "string";
  out.echoAfter = (await plain.callTool("echo", { text: "still lean" })).content?.[0]?.text;
  await skilled.close();
  mark("skills");
} catch (e) {
  out.error = seen(e);
}
out.done = true;`;

const ELEMENTS = `import { AppFrame, Client, ElicitationForm, McpError, init } from "/pkg/index.js";
const out = (window.__result = {});
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, message: String(e?.message ?? e) });
const until = async (what) => {
  for (let i = 0; i < 200; i++) { const v = what(); if (v) return v; await new Promise((r) => setTimeout(r, 25)); }
  throw new Error("timed out waiting for " + what);
};
const ASK = { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] } };
try {
  const pre = document.getElementById("pre"); // in the markup, upgraded when the import defined the tag
  out.defined = customElements.get("mcp-elicitation-form") === ElicitationForm && customElements.get("mcp-app-frame") === AppFrame;
  out.upgraded = pre instanceof ElicitationForm && pre.answered === false;
  const client = new Client("${PY}"); // the lean module
  await client.connect();
  // The form helpers (elicitationForm, validateElicitation: the lean module's forms part) arrive
  // with init() or a server's first elicitation; a page that shows forms outside an
  // elicitationCallback awaits init().
  out.unloaded = (() => { try { pre.params = ASK; return "set"; } catch (e) { return seen(e); } })();
  await init();
  out.bad = (() => { try { pre.params = { message: "x", requestedSchema: "nope" }; return "set"; } catch (e) { return seen(e); } })();
  pre.params = ASK;
  out.early = { drawn: pre.shadowRoot.childElementCount > 0, submit: pre.submit(), state: pre.dataset.state }; // the drawing is held back
  pre.focusFirst(); // done once drawn
  await window.__release();
  const input = await until(() => pre.shadowRoot.querySelector('[data-test="input-name"]'));
  out.empty = pre.submit(); // the validator's error, inline
  out.fieldError = pre.shadowRoot.querySelector('[data-test="field-error-name"]')?.textContent;
  out.focused = pre.shadowRoot.activeElement === input;
  input.value = "Ada";
  out.submitted = pre.submit();
  out.answer = await pre.answer;
  out.state = pre.dataset.state;
  const dialog = document.getElementById("dialog");
  const asked = ElicitationForm.ask(dialog, ASK);
  const decline = await until(() => dialog.querySelector("mcp-elicitation-form")?.shadowRoot.querySelector('[data-test="elicitation-decline"]'));
  out.modal = dialog.open;
  decline.click();
  out.asked = await asked;
  out.closed = !dialog.open && !dialog.querySelector("mcp-elicitation-form");
  const made = document.createElement("mcp-elicitation-form");
  made.params = { ...ASK, mode: "url", url: "https://example.com/consent" };
  document.body.append(made);
  out.url = made.shadowRoot.querySelector('[data-test="url-domain"]')?.textContent; // drawn at once: the drawing has arrived
  made.cancel();
  out.cancelled = await made.answer;
  const frame = document.createElement("mcp-app-frame");
  frame.sandbox = "https://sandbox.example/mcp-app-sandbox.html";
  frame.hostContext = { theme: "dark" };
  out.frame = frame instanceof AppFrame && frame.sandbox === "https://sandbox.example/mcp-app-sandbox.html" && frame.hostContext.theme === "dark"
    && frame.tool === undefined && frame.appTools.length === 0 && frame.sendToolInputPartial({ a: 1 }) === false;
  await client.close();
} catch (e) {
  out.error = seen(e);
}
out.done = true;`;

const NO_VIEW = `import { ElicitationForm, McpError, init } from "/pkg/index.js";
const out = (window.__result = {});
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, url: e?.data?.url, message: String(e?.message ?? e) });
const ASK = { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
try {
  await init(); // the form model (elicitationForm) checks the params
  try { await ElicitationForm.ask(document.body, ASK); out.ask = "resolved"; } catch (e) { out.ask = seen(e); }
  const form = document.createElement("mcp-elicitation-form");
  form.params = ASK;
  document.body.append(form);
  out.declarative = await form.answer; // nobody can answer a form that cannot be drawn
  out.state = form.dataset.state;
} catch (e) {
  out.error = seen(e);
}
out.done = true;`;

const FAILING = `import { Client, McpError, init, inMemoryPair } from "/pkg/index.js";
const out = (window.__result = {});
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, part: e?.data?.part, url: e?.data?.url, message: String(e?.message ?? e) });
try {
  const signed = new Client("${PY}", { auth: { clientMetadata: { client_name: "lazy-parts", redirect_uris: [location.origin + "/cb"] } } });
  try { await signed.connect(); out.auth = "resolved"; } catch (e) { out.auth = seen(e); }
  await init();
  const [end] = inMemoryPair(); // a client over a JS transport is the full module's too
  const over = new Client({ transport: end, timeoutMs: 2000 });
  try { await over.connect(); out.transport = "resolved"; } catch (e) { out.transport = seen(e); }
  const plain = new Client("${PY}");
  await plain.connect();
  out.echo = (await plain.callTool("echo", { text: "lean" })).content?.[0]?.text;
} catch (e) {
  out.error = seen(e);
}
out.done = true;`;

// A ClientGroup: its synchronous half (group.js) comes with the import, its lists and calls
// (group-calls.js) when the first group is made.
const GROUP = `import { ClientGroup, McpError } from "/pkg/index.js";
const out = (window.__result = {});
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, part: e?.data?.part, url: e?.data?.url, message: String(e?.message ?? e) });
try {
  const group = new ClientGroup({ servers: { py: { url: "${PY}" } } });
  out.instance = group instanceof ClientGroup;
  out.made = group.status.py;
  const connecting = group.connect();
  out.connecting = group.status.py; // at once, as before the split
  await connecting;
  out.connected = group.status.py;
  try {
    const { tools } = await group.listTools();
    out.listed = tools.some((t) => t.name === "py__echo" && t.server === "py");
    out.echo = (await group.callTool("py__echo", { text: "grouped" })).content?.[0]?.text;
  } catch (e) {
    out.list = seen(e);
  }
  await group.close();
  out.closed = group.status.py;
} catch (e) {
  out.error = seen(e);
}
out.done = true;`;

// A returning user of an MCP server (the skills peer, which takes any request): a token stored for
// it, then a client with \`auth\` connects on the lean module and lists skills through the full
// module's companion, every request carrying the stored token.
const RETURNING = `import { Client, McpError, webStorage } from "/pkg/index.js";
const out = (window.__result = {});
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, message: String(e?.message ?? e) });
const url = location.origin + "/skills/mcp";
const grant = { access_token: "stored-token", token_type: "Bearer", expires_at: Date.now() + 3_600_000, scope: "skills", issuer: "https://as.example", token_endpoint: "https://as.example/token" };
sessionStorage.setItem("mcp-wasm-client:auth:" + url, JSON.stringify({ v: 1, grant, clients: [], pending: null }));
try {
  const client = new Client(url, { auth: { clientMetadata: { client_name: "lazy-parts", redirect_uris: [location.origin + "/cb"] }, storage: webStorage(sessionStorage) } });
  await client.connect();
  out.authorization = client.authorization;
  await window.__step("connected");
  const { skills } = await client.skills.list();
  out.skills = skills.length;
  await client.close();
} catch (e) {
  out.error = seen(e);
}
out.done = true;`;

const { report, done } = checks("lazy-parts");

// The page and the package are served by a local static server (a page Playwright fulfilled itself
// would be no local address, and Chromium refuses its requests to the 127.0.0.1 peers); a route
// answers 404 for the `missing` package files and takes the skills peer, which sends no CORS
// headers, to its port.
const site = await mkdtemp(path.join(os.tmpdir(), "lazy-parts-site-"));
await placePackage(given, path.join(site, "pkg"));
await writeFile(path.join(site, "page.js"), PAGE);
await writeFile(path.join(site, "failing.js"), FAILING);
await writeFile(path.join(site, "elements.js"), ELEMENTS);
await writeFile(path.join(site, "noview.js"), NO_VIEW);
await writeFile(path.join(site, "returning.js"), RETURNING);
await writeFile(path.join(site, "group.js"), GROUP);
const [snippets] = await readdir(path.join(site, "pkg/dist/snippets"));
const GROUP_CALLS = `dist/snippets/${snippets}/src/js/api/group-calls.js`;
const MARKUP = { elements: '<mcp-elicitation-form id="pre"></mcp-elicitation-form><dialog id="dialog"></dialog>' };
for (const name of ["page", "failing", "elements", "noview", "returning", "group"])
  await writeFile(path.join(site, `${name}.html`), `<!doctype html><meta charset="utf-8">${MARKUP[name] ?? ""}<script type="module" src="/${name}.js"></script>`);
const { server, base: ORIGIN } = await serveStatic(site);

/**
 * A page of `name` (page, failing, elements, noview); `missing` package files answer 404, `held` ones only
 * once the page calls `window.__release()`. Records the package files fetched.
 */
async function openPage(browser, name, missing = [], held = []) {
  const page = await browser.newPage();
  let release;
  const released = new Promise((resolve) => (release = resolve));
  if (held.length) await page.exposeFunction("__release", () => release());
  const fetched = [];
  const problems = [];
  const credentials = []; // the Authorization header of each request to the skills peer
  page.on("pageerror", (e) => problems.push(e.message));
  await page.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === "/skills/mcp") {
      credentials.push(route.request().headers().authorization ?? null);
      const response = await route.fetch({ url: `http://127.0.0.1:${SKILLS_PORT}/mcp` });
      return route.fulfill({ response });
    }
    const file = url.pathname.replace(/^\/pkg\//, "");
    if (url.pathname.startsWith("/pkg/")) {
      if (missing.includes(file)) return route.fulfill({ status: 404, body: "not found" });
      fetched.push(file);
      if (held.includes(file)) await released;
    }
    return route.continue();
  });
  return { page, fetched, problems, credentials, url: `${ORIGIN}/${name}.html` };
}

const python = start("the Python peer", "python3", ["tests/peers/python_server.py", String(PY_PORT)]);
const skillsPeer = start("the skills peer", "node", ["tests/peers/ts2_skills_server.mjs", String(SKILLS_PORT)]);
const browser = await launchChromium();
try {
  await waitAnswering(PY, python);
  await waitAnswering(`http://127.0.0.1:${SKILLS_PORT}/mcp`, skillsPeer);

  const { page, fetched, problems, url } = await openPage(browser, "page");
  let atPlain = null;
  let atStore = null;
  await page.exposeFunction("__step", (name) => {
    if (name === "plain") atPlain = [...fetched];
    if (name === "store") atStore = [...fetched];
  });
  await page.goto(url, { waitUntil: "load", timeout: 30_000 });
  await page.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
  const r = await page.evaluate(() => window.__result);
  report("the auth builders work right after the import (before any module is ready)",
    JSON.stringify(r.builders) === '["function","function","function"]', r);
  report("a client without auth connects and calls on the lean module (dist/mcp_wasm_client_lean_bg.wasm); the full module is not fetched",
    r.echo === "lean" && atPlain?.includes("dist/mcp_wasm_client_lean_bg.wasm") && !FULL.some((f) => atPlain.includes(f)), { r, atPlain });
  report("client.skills of such a client: skills.list() and read() (verified) through the full module, loaded then",
    !r.error && r.supported === true && r.skills?.length > 0 && r.verified === true && r.echoAfter === "still lean", r);
  const count = (f) => fetched.filter((x) => x === f).length;
  report("the full module's files were fetched once each, after the first use", FULL.every((f) => count(f) === 1) && !problems.length, { fetched, problems });
  report("a page that calls the auth builders, makes no group and shows no form fetches neither helpers.js, ClientGroup's group-calls.js nor the elements' drawing (elicitation-view.js, view-session.js)",
    Array.isArray(atPlain) && atPlain.length > 0 && !atPlain.some(isOnUse) && !fetched.some((f) => f.startsWith("elements/") && isOnUse(f)), { atPlain, fetched });
  const added = atStore?.slice(atPlain?.length ?? 0) ?? [];
  report("an IndexedDB store from indexedDbStorage() fetches helpers.js (alone: not the full module) on its first use, and keeps what it is given",
    r.stored === "kept" && added.length === 1 && /\/src\/js\/auth\/helpers\.js$/.test(added[0]), { stored: r.stored, added });
  await page.close();

  {
    const { page: p, fetched: got, problems: errs, url: at } = await openPage(browser, "elements", [], ["elements/elicitation-view.js"]);
    await p.goto(at, { waitUntil: "load", timeout: 30_000 });
    await p.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
    const e = await p.evaluate(() => window.__result);
    const name = { action: "accept", content: { name: "Ada" } };
    report("before init() loaded the form helpers (a client connected, no elicitation yet), setting a form's params throws an McpError (kind input) naming init()",
      e.unloaded?.mcp === true && e.unloaded.kind === "input" && e.unloaded.message.includes("await init()"), e);
    report("an <mcp-elicitation-form> in the markup is upgraded when the import defines the tags (AppFrame, ElicitationForm), and bad params throw at once",
      e.defined === true && e.upgraded === true && e.bad?.mcp === true && e.bad.kind === "input", e);
    report("…its params set before its drawing module has arrived (held back until then): not drawn yet (submit() false, data-state pending), drawn and focused once it has; an empty required field is refused inline, then submit() accepts the typed content",
      e.early?.drawn === false && e.early.submit === false && e.early.state === "pending" && e.focused === true
      && e.empty === false && /Name/.test(e.fieldError ?? "") && e.submitted === true && JSON.stringify(e.answer) === JSON.stringify(name) && e.state === "accept", e);
    report("ElicitationForm.ask() opens a closed <dialog>, answers decline on the button, removes the form and closes the dialog; a form made later draws at once (URL mode)",
      e.modal === true && e.asked?.action === "decline" && e.closed === true && e.url === "example.com" && e.cancelled?.action === "cancel", e);
    report("<mcp-app-frame> is AppFrame: its properties work before any app is shown",
      e.frame === true && !e.error && !errs.length, { e, errs });
    report("the drawing module (elements/elicitation-view.js) is fetched once, and helpers.js and view-session.js not at all",
      got.filter((f) => f === "elements/elicitation-view.js").length === 1 && !got.some((f) => f !== "elements/elicitation-view.js" && isOnUse(f)), got);
    await p.close();
  }

  {
    const { page: p, fetched: got, problems: errs, url: at } = await openPage(browser, "group");
    await p.goto(at, { waitUntil: "load", timeout: 30_000 });
    await p.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
    const g = await p.evaluate(() => window.__result);
    report("a ClientGroup: its status changes at once on connect(), it lists and calls a tool on the Python peer, and closes",
      !g.error && !g.list && g.instance === true && g.made === "closed" && g.connecting === "connecting" && g.connected === "connected"
        && g.listed === true && g.echo === "grouped" && g.closed === "closed" && !errs.length, { g, errs });
    report("…its lists and calls (group-calls.js) were fetched once, the group's synchronous half (group.js) with the import",
      got.filter(isGroupCalls).length === 1 && got.some((f) => f.endsWith("/src/js/api/group.js")), got);
    await p.close();
  }

  {
    const { page: p, url: at } = await openPage(browser, "group", [GROUP_CALLS]);
    await p.goto(at, { waitUntil: "load", timeout: 30_000 });
    await p.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
    const g = await p.evaluate(() => window.__result);
    const url = `${ORIGIN}/pkg/${GROUP_CALLS}`;
    report("group-calls.js answers 404: the group still connects and closes; listTools() rejects with an McpError of kind module_load, part \"group\", naming its URL",
      !g.error && g.connecting === "connecting" && g.connected === "connected" && g.closed === "closed" && g.list?.mcp === true
        && g.list.kind === "module_load" && g.list.part === "group" && g.list.url === url && g.list.message.includes(url), g);
    await p.close();
  }

  {
    const { page: p, url: at } = await openPage(browser, "noview", ["elements/elicitation-view.js"]);
    await p.goto(at, { waitUntil: "load", timeout: 30_000 });
    await p.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
    const f = await p.evaluate(() => window.__result);
    const url = `${ORIGIN}/pkg/elements/elicitation-view.js`;
    report("elements/elicitation-view.js answers 404: ElicitationForm.ask() rejects with an McpError of kind module_load naming its URL; a form set by hand answers cancel",
      !f.error && f.ask?.mcp === true && f.ask.kind === "module_load" && f.ask.url === url && f.ask.message.includes(url)
        && f.declarative?.action === "cancel" && f.state === "cancel", f);
    await p.close();
  }

  {
    const { page: p, fetched: files, credentials, problems: errors, url: at } = await openPage(browser, "returning");
    let atConnect = null;
    await p.exposeFunction("__step", () => {
      atConnect = { files: [...files], credentials: [...credentials] };
    });
    await p.goto(at, { waitUntil: "load", timeout: 30_000 });
    await p.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
    const f = await p.evaluate(() => window.__result);
    const bearer = (list) => list.length > 0 && list.every((c) => c === "Bearer stored-token");
    report("a returning user (a token stored for the server): the client with auth connects on the lean module, every request with the stored token; the full module is not fetched",
      !f.error && f.authorization?.issuer === "https://as.example" && atConnect && bearer(atConnect.credentials)
        && atConnect.files.includes("auth-part.js") && !FULL.some((x) => atConnect.files.includes(x)), { f, atConnect });
    report("…and its client.skills lists through the full module's companion, which sends the same stored token",
      !f.error && f.skills > 0 && FULL.every((x) => files.includes(x)) && bearer(credentials)
        && credentials.length > atConnect?.credentials.length && !errors.length, { f, credentials, errors });
    await p.close();
  }

  for (const [what, missing, kind, url] of [
    ["full.js answers 404", ["full.js"], "module_load", `${ORIGIN}/pkg/full.js`],
    ["the full .wasm answers 404", ["dist/mcp_wasm_client_bg.wasm"], "wasm_load", `${ORIGIN}/pkg/dist/mcp_wasm_client_bg.wasm`],
  ]) {
    const { page: p, url: at } = await openPage(browser, "failing", missing);
    await p.goto(at, { waitUntil: "load", timeout: 30_000 });
    await p.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
    const f = await p.evaluate(() => window.__result);
    report(`${what}: a client with auth (and one over a JS transport) rejects connect() with kind ${kind}, part "authorization", the URL and the reason; a client without auth works`,
      !f.error && f.auth?.mcp === true && f.auth.kind === kind && f.auth.part === "authorization" && f.auth.url === url
        && f.auth.message.includes(url) && /404|not found|failed/i.test(f.auth.message) && f.echo === "lean"
        && f.transport?.kind === kind && f.transport.part === "authorization", f);
    await p.close();
  }
} finally {
  await closeAll({ browser, server, site });
}
process.exit(done());
