// Transports written in JavaScript (new Client({ transport })): real servers on the other side,
// no HTTP. The TS SDK 1.x McpServer of tests/peers/ts_transport_server.mjs over the SDK's own
// InMemoryTransport, over our inMemoryPair() and messagePortTransport() (a MessageChannel, a
// worker_threads Worker); the SDK's StdioClientTransport against server-everything (stdio) and
// against the Python SDK v2 peer over stdio (python_stdio.py), which speaks 2026-07-28 too.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel, Worker } from "node:worker_threads";
import { handTransport, pkg, rejection, text } from "./peers.mjs";
import { buildServer, InMemoryTransport } from "../peers/ts_transport_server.mjs";
import { StdioClientTransport } from "../peers/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js";

const { Client, McpError, messagePortTransport, inMemoryPair } = pkg;
const here = path.dirname(fileURLToPath(import.meta.url));
const peers = path.join(here, "../peers");
const PKG_PATH = process.env.MCP_PKG_NODE ?? path.join(here, "../../pkg/nodejs");

/** A transport that records what the client sends (and passes everything through). */
function recorded(inner, sent = []) {
  const t = {
    sent,
    start: () => inner.start(),
    send: (m, o) => {
      sent.push(m);
      return inner.send(m, o);
    },
    close: () => inner.close(),
  };
  inner.onmessage = (m, extra) => t.onmessage?.(m, extra);
  inner.onclose = () => t.onclose?.();
  inner.onerror = (e) => t.onerror?.(e);
  return t;
}

/** A TS SDK server over the SDK's InMemoryTransport; the client's side recorded. */
async function sdkPair(options = {}) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const peer = buildServer({ onHangUp: () => serverSide.close() });
  await peer.server.connect(serverSide);
  const transport = recorded(clientSide);
  const reports = [];
  const client = new Client({ transport, messageHandler: (m) => reports.push(m), ...options });
  return { client, transport, reports, peer };
}

const accept = (name) => async () => ({ action: "accept", content: { name } });

test("TS SDK InMemoryTransport: auto probes, falls back to initialize, lists and calls tools", async () => {
  const { client, transport } = await sdkPair();
  await client.connect();
  assert.equal(client.era, "legacy");
  assert.equal(client.transport, "javascript");
  assert.equal(client.sessionId, undefined);
  assert.equal(client.serverInfo.name, "ts-transport-peer");
  const methods = transport.sent.map((m) => m.method);
  assert.deepEqual(methods.slice(0, 3), ["server/discover", "initialize", "notifications/initialized"]);
  // Plain objects cross, with the 2026 envelope on the probe only.
  assert.equal(transport.sent[0]._meta, undefined);
  assert.equal(transport.sent[0].params._meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === "echo"));
  assert.equal(text(await client.callTool("echo", { text: "over memory" })), "over memory");
  await client.close();
});

test("mode legacy starts with initialize; the same calls work", async () => {
  const { client, transport } = await sdkPair({ mode: "legacy" });
  await client.connect();
  assert.equal(transport.sent[0].method, "initialize");
  assert.equal(transport.sent[0].params.protocolVersion, "2025-11-25");
  assert.equal(text(await client.callTool("echo", { text: "hi" })), "hi");
  await client.close();
});

test("elicitation round trip: the server's request answered through elicitationCallback and transport.send", async () => {
  const asked = [];
  const { client, transport } = await sdkPair({
    elicitationCallback: async (context, params) => {
      asked.push({ id: context.requestId, message: params.message });
      return { action: "accept", content: { name: "Ada" } };
    },
  });
  await client.connect();
  assert.equal(text(await client.callTool("issue_card")), "Card issued to Ada.");
  assert.equal(asked.length, 1);
  assert.equal(asked[0].message, "What name should go on the card?");
  const reply = transport.sent.find((m) => m.id === asked[0].id && m.result);
  assert.deepEqual(reply.result, { action: "accept", content: { name: "Ada" } });
  await client.close();
});

test("progress reaches onProgress and notifications reach messageHandler", async () => {
  const { client, reports } = await sdkPair();
  await client.connect();
  const progress = [];
  const r = await client.callTool("count", { steps: 3, ms: 5 }, { onProgress: (p) => progress.push(p.progress) });
  assert.equal(text(r), "counted 3");
  assert.deepEqual(progress, [1, 2, 3]);
  await client.callTool("notify");
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(reports.some((m) => m.method === "notifications/tools/list_changed"), JSON.stringify(reports));
  await client.close();
});

test("a timeout and an abort fail the call and tell the server (notifications/cancelled)", async () => {
  const { client, transport, peer } = await sdkPair();
  await client.connect();
  const t = await rejection(client.callTool("sleep", { ms: 5000 }, { timeoutMs: 100 }));
  assert.equal(t.data.kind, "timeout");
  const ac = new AbortController();
  setTimeout(() => ac.abort("user left"), 50);
  const a = await rejection(client.callTool("sleep", { ms: 5000 }, { signal: ac.signal }));
  assert.equal(a.data.kind, "aborted");
  await new Promise((r) => setTimeout(r, 50));
  const cancels = transport.sent.filter((m) => m.method === "notifications/cancelled");
  assert.equal(cancels.length, 2);
  assert.equal(peer.cancelled.length, 2, "the server's handlers saw their signals abort");
  assert.equal(client.pendingRequests, 0);
  await client.close();
});

test("onclose mid-call rejects what is in flight with data.kind transport_closed, later calls too", async () => {
  const { client, reports } = await sdkPair();
  await client.connect();
  const slow = client.callTool("sleep", { ms: 5000 });
  const e = await rejection(client.callTool("hang_up"));
  assert.equal(e.data.kind, "transport_closed");
  assert.match(e.message, /transport closed/);
  assert.equal((await rejection(slow)).data.kind, "transport_closed");
  assert.ok(reports.some((r) => r instanceof McpError && r.data.kind === "transport_closed"));
  assert.equal((await rejection(client.listTools())).data.kind, "transport_closed");
  await client.close();
});

test("our inMemoryPair() with a TS SDK server on the other side", async () => {
  const [clientSide, serverSide] = inMemoryPair();
  const { server } = buildServer();
  await server.connect(serverSide);
  const client = new Client({ transport: clientSide, elicitationCallback: accept("Grace") });
  await client.connect();
  assert.equal(client.era, "legacy");
  assert.equal(text(await client.callTool("echo", { text: "pair" })), "pair");
  assert.equal(text(await client.callTool("issue_card")), "Card issued to Grace.");
  // Closing the client closes its side, and so the server's (linked).
  let serverClosed = false;
  const onclose = serverSide.onclose;
  serverSide.onclose = () => {
    serverClosed = true;
    onclose?.();
  };
  await client.close();
  assert.equal(serverClosed, true);
});

test("messagePortTransport over a MessageChannel: the server on port2 (our transport, TS SDK server)", async () => {
  const { port1, port2 } = new MessageChannel();
  const { server } = buildServer({ onHangUp: () => port2.close() });
  await server.connect(messagePortTransport(port2));
  const client = new Client({ transport: messagePortTransport(port1) }, { elicitationCallback: accept("Lin") });
  await client.connect();
  assert.equal(text(await client.callTool("issue_card")), "Card issued to Lin.");
  // The server closing its port is this side's onclose.
  const e = await rejection(client.callTool("hang_up"));
  assert.equal(e.data.kind, "transport_closed");
  await client.close();
});

test("messagePortTransport over a worker_threads Worker; a crashing worker fails the call; close() never terminates it", async () => {
  const worker = new Worker(path.join(peers, "ts_transport_worker.mjs"), { workerData: { pkg: PKG_PATH } });
  try {
    const client = new Client({ transport: messagePortTransport(worker), elicitationCallback: accept("Wu") });
    await client.connect();
    assert.equal(client.era, "legacy");
    const progress = [];
    await client.callTool("count", { steps: 2, ms: 1 }, { onProgress: (p) => progress.push(p.progress) });
    assert.deepEqual(progress, [1, 2]);
    assert.equal(text(await client.callTool("issue_card")), "Card issued to Wu.");
    const e = await rejection(client.callTool("hang_up"));
    assert.equal(e.data.kind, "transport_closed");
    await client.close();
  } finally {
    await worker.terminate();
  }

  const second = new Worker(path.join(peers, "ts_transport_worker.mjs"), { workerData: { pkg: PKG_PATH } });
  const exited = new Promise((r) => second.once("exit", () => r("exited")));
  const client = new Client({ transport: messagePortTransport(second) });
  await client.connect();
  await client.close();
  const outcome = await Promise.race([exited, new Promise((r) => setTimeout(() => r("alive"), 200))]);
  assert.equal(outcome, "alive", "close() leaves the worker running");
  await second.terminate();
});

test("TS SDK StdioClientTransport: server-everything in stdio mode", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(peers, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
    stderr: "ignore",
  });
  const client = new Client({ transport });
  await client.connect();
  assert.ok(client.era === "legacy" || client.era === "modern");
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === "echo"), tools.map((t) => t.name).join());
  assert.match(text(await client.callTool("echo", { message: "stdio" })), /stdio/);
  await client.close();
});

function pythonStdio() {
  return new StdioClientTransport({ command: "python3", args: [path.join(peers, "python_stdio.py")], cwd: peers, stderr: "ignore" });
}

test("2026 pinned over stdio (Python SDK v2): no probe, no initialize, the _meta envelope on every request", async () => {
  const transport = recorded(pythonStdio());
  const client = new Client({ transport, mode: "2026-07-28", elicitationCallback: accept("Mo") });
  await client.connect();
  assert.equal(transport.sent.length, 0, "a pinned connect sends nothing");
  assert.equal(text(await client.callTool("echo", { text: "modern" })), "modern");
  // input_required round (MRTR) over the same transport.
  assert.equal(text(await client.callTool("issue_card")), "Card issued to Mo.");
  const first = transport.sent[0];
  assert.equal(first.method, "tools/call");
  assert.equal(first.params._meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  assert.ok(!transport.sent.some((m) => m.method === "initialize" || m.method === "server/discover"));
  await client.close();
});

test("2026 auto over stdio (Python SDK v2): server/discover adopts the modern era", async () => {
  const client = new Client({ transport: pythonStdio() });
  await client.connect();
  assert.equal(client.era, "modern");
  assert.equal(client.protocolVersion, "2026-07-28");
  assert.equal(text(await client.callTool("echo", { text: "auto" })), "auto");
  await client.close();
});

test("2026 listen over stdio: the stream's notifications routed by subscriptionId; close sends notifications/cancelled", async () => {
  const transport = recorded(pythonStdio());
  const client = new Client({ transport, mode: "2026-07-28" });
  await client.connect();
  const sub = await client.listen({ toolsListChanged: true });
  assert.equal(sub.honoured.toolsListChanged, true);
  await client.callTool("poke", { kind: "tools" });
  const first = await sub.next();
  assert.equal(first.value.method, "notifications/tools/list_changed");
  await sub.close();
  const listenId = transport.sent.find((m) => m.method === "subscriptions/listen").id;
  await new Promise((r) => setTimeout(r, 50));
  const cancel = transport.sent.find((m) => m.method === "notifications/cancelled");
  assert.equal(cancel?.params.requestId, listenId);
  await client.close();
});

test("legacy listen over a transport: notifications delivered as they arrive", async () => {
  const { client } = await sdkPair();
  await client.connect();
  const sub = await client.listen({ toolsListChanged: true });
  await client.callTool("notify");
  const first = await sub.next();
  assert.equal(first.value.method, "notifications/tools/list_changed");
  await sub.close();
  await client.close();
});

test("bad transports and bad messages get clear McpErrors, never a hang", async () => {
  const noSend = { start() {}, close() {} };
  assert.throws(() => new Client({ transport: noSend }), (e) => e instanceof McpError && /missing: send/.test(e.message));
  assert.throws(() => new Client({ transport: 42 }), /Transport shape/);
  assert.throws(() => new Client({ mode: "legacy" }), /need transport/);
  assert.throws(() => new Client("http://127.0.0.1:1/mcp", { transport: inMemoryPair()[0] }), /cannot be combined with a URL/);
  assert.throws(() => new Client({ transport: inMemoryPair()[0], headers: { a: "b" } }), /Streamable HTTP only/);
  assert.throws(() => new Client({ transport: inMemoryPair()[0], mode: "legacy" }, { mode: "legacy" }), /given twice/);
  assert.throws(() => messagePortTransport({}), /MessagePort/);

  // A "server" written by hand: answers initialize, then misbehaves on purpose.
  const reports = [];
  const transport = handTransport({}, (m, peer) => {
    if (m.method === "tools/call" && m.params.name === "garbage") {
      queueMicrotask(() => {
        peer.onmessage("not an object");
        peer.onmessage({ jsonrpc: "2.0", id: m.id }); // neither result nor error
      });
    } else if (m.method === "tools/call" && m.params.name === "refuse") {
      return Promise.reject(new Error("the pipe is full"));
    } else if (m.method === "tools/call" && m.params.name === "refuse-plain") {
      return Promise.reject({ errno: -32, syscall: "write" }); // not an Error, no message
    } else if (m.method === "tools/call" && m.params.name === "oops") {
      queueMicrotask(() => peer.onerror(new Error("socket hiccup")));
      queueMicrotask(() => peer.onmessage({ jsonrpc: "2.0", id: m.id, result: { content: [] } }));
    }
  });
  const client = new Client({ transport, mode: "legacy", messageHandler: (m) => reports.push(m) });
  await client.connect();
  const garbage = await rejection(client.callTool("garbage", {}, { timeoutMs: 2000 }));
  assert.equal(garbage.data.kind, "protocol");
  assert.match(garbage.message, /not JSON-RPC 2.0/);
  assert.ok(reports.some((r) => r instanceof McpError && /onmessage received a string/.test(r.message)));
  const refused = await rejection(client.callTool("refuse"));
  assert.match(refused.message, /send\(\) failed: the pipe is full/);
  // A thrown value that is not an Error is shown as its JSON.
  const plain = await rejection(client.callTool("refuse-plain"));
  assert.match(plain.message, /send\(\) failed: \{"errno":-32,"syscall":"write"\}$/);
  await client.callTool("oops");
  assert.ok(reports.some((r) => r instanceof McpError && /socket hiccup/.test(r.message)));
  await client.close();
});

test("auto over a transport whose server never answers server/discover falls back after the probe timeout", async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await buildServer().server.connect(serverSide);
  // An older server that ignores what it does not know: the probe is swallowed.
  const transport = recorded(clientSide);
  const send = transport.send;
  transport.send = (m, o) => (m.method === "server/discover" ? Promise.resolve() : send(m, o));
  const client = new Client({ transport, timeoutMs: 300 });
  await client.connect();
  assert.equal(client.era, "legacy");
  assert.equal(text(await client.callTool("echo", { text: "late" })), "late");
  await client.close();
});
