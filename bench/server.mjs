// A minimal fixed-response Streamable HTTP MCP server for benchmarks.
//
// Usage: node bench/server.mjs [port]        (default $PORT or 18790; binds 127.0.0.1 only)
//        import { startServer } from "./server.mjs"; const s = await startServer(0); s.url; await s.close();
//
// Everything it can answer is precomputed as strings; a response is `prefix + id + suffix`, so
// the server's own cost per request is a JSON.parse of the request and one write.
//
//   POST initialize        -> legacy InitializeResult (client's version if known, else 2025-11-25)
//                             + a fresh Mcp-Session-Id
//   POST server/discover   -> 2026 DiscoverResult when the request carries
//                             `MCP-Protocol-Version: 2026-07-28`; otherwise 400 -32601 (so dual-era
//                             clients fall back to initialize)
//   POST notifications/*   -> 202 (and JSON-RPC responses from the client)
//   POST tools/list        -> echo, big, stream, mrtr
//   POST tools/call echo   -> {"content":[{"type":"text","text":"ok"}]}                  (JSON)
//   POST tools/call big    -> one text content of 1 MiB (arguments.bytes overrides)   (JSON)
//   POST tools/call stream -> text/event-stream: arguments.count (default 10 000)
//                             `notifications/message` events (level info, ~120 bytes of
//                             data each), then the result event {"content":[{"type":"text","text":"done"}]}
//   POST tools/call mrtr   -> 2026 input_required, 3 rounds: round 1 (no requestState) and
//                             round 2 (requestState "mrtr-r1" + inputResponses.ask_1) answer
//                             resultType "input_required" with one elicitation/create form
//                             inputRequest and a requestState; round 3 (requestState "mrtr-r2" +
//                             inputResponses.ask_2) answers resultType "complete".
//   POST ping / other      -> {} result
//   GET  /mcp              -> 405 (no standalone stream); DELETE -> 200; OPTIONS -> 204 CORS
//   POST /mcp-sse          -> the same answers, each JSON one sent as a one-event text/event-stream
//                             body instead (the "SSE answers" rows of bench/speed.mjs)
//
// Requests carrying `MCP-Protocol-Version: 2026-07-28` get results with resultType "complete"
// (and ttlMs 0 on tools/list). CORS is permissive (the headless Chromium run is cross-origin);
// Access-Control-Max-Age 600 so the browser does not preflight every POST.

import http from "node:http";
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";

const MODERN = "2026-07-28";
const LEGACY_VERSIONS = new Set(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);
const SERVER_INFO = { name: "bench-server", version: "1.0.0" };
const META = { "io.modelcontextprotocol/serverInfo": SERVER_INFO };

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Expose-Headers": "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate",
  "Access-Control-Max-Age": "600",
};
const JSON_HEADERS = { ...CORS, "Content-Type": "application/json" };
const SSE_HEADERS = { ...CORS, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" };

const TOOLS = [
  { name: "echo", description: "small fixed result", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  { name: "big", description: "1 MiB text result", inputSchema: { type: "object", properties: { bytes: { type: "integer" } } } },
  { name: "stream", description: "SSE: count notifications/message events, then the result", inputSchema: { type: "object", properties: { count: { type: "integer" } } } },
  { name: "mrtr", description: "2026: 3-round input_required exchange (two elicitations)", inputSchema: { type: "object", properties: {} } },
];

/** A precomputed response body: `{"jsonrpc":"2.0","id":<id>,"result":<result>}`. */
function template(result) {
  return { pre: '{"jsonrpc":"2.0","id":', post: `,"result":${JSON.stringify(result)}}` };
}
const fill = (t, id) => t.pre + JSON.stringify(id) + t.post;
function pair(result, modernExtra = {}) {
  return { legacy: template(result), modern: template({ ...result, ...modernExtra, resultType: "complete", _meta: META }) };
}

const R = {
  empty: pair({}),
  toolsList: pair({ tools: TOOLS }, { ttlMs: 0, cacheScope: "private" }),
  echo: pair({ content: [{ type: "text", text: "ok" }] }),
  done: pair({ content: [{ type: "text", text: "done" }] }),
  mrtrDone: pair({ content: [{ type: "text", text: "mrtr complete" }] }),
  discover: template({
    supportedVersions: [MODERN],
    capabilities: { tools: {} },
    serverInfo: SERVER_INFO,
    resultType: "complete",
    ttlMs: 0,
    cacheScope: "private",
    _meta: META,
  }),
};
const initTemplates = new Map();
for (const v of LEGACY_VERSIONS)
  initTemplates.set(v, template({ protocolVersion: v, capabilities: { tools: {}, logging: {} }, serverInfo: SERVER_INFO }));

function elicitRound(n) {
  return template({
    resultType: "input_required",
    requestState: `mrtr-r${n}`,
    inputRequests: {
      [`ask_${n}`]: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: `Round ${n}: name?`,
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
    },
    _meta: META,
  });
}
const MRTR = [elicitRound(1), elicitRound(2)];

const LINE = "The quick brown fox jumps over the lazy dog; 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLM.\n"; // 100 bytes
const bigTemplates = new Map();
function bigTemplate(bytes, modern) {
  const key = `${bytes}:${modern}`;
  let t = bigTemplates.get(key);
  if (!t) {
    const text = LINE.repeat(Math.ceil(bytes / LINE.length)).slice(0, bytes);
    t = template({ content: [{ type: "text", text }], ...(modern ? { resultType: "complete", _meta: META } : {}) });
    bigTemplates.set(key, t);
  }
  return t;
}

const streamBodies = new Map();
/** The SSE body of the `stream` tool minus its final event (which carries the request id). */
function streamBody(count) {
  let b = streamBodies.get(count);
  if (!b) {
    const parts = [];
    for (let i = 0; i < count; i++) {
      const n = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "bench", data: `event ${i} of ${count}: lorem ipsum dolor sit amet` } };
      parts.push(`event: message\ndata: ${JSON.stringify(n)}\n\n`);
    }
    b = Buffer.from(parts.join(""));
    streamBodies.set(count, b);
  }
  return b;
}

/** Bytes of the `stream` tool's SSE body for `count` events (the result event included). */
export function streamBytes(count) {
  return streamBody(count).length + `event: message\ndata: ${fill(R.done.legacy, 1)}\n\n`.length;
}

/** The exact bodies the server sends for `stream` (count events + result) and `big` (request id 1). */
export function benchBodies(count = 10_000) {
  return {
    stream: Buffer.concat([streamBody(count), Buffer.from(`event: message\ndata: ${fill(R.done.legacy, 1)}\n\n`)]),
    big: fill(bigTemplate(1 << 20, false), 1),
  };
}

function send(res, status, headers, body) {
  res.writeHead(status, headers);
  res.end(body);
}
function sendJson(res, body, extra) {
  if (res.sseAnswers) {
    res.writeHead(200, extra ? { ...SSE_HEADERS, ...extra } : SSE_HEADERS);
    res.end(`event: message\ndata: ${body}\n\n`);
    return;
  }
  res.writeHead(200, extra ? { ...JSON_HEADERS, ...extra } : JSON_HEADERS);
  res.end(body);
}
function rpcError(res, status, id, code, message) {
  send(res, status, JSON_HEADERS, JSON.stringify({ jsonrpc: "2.0", id: id ?? null, error: { code, message } }));
}

function handleRpc(req, res, msg) {
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return rpcError(res, 400, null, -32600, "Invalid Request");
  const { id, method } = msg;
  if (method === undefined || id === undefined) return send(res, 202, CORS); // notification or response
  const modern = req.headers["mcp-protocol-version"] === MODERN;
  const era = modern ? "modern" : "legacy";
  switch (method) {
    case "initialize": {
      const asked = msg.params?.protocolVersion;
      const t = initTemplates.get(LEGACY_VERSIONS.has(asked) ? asked : "2025-11-25");
      return sendJson(res, fill(t, id), { "Mcp-Session-Id": randomUUID() });
    }
    case "server/discover":
      if (!modern) return rpcError(res, 400, id, -32601, "server/discover needs MCP-Protocol-Version 2026-07-28");
      return sendJson(res, fill(R.discover, id));
    case "tools/list":
      return sendJson(res, fill(R.toolsList[era], id));
    case "tools/call": {
      const p = msg.params ?? {};
      const args = p.arguments ?? {};
      switch (p.name) {
        case "echo":
          return sendJson(res, fill(R.echo[era], id));
        case "big":
          return sendJson(res, fill(bigTemplate(Number(args.bytes ?? 1 << 20), modern), id));
        case "stream": {
          const body = streamBody(Math.max(0, Math.min(1_000_000, Number(args.count ?? 10_000))));
          res.writeHead(200, SSE_HEADERS);
          res.write(body);
          res.end(`event: message\ndata: ${fill(R.done[era], id)}\n\n`);
          return;
        }
        case "mrtr": {
          if (!modern) return rpcError(res, 200, id, -32602, "mrtr needs the 2026-07-28 era");
          const st = p.requestState;
          const got = p.inputResponses ?? {};
          if (st === undefined) return sendJson(res, fill(MRTR[0], id));
          if (st === "mrtr-r1" && got.ask_1) return sendJson(res, fill(MRTR[1], id));
          if (st === "mrtr-r2" && got.ask_2) return sendJson(res, fill(R.mrtrDone.modern, id));
          return rpcError(res, 200, id, -32602, `mrtr: unexpected requestState ${JSON.stringify(st)} / inputResponses ${JSON.stringify(Object.keys(got))}`);
        }
        default:
          return rpcError(res, 200, id, -32602, `Unknown tool ${p.name}`);
      }
    }
    default:
      return sendJson(res, fill(R.empty[era], id));
  }
}

function handler(req, res) {
  if (req.method === "OPTIONS") {
    return send(res, 204, {
      ...CORS,
      "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*",
    });
  }
  if (!req.url.startsWith("/mcp")) return send(res, 404, CORS, "not found");
  if (req.method === "GET") return send(res, 405, { ...CORS, Allow: "POST, DELETE, OPTIONS" });
  if (req.method === "DELETE") return send(res, 200, CORS);
  if (req.method !== "POST") return send(res, 405, CORS);
  res.sseAnswers = req.url.startsWith("/mcp-sse");
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let msg;
    try {
      msg = JSON.parse(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString());
    } catch {
      return rpcError(res, 400, null, -32700, "Parse error");
    }
    if (Array.isArray(msg)) return send(res, 202, CORS); // batches are not benchmarked
    handleRpc(req, res, msg);
  });
}

/** Starts the server on 127.0.0.1:port (0 = any free port). Warms the precomputed bodies. */
export async function startServer(port = 0) {
  bigTemplate(1 << 20, false);
  bigTemplate(1 << 20, true);
  streamBody(10_000);
  const server = http.createServer({ keepAliveTimeout: 60_000, headersTimeout: 65_000 }, handler);
  server.keepAliveTimeout = 60_000;
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", ok);
  });
  const { port: bound } = server.address();
  return {
    server,
    port: bound,
    url: `http://127.0.0.1:${bound}/mcp`,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const s = await startServer(Number(process.argv[2] ?? process.env.PORT ?? 18790));
  console.log(`bench server: ${s.url}`);
  const stop = () => s.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
