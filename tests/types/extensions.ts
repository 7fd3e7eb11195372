// The extension points' declarations (issue 37), compiled with the rest of this folder: the
// `middleware`, `cache` and `tracer` options, the per-call `cacheMode`, and the exported types
// the mcp-wasm-client/middleware and mcp-wasm-client/cache subpaths import. The @ts-expect-error
// lines prove they are precise, not `any`.
import {
  Client,
  type CacheEntry,
  type CacheMode,
  type CacheOptions,
  type CacheStore,
  type CallOptions,
  type ClientOptions,
  type FetchLike,
  type FetchMiddleware,
  type SpanLike,
  type TracerLike,
} from "../../pkg/nodejs/mcp_wasm_client.js";

// A middleware is (next) => fetch; the global fetch is a FetchLike.
const base: FetchLike = globalThis.fetch;
const timing: FetchMiddleware = (next) => async (url, init) => {
  const started = Date.now();
  const response = await next(url, { ...init, headers: new Headers(init?.headers) });
  console.log(String(url), response.status, Date.now() - started);
  return response;
};
// @ts-expect-error: a layer must resolve with a Response
const wrong: FetchMiddleware = (next) => async (url) => (await next(url)).status;
void wrong;

// A store of one's own: sync or async methods; entries are opaque.
const map = new Map<string, { entry: CacheEntry; expires: number }>();
const store: CacheStore = {
  get: (key) => {
    const hit = map.get(key);
    return hit && hit.expires > Date.now() ? hit.entry : undefined;
  },
  set: async (key, entry, ttlMs) => {
    map.set(key, { entry, expires: Date.now() + ttlMs });
  },
  delete: (key) => void map.delete(key),
  clear: (prefix) => {
    for (const key of [...map.keys()]) if (prefix === undefined || key.startsWith(prefix)) map.delete(key);
  },
};
// @ts-expect-error: a store has all four methods
const partial: CacheStore = { get: () => undefined, set: () => {} };
void partial;

const mode: CacheMode = "refresh";
// @ts-expect-error: use, refresh or bypass
const badMode: CacheMode = "reload";
void badMode;
const cache: CacheOptions = { store, partition: "user-42", mode };

// A tracer shaped like OpenTelemetry's.
const span: SpanLike = {
  spanContext: () => ({ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 }),
  setAttribute() { return this; },
  setAttributes() { return this; },
  setStatus() { return this; },
  recordException() {},
  end() {},
};
const tracer: TracerLike = { startSpan: (name, options) => (void name, void options?.attributes, span) };

const options: ClientOptions = { fetch: base, middleware: [timing], cache, tracer };
const off: ClientOptions = { cache: false };
// @ts-expect-error: middleware is an array of layers
const notArray: ClientOptions = { middleware: timing };
void notArray;
// @ts-expect-error: a tracer starts spans
const notTracer: ClientOptions = { tracer: { start: () => span } };
void notTracer;

const client = new Client("http://127.0.0.1:18101/mcp", options);
const call: CallOptions = { cacheMode: "bypass" };
void client.listTools({ cacheMode: "use" });
void client.callTool("echo", { text: "x" }, call);
// @ts-expect-error: cacheMode is use, refresh or bypass
void client.listTools({ cacheMode: "never" });
void off;
