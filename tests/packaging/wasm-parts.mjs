// The lean module's parts (src/parts: each split off the .wasm after linking and fetched when first
// used, dist/mcp_wasm_client_lean_*.wasm through dist/mcp_wasm_client_lean_parts.js), in headless
// Chromium against real peers. A page imports the packed package's index.js and walks the parts in
// turn, recording after each step which package files it fetched:
//   - a plain client (the Python SDK peer, both eras on one URL) connects and lists tools: no part;
//     its call of `echo` (whose outputSchema the SDK declares) brings the output-schema part;
//   - `issue_card` asks for a form (a 2026 input_required round): the answers part and the form
//     helpers' part arrive, elicitationForm works inside the callback, the card is issued;
//   - listen({ toolsListChanged }) brings the listen part (honoured, then closed);
//   - a client of a legacy-only server (the TypeScript SDK 1.x peer) connects with `initialize`
//     and calls `echo` (answered on an SSE stream), then `issue_card`, whose form the server asks
//     for on that stream: the legacy-era part and the resumable-streams part (none of the steps
//     above, all 2026 sessions, needs either);
//   - a client of the Python SDK's HTTP+SSE peer falls back to that transport: the HTTP+SSE part;
//   - a call that becomes a task (our 2026 tasks-extension peer) and tasks.get(): the tasks part;
//   - a client whose `cache` option names the app's store (the peer's tools/list cacheable 60 s):
//     its first call brings the cache-store part, the result is saved, and a second client on the
//     same store is answered from it without a tools/list on the wire;
// each part fetched once (a returning user's stored-token part and the 401 challenge part:
// stored-token.mjs). A second page finds the tasks part answering 404: the call that needs it
// rejects with an McpError (kind module_load) naming the part, the URL and the reason, a plain
// call on the same client still works, and once the file is back a later call loads it and works.
// Usage: node tests/packaging/wasm-parts.mjs [PKG_DIR | TARBALL] (default pkg/npm); ports
// WASM_PARTS_PORT (default 18997) .. +3; prints one line per check and `wasm-parts: N passed, M
// failed`; exits non-zero on a failure.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, start, waitAnswering } from "../e2e/lib.mjs";
import { checks } from "./checks.mjs";
import { placePackage, serveStatic } from "./serve.mjs";
import { closeAll } from "./page-tests.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const given = path.resolve(process.argv[2] ?? path.join(here, "../../pkg/npm"));
const PY_PORT = Number(process.env.WASM_PARTS_PORT ?? 18997);
const SSE_PORT = PY_PORT + 1;
const TASKS_PORT = PY_PORT + 2;
const TS_PORT = PY_PORT + 3;
const PY = `http://127.0.0.1:${PY_PORT}/mcp`;
const SSE = `http://127.0.0.1:${SSE_PORT}/sse`;
const TASKS = `http://127.0.0.1:${TASKS_PORT}/mcp`;
const TS = `http://127.0.0.1:${TS_PORT}/mcp`;
/** A part's files: its .wasm (the chunks several parts share are counted apart). */
const PART = (name) => `dist/mcp_wasm_client_lean_${name}.wasm`;
const PARTS = ["output_schemas", "answers", "forms", "listen", "legacy", "resumable_streams", "http_sse", "tasks", "cache_store"];
const isPart = (file) => /^dist\/mcp_wasm_client_lean_(?!bg\.wasm)[a-z_0-9]+\.wasm$/.test(file) && !/_chunk_\d+\.wasm$/.test(file);

const PAGE = `import { Client, McpError, elicitationForm } from "/pkg/index.js";
const out = (window.__result = {});
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, part: e?.data?.part, url: e?.data?.url, message: String(e?.message ?? e) });
try {
  let fields = null;
  const client = new Client("${PY}", {
    elicitationCallback: (ctx, params) => {
      fields = elicitationForm(params.requestedSchema).fields.map((f) => f.name);
      return { action: "accept", content: { name: "Ada" } };
    },
  });
  await client.connect();
  out.tools = (await client.listTools()).tools.length;
  await window.__step("listed");
  out.echo = (await client.callTool("echo", { text: "parts" })).structuredContent;
  await window.__step("called");
  out.card = (await client.callTool("issue_card", {})).content?.[0]?.text;
  out.fields = fields;
  await window.__step("answered");
  const sub = await client.listen({ toolsListChanged: true });
  out.honoured = sub.honoured;
  await sub.close();
  await window.__step("listened");
  const old = new Client("${TS}", { elicitationCallback: () => ({ action: "accept", content: { name: "Lin" } }) });
  await old.connect();
  out.old = { era: old.era, version: old.protocolVersion, echo: (await old.callTool("echo", { text: "old" })).content?.[0]?.text };
  out.old.card = (await old.callTool("issue_card", {})).content?.[0]?.text;
  await old.close();
  await window.__step("legacy");
  const legacy = new Client("${SSE}");
  await legacy.connect();
  out.sse = { version: legacy.protocolVersion, echo: (await legacy.callTool("echo", { text: "sse" })).content?.[0]?.text };
  await legacy.close();
  await window.__step("fell back");
  const tasks = new Client("${TASKS}", { tasks: true });
  await tasks.connect();
  let taskId = null;
  out.task = (await tasks.callTool("slow_task", { ms: 100, text: "t" }, { onTask: (t) => (taskId = t.taskId) })).content?.[0]?.text;
  out.taskStatus = (await tasks.tasks.get(taskId)).status;
  await tasks.close();
  await window.__step("tasks");
  const entries = new Map();
  const storeCalls = [];
  const store = {
    get: async (key) => (storeCalls.push("get"), entries.get(key) ?? null),
    set: async (key, entry) => void (storeCalls.push("set"), entries.set(key, entry)),
    delete: async (key) => void (storeCalls.push("delete"), entries.delete(key)),
    clear: async () => void storeCalls.push("clear"),
  };
  let listed = 0;
  const counting = (input, init) => {
    if (String(init?.body ?? "").includes('"tools/list"')) listed += 1;
    return fetch(input, init);
  };
  const first = new Client("${PY}", { fetch: counting, cache: { store } });
  await first.connect();
  const names = (await first.listTools()).tools.map((t) => t.name);
  for (let i = 0; i < 100 && !storeCalls.includes("set"); i++) await new Promise((r) => setTimeout(r, 20));
  const second = new Client("${PY}", { fetch: counting, cache: { store } });
  await second.connect();
  const again = (await second.listTools()).tools.map((t) => t.name);
  out.store = { same: JSON.stringify(names) === JSON.stringify(again) && names.length > 0, listed, calls: storeCalls };
  await first.close();
  await second.close();
  await window.__step("stored");
  await client.close();
} catch (e) {
  out.error = seen(e);
}
out.done = true;`;

// The tasks part answers 404 until the page calls window.__release().
const MISSING = `import { Client, McpError } from "/pkg/index.js";
const out = (window.__result = {});
const seen = (e) => ({ mcp: e instanceof McpError, kind: e?.data?.kind, part: e?.data?.part, url: e?.data?.url, cause: e?.data?.cause, message: String(e?.message ?? e) });
try {
  const client = new Client("${TASKS}", { tasks: true });
  await client.connect();
  try {
    await client.callTool("slow_task", { ms: 100, text: "t" });
    out.missing = "resolved";
  } catch (e) {
    out.missing = seen(e);
  }
  out.plain = (await client.callTool("quick_task", { text: "still" })).content?.[0]?.text;
  await window.__release();
  out.later = (await client.callTool("slow_task", { ms: 100, text: "back" })).content?.[0]?.text;
  await client.close();
} catch (e) {
  out.error = seen(e);
}
out.done = true;`;

const { report, done } = checks("wasm-parts");

const site = await mkdtemp(path.join(os.tmpdir(), "wasm-parts-site-"));
await placePackage(given, path.join(site, "pkg"));
for (const [name, text] of [["page", PAGE], ["missing", MISSING]]) {
  await writeFile(path.join(site, `${name}.js`), text);
  await writeFile(path.join(site, `${name}.html`), `<!doctype html><meta charset="utf-8"><script type="module" src="/${name}.js"></script>`);
}
const { server, base: ORIGIN } = await serveStatic(site);

/** A page of `name`; `missing` package files answer 404 until the page calls window.__release(). Records the package files fetched. */
async function openPage(browser, name, missing = []) {
  const page = await browser.newPage();
  let released = false;
  await page.exposeFunction("__release", () => (released = true));
  const fetched = [];
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.route(`${ORIGIN}/pkg/**`, async (route) => {
    const file = new URL(route.request().url()).pathname.replace(/^\/pkg\//, "");
    if (missing.includes(file) && !released) return route.fulfill({ status: 404, body: "not found" });
    fetched.push(file);
    return route.continue();
  });
  return { page, fetched, problems, url: `${ORIGIN}/${name}.html` };
}

// tools/list cacheable for 60 s (the cache-store step; a client caching in its memory, the default,
// fetches no part for it)
process.env.MCP_TOOLS_TTL_MS = "60000";
const python = start("the Python peer", "python3", ["tests/peers/python_server.py", String(PY_PORT)]);
delete process.env.MCP_TOOLS_TTL_MS;
const sse = start("the Python HTTP+SSE peer", "python3", ["tests/peers/python_sse_server.py", String(SSE_PORT)]);
const tasksPeer = start("the tasks peer", "node", ["tests/peers/tasks_server.mjs", String(TASKS_PORT)]);
const tsPeer = start("the TypeScript SDK 1.x peer", "node", ["tests/peers/ts_server.mjs", String(TS_PORT)]);
const browser = await launchChromium();
try {
  await waitAnswering(PY, python);
  await waitAnswering(TASKS, tasksPeer);
  await waitAnswering(TS, tsPeer);
  await waitAnswering(`http://127.0.0.1:${SSE_PORT}/messages/`, sse);

  const { page, fetched, problems, url } = await openPage(browser, "page");
  const at = {};
  await page.exposeFunction("__step", (name) => (at[name] = fetched.filter(isPart)));
  await page.goto(url, { waitUntil: "load", timeout: 30_000 });
  await page.waitForFunction(() => window.__result?.done === true, null, { timeout: 90_000 });
  const r = await page.evaluate(() => window.__result);
  const only = (list, names) => JSON.stringify([...new Set(list ?? [])].sort()) === JSON.stringify(names.map(PART).sort());
  report("a client connects and lists tools with no part fetched", !r.error && r.tools > 0 && only(at.listed, []), { r, at });
  report("its first call of a tool with an outputSchema fetches the output-schema part, which checks the result",
    r.echo !== undefined && only(at.called, ["output_schemas"]), { echo: r.echo, at: at.called });
  report("a form the server asks for (input_required) fetches the answers part and the form helpers' part; elicitationForm works in the callback",
    r.card === "Card issued to Ada." && JSON.stringify(r.fields) === '["name"]' && only(at.answered, ["output_schemas", "answers", "forms"]), { r, at: at.answered });
  report("listen() fetches the listen part; the subscription is honoured and closes",
    r.honoured?.toolsListChanged === true && only(at.listened, ["output_schemas", "answers", "forms", "listen"]), { honoured: r.honoured, at: at.listened });
  report("a legacy-only server: its initialize handshake fetches the legacy-era part, its SSE answers the resumable-streams part; a call and a form the server asks for on its stream work",
    r.old?.era === "legacy" && r.old.version === "2025-11-25" && r.old.echo === "old" && r.old.card === "Card issued to Lin." && only(at.legacy, PARTS.slice(0, 6)), { old: r.old, at: at.legacy });
  report("a server that only speaks HTTP+SSE: the fallback fetches the HTTP+SSE part and calls over it",
    typeof r.sse?.version === "string" && !r.sse.version.startsWith("2026") && r.sse.echo === "sse" && only(at["fell back"], PARTS.slice(0, 7)), { sse: r.sse, at: at["fell back"] });
  report("a call that becomes a task, and tasks.get(): the tasks part",
    r.task === "done: t" && r.taskStatus === "completed" && only(at.tasks, PARTS.slice(0, 8)), { task: r.task, status: r.taskStatus, at: at.tasks });
  report("a client with the app's cache store: the cache-store part; the result saved once, and a second client answered from the store",
    r.store?.same === true && r.store.listed === 1 && r.store.calls.filter((c) => c === "set").length === 1 && r.store.calls.filter((c) => c === "get").length === 2
      && only(at.stored, PARTS), { store: r.store, at: at.stored });
  const count = (f) => fetched.filter((x) => x === f).length;
  report("each part's .wasm was fetched once, and the page reported no error",
    PARTS.every((p) => count(PART(p)) === 1) && !problems.length && !r.error, { fetched: fetched.filter((f) => f.endsWith(".wasm")), problems, error: r.error });
  await page.close();

  {
    const { page: p, problems: errs, url: at2 } = await openPage(browser, "missing", [PART("tasks")]);
    await p.goto(at2, { waitUntil: "load", timeout: 30_000 });
    await p.waitForFunction(() => window.__result?.done === true, null, { timeout: 60_000 });
    const f = await p.evaluate(() => window.__result);
    const partUrl = `${ORIGIN}/pkg/${PART("tasks")}`;
    report("the tasks part answers 404: the call that needs it rejects with kind module_load, part \"tasks\", the URL and the reason",
      f.missing?.mcp === true && f.missing.kind === "module_load" && f.missing.part === "tasks" && f.missing.url === partUrl
        && f.missing.message.includes(partUrl) && f.missing.cause === "HTTP 404", f);
    report("…a call that needs no part still works on that client, and once the file is back a later call loads the part and works",
      !f.error && f.plain === "quick: still" && f.later === "done: back" && !errs.length, { f, errs });
    await p.close();
  }
} finally {
  await closeAll({ browser, server, site });
}
process.exit(done());
