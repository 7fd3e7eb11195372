// The JS side of authorization: where the authorization page is shown (popup, redirect,
// headless fetch), the popup's callback page, and the storages. The Rust exports in
// exports.rs check their arguments and return what these build; the flow itself is Rust
// (src/auth/flow.rs).

const CHANNEL = "mcp-wasm-client-auth";
const MESSAGE = "mcp-wasm-client:authorization-callback";

// A redirect URI without query and fragment, to compare callback URLs against.
function base(url) {
  return String(url).split(/[?#]/)[0];
}

function failure(name, message) {
  const e = new Error(message);
  e.name = name;
  return e;
}

export function popupAuthorizer(features, timeoutMs) {
  return ({ url, state, redirectUri, signal }) =>
    new Promise((resolve, reject) => {
      const w = globalThis.window;
      if (!w || typeof w.open !== "function") {
        reject(
          failure(
            "PopupUnavailable",
            "authorizeWithPopup() needs a browser page (a worker cannot open windows): sign in from the page, or use authorizeWithRedirect() / authorizeHeadless()",
          ),
        );
        return;
      }
      if (signal?.aborted) {
        reject(signal.reason ?? failure("AbortError", "aborted"));
        return;
      }
      const popup = w.open(url, "mcp-wasm-client-auth", features);
      if (!popup) {
        reject(
          failure(
            "PopupBlocked",
            "The browser blocked the sign-in popup: start the call that signs in (connect()) from a click handler, or use authorizeWithRedirect()",
          ),
        );
        return;
      }
      const expected = base(redirectUri);
      let done = false;
      let channel = null;
      let closedSince = 0;
      const finish = (error, value) => {
        if (done) return;
        done = true;
        w.removeEventListener("message", onMessage);
        channel?.close();
        clearTimeout(timer);
        clearInterval(poll);
        signal?.removeEventListener("abort", onAbort);
        // The popup is done either way. On a callback its page closes itself after 100 ms,
        // but a sign-in started sooner (Connect clicked again after a denial) would reuse the
        // still-open window of the same name, and the new page would never open.
        try {
          popup.close();
        } catch {}
        if (error) reject(error);
        else resolve(value);
      };
      // A callback for this request: the redirect URI's page, carrying our state.
      const accept = (data, origin) => {
        if (!data || data.type !== MESSAGE || typeof data.url !== "string") return;
        let u;
        try {
          u = new URL(data.url);
        } catch {
          return;
        }
        if (origin !== undefined && origin !== u.origin) return;
        if (base(u.href) !== expected) return;
        if (u.searchParams.get("state") !== state) return;
        finish(null, u.href);
      };
      const onMessage = (e) => accept(e.data, e.origin);
      const onAbort = () => finish(signal.reason ?? failure("AbortError", "aborted"));
      w.addEventListener("message", onMessage);
      signal?.addEventListener("abort", onAbort);
      if (typeof BroadcastChannel === "function") {
        channel = new BroadcastChannel(CHANNEL);
        channel.onmessage = (e) => accept(e.data);
      }
      const timer = setTimeout(
        () => finish(failure("TimeoutError", `No authorization callback within ${timeoutMs} ms`)),
        timeoutMs,
      );
      // An AS page with Cross-Origin-Opener-Policy can make `closed` read true while the
      // popup is open: a second of grace for the BroadcastChannel message.
      const poll = setInterval(() => {
        if (!popup.closed) return;
        if (!closedSince) closedSince = Date.now();
        else if (Date.now() - closedSince > 1000)
          finish(failure("PopupClosed", "The sign-in window was closed before authorization finished"));
      }, 250);
    });
}

export function completePopup(close) {
  const loc = globalThis.location;
  if (!loc) return false;
  const message = { type: MESSAGE, url: loc.href };
  let delivered = false;
  try {
    if (typeof BroadcastChannel === "function") {
      const c = new BroadcastChannel(CHANNEL);
      c.postMessage(message);
      c.close();
      delivered = true;
    }
  } catch {}
  try {
    const opener = globalThis.opener;
    if (opener && !opener.closed) {
      // Only a same-origin opener may read the callback (it carries the code).
      opener.postMessage(message, loc.origin);
      delivered = true;
    }
  } catch {}
  if (close && delivered) setTimeout(() => globalThis.close?.(), 100);
  return delivered;
}

// Marks what a helper made, so the auth option can refuse combinations that cannot work
// (a redirect loses an in-memory pending authorization).
function tag(value, kind) {
  Object.defineProperty(value, "mcpWasmClientKind", { value: kind });
  return value;
}

export function redirectAuthorizer() {
  return tag(({ url }) => {
    const loc = globalThis.location;
    if (!loc || typeof loc.assign !== "function" || !globalThis.document) {
      throw failure(
        "RedirectUnavailable",
        "authorizeWithRedirect() needs a browser page to navigate: use authorizeHeadless() outside pages",
      );
    }
    loc.assign(url);
    return "redirected";
  }, "redirect");
}

export function headlessAuthorizer(fetchFn, maxHops) {
  return async ({ url, redirectUri, signal }) => {
    const f = fetchFn ?? globalThis.fetch;
    const expected = base(redirectUri);
    let next = url;
    for (let hop = 0; hop <= maxHops; hop++) {
      const r = await f(next, { redirect: "manual", signal });
      if (r.type === "opaqueredirect") {
        throw failure(
          "HeadlessUnavailable",
          "authorizeHeadless() cannot read the authorization server's redirect in a browser (fetch returns an opaque redirect): use authorizeWithPopup() or authorizeWithRedirect()",
        );
      }
      const location = r.headers.get("location");
      try {
        await r.body?.cancel();
      } catch {}
      if (r.status >= 300 && r.status < 400 && location) {
        const u = new URL(location, next);
        if (base(u.href) === expected) return u.href;
        next = u.href;
        continue;
      }
      throw failure(
        "HeadlessUnavailable",
        `authorizeHeadless(): ${base(next)} answered HTTP ${r.status} instead of redirecting to ${expected} (a page that needs a person cannot be signed in headless: use authorizeWithPopup())`,
      );
    }
    throw failure("HeadlessUnavailable", `authorizeHeadless(): more than ${maxHops} redirects`);
  };
}

export function memoryStore() {
  const m = new Map();
  return tag({
    get: (k) => (m.has(k) ? m.get(k) : null),
    set: (k, v) => {
      m.set(k, v);
    },
    delete: (k) => {
      m.delete(k);
    },
  }, "memory");
}

// True when `o` is an object whose `names` are all functions (false also when reading one throws).
function hasMethods(o, names) {
  try {
    return o !== null && typeof o === "object" && names.every((k) => typeof o[k] === "function");
  } catch {
    return false;
  }
}

// globalThis[name] when it is an object, else undefined (also when reading it throws).
function globalObject(name) {
  try {
    const v = globalThis[name];
    return v !== null && typeof v === "object" ? v : undefined;
  } catch {
    return undefined;
  }
}

// A Web Storage area as auth storage; undefined when `storage` is not one.
export function webStore(storage) {
  if (!hasMethods(storage, ["getItem", "setItem", "removeItem"])) return undefined;
  return tag({
    get: (k) => storage.getItem(k),
    set: (k, v) => storage.setItem(k, v),
    delete: (k) => storage.removeItem(k),
  }, "web");
}

// An IndexedDB database as auth storage; undefined when this host has no indexedDB.
export function idbStore(name) {
  if (globalObject("indexedDB") === undefined) return undefined;
  let db = null;
  const open = () =>
    (db ??= new Promise((resolve, reject) => {
      const r = globalThis.indexedDB.open(name, 1);
      r.onupgradeneeded = () => r.result.createObjectStore("kv");
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    }));
  const run = async (mode, op) => {
    const d = await open();
    return new Promise((resolve, reject) => {
      const t = d.transaction("kv", mode);
      const req = op(t.objectStore("kv"));
      t.oncomplete = () => resolve(req.result);
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error);
    });
  };
  return tag({
    get: async (k) => (await run("readonly", (s) => s.get(k))) ?? null,
    set: async (k, v) => {
      await run("readwrite", (s) => s.put(v, k));
    },
    delete: async (k) => {
      await run("readwrite", (s) => s.delete(k));
    },
  }, "indexeddb");
}

// --- keys and signatures (issue 11): WebCrypto only; private keys never leave it. ---------

function subtle() {
  const s = globalThis.crypto?.subtle;
  if (!s) throw failure("CryptoUnavailable", "crypto.subtle is unavailable (a secure context is required)");
  return s;
}

const SIGNING = {
  ES256: { import: { name: "ECDSA", namedCurve: "P-256" }, sign: { name: "ECDSA", hash: "SHA-256" } },
  RS256: { import: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, sign: { name: "RSASSA-PKCS1-v1_5" } },
};

// A PKCS#8 PEM string as a non-extractable signing CryptoKey (the PEM is not kept).
export async function importPem(pem, alg) {
  const m = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(pem);
  if (!m) {
    throw failure(
      "KeyError",
      /BEGIN (RSA|EC) PRIVATE KEY/.test(pem)
        ? "privateKey is PKCS#1/SEC1; convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt)"
        : "privateKey must be a CryptoKey or a PKCS#8 PEM string (-----BEGIN PRIVATE KEY-----)",
    );
  }
  const der = Uint8Array.from(atob(m[1].replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  return subtle().importKey("pkcs8", der, SIGNING[alg].import, false, ["sign"]);
}

export async function signBytes(key, alg, bytes) {
  return new Uint8Array(await subtle().sign(SIGNING[alg].sign, key, bytes));
}

// The DPoP key pair: the given one, else one kept in `storage` under `name` (only storages
// that hold objects: IndexedDB, memory), else a new non-extractable P-256 pair (kept there).
export async function dpopKeyPair(given, storage, name, persist) {
  if (given) return given;
  if (persist) {
    let kept = null;
    try {
      kept = await storage.get(name);
    } catch {}
    if (kept && typeof kept === "object" && kept.privateKey && kept.publicKey) return kept;
  }
  const pair = await subtle().generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  if (persist) {
    // A storage that only holds strings cannot keep it: the key then lives as long as the client.
    try {
      await storage.set(name, pair);
    } catch {}
  }
  return pair;
}

export async function publicJwkText(pair) {
  return JSON.stringify(await subtle().exportKey("jwk", pair.publicKey));
}

// True when `s` is an object with get, set and delete functions.
export function isStorage(s) {
  return hasMethods(s, ["get", "set", "delete"]);
}

export function storageKind(storage) {
  return storage?.mcpWasmClientKind ?? "";
}

// The four fields of the checked `idJagAssertion` options are its config.
export function idJag({ idpTokenEndpoint, idToken, idpClientId, idpClientSecret }) {
  const config = { idpTokenEndpoint, idToken, idpClientId, idpClientSecret };
  const f = () =>
    Promise.reject(failure("AssertionError", "idJagAssertion(...) is used as auth.grant.assertion, not called"));
  Object.defineProperty(f, "mcpWasmClientIdJag", { value: config });
  return tag(f, "id-jag");
}

// auth.authorize({ url, state, redirectUri, signal }), settled.
export async function callAuthorize(f, url, state, redirectUri, signal) {
  return await f.call(undefined, { url, state, redirectUri, signal });
}

// grant.assertion({ issuer, resource, scope }), settled.
export async function callAssertion(f, issuer, resource, scope) {
  return await f.call(undefined, { issuer, resource, scope });
}

// SHA-256 of `bytes` by Web Crypto: the digest's bytes, or 1 when globalThis.crypto is
// missing, 2 when crypto.subtle.digest is (not a secure context).
export async function sha256(bytes) {
  const c = globalObject("crypto");
  if (c === undefined) return 1;
  let s, d;
  try {
    s = c.subtle;
    if (s === null || typeof s !== "object") return 2;
    d = s.digest;
  } catch {
    return 2;
  }
  if (typeof d !== "function") return 2;
  return new Uint8Array(await d.call(s, "SHA-256", bytes));
}

// An authorization request's fetch, read: [status, body, DPoP-Nonce] (a manual redirect the
// browser hides is [302, "", undefined]). Its init: no redirects followed; JSON accepted
// when there is a body. It throws [error] when the fetch or the body failed, and 0 when
// `fetch` did not resolve with a Response.
export async function authFetch(fetch, url, method, contentType, authorization, dpop, payload) {
  const headers = {};
  if (contentType !== undefined) {
    headers["content-type"] = contentType;
    headers.accept = "application/json";
  }
  if (authorization !== undefined) headers.authorization = authorization;
  if (dpop !== undefined) headers.dpop = dpop;
  const init = { method, headers, redirect: "manual" };
  if (payload !== undefined) init.body = payload;
  let r;
  try {
    r = await fetch.call(undefined, url, init);
  } catch (e) {
    throw [e];
  }
  if (!(r instanceof Response)) throw 0;
  if (r.type === "opaqueredirect") return [302, "", undefined];
  const nonce = r.headers.get("dpop-nonce") ?? undefined;
  let body;
  try {
    body = await r.text();
  } catch (e) {
    throw [e];
  }
  return [r.status, body, nonce];
}

// `storage[op](key)` (with `value`: `(key, value)`), settled. It throws 0 when storage[op] is
// not a function, and [error] when the call failed.
export async function storageCall(storage, op, key, value) {
  let f;
  try {
    f = Reflect.get(storage, op);
  } catch {
    throw 0;
  }
  if (typeof f !== "function") throw 0;
  try {
    return await (value === undefined ? f.call(storage, key) : f.call(storage, key, value));
  } catch (e) {
    throw [e];
  }
}

// `len` random bytes from Web Crypto, or 1 when globalThis.crypto is missing, 2 when its
// getRandomValues is.
export function randomBytes(len) {
  const c = globalObject("crypto");
  if (c === undefined) return 1;
  let f;
  try {
    f = c.getRandomValues;
  } catch {
    return 2;
  }
  if (typeof f !== "function") return 2;
  const buf = new Uint8Array(len);
  f.call(c, buf);
  return buf;
}
