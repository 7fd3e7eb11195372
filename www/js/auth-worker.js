// A module worker that calls a tool with the page's sign-in (js/auth.js, callFromWorker).
// Its client has the same `auth` option as the page's, with a storage whose get/set/delete
// are forwarded to the page (which keeps webStorage(sessionStorage)): the stored token is
// used, refreshed and saved back there. The client never exposes the token itself. A worker
// cannot open the sign-in popup: authorizeWithPopup() fails clearly here, so sign in on the
// page first. With DPoP (the page's "DPoP" box) the worker opens the page's IndexedDB itself:
// the key pair and the tokens are there, and a worker has IndexedDB.
import { init, Client } from "./pkg.js";
import { authOptions } from "./auth-options.js";

const storageOps = { get: 0, set: 0, delete: 0 };
const waiting = new Map();
let seq = 0;

function forward(op, key, value) {
  storageOps[op]++;
  return new Promise((resolve, reject) => {
    const id = ++seq;
    waiting.set(id, { resolve, reject });
    self.postMessage({ type: "storage", id, op, key, value });
  });
}

/** The page's storage, over postMessage. */
const pageStorage = {
  get: (key) => forward("get", key),
  set: (key, value) => forward("set", key, value),
  delete: (key) => forward("delete", key),
};

async function call({ url, mode, asProxy, dpop, tool, args }) {
  await init();
  const client = new Client(url, {
    mode,
    clientInfo: { name: "mcp-wasm-demo-worker", version: "0.2.0" },
    auth: authOptions({ mode: "popup", storage: dpop ? undefined : pageStorage, asProxy, dpop }),
  });
  try {
    await client.connect();
    const result = await client.callTool(tool, args ?? {});
    return { ok: true, result, authorization: client.authorization, storageOps, dpop: Boolean(dpop) };
  } finally {
    await client.close().catch(() => {});
  }
}

self.onmessage = async ({ data: m }) => {
  if (m?.type === "storage-reply") {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(new Error(m.error));
    else w?.resolve(m.value);
    return;
  }
  if (m?.type !== "call") return;
  try {
    self.postMessage({ type: "result", ...(await call(m)) });
  } catch (err) {
    self.postMessage({ type: "result", ok: false, storageOps,
      error: { message: String(err?.message ?? err), code: err?.code, data: err?.data ?? null } });
  }
};
