// Client adapters for the benchmarks: one small interface over our wasm client and the official
// TypeScript SDK clients, so every figure runs the same code path for each.
//
//   const h = await makeClient("ours-legacy", url);  // constructed, not connected
//   await h.connect(); await h.call("echo", {}); h.notifications; await h.close();
//
// Modules are imported lazily, so a cold-start child process loads only its own client.

import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PKG_NODE = process.env.BENCH_PKG_NODE ?? "/tmp/bench-pkg-node";
export const PKG_WEB = process.env.BENCH_PKG_WEB ?? "/tmp/bench-pkg-web";
const require = createRequire(path.join(here, "package.json"));

export const TIMEOUT_MS = 120_000;
const CLIENT_INFO = { name: "bench", version: "1.0.0" };
const ELICIT_ANSWER = { action: "accept", content: { name: "bench" } };

/**
 * The clients. `era`: what the client negotiates with bench/server.mjs.
 * ours-*: mcp-wasm-client (nodejs target); ts1: @modelcontextprotocol/sdk 1.x Client +
 * StreamableHTTPClientTransport; ts2*: @modelcontextprotocol/client 2.x.
 */
export const CLIENTS = {
  "ours-legacy": { label: "ours (legacy)", kind: "ours", mode: "legacy" },
  "ours-auto": { label: "ours (auto)", kind: "ours", mode: "auto" },
  ts1: { label: "TS SDK 1.x", kind: "ts1" },
  // The same client again: its ratio to ts1 is the run's own noise (the A/A spread).
  "ts1-aa": { label: "TS SDK 1.x (A/A)", kind: "ts1" },
  ts2: { label: "TS 2.x (legacy)", kind: "ts2", mode: "legacy" },
  "ts2-auto": { label: "TS 2.x (auto)", kind: "ts2", mode: "auto" },
  // Not a client to choose: bench/floor-client.mjs, one fetch + JSON.parse per call and nothing
  // else; its ratio to a TS client is the best any client on the same fetch can reach.
  floor: { label: "fetch floor", kind: "floor" },
};

let oursMod, ts1Mod, ts2Mod;
export function loadOurs() {
  return (oursMod ??= require(PKG_NODE));
}
async function loadTs1() {
  if (!ts1Mod) {
    const [{ Client }, { StreamableHTTPClientTransport }, { LoggingMessageNotificationSchema }] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
    ts1Mod = { Client, StreamableHTTPClientTransport, LoggingMessageNotificationSchema };
  }
  return ts1Mod;
}
async function loadTs2() {
  return (ts2Mod ??= await import("@modelcontextprotocol/client"));
}

/** Loads the modules a client needs (for cold start: this is the "require/import" step). */
export async function loadClient(id) {
  const k = CLIENTS[id].kind;
  if (k === "floor") return import("./floor-client.mjs");
  if (k === "ours") return loadOurs();
  if (k === "ts1") return loadTs1();
  return loadTs2();
}

export async function makeClient(id, url) {
  const spec = CLIENTS[id];
  if (!spec) throw new Error(`unknown client ${id}`);
  const h = { id, notifications: 0, elicitations: 0 };
  if (spec.kind === "floor") {
    const { floorClient } = await import("./floor-client.mjs");
    const c = floorClient(url, CLIENT_INFO);
    Object.assign(h, { connect: c.connect, call: c.call, close: c.close, era: () => "legacy" });
    return h;
  }
  if (spec.kind === "ours") {
    const { Client } = loadOurs();
    const c = new Client(url, {
      mode: spec.mode,
      clientInfo: CLIENT_INFO,
      timeoutMs: TIMEOUT_MS,
      loggingCallback: () => {
        h.notifications++;
      },
      elicitationCallback: () => {
        h.elicitations++;
        return ELICIT_ANSWER;
      },
    });
    h.connect = () => c.connect();
    h.call = (name, args) => c.callTool(name, args);
    h.close = () => c.close();
    h.era = () => c.protocolVersion;
    return h;
  }
  if (spec.kind === "ts1") {
    const { Client, StreamableHTTPClientTransport, LoggingMessageNotificationSchema } = await loadTs1();
    const c = new Client(CLIENT_INFO, { capabilities: {} });
    c.setNotificationHandler(LoggingMessageNotificationSchema, () => {
      h.notifications++;
    });
    h.connect = () => c.connect(new StreamableHTTPClientTransport(new URL(url)));
    h.call = (name, args) => c.callTool({ name, arguments: args }, undefined, { timeout: TIMEOUT_MS });
    h.close = () => c.close();
    h.era = () => "legacy";
    return h;
  }
  const { Client, StreamableHTTPClientTransport } = await loadTs2();
  const c = new Client(CLIENT_INFO, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: spec.mode },
  });
  c.setNotificationHandler("notifications/message", () => {
    h.notifications++;
  });
  c.setRequestHandler("elicitation/create", async () => {
    h.elicitations++;
    return ELICIT_ANSWER;
  });
  h.connect = () => c.connect(new StreamableHTTPClientTransport(new URL(url)));
  h.call = (name, args) => c.callTool({ name, arguments: args }, { timeout: TIMEOUT_MS });
  h.close = () => c.close();
  h.era = () => (c.getNegotiatedProtocolVersion?.() ?? c.getServerVersion?.()?.version ?? "?");
  return h;
}

/** Rejects if `p` takes longer than `ms` (so a stuck client can never hang the run). */
export function deadline(p, ms, what) {
  let t;
  return Promise.race([
    p,
    new Promise((_, fail) => {
      t = setTimeout(() => fail(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(t));
}

/** Checks a tools/call result looks like a success (every client resolves tool errors too). */
export function checkResult(r, what) {
  if (!r || r.isError || !Array.isArray(r.content)) throw new Error(`${what}: bad result ${JSON.stringify(r)?.slice(0, 300)}`);
  return r;
}
