// ClientGroup (issue 14): several live servers behind one object — the Python SDK in both eras,
// the TS SDK 1.x, server-everything — plus in-memory TS SDK servers, a peer this file starts and
// kills (port 18940-18959), and the OAuth peer answering 401.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pkg, PY, TS, EVERYTHING, rejection, text, sleep, eventually } from "./peers.mjs";
import { buildServer } from "../peers/ts_transport_server.mjs";
import { ResourceTemplate } from "../peers/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js";
import { z } from "../peers/node_modules/zod/index.js";
import { nameTools } from "../../src/js/api/group-calls.js";

const { ClientGroup, McpError, inMemoryPair } = pkg;
const here = path.dirname(fileURLToPath(import.meta.url));
const OAUTH = `http://127.0.0.1:${Number(process.env.PEERS_OAUTH_PORT ?? 18106)}/mcp`;
const DOWN_PORT = Number(process.env.GROUP_TEST_PORT ?? 18940);
const names = (tools) => tools.map((t) => t.name);

/** A fetch that counts the tools/list requests it carries (`lists`) and every method (`by`). */
function counting() {
  const count = { lists: 0, by: {} };
  count.fetch = (input, init) => {
    if (typeof init?.body === "string" && init.body.includes('"tools/list"')) count.lists++;
    const method = typeof init?.body === "string" ? /"method":"([^"]+)"/.exec(init.body)?.[1] : undefined;
    if (method) count.by[method] = (count.by[method] ?? 0) + 1;
    return fetch(input, init);
  };
  return count;
}

/** Records a group's events: [type, detail] in order. */
function record(group, types = ["statuschange", "toolschange", "promptschange", "resourceschange", "close"]) {
  const seen = [];
  for (const type of types)
    group.addEventListener(type, (e) => {
      assert.equal(e.target, group);
      seen.push([type, e.detail]);
    });
  return seen;
}
const statuses = (seen, server) =>
  seen.filter(([t, d]) => t === "statuschange" && d.server === server).map(([, d]) => `${d.previous}>${d.status}`);


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

test("observable state: an EventTarget; statuschange on connect, a refusing server and close; one frozen status until a change", async (t) => {
  const refused = `http://127.0.0.1:${DOWN_PORT + 1}/mcp`; // nothing listens there
  const group = new ClientGroup({ servers: { py: { url: PY }, ts: { url: TS }, down: { url: refused } } });
  t.after(() => group.close());
  assert.ok(group instanceof EventTarget);
  const seen = record(group);
  const before = group.status;
  assert.ok(Object.isFrozen(before));
  assert.equal(group.status, before, "the same object until something changes");
  assert.throws(() => {
    before.py = "connected";
  }, TypeError);

  const connecting = group.connect();
  const during = group.status;
  assert.notEqual(during, before);
  assert.deepEqual(during, { py: "connecting", ts: "connecting", down: "connecting" });
  await connecting;
  const after = group.status;
  assert.deepEqual(after, { py: "connected", ts: "connected", down: "failed" });
  assert.equal(group.status, after);
  assert.ok(Object.isFrozen(after));
  assert.deepEqual(statuses(seen, "py"), ["closed>connecting", "connecting>connected"]);
  assert.deepEqual(statuses(seen, "ts"), ["closed>connecting", "connecting>connected"]);
  assert.deepEqual(statuses(seen, "down"), ["closed>connecting", "connecting>failed"]);
  const failed = seen.find(([t, d]) => t === "statuschange" && d.status === "failed")[1];
  assert.ok(failed.error instanceof McpError);
  assert.equal(failed.error.data.server, "down");
  assert.equal(failed.error.data.kind, "network");
  assert.equal(group.errors.down, failed.error);
  assert.ok(!seen.some(([t, d]) => t === "statuschange" && d.status === "connected" && "error" in d));
  // joining the connected ones changes the merged lists of what the server declares
  for (const kind of ["toolschange", "promptschange", "resourceschange"])
    assert.deepEqual(seen.filter(([t]) => t === kind).map(([, d]) => d.server).sort(), ["py", "ts"], kind);

  // calls and listings change no status: the same object
  await group.listTools();
  assert.equal(text(await group.callTool("ts__echo", { text: "x" })), "x");
  assert.equal(group.status, after);

  // a listener removed hears nothing more
  let heard = 0;
  const listener = () => heard++;
  group.addEventListener("statuschange", listener);
  group.removeEventListener("statuschange", listener);
  const n = seen.length;
  await group.close();
  assert.equal(heard, 0);
  const closing = seen.slice(n);
  assert.deepEqual(statuses(closing, "py"), ["connected>closed"]);
  assert.deepEqual(statuses(closing, "down"), ["failed>closed"]);
  assert.deepEqual(closing.at(-1), ["close", null]);
  assert.deepEqual(group.status, { py: "closed", ts: "closed", down: "closed" });
  assert.notEqual(group.status, after);
  assert.equal(group.errors.down, failed.error, "closing keeps the last connection error");
});

test("observable state: addServer and removeServer change status and say so", async () => {
  const group = new ClientGroup({ servers: { py: { url: PY } } });
  const seen = record(group, ["statuschange"]);
  await group.connect();
  const s1 = group.status;
  await group.addServer("ts", { url: TS });
  assert.deepEqual(statuses(seen, "ts"), ["undefined>closed", "closed>connecting", "connecting>connected"]);
  assert.notEqual(group.status, s1);
  const s2 = group.status;
  await group.removeServer("ts");
  assert.deepEqual(seen.at(-1)[1], { server: "ts", status: "closed", previous: "connected", removed: true });
  assert.notEqual(group.status, s2);
  assert.deepEqual(group.status, { py: "connected" });
  await group.close();
});

test("toolschange and promptschange when a server's list changes (legacy in memory, 2026 over HTTP)", async () => {
  const [clientSide, serverSide] = inMemoryPair();
  const peer = buildServer();
  peer.server.registerPrompt("first", { description: "one" }, () => ({ messages: [] }));
  await peer.server.connect(serverSide);
  const group = new ClientGroup({ servers: { mem: { transport: clientSide }, py: { url: PY } } });
  await group.connect();
  const seen = record(group, ["toolschange", "promptschange"]);
  assert.ok(!names((await group.listPrompts()).prompts).includes("mem__second"));

  peer.server.registerTool("added", { description: "new" }, async () => ({ content: [{ type: "text", text: "added!" }] }));
  await eventually(() => seen.some(([t, d]) => t === "toolschange" && d.server === "mem"));
  assert.ok(names((await group.listTools()).tools).includes("mem__added"));

  peer.server.registerPrompt("second", { description: "two" }, () => ({ messages: [] }));
  await eventually(() => seen.some(([t, d]) => t === "promptschange" && d.server === "mem"));
  assert.ok(names((await group.listPrompts()).prompts).includes("mem__second"));

  await group.callTool("py__poke", { kind: "tools" });
  await eventually(() => seen.some(([t, d]) => t === "toolschange" && d.server === "py"));
  await group.close();
});

test("merged prompts and resources from four servers: collisions, routing, templates, unknown names", async (t) => {
  const [clientSide, serverSide] = inMemoryPair();
  const peer = buildServer();
  const reads = [];
  peer.server.registerPrompt("summarize", { argsSchema: { topic: z.string() } }, ({ topic }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Summarize ${topic} from memory.` } }],
  }));
  peer.server.registerResource("notes", "mem://notes", { mimeType: "text/plain" }, async (uri) => (reads.push(uri.href), {
    contents: [{ uri: uri.href, text: "the mem notes" }],
  }));
  peer.server.registerResource("hello", "demo://hello", {}, async (uri) => (reads.push(uri.href), {
    contents: [{ uri: uri.href, text: "Hello from memory!" }],
  }));
  peer.server.registerResource("note", new ResourceTemplate("mem://notes/{id}", { list: undefined }), {}, async (uri, { id }) => (
    reads.push(uri.href), { contents: [{ uri: uri.href, text: `note ${id}` }] }
  ));
  await peer.server.connect(serverSide);
  const py = counting();
  const ts = counting();
  const legacy = counting();
  const group = new ClientGroup({
    servers: {
      py: { url: PY, fetch: py.fetch },
      legacy: { url: PY, mode: "legacy", fetch: legacy.fetch },
      ts: { url: TS, fetch: ts.fetch },
      mem: { transport: clientSide },
    },
  });
  t.after(() => group.close());
  await group.connect();

  const { prompts } = await group.listPrompts();
  assert.deepEqual(names(prompts).sort(), ["legacy__greet", "mem__summarize", "py__greet", "ts__greet"]);
  const greet = prompts.find((p) => p.name === "ts__greet");
  assert.equal(greet.server, "ts");
  assert.equal(greet.originalName, "greet");
  assert.equal(greet.arguments[0].name, "name");

  const got = await group.getPrompt("ts__greet", { name: "Ada" });
  assert.match(JSON.stringify(got.messages), /Please greet Ada warmly/);
  assert.deepEqual([py.by["prompts/get"], legacy.by["prompts/get"], ts.by["prompts/get"]], [undefined, undefined, 1]);
  await group.getPrompt("legacy__greet", { name: "Bo" });
  assert.deepEqual([py.by["prompts/get"], legacy.by["prompts/get"], ts.by["prompts/get"]], [undefined, 1, 1]);
  assert.match(JSON.stringify((await group.getPrompt("mem__summarize", { topic: "rust" })).messages), /Summarize rust from memory/);

  const unknown = await rejection(group.getPrompt("greet", { name: "x" }));
  assert.equal(unknown.code, -32602);
  assert.equal(unknown.data.kind, "input");
  assert.equal(unknown.data.prompt, "greet");
  assert.match(unknown.message, /greet/);
  // a server's own refusal carries data.server
  const refused = await rejection(group.getPrompt("py__greet", {}));
  assert.equal(refused.data.server, "py");

  const { resources } = await group.listResources();
  const hello = resources.filter((r) => r.uri === "demo://hello").map((r) => r.server);
  assert.deepEqual(hello, ["py", "legacy", "ts", "mem"], "a URI every server lists is there once per server, in group order");
  assert.deepEqual(resources.filter((r) => r.uri === "mem://notes").map((r) => r.server), ["mem"]);

  // the first server listing a URI reads it; { server } picks another
  assert.equal((await group.readResource("demo://hello")).contents[0].text, "Hello from the python peer!");
  assert.deepEqual([py.by["resources/read"], legacy.by["resources/read"], ts.by["resources/read"]], [1, undefined, undefined]);
  assert.equal((await group.readResource("demo://hello", { server: "ts" })).contents[0].text, "Hello from the ts peer!");
  assert.equal((await group.readResource("demo://hello", { server: "mem" })).contents[0].text, "Hello from memory!");
  assert.equal((await group.readResource("mem://notes")).contents[0].text, "the mem notes");
  assert.deepEqual(reads, ["demo://hello", "mem://notes"]);

  const { resourceTemplates } = await group.listResourceTemplates();
  const note = resourceTemplates.find((r) => r.uriTemplate === "mem://notes/{id}");
  assert.equal(note.server, "mem");
  assert.equal((await group.readResource("mem://notes/7", { server: note.server })).contents[0].text, "note 7");

  const nowhere = await rejection(group.readResource("mem://notes/8"));
  assert.equal(nowhere.data.kind, "input");
  assert.equal(nowhere.data.uri, "mem://notes/8");
  assert.match(nowhere.message, /mem:\/\/notes\/8/);
  const nobody = await rejection(group.readResource("demo://hello", { server: "nobody" }));
  assert.equal(nobody.data.kind, "input");
  assert.match(nobody.message, /nobody/);
  const missing = await rejection(group.readResource("demo://missing", { server: "legacy" }));
  assert.equal(missing.data.server, "legacy");

  // bare names: the shared prompt name is prefixed, the others keep their own
  const bare = new ClientGroup({ servers: { py: { url: PY }, ts: { url: TS } }, toolNames: "bare" });
  await bare.connect();
  assert.deepEqual(names((await bare.listPrompts()).prompts), ["py__greet", "ts__greet"]);
  assert.match(JSON.stringify(await bare.getPrompt("py__greet", { name: "Cy" })), /Please greet Cy warmly/);
  await bare.close();
  assert.deepEqual(reads, ["demo://hello", "mem://notes", "mem://notes/7"]);
});
