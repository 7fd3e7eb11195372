// The full module's JS side of authorization: the popup and headless authorizers and the IndexedDB
// store at work (builders.js makes their thin shells, which import this file on first use), and the
// host's I/O (fetch, Web Crypto, the application's storage and callbacks). The full glue imports
// it; a page without `auth` never fetches it. The small pieces both use (`read`, the callback's
// message names) are builders.js's. The flow itself is Rust (src/auth/).
//
// What Rust awaits here settles with an outcome, read by name in src/js/auth/outcome.rs, never
// with a number, an array or a throw:
//   { value }                             the helper did its job: what it made;
//   { failure: { kind, message, name } }  it did not: `kind` names the step that failed
//                                         ("unreachable", "too_large", "sign"...), `message`
//                                         says why in words, `name` is the thrown error's name.

import { base, CHANNEL, failure, globalObject, hasMethods, MESSAGE, read } from "./builders.js";

// --- outcomes -----------------------------------------------------------------------------

const ok = (value) => ({ value });
const failed = (kind, message, name) => ({ failure: { kind, message, name } });

// A thrown value as text: its message (or itself, when a string), with its cause's message
// in parentheses (undici's "fetch failed" says why only in `cause`).
function errorText(e) {
  const own = read(e, "message");
  const text = typeof own === "string" ? own : typeof e === "string" ? e : "unknown error";
  const cause = read(read(e, "cause"), "message");
  return typeof cause === "string" && cause !== "" ? `${text} (${cause})` : text;
}

// The thrown value's `name` ("AbortError", "PopupBlocked"...), when it is a string.
function errorName(e) {
  const n = read(e, "name");
  return typeof n === "string" ? n : undefined;
}

// Runs `job` and settles with its outcome; what it throws is a failure of `kind`.
async function attempt(kind, job) {
  try {
    return ok(await job());
  } catch (e) {
    return failed(kind, errorText(e), errorName(e));
  }
}

// Where the authorization page shows: `given` (a window the app opened in its click handler),
// navigated to `url`, on first use; else a popup opened here. Returns the window, or throws
// a failure named PopupBlocked (no window opened) or PopupClosed (the given one was closed).
function showPage(w, given, url, features) {
  if (given && !given.used) {
    given.used = true;
    if (given.window.closed) {
      throw failure("PopupClosed", "The sign-in window was closed before the authorization page opened in it");
    }
    given.window.location.href = url;
    return given.window;
  }
  const popup = w.open(url, "mcp-wasm-client-auth", features);
  if (!popup) {
    throw failure(
      "PopupBlocked",
      "The browser blocked the sign-in popup: call client.signIn() in the click handler, pass a window opened there (authorizeWithPopup({ window })), or show the authorization URL as a link",
    );
  }
  return popup;
}

// authorizeWithPopup's authorize at work (builders.js tags it). `opened`: a window client.signIn()
// opened in the click for this authorization; it comes before `window` (the app's, for the first
// authorization) and before a popup opened here.
export function popupAuthorizer(features, timeoutMs, window) {
  const given = window ? { window, used: false } : null;
  const authorize = ({ url, state, redirectUri, signal, window: opened }) =>
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
      let popup;
      try {
        const fresh = opened && !opened.closed ? { window: opened, used: false } : given;
        popup = showPage(w, fresh, url, features);
      } catch (e) {
        reject(e);
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
  return authorize;
}

// authorizeHeadless's authorize at work: follows the AS's redirects to the redirect URI.
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

// An IndexedDB database as auth storage, at work (builders.js checks the host has indexedDB and
// tags the store): { get, set, delete }, each a promise.
export function idbStore(name) {
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
  return {
    get: async (k) => (await run("readonly", (s) => s.get(k))) ?? null,
    set: async (k, v) => {
      await run("readwrite", (s) => s.put(v, k));
    },
    delete: async (k) => {
      await run("readwrite", (s) => s.delete(k));
    },
  };
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

// A PKCS#8 PEM string as a non-extractable signing CryptoKey (the PEM is not kept):
// { value: the CryptoKey } or { failure: import_key }.
export function importPem(pem, alg) {
  return attempt("import_key", async () => {
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
  });
}

// `bytes` signed with `key` (ES256: raw r||s): { value: the signature's bytes } or
// { failure: sign }.
export function signBytes(key, alg, bytes) {
  return attempt("sign", async () => new Uint8Array(await subtle().sign(SIGNING[alg].sign, key, bytes)));
}

// The DPoP key pair: `given` when the application gave one, else the one kept in `keep.storage`
// under `keep.key`, else a new non-extractable P-256 pair (then kept there). `keep` is undefined
// for a storage that holds strings only (Web Storage): the pair lives as long as the client.
// { value: the pair } or { failure: make_key }.
export function dpopKeyPair(given, keep) {
  return attempt("make_key", async () => {
    if (given) return given;
    if (keep) {
      let kept = null;
      try {
        kept = await keep.storage.get(keep.key);
      } catch {}
      if (kept && typeof kept === "object" && kept.privateKey && kept.publicKey) return kept;
    }
    const pair = await subtle().generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
    if (keep) {
      // A storage of the application's own that cannot keep it: the pair lives with the client.
      try {
        await keep.storage.set(keep.key, pair);
      } catch {}
    }
    return pair;
  });
}

// The public JWK of a key pair: { value: its JSON text } or { failure: export_key }.
export function publicJwkText(pair) {
  return attempt("export_key", async () => JSON.stringify(await subtle().exportKey("jwk", pair.publicKey)));
}

// True when `s` is an object with get, set and delete functions.
export function isStorage(s) {
  return hasMethods(s, ["get", "set", "delete"]);
}

// What made `storage` ("memory", "web", "indexeddb"), or "" when the application did.
export function storageKind(storage) {
  return storage?.mcpWasmClientKind ?? "";
}

// An application callback called with its one argument (auth.authorize({ url, state,
// redirectUri, signal }), grant.assertion({ issuer, resource, scope })): { value: what it
// resolved with } or { failure: `kind` } with the name of what it threw ("PopupBlocked"...).
export function callApp(kind, f, argument) {
  return attempt(kind, () => f.call(undefined, argument));
}

// --- Web Crypto's digest and randomness ------------------------------------------------------

const CRYPTO_MISSING = "globalThis.crypto is missing: authorization needs Web Crypto";

// SHA-256 of `bytes`: { value: the digest's 32 bytes } or { failure } of kind crypto_missing
// (no globalThis.crypto), subtle_missing (no crypto.subtle.digest: not a secure context) or
// digest (it failed).
export async function sha256(bytes) {
  const c = globalObject("crypto");
  if (c === undefined) return failed("crypto_missing", CRYPTO_MISSING);
  const s = read(c, "subtle");
  const digest = s !== null && typeof s === "object" ? read(s, "digest") : undefined;
  if (typeof digest !== "function") {
    return failed(
      "subtle_missing",
      "crypto.subtle is unavailable: pages must be a secure context (https, or http on localhost) to sign in",
    );
  }
  try {
    return ok(new Uint8Array(await digest.call(s, "SHA-256", bytes)));
  } catch (e) {
    return failed("digest", `SHA-256 failed: ${errorText(e)}`, errorName(e));
  }
}

// `len` random bytes from Web Crypto: { value: the bytes } or { failure } of kind
// crypto_missing, random_missing (no crypto.getRandomValues) or random (it threw).
export function randomBytes(len) {
  const c = globalObject("crypto");
  if (c === undefined) return failed("crypto_missing", CRYPTO_MISSING);
  const f = read(c, "getRandomValues");
  if (typeof f !== "function") return failed("random_missing", "crypto.getRandomValues is missing");
  try {
    const buf = new Uint8Array(len);
    f.call(c, buf);
    return ok(buf);
  } catch (e) {
    return failed("random", `crypto.getRandomValues failed: ${errorText(e)}`, errorName(e));
  }
}

// --- the application's storage ----------------------------------------------------------------

// `storage[op](key)` (with `value`: `(key, value)`), settled: { value: what it returned } or
// { failure } of kind not_a_function (storage[op] is not one) or storage (the call failed).
export async function storageCall(storage, op, key, value) {
  const f = read(storage, op);
  if (typeof f !== "function") return failed("not_a_function", `auth.storage.${op} is not a function`);
  try {
    return ok(await (value === undefined ? f.call(storage, key) : f.call(storage, key, value)));
  } catch (e) {
    return failed("storage", `auth.storage.${op} failed: ${errorText(e)}`, errorName(e));
  }
}

// --- the authorization fetch ------------------------------------------------------------------

// An authorization request (metadata, registration, token, IdP), sent and read.
//   request: { url, method, contentType, authorization, dpop, body, maxBytes }; no redirect is
//   followed; JSON is accepted when there is a body.
// Settles with { value: { status, body, dpopNonce } } (a redirect the browser hides reads as
// { status: 302, body: "" }), or { failure } of kind
//   unreachable     fetch rejected (network, DNS; in a browser most often CORS),
//   not_a_response  auth.fetch resolved with something other than a Response,
//   body            reading the body failed midway,
//   too_large       the body passed `maxBytes`: reading stopped there and the body was cancelled.
export async function authFetch(fetch, request) {
  const { url, method, contentType, authorization, dpop, body, maxBytes } = request;
  const headers = {};
  if (contentType !== undefined) {
    headers["content-type"] = contentType;
    headers.accept = "application/json";
  }
  if (authorization !== undefined) headers.authorization = authorization;
  if (dpop !== undefined) headers.dpop = dpop;
  const init = { method, headers, redirect: "manual" };
  if (body !== undefined) init.body = body;
  let r;
  try {
    r = await fetch.call(undefined, url, init);
  } catch (e) {
    return failed("unreachable", errorText(e), errorName(e));
  }
  if (!(r instanceof Response)) return failed("not_a_response", "auth.fetch must resolve with a Response");
  if (r.type === "opaqueredirect") return ok({ status: 302, body: "" });
  const dpopNonce = r.headers.get("dpop-nonce") ?? undefined;
  let got;
  try {
    got = await readCapped(r, maxBytes);
  } catch (e) {
    return failed("body", errorText(e), errorName(e));
  }
  if (got.tooLarge) return failed("too_large", got.tooLarge);
  return ok({ status: r.status, body: got.text, dpopNonce });
}

// The body of `response` as UTF-8 text, counted while it is read: { text }, or { tooLarge: how }
// as soon as it passes `maxBytes` (the rest is cancelled, never read: a 100 MiB answer costs
// no more memory than the cap). A response without a body stream (some fetch polyfills) is read
// whole by text() and checked after.
async function readCapped(response, maxBytes) {
  const stream = response.body;
  if (typeof stream?.getReader !== "function") {
    const text = await response.text();
    if (new TextEncoder().encode(text).byteLength <= maxBytes) return { text };
    return { tooLarge: "read whole: this fetch's Response has no body stream to stop" };
  }
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode() };
    if (!ArrayBuffer.isView(value)) {
      reader.cancel().catch(() => {});
      throw new TypeError("the body stream gave something other than bytes");
    }
    size += value.byteLength;
    if (size > maxBytes) {
      // Not awaited: a stream whose cancel never settles must not hold the flow.
      reader.cancel().catch(() => {});
      return { tooLarge: "reading stopped there; the rest was cancelled unread" };
    }
    text += decoder.decode(value, { stream: true });
  }
}
