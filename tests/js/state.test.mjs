// Observable state (issue 26): client.state and its statechange/close events, notification
// events, the lists a client keeps (tools, prompts, resources) and their change events, against
// the Python SDK in both eras, the TS SDK 1.x and server-everything.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PY, TS, EVERYTHING, fault, rejection, sleep, eventually } from "./peers.mjs";

const { Client, ClientGroup, McpError } = pkg;


/** A fetch that counts the requests it carries by JSON-RPC method. */
function counting() {
  const methods = [];
  const fetch_ = (input, init) => {
    if (typeof init?.body === "string") {
      try {
        methods.push(JSON.parse(init.body).method);
      } catch {}
    }
    return fetch(input, init);
  };
  return { methods, fetch: fetch_, count: (m) => methods.filter((x) => x === m).length };
}

/** Records every event of `types` on `target` as [type, detail, target]. */
function record(target, types) {
  const seen = [];
  for (const type of types) target.addEventListener(type, (e) => seen.push([type, e.detail, e.target]));
  return seen;
}

for (const [name, url, mode] of [
  ["Python modern", PY, "auto"],
  ["Python legacy", PY, "legacy"],
  ["TypeScript legacy", TS, "auto"],
]) {
  test(`${name}: idle → connecting → connected → closed, as statechange events with e.target the client, then close`, async (t) => {
    const c = new Client(url, { mode });
    t.after(() => c.close().catch(() => {}));
    assert.ok(c instanceof Client);
    assert.ok(c instanceof EventTarget);
    assert.equal(c.state, "idle");
    assert.equal(c.error, undefined);
    const seen = record(c, ["statechange", "close"]);
    const connecting = c.connect();
    assert.equal(c.state, "connecting");
    await connecting;
    assert.equal(c.state, "connected");
    await c.close();
    assert.equal(c.state, "closed");
    assert.deepEqual(
      seen.map(([t, d]) => (t === "statechange" ? `${d.previous}>${d.state}` : t)),
      ["idle>connecting", "connecting>connected", "connected>closed", "close"],
    );
    assert.ok(seen.every(([, , target]) => target === c));
    await c.close();
    assert.equal(seen.length, 4, "a second close() changes nothing");
  });
}

test("a refused connect: failed, with the error as client.error and in the event's detail", async (t) => {
  const c = new Client("http://127.0.0.1:9/mcp", { timeoutMs: 3000 });
  t.after(() => c.close().catch(() => {}));
  const seen = record(c, ["statechange"]);
  const e = await rejection(c.connect());
  assert.equal(c.state, "failed");
  assert.ok(c.error instanceof McpError);
  assert.equal(c.error.code, e.code);
  assert.equal(c.error.message, e.message);
  assert.deepEqual(seen.map(([, d]) => d.state), ["connecting", "failed"]);
  assert.ok(seen[1][1].error instanceof McpError);
  assert.equal(seen[1][1].error.data?.kind, e.data?.kind);
  await c.close();
  assert.equal(c.state, "closed");
  assert.equal(c.error, undefined);
});

test("an in-memory server that goes away: failed (the transport is gone for good)", async (t) => {
  const { buildServer } = await import("../peers/ts_transport_server.mjs");
  const peer = buildServer();
  const { inMemoryPair } = pkg;
  const [clientSide, serverSide] = inMemoryPair();
  await peer.server.connect(serverSide);
  const c = new Client({ transport: clientSide });
  t.after(() => c.close().catch(() => {}));
  await c.connect();
  assert.equal(c.state, "connected");
  const states = record(c, ["statechange"]);
  await peer.server.close();
  await eventually(() => c.state === "failed");
  assert.equal(states.at(-1)[1].state, "failed");
  assert.ok(c.error instanceof McpError);
  await c.close();
});

test("notification events: progress of a call and resources/updated after subscribe, as messageHandler gets them", async (t) => {
  const handled = [];
  const c = new Client(EVERYTHING, { messageHandler: (m) => handled.push(m) });
  t.after(() => c.close().catch(() => {}));
  const events = [];
  const listener = (e) => events.push(e.detail);
  c.addEventListener("notification", listener);
  await c.connect();
  await c.callTool("trigger-long-running-operation", { duration: 1, steps: 2 }, { onProgress: () => {} });
  const progress = events.filter((n) => n.method === "notifications/progress");
  assert.equal(progress.length, 2, JSON.stringify(events));
  assert.equal(progress[0].params.progress, 1);
  const uri = (await c.listResources()).resources[0].uri;
  await c.subscribeResource(uri);
  await c.callTool("toggle-subscriber-updates", {});
  await eventually(() => events.some((n) => n.method === "notifications/resources/updated" && n.params.uri === uri), 8000);
  await c.callTool("toggle-subscriber-updates", {});
  assert.deepEqual(
    events.map((n) => n.method),
    handled.filter((m) => !(m instanceof McpError)).slice(0, events.length).map((m) => m.method),
    "every notification event is one messageHandler got, in the same order",
  );
  // removeEventListener: no more events
  c.removeEventListener("notification", listener);
  const before = events.length;
  await c.callTool("trigger-long-running-operation", { duration: 1, steps: 2 }, { onProgress: () => {} });
  assert.equal(events.length, before);
  assert.ok(handled.filter((m) => m.method === "notifications/progress").length >= 4, "messageHandler still gets them");
  await c.unsubscribeResource(uri);
  await c.close();
});

for (const [name, mode] of [
  ["legacy (the GET stream)", "legacy"],
  ["2026 (a subscriptions/listen stream the client opens for a list listener)", "auto"],
]) {
  test(`Python ${name}: list_changed → the client refetches; client.tools and toolschange; no request on connect`, async (t) => {
    const http = counting();
    const c = new Client(PY, { mode, fetch: http.fetch });
    t.after(() => c.close().catch(() => {}));
    const changes = record(c, ["toolschange", "promptschange", "resourceschange"]);
    const notes = record(c, ["notification"]);
    await c.connect();
    assert.equal(http.count("tools/list"), 0, "connecting lists nothing");
    assert.equal(c.tools, undefined);
    if (mode === "auto") await eventually(() => http.count("subscriptions/listen") === 1);
    await c.callTool("poke", { kind: "tools" });
    await eventually(() => changes.length === 1);
    const [[type, detail, target]] = changes;
    assert.equal(type, "toolschange");
    assert.equal(target, c);
    assert.ok(detail.some((t) => t.name === "poke"), JSON.stringify(detail));
    assert.deepEqual(c.tools, detail);
    assert.equal(http.count("tools/list"), 1);
    assert.ok(notes.some(([, n]) => n.method === "notifications/tools/list_changed"));
    await c.callTool("poke", { kind: "prompts" });
    await eventually(() => changes.some(([t]) => t === "promptschange"));
    assert.ok(c.prompts.some((p) => p.name === "greet"));
    await c.close();
  });
}

test("listChanged: { autoRefresh: false }: the notification event fires, nothing is fetched", async (t) => {
  const http = counting();
  const c = new Client(PY, { mode: "legacy", fetch: http.fetch, listChanged: { autoRefresh: false } });
  t.after(() => c.close().catch(() => {}));
  const changes = record(c, ["toolschange"]);
  const notes = record(c, ["notification"]);
  await c.connect();
  await c.callTool("poke", { kind: "tools" });
  await eventually(() => notes.some(([, n]) => n.method === "notifications/tools/list_changed"));
  await sleep(300);
  assert.equal(http.count("tools/list"), 0);
  assert.deepEqual(changes, []);
  assert.equal(c.tools, undefined);
  await c.close();
});

test("a toolschange listener that lists the tools again gets no second event for the same list (no loop)", async (t) => {
  const http = counting();
  const c = new Client(PY, { fetch: http.fetch });
  t.after(() => c.close().catch(() => {}));
  let events = 0;
  c.addEventListener("toolschange", () => {
    events++;
    if (events < 50) c.listTools({ all: true }).catch(() => {});
  });
  await c.connect();
  await c.listTools({ all: true });
  await sleep(300);
  assert.equal(events, 1, "one event for the first complete list, none for the same list again");
  assert.equal(http.count("tools/list"), 2, "the app's listing and its listener's, nothing more");
  await c.close();
});

test("listChanged option errors name what is wrong", () => {
  for (const [value, re] of [
    [5, /options\.listChanged must be an object/],
    [{ autoRefresh: "no" }, /options\.listChanged\.autoRefresh must be a boolean/],
    [{ auto: false }, /options\.listChanged\.auto is not an option of listChanged: did you mean autoRefresh\?/],
  ]) {
    assert.throws(() => new Client(PY, { listChanged: value }), (e) => e instanceof McpError && re.test(e.message), String(value));
  }
});

test("the user's own complete listing updates client.tools (one page of several does not)", async (t) => {
  const c = new Client(PY);
  t.after(() => c.close().catch(() => {}));
  const changes = record(c, ["toolschange", "resourceschange"]);
  await c.connect();
  const { tools } = await c.listTools();
  assert.deepEqual(c.tools, tools);
  assert.deepEqual(changes.map(([t]) => t), ["toolschange"]);
  const { resources } = await c.listResources();
  assert.deepEqual(c.resources, resources);
  await c.close();
  const paged = new Client(fault("paged"));
  t.after(() => paged.close().catch(() => {}));
  await paged.connect();
  await paged.listTools();
  assert.equal(paged.tools, undefined, "a first page with a nextCursor is not the list");
  await paged.listTools({ all: true });
  assert.deepEqual(paged.tools.map((t) => t.name), ["t1", "t2", "t3"]);
  await paged.close();
});

test("ClientGroup builds facades: its clients are EventTargets with state", async (t) => {
  const group = new ClientGroup({ servers: { py: { url: PY } } });
  t.after(() => group.close().catch(() => {}));
  await group.connect();
  const client = group.client("py");
  assert.ok(client instanceof Client);
  assert.ok(client instanceof EventTarget);
  assert.equal(client.state, "connected");
  await group.close();
  assert.equal(client.state, "closed");
});

test("the Client surface: methods forwarded, detached use is a TypeError, not a trap", async (t) => {
  const proto = Client.prototype;
  for (const name of ["connect", "callTool", "listTools", "close", "listen"]) assert.equal(typeof proto[name], "function");
  for (const name of ["state", "tools", "era", "tasks"]) assert.equal(typeof Object.getOwnPropertyDescriptor(proto, name).get, "function");
  assert.equal(typeof proto[Symbol.asyncDispose], "function");
  assert.throws(() => proto.connect.call({}), TypeError);
  assert.throws(() => Object.getOwnPropertyDescriptor(proto, "state").get.call({}), TypeError);
  assert.equal(Object.keys(pkg).includes("ClientCore"), true, "the raw glue has the core (the npm entries do not)");
});
