// Where the test peers listen (started by tests/peers/peers.sh) and how to load the package.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The built `--target nodejs` package's directory: MCP_PKG_NODE, else <repo>/pkg/nodejs. */
export const PKG_PATH = process.env.MCP_PKG_NODE ?? path.join(here, "../../pkg/nodejs");
/** That package, loaded exactly as a user's CommonJS/ESM code would. */
export const pkg = require(PKG_PATH);

const port = (name, dflt) => Number(process.env[`PEERS_${name}_PORT`] ?? dflt);
export const PY = `http://127.0.0.1:${port("PYTHON", 18101)}/mcp`;
export const TS = `http://127.0.0.1:${port("TS", 18102)}/mcp`;
export const EVERYTHING = `http://127.0.0.1:${port("EVERYTHING", 18103)}/mcp`;
export const PY_SSE = `http://127.0.0.1:${port("PYTHON_SSE", 18105)}/sse`;
export const MISBEHAVE = `http://127.0.0.1:${port("MISBEHAVE", 18104)}`;
export const fault = (name) => `${MISBEHAVE}/${name}/mcp`;

/** Awaits `p` and returns the rejection, failing if it resolves. */
export async function rejection(p) {
  try {
    const v = await p;
    throw new Error(`expected a rejection, got ${JSON.stringify(v)}`);
  } catch (e) {
    if (e instanceof pkg.McpError) return e;
    throw e;
  }
}

/** Text of the first content block of a CallToolResult. */
export const text = (r) => r.content?.[0]?.text;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` (sync or async) until it returns truthy, or fails after `ms`. */
export async function eventually(check, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await sleep(50);
  }
}

/** A transport written by hand, the "server" a legacy-era test scripts: `initialize` is
 *  answered (2025-11-25, serverInfo "hand", the given `capabilities`); any other message goes to
 *  `reply(m, peer)`, which answers through `peer.onmessage` / `peer.onerror` (set by the Client)
 *  and whose return value is send()'s. */
export function handTransport(capabilities, reply) {
  const peer = {
    start() {},
    close() {},
    send(m) {
      if (m.method !== "initialize") return reply(m, peer);
      const result = { protocolVersion: "2025-11-25", capabilities, serverInfo: { name: "hand", version: "1" } };
      queueMicrotask(() => peer.onmessage({ jsonrpc: "2.0", id: m.id, result }));
    },
  };
  return peer;
}
