// The fetch floor: the least work any fetch-based MCP client does per call, as a benchmark column.
//
// A legacy-era client in a few lines: `initialize` + `notifications/initialized` to connect, then
// one `fetch` POST per `tools/call`, the body read with `text()` and given to `JSON.parse`. No
// validation, no timeouts, no abort signal, no capabilities, no notifications: nothing a real client
// must do. Its ratio to a TS client is the best any client on the same `fetch` could reach in the
// same run (a client whose own code cost nothing), so a target below it cannot be met by client
// code. Runs unchanged in Node and in the browser page (bench/browser-page.mjs).

const VERSION = "2025-11-25";

/** A floor client for `url`: `{ connect, call, close }`, the shape of bench/clients.mjs's handles. */
export function floorClient(url, clientInfo) {
  let session = null;
  let version = null;
  let nextId = 0;
  const headers = () => {
    const h = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    if (session) h["mcp-session-id"] = session;
    if (version) h["mcp-protocol-version"] = version;
    return h;
  };
  /** POSTs one message; resolves to the JSON-RPC response (null for a 202). */
  async function post(message) {
    const r = await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify(message) });
    if (!r.ok) throw new Error(`floor client: HTTP ${r.status} for ${message.method}`);
    session = r.headers.get("mcp-session-id") ?? session;
    const text = await r.text();
    if (r.status === 202 || message.id === undefined) return null;
    if (!(r.headers.get("content-type") ?? "").includes("text/event-stream")) return JSON.parse(text);
    // An SSE response (the Python peer answers POSTs this way): the data line holding the response.
    for (const line of text.split("\n")) {
      if (!line.startsWith("data:")) continue;
      const m = JSON.parse(line.slice(5));
      if (m.id === message.id) return m;
    }
    throw new Error(`floor client: no response to ${message.method} in the event stream`);
  }
  const request = async (method, params) => {
    const m = await post({ jsonrpc: "2.0", id: ++nextId, method, params });
    if (m.error) throw new Error(`floor client: ${method}: ${m.error.message}`);
    return m.result;
  };
  return {
    async connect() {
      const r = await request("initialize", { protocolVersion: VERSION, capabilities: {}, clientInfo });
      version = r.protocolVersion;
      await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    },
    call: (name, args) => request("tools/call", { name, arguments: args }),
    async close() {
      if (session) await fetch(url, { method: "DELETE", headers: headers() }).then((r) => r.body?.cancel(), () => {});
    },
  };
}
