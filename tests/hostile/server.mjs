// A hostile MCP-ish HTTP server for tests/hostile/hostile.test.mjs (not the project's misbehave.mjs).
//
// Usage: node server.mjs            ports from env HOSTILE_PORT (18801) and HOSTILE_PORT2 (18802)
// Binds 127.0.0.1 only. Every loop and size is bounded.
//
// Main server (HOSTILE_PORT), every fault has its own endpoint http://127.0.0.1:PORT/<fault>/mcp:
//   POST initialize          -> 200 JSON legacy InitializeResult (2025-11-25) + Mcp-Session-Id
//   POST notifications/*, JSON-RPC responses -> 202 (responses are recorded in the log)
//   POST server/discover     -> 400 (dual-era clients fall back to legacy)
//   POST tools/list          -> the echo and hostile tools (the `trap-urls` fault adds URLs)
//   POST tools/call "echo"   -> always a correct result {content:[{type:"text",text:"ok"}]}
//   POST tools/call (other)  -> the fault of the path (FAULTS below)
//   other methods            -> 200 JSON {} result
//   GET /<fault>/mcp -> 405 (but huge-get, get-reconnects, sse-endpoint-elsewhere), DELETE -> 200
// Observation endpoints (main server):
//   GET  /_log               -> [{t, fault, httpMethod, method, id, headers, note}] (last 5 000)
//   DELETE /_log             -> clears it (and the trap hits)
//   GET  /_trap/...          -> 200 "trap"; every hit is recorded: the client must never fetch it
//   GET  /_traps             -> the recorded trap hits
// Second server (HOSTILE_PORT2), another origin: records every request (method, url, headers)
//   and answers like a healthy legacy server; GET/DELETE /_log there shows/clears its log.

import http from "node:http";
import { randomUUID } from "node:crypto";
import { readBody as readCapped } from "../support/http.mjs";

const HOST = "127.0.0.1";
const PORT = Number(process.env.HOSTILE_PORT ?? 18801);
const PORT2 = Number(process.env.HOSTILE_PORT2 ?? 18802);
const BASE = `http://${HOST}:${PORT}`;
const BASE2 = `http://${HOST}:${PORT2}`;
const MAX_BODY = 64 * 1024 * 1024; // what we accept from the client
const MAX_LOG = 5000;

const ECHO_TOOL = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } };
const HOSTILE_TOOL = { name: "hostile", inputSchema: { type: "object" } };
const OK = { content: [{ type: "text", text: "ok" }] };
const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" };

let log = [];
let traps = [];
function record(entry) {
  log.push({ t: Date.now(), ...entry });
  if (log.length > MAX_LOG) log = log.slice(-MAX_LOG);
}

const rpc = (id, result) => ({ jsonrpc: "2.0", id, result });
const sse = (obj, id) => `event: message\n${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(obj)}\n\n`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function sendJson(res, status, obj, headers = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(obj));
}
function startSse(res, extra = {}) {
  res.writeHead(200, { ...SSE_HEADERS, ...extra });
  res.flushHeaders();
}
/** Writes and waits for the socket to drain (backpressure); false when the client went away. */
function write(res, chunk) {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok) => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}
/** Resolves when the client closes the response (or after `ms`). */
function closed(res, ms) {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    res.on("close", () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

// Waiters for client responses to server requests, per fault: id -> resolve.
const answers = new Map();

/** Streams a JSON server request whose params.pad is `total` bytes of 'A', in 64 KiB chunks. */
async function streamHuge(res, fault, total, asEvent) {
  const head = `${asEvent ? "event: message\ndata: " : ""}{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":"`;
  if (!(await write(res, head))) return 0;
  const chunk = "A".repeat(64 * 1024);
  let sent = 0;
  while (sent < total) {
    if (!(await write(res, chunk))) break;
    sent += chunk.length;
  }
  record({ fault, note: `huge: wrote ${sent} bytes of padding${sent < total ? " (client went away)" : ""}` });
  if (sent >= total) await write(res, `"}}${asEvent ? "\n\n" : ""}`);
  return sent;
}

// get-reconnects: per session, GET streams 1..GET_STREAMS each carry `retry: 5` and one
// notifications/message (data.seq = n, event id get-n) and end; the next GET is held open.
const GET_STREAMS = 100;
const getCounts = new Map();
async function getReconnects(req, res) {
  const session = String(req.headers["mcp-session-id"]);
  const n = (getCounts.get(session) ?? 0) + 1;
  getCounts.set(session, n);
  if (getCounts.size > 100) getCounts.delete(getCounts.keys().next().value);
  const resumedFrom = req.headers["last-event-id"] ?? null;
  record({ fault: "get-reconnects", note: `GET ${n}`, session, n, resumedFrom });
  startSse(res);
  if (n > GET_STREAMS) {
    await closed(res, 60_000);
    return res.end();
  }
  const note = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: { seq: n } } };
  await write(res, `retry: 5\n\n${sse(note, `get-${n}`)}`);
  res.end();
}

/** Streams the call's result `{ content: [{ type: "text", text: "A"×total }] }` in 64 KiB chunks. */
async function streamResult(res, fault, id, total, asEvent) {
  const head = `${asEvent ? "event: message\ndata: " : ""}{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  if (!(await write(res, head))) return;
  const chunk = "A".repeat(64 * 1024);
  let sent = 0;
  while (sent < total && (await write(res, chunk))) sent += chunk.length;
  record({ fault, note: `result: wrote ${sent} bytes of text${sent < total ? " (client went away)" : ""}` });
  if (sent >= total) await write(res, `"}]}}${asEvent ? "\n\n" : ""}`);
}

function deep(n) {
  return "[".repeat(n) + "]".repeat(n);
}

// ---- faults: each handles tools/call of any tool but `echo` --------------------------------------
const FAULTS = {
  // Content types
  "ct-html": (msg, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<html><body>${JSON.stringify(rpc(msg.id, OK))}</body></html>`);
  },
  "ct-plain-json": (msg, res) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end(JSON.stringify(rpc(msg.id, OK)));
  },
  "ct-none": (msg, res) => {
    res.writeHead(200, {}); // no Content-Type at all
    res.end(JSON.stringify(rpc(msg.id, OK)));
  },
  "ct-sse-json-body": (msg, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" }); // says SSE, sends JSON
    res.end(JSON.stringify(rpc(msg.id, OK)));
  },
  "ct-json-sse-body": (msg, res) => {
    res.writeHead(200, { "Content-Type": "application/json" }); // says JSON, sends SSE
    res.end(sse(rpc(msg.id, OK)));
  },
  // Truncated JSON
  "truncated-json": (msg, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(rpc(msg.id, OK)).slice(0, 25));
  },
  "truncated-sse": async (msg, res) => {
    startSse(res);
    await write(res, `event: message\ndata: ${JSON.stringify(rpc(msg.id, OK)).slice(0, 25)}`);
    res.end(); // the stream ends inside the event
  },
  "truncated-sse-event": async (msg, res) => {
    startSse(res);
    await write(res, `event: message\ndata: ${JSON.stringify(rpc(msg.id, OK)).slice(0, 25)}\n\n`);
    res.end(); // a complete event whose JSON is cut
  },
  // Ids
  "unknown-id-json": (msg, res) => sendJson(res, 200, rpc(987654321, OK)),
  "unknown-id-sse": async (msg, res) => {
    startSse(res);
    await write(res, sse(rpc(987654321, { content: [{ type: "text", text: "not yours" }] })));
    await write(res, sse(rpc("never-sent", { content: [{ type: "text", text: "not yours" }] })));
    await write(res, sse({ jsonrpc: "2.0", id: 987654322, error: { code: -1, message: "not yours" } }));
    await sleep(20);
    await write(res, sse(rpc(msg.id, OK)));
    res.end();
  },
  "duplicate-sse": async (msg, res) => {
    startSse(res);
    await write(res, sse(rpc(msg.id, OK)));
    await write(res, sse(rpc(msg.id, { content: [{ type: "text", text: "duplicate" }] })));
    await write(res, sse({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: "duplicate error" } }));
    res.end();
  },
  "duplicate-batch": (msg, res) =>
    sendJson(res, 200, [rpc(msg.id, OK), rpc(msg.id, { content: [{ type: "text", text: "duplicate" }] })]),
  // Huge and deep server requests
  "huge-request-sse": async (msg, res) => {
    startSse(res);
    const sent = await streamHuge(res, "huge-request-sse", 100 * 1024 * 1024, true);
    if (sent >= 100 * 1024 * 1024) await write(res, sse(rpc(msg.id, OK)));
    res.end();
  },
  "huge-result-json": async (msg, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    await streamHuge(res, "huge-result-json", 100 * 1024 * 1024, false);
    res.end();
  },
  // A 50 MiB result for the call itself, as the POST's JSON body (no Content-Length) or as one
  // event of its SSE body: the client must refuse it while reading (maxMessageBytes).
  "huge-50-json": async (msg, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    await streamResult(res, "huge-50-json", msg.id, 50 * 1024 * 1024, false);
    res.end();
  },
  "huge-50-sse": async (msg, res) => {
    startSse(res);
    await streamResult(res, "huge-50-sse", msg.id, 50 * 1024 * 1024, true);
    res.end();
  },
  "huge-line-sse": async (msg, res) => {
    // 100 MB without a single line end: one endless line.
    startSse(res);
    const chunk = ": ".concat("x".repeat(64 * 1024 - 2));
    let sent = 0;
    while (sent < 100 * 1024 * 1024 && (await write(res, chunk))) sent += chunk.length;
    record({ fault: "huge-line-sse", note: `huge line: wrote ${sent} bytes` });
    res.end();
  },
  "deep-request-sse": async (msg, res) => {
    startSse(res);
    const body = `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":${deep(10000)}}}`;
    await write(res, `event: message\ndata: ${body}\n\n`);
    await sleep(50);
    await write(res, sse(rpc(msg.id, OK)));
    res.end();
  },
  "deep-result-json": (msg, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"content":[],"x":${deep(10000)}}}`);
  },
  "deep-result-100": (msg, res) => {
    // 100 levels: under serde_json's 128 limit, a legal (if silly) result.
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"content":[{"type":"text","text":"ok"}],"x":${deep(100)}}}`);
  },
  // Streams that never produce / never close
  "comments-only": async (msg, res) => {
    startSse(res);
    let n = 0;
    // At most 10 minutes of comments; stops as soon as the client goes away.
    while (n < 12000 && (await write(res, `: keep-alive ${n}\n\n`))) {
      n++;
      await sleep(50);
    }
    record({ fault: "comments-only", note: `comments: ${n}, client closed: ${res.destroyed}` });
    res.end();
  },
  "never-close": async (msg, res) => {
    startSse(res);
    await write(res, sse(rpc(msg.id, OK)));
    const t0 = Date.now();
    const gone = await closed(res, 30000);
    record({ fault: "never-close", note: `client closed the stream: ${gone} after ${Date.now() - t0} ms` });
    res.end();
  },
  // 1 000 server requests before the response
  "ping-flood": async (msg, res) => {
    startSse(res);
    const N = Math.max(1, Math.min(Number(msg.params?.arguments?.n ?? 1000) || 1000, 5000));
    const waits = [];
    let body = "";
    for (let i = 0; i < N; i++) {
      const id = `flood-${i}`;
      waits.push(new Promise((resolve) => answers.set(id, resolve)));
      body += sse({ jsonrpc: "2.0", id, method: "ping" });
    }
    await write(res, body); // all at once
    const all = await Promise.race([Promise.all(waits).then(() => true), sleep(30000).then(() => false)]);
    for (let i = 0; i < N; i++) answers.delete(`flood-${i}`);
    record({ fault: "ping-flood", note: `all ${N} pings answered before the deadline: ${all}` });
    await write(res, sse(rpc(msg.id, all ? OK : { content: [{ type: "text", text: "pings unanswered" }], isError: true })));
    res.end();
  },
  // 1 000 server requests of three kinds at once: the answers' order and count are checked
  "request-flood": async (msg, res) => {
    startSse(res);
    const N = Math.max(1, Math.min(Number(msg.params?.arguments?.n ?? 1000) || 1000, 5000));
    const methods = ["ping", "roots/list", "elicitation/create"];
    const form = { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
    const arrived = [];
    const waits = [];
    let body = "";
    for (let i = 0; i < N; i++) {
      const id = `rq-${i}`;
      waits.push(new Promise((resolve) => answers.set(id, (m) => (arrived.push({ id, ok: m.result !== undefined }), resolve()))));
      const method = methods[i % 3];
      body += sse({ jsonrpc: "2.0", id, method, ...(method === "elicitation/create" ? { params: form } : {}) });
    }
    await write(res, body); // all at once
    const all = await Promise.race([Promise.all(waits).then(() => true), sleep(60000).then(() => false)]);
    for (let i = 0; i < N; i++) answers.delete(`rq-${i}`);
    const firstOutOfOrder = arrived.findIndex((a, i) => a.id !== `rq-${i}`);
    const summary = { answered: arrived.length, results: arrived.filter((a) => a.ok).length, all, firstOutOfOrder };
    record({ fault: "request-flood", note: `request-flood: ${JSON.stringify(summary)}` });
    await write(res, sse(rpc(msg.id, { content: [{ type: "text", text: `ok ${JSON.stringify(summary)}` }] })));
    res.end();
  },
  // 10 000 log notifications on the POST's stream, then the result
  "notify-flood": async (msg, res) => {
    startSse(res);
    let body = "";
    for (let i = 0; i < 10000; i++) {
      body += sse({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `note ${i}` } });
      if (body.length > 256 * 1024) (await write(res, body), (body = ""));
    }
    await write(res, body + sse(rpc(msg.id, OK)));
    res.end();
  },
  // 1 000 progress notifications for the call's progressToken, then the result
  "progress-flood": async (msg, res) => {
    startSse(res);
    const progressToken = msg.params?._meta?.progressToken;
    let body = "";
    for (let i = 1; i <= 1000; i++) body += sse({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress: i, total: 1000 } });
    await write(res, body + sse(rpc(msg.id, OK)));
    res.end();
  },
  // Invalid UTF-8
  "bad-utf8-sse": async (msg, res) => {
    startSse(res);
    const head = Buffer.from(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"content":[{"type":"text","text":"a`);
    const tail = Buffer.from(`b"}]}}\n\n`);
    await write(res, Buffer.concat([head, Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), tail]));
    res.end();
  },
  "bad-utf8-field": async (msg, res) => {
    startSse(res);
    // invalid bytes in the event name and the id, then a valid event
    await write(res, Buffer.concat([Buffer.from("event: mess"), Buffer.from([0xff]), Buffer.from("age\nid: "), Buffer.from([0xff]), Buffer.from([0xc0, 0x80]), Buffer.from(`\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } })}\n\n`)]));
    await write(res, sse(rpc(msg.id, OK)));
    res.end();
  },
  "bad-utf8-json": (msg, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    const s = JSON.stringify(rpc(msg.id, OK));
    const i = s.indexOf('"ok"') + 2;
    res.end(Buffer.concat([Buffer.from(s.slice(0, i)), Buffer.from([0xff, 0xfe]), Buffer.from(s.slice(i))]));
  },
  // Security: server-provided URLs
  "trap-urls": async (msg, res) => {
    startSse(res);
    const trap = (what) => `${BASE}/_trap/${what}`;
    await write(res, sse({
      jsonrpc: "2.0", id: "url-elicit", method: "elicitation/create",
      params: { mode: "url", elicitationId: "e1", url: trap("elicitation-url"), message: "Open this to sign in" },
    }));
    // wait for the client's answer (or 5 s)
    await Promise.race([new Promise((r) => answers.set("url-elicit", r)), sleep(5000)]);
    answers.delete("url-elicit");
    await write(res, sse({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "e1" } }));
    await write(res, sse(rpc(msg.id, {
      content: [
        { type: "text", text: "ok" },
        { type: "resource_link", uri: trap("resource-link"), name: "r" },
        { type: "image", data: "", mimeType: "image/png", _meta: { url: trap("image") } },
      ],
      structuredContent: { url: trap("structured") },
    })));
    res.end();
  },
  "url-elicit-error": (msg, res) =>
    // -32042: URL elicitation required (the error form)
    sendJson(res, 200, { jsonrpc: "2.0", id: msg.id, error: { code: -32042, message: "URL elicitation required",
      data: { elicitations: [{ mode: "url", elicitationId: "e2", url: `${BASE}/_trap/url-required`, message: "Authorize" }] } } }),
  // Security: redirects to another origin
  "redirect-307": (msg, res) => {
    res.writeHead(307, { Location: `${BASE2}/sink/mcp` });
    res.end();
  },
  "redirect-308": (msg, res) => {
    res.writeHead(308, { Location: `${BASE2}/sink/mcp` });
    res.end();
  },
  "redirect-302": (msg, res) => {
    res.writeHead(302, { Location: `${BASE2}/sink/mcp` });
    res.end();
  },
  // A result to validate against the exponential outputSchema from tools/list
  "exp-output-schema": (msg, res) =>
    sendJson(res, 200, rpc(msg.id, { content: [{ type: "text", text: "ok" }], structuredContent: { x: 1 } })),
  // 2026 era
  "modern-unknown-resulttype": (msg, res) =>
    sendJson(res, 200, rpc(msg.id, { resultType: "banana", content: [{ type: "text", text: "should not be accepted" }] })),
  "modern-unknown-resulttype-sse": async (msg, res) => {
    startSse(res);
    await write(res, sse(rpc(msg.id, { resultType: "input_required_v9", inputRequests: {} })));
    res.end();
  },
};

// Faults that also take over `initialize` (for whole-connection redirects).
const INIT_FAULTS = {
  "sse-endpoint-elsewhere": (msg, res) => {
    res.writeHead(405);
    res.end();
  },
  "redirect-init-307": (msg, res) => {
    res.writeHead(307, { Location: `${BASE2}/sink/mcp` });
    res.end();
  },
};

function initializeResult(id, fault) {
  const serverInfo = { name: "hostile", version: "1" };
  if (fault === "trap-urls") {
    serverInfo.websiteUrl = `${BASE}/_trap/website`;
    serverInfo.icons = [{ src: `${BASE}/_trap/server-icon` }];
  }
  return rpc(id, {
    protocolVersion: "2025-11-25",
    capabilities: { tools: {} },
    serverInfo,
    instructions: fault === "trap-urls" ? `See ${BASE}/_trap/instructions` : undefined,
  });
}

/** The request body, refused past MAX_BODY. */
const readBody = (req) => readCapped(req, { maxBytes: MAX_BODY });

async function handleMcp(fault, req, res) {
  const headers = { ...req.headers };
  if (req.method === "GET") {
    record({ fault, httpMethod: "GET", method: null, headers });
    if (fault === "huge-get") {
      // The GET stream carries one 50 MiB server request (then stays open until the client goes).
      startSse(res);
      await streamHuge(res, "huge-get", 50 * 1024 * 1024, true);
      await closed(res, 10000);
      return res.end();
    }
    if (fault === "get-reconnects") return getReconnects(req, res);
    if (fault === "sse-endpoint-elsewhere") {
      // Deprecated HTTP+SSE layout whose endpoint event points at another origin.
      startSse(res);
      await write(res, `event: endpoint\ndata: ${BASE2}/sink/messages\n\n`);
      await closed(res, 10000);
      return res.end();
    }
    res.writeHead(405);
    return res.end();
  }
  if (req.method === "DELETE") {
    record({ fault, httpMethod: "DELETE", method: null, headers });
    res.writeHead(200);
    return res.end();
  }
  if (req.method !== "POST") {
    res.writeHead(405);
    return res.end();
  }
  let msg;
  try {
    msg = JSON.parse(await readBody(req));
  } catch (e) {
    return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: String(e.message) } });
  }
  const msgs = Array.isArray(msg) ? msg : [msg];
  for (const m of msgs) record({ fault, httpMethod: "POST", method: m.method ?? null, id: m.id ?? null, headers, isResponse: !m.method });
  // Responses and notifications
  if (msgs.every((m) => !m.method || m.id === undefined)) {
    for (const m of msgs) {
      if (!m.method && m.id !== undefined) answers.get(m.id)?.(m);
    }
    res.writeHead(202);
    return res.end();
  }
  msg = msgs[0];
  if (msg.method === "initialize") {
    if (INIT_FAULTS[fault]) return INIT_FAULTS[fault](msg, res);
    return sendJson(res, 200, initializeResult(msg.id, fault), { "Mcp-Session-Id": randomUUID() });
  }
  if (msg.method === "server/discover") {
    res.writeHead(400);
    return res.end();
  }
  if (msg.method === "tools/list") {
    const tools = [ECHO_TOOL, HOSTILE_TOOL];
    if (fault === "exp-output-schema") {
      // 67 bytes of outputSchema whose naive validation takes 2^64 steps (anyOf of two $refs to
      // itself; only the 64-level depth cap stops each branch).
      tools[1] = { ...HOSTILE_TOOL, outputSchema: { $defs: { a: { anyOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" } };
    }
    if (fault === "trap-urls") tools.push({ name: "iconic", icons: [{ src: `${BASE}/_trap/tool-icon` }], inputSchema: { type: "object" } });
    const result = { tools };
    if (fault.startsWith("modern-")) Object.assign(result, { resultType: "complete" });
    return sendJson(res, 200, rpc(msg.id, result));
  }
  if (msg.method === "tools/call") {
    if (msg.params?.name === "echo" || !FAULTS[fault]) {
      const result = fault.startsWith("modern-") ? { resultType: "complete", ...OK } : OK;
      return sendJson(res, 200, rpc(msg.id, result));
    }
    return FAULTS[fault](msg, res);
  }
  return sendJson(res, 200, rpc(msg.id, fault.startsWith("modern-") ? { resultType: "complete" } : {}));
}

function handle(req, res) {
  const url = new URL(req.url, BASE);
  const parts = url.pathname.split("/").filter(Boolean);
  res.on("error", () => {});
  req.on("error", () => {});
  // CORS, so the headless-Chromium wasm suite can reach the same faults.
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id");
  if (req.method === "OPTIONS") {
    res.writeHead(204, {
      "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
      "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] || "*",
    });
    return res.end();
  }
  if (parts[0] === "_log") {
    if (req.method === "DELETE") {
      log = [];
      traps = [];
      res.writeHead(200);
      return res.end();
    }
    return sendJson(res, 200, log);
  }
  if (parts[0] === "_traps") return sendJson(res, 200, traps);
  if (parts[0] === "_trap") {
    traps.push({ t: Date.now(), method: req.method, url: req.url, headers: req.headers });
    res.writeHead(200, { "Content-Type": "text/plain" });
    return res.end("trap");
  }
  if (parts.length === 2 && parts[1] === "mcp") {
    return handleMcp(parts[0], req, res).catch((e) => {
      record({ fault: parts[0], note: `server error: ${e.message}` });
      if (!res.headersSent) {
        res.writeHead(500);
      }
      res.end();
    });
  }
  res.writeHead(404);
  res.end();
}

// ---- the second origin: records everything ----------------------------------------------------
let log2 = [];
async function handle2(req, res) {
  res.on("error", () => {});
  const url = new URL(req.url, BASE2);
  if (url.pathname === "/_log") {
    if (req.method === "DELETE") {
      log2 = [];
      res.writeHead(200);
      return res.end();
    }
    return sendJson(res, 200, log2);
  }
  let body = "";
  try {
    body = req.method === "POST" ? await readBody(req) : "";
  } catch {}
  log2.push({ t: Date.now(), httpMethod: req.method, url: req.url, headers: req.headers, body: body.slice(0, 500) });
  if (log2.length > MAX_LOG) log2 = log2.slice(-MAX_LOG);
  let msg = {};
  try {
    msg = JSON.parse(body);
  } catch {}
  if (req.method !== "POST" || msg.id === undefined) {
    res.writeHead(req.method === "POST" ? 202 : 405);
    return res.end();
  }
  if (msg.method === "initialize") return sendJson(res, 200, initializeResult(msg.id, "sink"), { "Mcp-Session-Id": randomUUID() });
  if (msg.method === "tools/call") return sendJson(res, 200, rpc(msg.id, { content: [{ type: "text", text: "from the other origin" }] }));
  return sendJson(res, 200, rpc(msg.id, {}));
}

const s1 = http.createServer(handle);
const s2 = http.createServer(handle2);
s1.keepAliveTimeout = 1000;
s2.keepAliveTimeout = 1000;
s1.listen(PORT, HOST, () => {
  s2.listen(PORT2, HOST, () => console.log(`hostile server on ${BASE} and ${BASE2}`));
});
