// A deliberately misbehaving MCP-ish HTTP server for fault tests.
//
// Usage: node misbehave.mjs [port]     (default $PORT or 18104; binds 127.0.0.1 only)
//
// Every fault has its own endpoint:  http://127.0.0.1:PORT/<fault>/mcp
// Common behaviour on every path (see handleCommon):
//   OPTIONS            -> 204 with permissive CORS (request headers echoed)
//   all responses      -> Access-Control-Allow-Origin: *, Expose-Headers: Mcp-Session-Id, WWW-Authenticate
//   POST initialize    -> 200 JSON legacy InitializeResult (2025-11-25) + Mcp-Session-Id header
//   POST notifications/* (and JSON-RPC responses) -> 202, empty
//   POST server/discover -> 400, empty body (so dual-era clients fall back to legacy)
//                           except for faults with their own `discover` handler (modern-ok)
//   GET                -> 405;  DELETE -> 200
//   other methods (ping, resources/list, ...) -> 200 JSON with an empty result {}
// The fault itself applies to `tools/list` and `tools/call` (FAULTS table below).
// Extra: GET /<fault>/last-headers returns the headers of the last POST seen on that fault
//        path (used with modern-ok to assert Mcp-Method / Mcp-Name / MCP-Protocol-Version).
//        GET /<fault>/header-log returns the last 50 requests on /<fault>/mcp as
//        [{httpMethod, method, id, lastEventId, headers}] (JSON-parsed POSTs, plus GETs and
//        DELETEs with method null); DELETE /<fault>/header-log clears both.
// Faults may also answer GET /<fault>/mcp (`get`) and their own GET/DELETE /<fault>/<extra>
// endpoints (`extra`), e.g. /resume-twice/resume-log, /get-stream-drops/get-count,
// /modern-drop-once/ids?key=K.

import http from "node:http";
import { randomUUID } from "node:crypto";
import { readBody } from "../support/http.mjs";

const HOST = "127.0.0.1";
const PORT = Number(process.argv[2] ?? process.env.PORT ?? 18104);

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Expose-Headers": "Mcp-Session-Id, WWW-Authenticate",
};

// ---- canned results ---------------------------------------------------------------------------

const ECHO_TOOL = {
  name: "echo",
  description: "Echo (misbehave peer)",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};
const OK_CALL_RESULT = { content: [{ type: "text", text: "ok" }] };
const SERVER_INFO = { name: "misbehave", version: "1" };

function okResult(msg) {
  return msg.method === "tools/list" ? { tools: [ECHO_TOOL] } : OK_CALL_RESULT;
}

// ---- response helpers ---------------------------------------------------------------------------

function send(res, status, headers = {}, body = "") {
  res.writeHead(status, { ...CORS, ...headers });
  res.end(body);
}
function sendJson(res, status, obj, extra = {}) {
  send(res, status, { "Content-Type": "application/json", ...extra }, JSON.stringify(obj));
}
function rpcResult(id, result) {
  return { jsonrpc: "2.0", id, result };
}
function sseEvent(obj, eventId) {
  return `event: message\n${eventId === undefined ? "" : `id: ${eventId}\n`}data: ${JSON.stringify(obj)}\n\n`;
}
const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" };
function startSse(res) {
  res.writeHead(200, { ...CORS, ...SSE_HEADERS });
  res.flushHeaders();
}
/** Destroy the socket shortly after the last write, so the bytes written so far reach the client. */
function dropSoon(res, ms = 50) {
  setTimeout(() => res.socket?.destroy(), ms);
}
function logNotification(text) {
  return { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "misbehave", data: text } };
}

// ---- the fault table ----------------------------------------------------------------------------
// Each entry: { description, rpc(ctx) } where rpc handles tools/list + tools/call.
// Optional: discover(ctx) to answer server/discover instead of the default 400.
// ctx = { req, res, msg, id } (msg = parsed JSON-RPC request, id = its id).

/** requestState → JSON-RPC ids already used with it (mrtr-3 checks retries use new ids). */
const mrtrIds = new Map();

/** Session id → its number (initialize order), and the sessions that expired. */
const sessionNumbers = new Map();
const expiredSessions = new Set();

// ---- legacy resumability (resume-with-ids, resume-twice) ------------------------------------------
// Each tools/call POST stream gets a streamId; its events carry ids `<streamId>-<n>` (n = 0 is the
// priming event). `events[n]` is the raw SSE text of event n, so a GET with Last-Event-ID
// `<streamId>-N` replays events[N+1..] and then continues the stream's plan.

/** streamId → { fault, sessionId, requestId, events: string[], resumes: number, done: boolean } */
const resumableStreams = new Map();
/** fault name → every Last-Event-ID received on a GET, in order */
const resumeLogs = new Map();

function resumablePost({ req, res, msg, id }, faultName) {
  if (msg.method !== "tools/call") return sendJson(res, 200, rpcResult(id, okResult(msg)));
  const streamId = randomUUID();
  const st = { fault: faultName, sessionId: req.headers["mcp-session-id"] ?? null, requestId: id, events: [], resumes: 0, done: false };
  resumableStreams.set(streamId, st);
  st.events.push(`id: ${streamId}-0\nretry: 200\ndata: \n\n`);
  st.events.push(sseEvent(logNotification(`working on request ${JSON.stringify(id)} (event 1)`), `${streamId}-1`));
  startSse(res);
  res.write(st.events[0]);
  res.write(st.events[1]);
  dropSoon(res); // no response: the client must resume with GET + Last-Event-ID
}

function resumableGet({ req, res }, faultName, dropsOnFirstResume) {
  const lastId = req.headers["last-event-id"];
  if (lastId === undefined) return send(res, 405, { Allow: "POST, DELETE, OPTIONS" }); // no standalone stream
  const log = resumeLogs.get(faultName) ?? [];
  log.push(lastId);
  resumeLogs.set(faultName, log);
  const bad = (message) => sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32000, message } });
  const cut = lastId.lastIndexOf("-");
  const st = cut > 0 ? resumableStreams.get(lastId.slice(0, cut)) : undefined;
  const n = Number(lastId.slice(cut + 1));
  if (!st || st.fault !== faultName || !Number.isInteger(n) || n < 0 || n >= st.events.length)
    return bad(`Unknown Last-Event-ID ${lastId}`);
  const sid = req.headers["mcp-session-id"];
  if (!sid) return bad("Mcp-Session-Id header required to resume");
  if (st.sessionId !== null && sid !== st.sessionId) return bad("Last-Event-ID belongs to another session");
  st.resumes += 1;
  const streamId = lastId.slice(0, cut);
  startSse(res);
  for (const e of st.events.slice(n + 1)) res.write(e);
  if (st.done) return res.end(); // already complete: the replay ended with the response
  if (dropsOnFirstResume && st.resumes === 1) {
    const k = st.events.length;
    st.events.push(sseEvent(logNotification(`still working (event ${k})`), `${streamId}-${k}`));
    res.write(st.events[k]);
    return dropSoon(res);
  }
  const k = st.events.length;
  st.events.push(sseEvent(rpcResult(st.requestId, { content: [{ type: "text", text: "resumed" }] }), `${streamId}-${k}`));
  st.done = true;
  res.write(st.events[k]);
  res.end();
}

function resumeLogEndpoint(faultName) {
  return ({ req, res }) => {
    if (req.method === "DELETE") {
      resumeLogs.delete(faultName);
      return send(res, 200);
    }
    sendJson(res, 200, resumeLogs.get(faultName) ?? []);
  };
}

/** get-stream-drops: every GET /get-stream-drops/mcp as { at (epoch ms), sessionId, lastEventId } */
const getStreamGets = [];

/** modern-drop-once: arguments.key → JSON-RPC ids of the tools/calls that carried it */
const dropOnceIds = new Map();

// Malformed UTF-8 (a lone continuation byte, an overlong lead, a truncated 3-byte sequence), 7
// bytes as "INVALID" is: large-result sends it in place of that word.
const MALFORMED = Buffer.from([0x80, 0xc0, 0xaf, 0xe2, 0x82, 0x41, 0xff]);

const FAULTS = {
  "malformed-json": {
    description: '200 application/json with a truncated body {"jsonrpc":"2.0","id":',
    rpc: ({ res }) => send(res, 200, { "Content-Type": "application/json" }, '{"jsonrpc":"2.0","id":'),
  },
  "not-jsonrpc": {
    description: '200 application/json {"hello":"world"}',
    rpc: ({ res }) => sendJson(res, 200, { hello: "world" }),
  },
  "sse-cut": {
    description: "200 text/event-stream, half an event, then the socket is destroyed",
    rpc: ({ res, id }) => {
      res.writeHead(200, { ...CORS, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.flushHeaders();
      res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"res`);
      setTimeout(() => res.socket?.destroy(), 50);
    },
  },
  "wrong-content-type": {
    description: "200 text/html <html>oops</html>",
    rpc: ({ res }) => send(res, 200, { "Content-Type": "text/html" }, "<html>oops</html>"),
  },
  "500-empty": {
    description: "500 with an empty body",
    rpc: ({ res }) => send(res, 500),
  },
  "500-body": {
    description: "500 application/json with a JSON-RPC error (-32603 database on fire)",
    rpc: ({ res }) =>
      sendJson(res, 500, { jsonrpc: "2.0", id: null, error: { code: -32603, message: "database on fire" } }),
  },
  hang: {
    description: "accepts the request and never answers (socket stays open)",
    rpc: ({ req }) => {
      req.socket.setTimeout(0);
      hanging.add(req.socket);
      req.socket.on("close", () => hanging.delete(req.socket));
    },
  },
  ok: {
    description: "correct answers as application/json (tools/list -> [echo], tools/call -> text ok)",
    rpc: ({ res, msg, id }) => sendJson(res, 200, rpcResult(id, okResult(msg))),
  },
  "long-strings": {
    description: "tools/call answers with the arguments' text (any length) as content and in structuredContent, next to a \"__proto__\" member",
    rpc: ({ res, msg, id }) => {
      if (msg.method === "tools/list") return sendJson(res, 200, rpcResult(id, okResult(msg)));
      const t = JSON.stringify(String(msg.params?.arguments?.text ?? ""));
      // Written by hand: JSON.stringify would not emit an own "__proto__" member.
      const result = `{"content":[{"type":"text","text":${t}}],"structuredContent":{"text":${t},"nested":[{"text":${t},"n":1.5}],"__proto__":{"polluted":true}}}`;
      send(res, 200, { "Content-Type": "application/json" }, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`);
    },
  },
  "large-result": {
    description:
      "tools/list: tool \"big\" with an outputSchema; tools/call big: arguments.text as content and structuredContent.text, " +
      "with Content-Length unless arguments.chunked (then written in 64 KiB chunks); arguments.bom: the body starts with a " +
      "UTF-8 byte order mark; each INVALID in the text is sent as 7 bytes of malformed UTF-8",
    rpc: ({ res, msg, id }) => {
      if (msg.method === "tools/list") {
        const outputSchema = { type: "object", properties: { text: { type: "string", minLength: 1 } }, required: ["text"] };
        return sendJson(res, 200, rpcResult(id, { tools: [{ name: "big", inputSchema: { type: "object" }, outputSchema }] }));
      }
      const args = msg.params?.arguments ?? {};
      const structured = args.structured === undefined ? { text: args.text } : args.structured;
      const body = JSON.stringify(rpcResult(id, { content: [{ type: "text", text: args.text }], structuredContent: structured }));
      const bytes = Buffer.from((args.bom ? "\ufeff" : "") + body);
      for (let at = bytes.indexOf("INVALID"); at >= 0; at = bytes.indexOf("INVALID", at)) bytes.set(MALFORMED, at);
      if (!args.chunked) return send(res, 200, { "Content-Type": "application/json", "Content-Length": bytes.length }, bytes);
      res.writeHead(200, { ...CORS, "Content-Type": "application/json" });
      for (let at = 0; at < bytes.length; at += 65536) res.write(bytes.subarray(at, at + 65536));
      res.end();
    },
  },
  "sse-ok": {
    description: "correct answers as a one-event text/event-stream",
    rpc: ({ res, msg, id }) =>
      send(res, 200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" }, sseEvent(rpcResult(id, okResult(msg)))),
  },
  "sse-never-ends": {
    description: "answers as a text/event-stream whose response event comes, but the stream is never ended (as an engine that does not signal the end sees it)",
    rpc: ({ req, res, msg, id }) => {
      req.socket.setTimeout(0);
      hanging.add(req.socket);
      req.socket.on("close", () => hanging.delete(req.socket));
      res.writeHead(200, { ...CORS, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.write(sseEvent(rpcResult(id, okResult(msg))));
    },
  },
  // 2026 multi round-trip: elicitation → roots → a state-only round → complete. The server
  // checks each retry: a new JSON-RPC id, this round's inputResponses only, requestState echoed.
  // Legacy session expiry: every session serves exactly one tools/call, then expires and
  // answers 404 (-32001 "Session not found", as the TS SDK does for an unknown session).
  "expire-after-one-call": {
    description: "legacy: a session expires (404) after its first tools/call",
    rpc: ({ req, res, msg, id }) => {
      const sid = req.headers["mcp-session-id"];
      const n = sessionNumbers.get(sid);
      if (msg.method === "tools/call" && n !== undefined && !expiredSessions.has(sid)) {
        expiredSessions.add(sid);
        return sendJson(res, 200, rpcResult(id, { content: [{ type: "text", text: `ok on session ${n}` }] }));
      }
      return sendJson(res, 404, { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
    },
  },
  // Pagination: three pages, the second reached through the empty-string cursor.
  paged: {
    description: "tools/list in 3 pages: no cursor → nextCursor \"\" → nextCursor \"b\" → end",
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/list") return sendJson(res, 200, rpcResult(id, OK_CALL_RESULT));
      const cursor = msg.params?.cursor;
      const tool = (name) => ({ ...ECHO_TOOL, name });
      const page =
        cursor === undefined ? { tools: [tool("t1")], nextCursor: "" } : cursor === "" ? { tools: [tool("t2")], nextCursor: "b" } : { tools: [tool("t3")] };
      sendJson(res, 200, rpcResult(id, page));
    },
  },
  "paged-loop": {
    description: "tools/list always answers nextCursor \"again\"",
    rpc: ({ res, msg, id }) => sendJson(res, 200, rpcResult(id, { tools: [ECHO_TOOL], nextCursor: "again" })),
  },
  // A tool whose structuredContent breaks its own outputSchema (and one that omits it).
  "bad-output": {
    description: "tools/list: add (outputSchema {sum: integer}); tools/call add → {sum: \"forty-two\"}, add_nothing → no structuredContent",
    rpc: ({ res, msg, id }) => {
      const outputSchema = { type: "object", properties: { sum: { type: "integer" } }, required: ["sum"] };
      if (msg.method === "tools/list")
        return sendJson(res, 200, rpcResult(id, { tools: ["add", "add_nothing"].map((name) => ({ name, inputSchema: { type: "object" }, outputSchema })) }));
      const structured = msg.params?.name === "add" ? { structuredContent: { sum: "forty-two" } } : {};
      sendJson(res, 200, rpcResult(id, { content: [{ type: "text", text: "42" }], ...structured }));
    },
  },
  // 2026 listing with one tool whose x-mcp-header annotation is invalid (a number property).
  "modern-bad-tool": {
    description: "2026: tools/list has `good` and `bad` (x-mcp-header on a number: clients must drop it)",
    discover: (ctx) => FAULTS["modern-ok"].discover(ctx),
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/list") return FAULTS["modern-ok"].rpc({ res, msg, id });
      const tool = (name, type) => ({ name, inputSchema: { type: "object", properties: { v: { type, "x-mcp-header": "V" } } } });
      sendJson(res, 200, rpcResult(id, { tools: [tool("good", "string"), tool("bad", "number")], ttlMs: 0, cacheScope: "private", resultType: "complete" }));
    },
  },
  "mrtr-3": {
    description: "2026: three input_required rounds (elicitation, roots, state-only), then complete",
    discover: (ctx) => FAULTS["modern-ok"].discover(ctx),
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/call") return FAULTS["modern-ok"].rpc({ res, msg, id });
      const p = msg.params ?? {};
      const fail = (message) => sendJson(res, 200, rpcResult(id, { content: [{ type: "text", text: message }], isError: true, resultType: "complete" }));
      const seen = mrtrIds.get(p.requestState ?? "start") ?? new Set();
      if (seen.has(id)) return fail(`retry reused id ${id}`);
      const state = p.requestState ? JSON.parse(Buffer.from(p.requestState, "base64url").toString()) : { round: 0, answers: {} };
      const keys = Object.keys(p.inputResponses ?? {});
      const expected = { 0: [], 1: ["ask_name"], 2: ["ask_roots"], 3: [] }[state.round];
      if (JSON.stringify(keys) !== JSON.stringify(expected)) return fail(`round ${state.round}: expected inputResponses ${JSON.stringify(expected)}, got ${JSON.stringify(keys)}`);
      Object.assign(state.answers, p.inputResponses ?? {});
      const next = (extra) => {
        const requestState = Buffer.from(JSON.stringify({ round: state.round + 1, answers: state.answers })).toString("base64url");
        const s = mrtrIds.get(requestState) ?? new Set();
        s.add(id);
        mrtrIds.set(requestState, s);
        sendJson(res, 200, rpcResult(id, { resultType: "input_required", requestState, ...extra }));
      };
      if (state.round === 0)
        return next({ inputRequests: { ask_name: { method: "elicitation/create", params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" }, tries: { type: "integer", default: 3 } }, required: ["name"] } } } } });
      if (state.round === 1) return next({ inputRequests: { ask_roots: { method: "roots/list", params: {} } } });
      if (state.round === 2) return next({});
      sendJson(res, 200, rpcResult(id, { content: [{ type: "text", text: JSON.stringify(state.answers) }], resultType: "complete" }));
    },
  },
  "mrtr-forever": {
    description: "2026: answers every tools/call with a state-only input_required result",
    discover: (ctx) => FAULTS["modern-ok"].discover(ctx),
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/call") return FAULTS["modern-ok"].rpc({ res, msg, id });
      sendJson(res, 200, rpcResult(id, { resultType: "input_required", requestState: "again" }));
    },
  },
  // Legacy 2025-11-25 resumability: the POST stream drops after a priming event and one
  // notification; GET + Last-Event-ID replays the rest and ends with the response "resumed".
  "resume-with-ids": {
    description:
      "legacy: tools/call SSE sends priming `id: S-0`+`retry: 200`, a notification `id: S-1`, then drops; GET with Last-Event-ID S-N replays after N + the response (text resumed); GET without Last-Event-ID 405",
    rpc: (ctx) => resumablePost(ctx, "resume-with-ids"),
    get: (ctx) => resumableGet(ctx, "resume-with-ids", false),
    extra: { "resume-log": resumeLogEndpoint("resume-with-ids") },
  },
  "resume-twice": {
    description:
      "legacy: like resume-with-ids, but the first resumed GET sends one more notification (new id) and drops; the second GET delivers the response. GET /resume-twice/resume-log lists the Last-Event-IDs",
    rpc: (ctx) => resumablePost(ctx, "resume-twice"),
    get: (ctx) => resumableGet(ctx, "resume-twice", true),
    extra: { "resume-log": resumeLogEndpoint("resume-twice") },
  },
  "drop-no-ids": {
    description: "legacy: tools/call SSE sends one complete notifications/message event without id, then drops (not resumable)",
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/call") return sendJson(res, 200, rpcResult(id, okResult(msg)));
      startSse(res);
      res.write(sseEvent(logNotification("about to drop (no event id)")));
      dropSoon(res);
    },
  },
  "get-stream-drops": {
    description:
      "legacy: GET with a session answers SSE: notifications/tools/list_changed + notifications/message (no ids), then ends; GET /get-stream-drops/get-count",
    rpc: ({ res, msg, id }) => sendJson(res, 200, rpcResult(id, okResult(msg))),
    get: ({ req, res }) => {
      getStreamGets.push({ at: Date.now(), sessionId: req.headers["mcp-session-id"] ?? null, lastEventId: req.headers["last-event-id"] ?? null });
      if (!req.headers["mcp-session-id"])
        return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: Mcp-Session-Id header required" } });
      startSse(res);
      res.write(sseEvent({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
      res.write(sseEvent(logNotification(`GET stream #${getStreamGets.length}`)));
      setTimeout(() => res.end(), 50);
    },
    extra: {
      "get-count": ({ req, res }) => {
        if (req.method === "DELETE") {
          getStreamGets.length = 0;
          return send(res, 200);
        }
        sendJson(res, 200, { count: getStreamGets.length, gets: getStreamGets });
      },
    },
  },
  "modern-drop-once": {
    description:
      "2026: the first tools/call per arguments.key gets an SSE stream that drops with no event; a re-issue (new id) gets text `reissued <id>`; GET /modern-drop-once/ids?key=K",
    discover: (ctx) => FAULTS["modern-ok"].discover(ctx),
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/call") return FAULTS["modern-ok"].rpc({ res, msg, id });
      const key = String(msg.params?.arguments?.key ?? "");
      const ids = dropOnceIds.get(key) ?? [];
      ids.push(id);
      dropOnceIds.set(key, ids);
      if (ids.length === 1) {
        startSse(res);
        return dropSoon(res);
      }
      // No in-band check that the id is new: a fresh client restarts its ids, so compare via /ids.
      const meta = { _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } };
      sendJson(res, 200, rpcResult(id, { content: [{ type: "text", text: `reissued ${id}` }], resultType: "complete", ...meta }));
    },
    extra: {
      ids: ({ req, res, url }) => {
        if (req.method === "DELETE") {
          dropOnceIds.clear();
          return send(res, 200);
        }
        const key = url.searchParams.get("key");
        if (key === null) return sendJson(res, 200, Object.fromEntries(dropOnceIds));
        sendJson(res, 200, dropOnceIds.get(key) ?? []);
      },
    },
  },
  slow: {
    description: "legacy: tools/call waits arguments.ms (default 500) ms, then answers text `ok` (JSON)",
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/call") return sendJson(res, 200, rpcResult(id, okResult(msg)));
      const ms = Number(msg.params?.arguments?.ms ?? 500);
      const t = setTimeout(() => sendJson(res, 200, rpcResult(id, OK_CALL_RESULT)), Number.isFinite(ms) && ms >= 0 ? ms : 500);
      res.on("close", () => clearTimeout(t));
    },
  },
  "garbage-sse": {
    description: "legacy: tools/call SSE sends an event whose data is `not json at all`, then the normal response event",
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/call") return sendJson(res, 200, rpcResult(id, okResult(msg)));
      startSse(res);
      res.write("event: message\ndata: not json at all\n\n");
      res.end(sseEvent(rpcResult(id, OK_CALL_RESULT)));
    },
  },
  "modern-ok": {
    description: "2026-07-28 server: valid server/discover + resultType complete results; see last-headers",
    discover: ({ res, id }) =>
      sendJson(
        res,
        200,
        rpcResult(id, {
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {} },
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "private",
          _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
        }),
      ),
    rpc: ({ res, msg, id }) => {
      const base = { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } };
      const extra = msg.method === "tools/list" ? { ttlMs: 0, cacheScope: "private" } : {};
      sendJson(res, 200, rpcResult(id, { ...okResult(msg), ...extra, ...base }));
    },
  },
};

// ---- common protocol skeleton ---------------------------------------------------------------------

const hanging = new Set();
/** @type {Map<string, Record<string, string | string[] | undefined>>} */
const lastHeaders = new Map();
/** @type {Map<string, Array<{httpMethod: string, method: string | null, id: unknown, lastEventId: string | null, headers: object}>>} last 50 requests per fault */
const headerLog = new Map();
function logRequest(faultName, req, msg) {
  const log = headerLog.get(faultName) ?? [];
  log.push({
    httpMethod: req.method,
    method: typeof msg?.method === "string" ? msg.method : null,
    id: msg?.id ?? null,
    lastEventId: req.headers["last-event-id"] ?? null,
    headers: { ...req.headers },
  });
  if (log.length > 50) log.shift();
  headerLog.set(faultName, log);
}


async function handle(req, res) {
  const url = new URL(req.url ?? "/", `http://${HOST}`);
  const parts = url.pathname.split("/").filter(Boolean); // ["<fault>", "mcp"]

  // Redirects: /redirect-same/* → 307 to /ok/* (same origin); /redirect-cross/* → 307 to the
  // same server as http://localhost:PORT (another origin than 127.0.0.1).
  if (parts[0] === "redirect-same" || parts[0] === "redirect-cross") {
    const rest = parts.slice(1).join("/");
    const base = parts[0] === "redirect-same" ? "" : `http://localhost:${PORT}`;
    return send(res, 307, { Location: `${base}/ok/${rest}` });
  }
  if (req.method === "OPTIONS") {
    return send(res, 204, {
      "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] || "*",
      "Access-Control-Max-Age": "600",
    });
  }

  if (parts.length === 0 && req.method === "GET") {
    // index: list the faults
    const index = Object.fromEntries(
      Object.entries(FAULTS).map(([k, v]) => [
        k,
        {
          url: `http://${HOST}:${PORT}/${k}/mcp`,
          description: v.description,
          ...(v.extra ? { extra: Object.keys(v.extra).map((e) => `http://${HOST}:${PORT}/${k}/${e}`) } : {}),
        },
      ]),
    );
    return sendJson(res, 200, index);
  }

  const fault = FAULTS[parts[0]];
  if (!fault) return sendJson(res, 404, { error: `unknown fault ${parts[0]}`, faults: Object.keys(FAULTS) });

  if (parts[1] === "last-headers" && req.method === "GET") {
    return sendJson(res, 200, lastHeaders.get(parts[0]) ?? null);
  }
  if (parts[1] === "header-log" && req.method === "GET") {
    return sendJson(res, 200, headerLog.get(parts[0]) ?? []);
  }
  if (parts[1] === "header-log" && req.method === "DELETE") {
    headerLog.delete(parts[0]);
    lastHeaders.delete(parts[0]);
    return send(res, 200);
  }
  if (parts.length === 2 && fault.extra?.[parts[1]] && (req.method === "GET" || req.method === "DELETE")) {
    return fault.extra[parts[1]]({ req, res, url });
  }
  if (parts[1] !== "mcp" || parts.length !== 2) return sendJson(res, 404, { error: "use /<fault>/mcp" });

  if (req.method === "GET") {
    logRequest(parts[0], req, null);
    if (fault.get) return fault.get({ req, res, url });
    return send(res, 405, { Allow: "POST, DELETE, OPTIONS" });
  }
  if (req.method === "DELETE") {
    logRequest(parts[0], req, null);
    return send(res, 200);
  }
  if (req.method !== "POST") return send(res, 405, { Allow: "POST, DELETE, OPTIONS" });

  lastHeaders.set(parts[0], { ...req.headers });
  const raw = await readBody(req);
  let msg;
  try {
    msg = JSON.parse(raw);
  } catch {
    return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (Array.isArray(msg) || msg === null || typeof msg !== "object") {
    return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
  }
  logRequest(parts[0], req, msg);
  const id = msg.id ?? null;
  const ctx = { req, res, msg, id };

  // JSON-RPC notifications and responses (no method or no id) -> 202
  if (typeof msg.method !== "string" || msg.id === undefined) return send(res, 202);

  switch (msg.method) {
    case "initialize": {
      const sid = randomUUID();
      sessionNumbers.set(sid, sessionNumbers.size + 1);
      return sendJson(
        res,
        200,
        rpcResult(id, { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: SERVER_INFO }),
        { "Mcp-Session-Id": sid },
      );
    }
    case "server/discover":
      if (fault.discover) return fault.discover(ctx);
      return send(res, 400);
    case "tools/list":
    case "tools/call":
      return fault.rpc(ctx);
    default:
      return sendJson(res, 200, rpcResult(id, {}));
  }
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error("misbehave: handler error", err);
    if (!res.headersSent) send(res, 500);
    else res.destroy();
  });
});
server.keepAliveTimeout = 5000;
server.listen(PORT, HOST, () => {
  console.log(`misbehave listening on http://${HOST}:${PORT}/<fault>/mcp  faults: ${Object.keys(FAULTS).join(", ")}`);
});

function shutdown() {
  for (const s of hanging) s.destroy();
  server.close();
  setTimeout(() => process.exit(0), 200).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
