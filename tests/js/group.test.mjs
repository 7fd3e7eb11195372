// ClientGroup (issue 14): several live servers behind one object — the Python SDK in both eras,
// the TS SDK 1.x, server-everything — plus in-memory TS SDK servers, a peer this file starts and
// kills (port 18940-18959), and the OAuth peer answering 401.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pkg, PY, TS, EVERYTHING, rejection, text } from "./peers.mjs";
import { buildServer } from "../peers/ts_transport_server.mjs";
import { nameTools } from "../../src/js/api/classes.js";

const { ClientGroup, McpError, inMemoryPair } = pkg;
const here = path.dirname(fileURLToPath(import.meta.url));
const OAUTH = `http://127.0.0.1:${Number(process.env.PEERS_OAUTH_PORT ?? 18106)}/mcp`;
const DOWN_PORT = Number(process.env.GROUP_TEST_PORT ?? 18940);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const names = (tools) => tools.map((t) => t.name);

/** A fetch that counts the tools/list requests it carries. */
function counting() {
  const count = { lists: 0 };
  count.fetch = (input, init) => {
    if (typeof init?.body === "string" && init.body.includes('"tools/list"')) count.lists++;
    return fetch(input, init);
  };
  return count;
}

/** Polls `check` (async) until it returns truthy, or fails after `ms`. */
async function eventually(check, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await sleep(50);
  }
}

test("nameTools: prefix, bare (every colliding name prefixed), a function, duplicates dropped", () => {
  const lists = [
    ["a", [{ name: "echo" }, { name: "add" }]],
    ["b", [{ name: "echo" }, { name: "sub" }]],
    ["c", [{ name: "echo" }]],
  ];
  assert.deepEqual(names(nameTools(lists)), ["a__echo", "a__add", "b__echo", "b__sub", "c__echo"]);
  assert.deepEqual(names(nameTools(lists, "bare")), ["a__echo", "add", "b__echo", "sub", "c__echo"]);
  assert.deepEqual(names(nameTools(lists, (s, t) => `${t}@${s}`)), ["echo@a", "add@a", "echo@b", "sub@b", "echo@c"]);
  const merged = nameTools(lists, "bare");
  assert.deepEqual(merged[1], { name: "add", server: "a", originalName: "add" });
  assert.deepEqual(names(nameTools(lists, () => "same")), ["same"]);
  // A server listing a name twice is still one server for the collision rule.
  assert.deepEqual(names(nameTools([["a", [{ name: "x" }, { name: "x" }]]], "bare")), ["x"]);
});

test("three live peers at once: status, merged tools, routed calls, routed elicitation and sampling", async (t) => {
  const asked = [];
  const logs = [];
  const group = new ClientGroup({
    servers: { py: { url: PY }, pyLegacy: { url: PY, mode: "legacy" }, ts: { url: TS }, everything: { url: EVERYTHING } },
    elicitationCallback: async (ctx, params) => {
      asked.push({ server: ctx.server, requestId: ctx.requestId, message: params.message });
      assert.ok(ctx.signal instanceof AbortSignal);
      return { action: "accept", content: { name: `the ${ctx.server} user` } };
    },
    samplingCallback: async (ctx, params) => ({
      role: "assistant",
      content: { type: "text", text: `${ctx.server} sampled ${params.messages.length}` },
      model: "test-llm",
    }),
    loggingCallback: (params, source) => logs.push([source.server, params.data]),
    logLevel: "info",
  });
  t.after(() => group.close());
  assert.ok(group instanceof ClientGroup);
  assert.ok(!({} instanceof ClientGroup));
  assert.deepEqual(group.status, { py: "closed", pyLegacy: "closed", ts: "closed", everything: "closed" });
  const connecting = group.connect();
  assert.deepEqual(Object.values(group.status), ["connecting", "connecting", "connecting", "connecting"]);
  await connecting;
  assert.deepEqual(group.status, { py: "connected", pyLegacy: "connected", ts: "connected", everything: "connected" });
  assert.equal(group.client("py").era, "modern");
  assert.equal(group.client("pyLegacy").era, "legacy");
  assert.deepEqual([...group.clients.keys()], ["py", "pyLegacy", "ts", "everything"]);

  const { tools } = await group.listTools();
  for (const s of ["py", "pyLegacy", "ts", "everything"]) assert.ok(names(tools).includes(`${s}__echo`), s);
  const echo = tools.find((t) => t.name === "ts__echo");
  assert.equal(echo.server, "ts");
  assert.equal(echo.originalName, "echo");
  assert.ok(echo.inputSchema);

  assert.equal((await group.callTool("py__add", { a: 2, b: 40 })).structuredContent.sum, 42);
  for (const s of ["py", "pyLegacy", "ts"]) {
    assert.equal(text(await group.callTool(`${s}__issue_card`, {})), `Card issued to the ${s} user.`);
  }
  assert.deepEqual(asked.map((a) => a.server), ["py", "pyLegacy", "ts"]);
  assert.match(asked[0].requestId, /ask_card_holder/);
  assert.ok(["number", "string"].includes(typeof asked[2].requestId));

  const poem = await group.callTool("pyLegacy__ask_llm", { topic: "rust" });
  assert.match(JSON.stringify(poem), /pyLegacy sampled 1/);

  await group.client("pyLegacy").setLoggingLevel("info").catch(() => {});
  await group.callTool("pyLegacy__log_it", { text: "hello from the legacy era" });
  await group.callTool("py__log_it", { text: "hello from 2026" });
  await eventually(() => logs.some(([s, d]) => s === "pyLegacy" && JSON.stringify(d).includes("hello from the legacy era")));
  await eventually(() => logs.some(([s, d]) => s === "py" && JSON.stringify(d).includes("hello from 2026")));

  await group.close();
  assert.deepEqual(Object.values(group.status), ["closed", "closed", "closed", "closed"]);
});

test('toolNames "bare": every name two servers share is prefixed, the others keep their own', async () => {
  const group = new ClientGroup({ servers: { py: { url: PY }, ts: { url: TS }, everything: { url: EVERYTHING } }, toolNames: "bare" });
  await group.connect();
  const { tools } = await group.listTools();
  const n = names(tools);
  for (const s of ["py", "ts", "everything"]) assert.ok(n.includes(`${s}__echo`), `${s}__echo in ${n}`);
  assert.ok(!n.includes("echo"));
  assert.ok(n.includes("py__issue_card") && n.includes("ts__issue_card"));
  assert.ok(n.includes("weather") && n.includes("poke"), "tools only py has keep their names");
  assert.equal(text(await group.callTool("weather", { city: "Lisbon" })), "sunny in Lisbon");
  assert.equal(text(await group.callTool("ts__echo", { text: "routed" })), "routed");
  await group.close();

  const custom = new ClientGroup({ servers: { py: { url: PY } }, toolNames: (server, tool) => `${tool}@${server}` });
  await custom.connect();
  assert.ok(names((await custom.listTools()).tools).includes("echo@py"));
  assert.equal(text(await custom.callTool("echo@py", { text: "custom" })), "custom");
  await custom.close();
  assert.throws(() => new ClientGroup({ servers: {}, toolNames: "suffix" }), McpError);
});

test("an unknown tool rejects -32602 unknown_tool; per-call options and per-server options pass through", async () => {
  const group = new ClientGroup({ servers: { py: { url: PY }, quick: { url: PY, timeoutMs: 150 } }, timeoutMs: 30_000 });
  await group.connect();
  const e = await rejection(group.callTool("nope__echo", {}));
  assert.equal(e.code, -32602);
  assert.equal(e.data.kind, "unknown_tool");
  assert.ok(e instanceof Error);

  // the server's own option wins over the group's
  const slow = await rejection(group.callTool("quick__sleep", { ms: 2000 }));
  assert.equal(slow.data.kind, "timeout");
  assert.equal(slow.data.server, "quick");
  // a call's own options
  const timed = await rejection(group.callTool("py__sleep", { ms: 2000 }, { timeoutMs: 100 }));
  assert.equal(timed.data.kind, "timeout");
  assert.equal(timed.data.server, "py");
  const ac = new AbortController();
  const aborted = group.callTool("py__sleep", { ms: 2000 }, { signal: ac.signal });
  setTimeout(() => ac.abort(), 50);
  const a = await rejection(aborted);
  assert.equal(a.data.kind, "aborted");
  assert.deepEqual(group.status, { py: "connected", quick: "connected" });
  await group.close();
});

test("onProgress through the group (a TS SDK server over inMemoryPair)", async () => {
  const [clientSide, serverSide] = inMemoryPair();
  const peer = buildServer();
  await peer.server.connect(serverSide);
  const group = new ClientGroup({ servers: { mem: { transport: clientSide }, py: { url: PY } } });
  await group.connect();
  const progress = [];
  const r = await group.callTool("mem__count", { steps: 3, ms: 5 }, { onProgress: (p) => progress.push(p.progress) });
  assert.equal(text(r), "counted 3");
  assert.equal(progress.length, 3);
  await group.close();
});

test("list_changed from one server refreshes only its part of the merged list (legacy in memory, 2026 over HTTP)", async () => {
  const sent = { a: [], b: [] };
  const servers = {};
  const peers = {};
  for (const name of ["a", "b"]) {
    const [clientSide, serverSide] = inMemoryPair();
    const peer = buildServer();
    await peer.server.connect(serverSide);
    peers[name] = peer;
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (m, o) => (sent[name].push(m.method), send(m, o));
    servers[name] = { transport: clientSide };
  }
  const py = counting();
  const ts = counting();
  const seen = [];
  const group = new ClientGroup({
    servers: { ...servers, py: { url: PY, fetch: py.fetch }, ts: { url: TS, fetch: ts.fetch } },
    messageHandler: (m, { server }) => seen.push([server, m.method]),
    headers: { "x-group": "1" }, // HTTP only: not given to the transport servers
  });
  await group.connect();
  assert.deepEqual(group.status, { a: "connected", b: "connected", py: "connected", ts: "connected" });
  const lists = (who) => sent[who].filter((m) => m === "tools/list").length;
  let { tools } = await group.listTools();
  assert.ok(!names(tools).includes("a__added"));
  assert.deepEqual([lists("a"), lists("b"), py.lists, ts.lists], [1, 1, 1, 1]);
  await group.listTools();
  assert.deepEqual([lists("a"), lists("b"), py.lists, ts.lists], [1, 1, 1, 1], "cached until list_changed");

  // legacy: the TS SDK announces a newly registered tool
  peers.a.server.registerTool("added", { description: "new" }, async () => ({ content: [{ type: "text", text: "added!" }] }));
  await eventually(() => seen.some(([s, m]) => s === "a" && m === "notifications/tools/list_changed"));
  ({ tools } = await group.listTools());
  assert.ok(names(tools).includes("a__added"));
  assert.deepEqual([lists("a"), lists("b"), py.lists, ts.lists], [2, 1, 1, 1]);
  assert.equal(text(await group.callTool("a__added", {})), "added!");

  // 2026: the Python peer's poke sends tools/list_changed on the subscriptions/listen stream
  await group.callTool("py__poke", { kind: "tools" });
  await eventually(async () => (await group.listTools(), py.lists === 2));
  assert.deepEqual([lists("a"), lists("b"), py.lists, ts.lists], [2, 1, 2, 1]);
  await group.close();
});

test("a server that goes down mid-session: failed, its errors carry data.server, the others keep working; connect() brings it back", async (t) => {
  const url = `http://127.0.0.1:${DOWN_PORT}/mcp`;
  const start = async () => {
    const child = spawn(process.execPath, [path.join(here, "../peers/ts_server.mjs"), String(DOWN_PORT)], { stdio: "ignore" });
    await eventually(async () => {
      try {
        await fetch(url, { method: "GET" });
        return true;
      } catch {
        return false;
      }
    }, 15_000);
    return child;
  };
  let child = await start();
  t.after(() => child.kill("SIGKILL"));
  const group = new ClientGroup({ servers: { py: { url: PY }, down: { url, timeoutMs: 5000 }, ts: { url: TS } } });
  await group.connect();
  assert.deepEqual(group.status, { py: "connected", down: "connected", ts: "connected" });
  assert.equal(text(await group.callTool("down__echo", { text: "up" })), "up");

  child.kill("SIGKILL");
  await new Promise((r) => (child.exitCode !== null || child.signalCode ? r() : child.once("exit", r)));
  const e = await rejection(group.callTool("down__echo", { text: "anyone?" }));
  assert.equal(e.data.server, "down");
  assert.equal(e.data.kind, "network");
  assert.equal(group.status.down, "failed");
  assert.equal(text(await group.callTool("py__echo", { text: "still here" })), "still here");
  assert.equal(text(await group.callTool("ts__echo", { text: "me too" })), "me too");
  const { tools } = await group.listTools();
  assert.ok(!names(tools).some((n) => n.startsWith("down__")));
  assert.ok(names(tools).includes("py__echo"));

  child = await start();
  await group.connect();
  assert.equal(group.status.down, "connected");
  await group.listTools();
  assert.equal(text(await group.callTool("down__echo", { text: "back" })), "back");
  await group.close();
});

test("a server answering 401 is unauthorized; the others connect and work", async (t) => {
  const up = await fetch(OAUTH, { method: "POST" }).then((r) => r.status).catch(() => 0);
  if (!up) return t.skip(`no OAuth peer at ${OAUTH}`);
  const group = new ClientGroup({ servers: { locked: { url: OAUTH }, py: { url: PY }, ts: { url: TS } } });
  await group.connect();
  assert.deepEqual(group.status, { locked: "unauthorized", py: "connected", ts: "connected" });
  const err = group.errors.locked;
  assert.ok(err instanceof McpError);
  assert.equal(err.data.kind, "unauthorized");
  assert.equal(err.data.server, "locked");
  const { tools } = await group.listTools();
  assert.ok(!names(tools).some((n) => n.startsWith("locked__")));
  assert.equal(text(await group.callTool("py__echo", { text: "fine" })), "fine");
  assert.equal((await rejection(group.callTool("locked__echo", {}))).data.kind, "unknown_tool");
  await group.close();
});

test("addServer and removeServer", async () => {
  const group = new ClientGroup({ servers: { py: { url: PY } } });
  await group.addServer("early", { url: TS }); // not connected yet: waits for connect()
  assert.equal(group.status.early, "closed");
  await group.connect();
  assert.deepEqual(group.status, { py: "connected", early: "connected" });
  await group.addServer("ts", { url: TS, mode: "legacy" });
  assert.equal(group.status.ts, "connected");
  assert.ok(names((await group.listTools()).tools).includes("ts__echo"));
  assert.equal(text(await group.callTool("ts__echo", { text: "added" })), "added");

  await assert.rejects(group.addServer("ts", { url: TS }), (e) => e instanceof McpError && e.data.kind === "input");
  await assert.rejects(group.addServer("bad", {}), McpError);
  await assert.rejects(group.addServer("both", { url: TS, transport: inMemoryPair()[0] }), McpError);

  const client = group.client("ts");
  await group.removeServer("ts");
  assert.equal(group.client("ts"), undefined);
  assert.deepEqual(Object.keys(group.status), ["py", "early"]);
  assert.ok(!names((await group.listTools()).tools).includes("ts__echo"));
  assert.equal((await rejection(group.callTool("ts__echo", {}))).data.kind, "unknown_tool");
  assert.equal((await rejection(client.callTool("echo", { text: "x" }))).data.kind, "closed");
  await group.removeServer("nobody");
  await group.close();
});

test("close() while connecting leaves every server closed; connect() again reconnects", async (t) => {
  const group = new ClientGroup({ servers: { py: { url: PY }, ts: { url: TS } } });
  t.after(() => group.close());
  const connecting = group.connect();
  await group.close();
  await connecting;
  assert.deepEqual(group.status, { py: "closed", ts: "closed" });
  await group.connect();
  assert.deepEqual(group.status, { py: "connected", ts: "connected" });
  assert.equal(text(await group.callTool("ts__echo", { text: "again" })), "again");
  await group.close();
});
