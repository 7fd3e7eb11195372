// Child process of auth.test.mjs: a client signs in at the MCP server `process.argv[2]`, then a
// second one, whose token request is answered with 100 MiB; prints one JSON line { kind, message, rssBefore, rssAfter,
// maxRss } (bytes). argv[3] === "streamless": auth.fetch hands back Responses without a body
// stream, so the answer is read whole by text() (what every read did before the capped reader).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { Client, authorizeHeadless, memoryStorage } = require(process.env.MCP_PKG_NODE);
const [url, how] = process.argv.slice(2);

async function streamlessFetch(u, init) {
  const r = await fetch(u, init);
  Object.defineProperty(r, "body", { value: null });
  return r;
}

const auth = () => ({
  clientMetadata: { client_name: "auth_rss_child", redirect_uris: ["http://127.0.0.1/callback"] },
  authorize: authorizeHeadless(),
  storage: memoryStorage(),
  ...(how === "streamless" ? { fetch: streamlessFetch } : {}),
});
// One ordinary sign-in first (the world answers the first token request as usual): what
// follows measures only the oversized answer, not the first fetch's and wasm's set-up.
const warm = new Client(url, { mode: "legacy", auth: auth() });
await warm.connect();
await warm.close();
const c = new Client(url, { mode: "legacy", auth: auth() });
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
let kind = null;
let message = null;
try {
  await c.connect();
} catch (e) {
  kind = e?.data?.kind ?? e?.name;
  message = e?.message;
}
const rssAfter = process.memoryUsage().rss;
const maxRss = process.resourceUsage().maxRSS * 1024;
await c.close().catch(() => {});
console.log(JSON.stringify({ kind, message, rssBefore, rssAfter, maxRss }));
