// The `auth` option's builders, exported by the package: `authorizeWithPopup`,
// `authorizeWithRedirect`, `authorizeHeadless`, `completeAuthorizationPopup`, `memoryStorage`,
// `webStorage`, `indexedDbStorage`, `idJagAssertion`. Plain JS, so they work right after the import,
// before (and without) the WebAssembly module: they check their arguments, throwing an McpError of
// kind "input" that names what is wrong. The small authorizers and stores are made here; the popup
// and headless authorizers and the IndexedDB store are shells whose work is helpers.js's, imported
// on their first use (the full module's glue has already loaded it by then): a page that imports the
// package without signing anyone in never fetches helpers.js. The Rust that reads the `auth` option
// (src/js/auth/options.rs) checks what they made again where it matters.

import { McpError } from "../boundary/error.js";

/** Default popup window features. */
const POPUP_FEATURES = "popup,width=520,height=720";
/** Default wait for the popup's callback: five minutes. */
const POPUP_TIMEOUT_MS = 300_000;
/** Redirects a headless authorization follows on the AS before the callback. */
const HEADLESS_MAX_HOPS = 10;

/** The BroadcastChannel the popup's callback page tells its opener on (helpers.js listens). */
export const CHANNEL = "mcp-wasm-client-auth";
/** The `type` of the callback page's message. */
export const MESSAGE = "mcp-wasm-client:authorization-callback";

/** `o[key]`, or undefined when reading it throws (a hostile getter or proxy). */
export function read(o, key) {
  try {
    return o?.[key];
  } catch {
    return undefined;
  }
}

/** True when `o` is an object whose `names` are all functions (false also when reading one throws). */
export function hasMethods(o, names) {
  try {
    return o !== null && typeof o === "object" && names.every((k) => typeof o[k] === "function");
  } catch {
    return false;
  }
}

/** `globalThis[name]` when it is an object, else undefined (also when reading it throws). */
export function globalObject(name) {
  try {
    const v = globalThis[name];
    return v !== null && typeof v === "object" ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A redirect URI without query and fragment, to compare callback URLs against. */
export function base(url) {
  return String(url).split(/[?#]/)[0];
}

/** An Error named `name` (what an authorizer throws: the Rust reads the name, "PopupBlocked"…). */
export function failure(name, message) {
  const e = new Error(message);
  e.name = name;
  return e;
}

/**
 * Marks what a builder made, so the auth option can refuse combinations that cannot work (a
 * redirect loses an in-memory pending authorization).
 */
function tag(value, kind) {
  Object.defineProperty(value, "mcpWasmClientKind", { value: kind });
  return value;
}

let helpers = null;
/**
 * `make(helpers.js)`, made once, on the first call of the function this returns (after a failed
 * import, a later call tries again).
 */
function fromHelpers(make) {
  let made = null;
  return () => {
    helpers ??= import("./helpers.js").catch((e) => {
      helpers = null;
      throw e;
    });
    made ??= helpers.then(make).catch((e) => {
      made = null;
      throw e;
    });
    return made;
  };
}

/** The McpError of a builder's bad argument (kind "input", as the wasm's argument errors). */
const inputError = (message) => new McpError(-32602, message, { local: true, kind: "input" });

/** `options` when it is undefined, null or a plain (non-array) object; else the error. */
function optionsObject(options, what) {
  if (options === undefined || options === null || (typeof options === "object" && !Array.isArray(options))) return options;
  throw inputError(`${what}: options must be an object`);
}

/** `o[key]` checked by `ok` (absent, null, or a getter that throws: undefined); else the error naming `scope.key`. */
function option(o, key, scope, ok, what) {
  const v = read(o, key) ?? undefined;
  if (v !== undefined && !ok(v)) throw inputError(`${scope}.${key} must be ${what}`);
  return v;
}
const isString = (v) => typeof v === "string";
const isPositive = (v) => typeof v === "number" && Number.isFinite(v) && v > 0;

/**
 * `authorizeWithPopup({ features, timeoutMs, window })`: opens the authorization page in a popup
 * (or navigates `window`, opened by the app in its click handler) and waits for the callback
 * page's `completeAuthorizationPopup()`.
 */
export function authorizeWithPopup(options) {
  const W = "authorizeWithPopup options";
  const o = optionsObject(options, "authorizeWithPopup");
  const features = option(o, "features", W, isString, "a string");
  const timeoutMs = option(o, "timeoutMs", W, isPositive, "a positive number");
  const windowFeatures = features ?? POPUP_FEATURES;
  const ms = timeoutMs === undefined ? POPUP_TIMEOUT_MS : Math.ceil(timeoutMs);
  const given = givenWindow(o);
  const made = fromHelpers((h) => h.popupAuthorizer(windowFeatures, ms, given));
  const authorize = (request) => made().then((f) => f(request));
  // client.signIn() opens its window with these features, kind "popup"
  Object.defineProperty(authorize, "windowFeatures", { value: windowFeatures });
  return tag(authorize, "popup");
}

/** `options.window`: undefined (the client opens the popup), or a window the app opened. */
function givenWindow(o) {
  let w;
  try {
    w = o === undefined || o === null ? undefined : (o.window ?? undefined);
  } catch {
    throw inputError("authorizeWithPopup options: window could not be read");
  }
  if (w === undefined) return undefined;
  let windowLike = false;
  try {
    windowLike = typeof w === "object" && !Array.isArray(w) && "location" in w;
  } catch {
    // a hostile object: not a window
  }
  if (!windowLike)
    throw inputError(
      'authorizeWithPopup options: window must be a window the app opened (window.open("", "mcp-sign-in") in the click handler), or null',
    );
  return w;
}

/**
 * `authorizeWithRedirect()`: navigates the page to the authorization server; the call that
 * needed it rejects with `data.kind === "auth_redirect"`.
 */
export function authorizeWithRedirect() {
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

/**
 * `authorizeHeadless({ fetch })`: fetches the authorization URL with `redirect: "manual"` and
 * reads the callback from `Location` (Node, Deno, tests; not in a browser).
 */
export function authorizeHeadless(options) {
  const o = optionsObject(options, "authorizeHeadless");
  const fetchFn = option(o, "fetch", "authorizeHeadless options", (v) => typeof v === "function", "a function");
  const made = fromHelpers((h) => h.headlessAuthorizer(fetchFn, HEADLESS_MAX_HOPS));
  return (request) => made().then((f) => f(request));
}

/**
 * `completeAuthorizationPopup({ close })`: on the callback page, hands the callback URL to the
 * page that opened the popup (same origin only) and closes the window. True when handed over.
 */
export function completeAuthorizationPopup(options) {
  const o = optionsObject(options, "completeAuthorizationPopup");
  const close = option(o, "close", "completeAuthorizationPopup options", (v) => typeof v === "boolean", "a boolean");
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
  if ((close ?? true) && delivered) setTimeout(() => globalThis.close?.(), 100);
  return delivered;
}

/** `memoryStorage()`: tokens live as long as the page or process (the default). */
export function memoryStorage() {
  const m = new Map();
  return tag(
    {
      get: (k) => (m.has(k) ? m.get(k) : null),
      set: (k, v) => {
        m.set(k, v);
      },
      delete: (k) => {
        m.delete(k);
      },
    },
    "memory",
  );
}

/** `webStorage(sessionStorage | localStorage)`: a Web Storage area as auth storage. */
export function webStorage(storage) {
  if (!hasMethods(storage, ["getItem", "setItem", "removeItem"]))
    throw inputError("webStorage: pass a Storage object (sessionStorage or localStorage)");
  return tag(
    {
      get: (k) => storage.getItem(k),
      set: (k, v) => storage.setItem(k, v),
      delete: (k) => storage.removeItem(k),
    },
    "web",
  );
}

/** `indexedDbStorage(name)`: an IndexedDB database of that name as auth storage. */
export function indexedDbStorage(name) {
  if (typeof name !== "string" || name === "") throw inputError("indexedDbStorage: name must be a non-empty string");
  if (globalObject("indexedDB") === undefined)
    throw inputError("indexedDbStorage: this host has no indexedDB (use memoryStorage() or your own { get, set, delete })");
  const store = fromHelpers((h) => h.idbStore(name));
  return tag(
    {
      get: async (k) => (await store()).get(k),
      set: async (k, v) => (await store()).set(k, v),
      delete: async (k) => (await store()).delete(k),
    },
    "indexeddb",
  );
}

/** `localhost`, `127.0.0.0/8` (dotted quad) and `[::1]`: hosts http may name (src/auth/url.rs's rule). */
function isLoopback(hostname) {
  if (hostname === "localhost" || hostname === "[::1]") return true;
  const parts = hostname.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** An https URL (http only for loopback) with no userinfo and no fragment, as src/auth/url.rs requires. */
function isAcceptableEndpoint(text) {
  const control = [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (control || /\s/.test(text) || text.includes("#") || !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return false;
  let url;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  const authority = text.slice(text.indexOf("//") + 2).split(/[/?]/)[0];
  if (authority.includes("@")) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname));
}

/**
 * `idJagAssertion({ idpTokenEndpoint, idToken, idpClientId, idpClientSecret })`: the `assertion`
 * of a `jwt_bearer` grant that exchanges the user's ID token for an ID-JAG at the enterprise IdP
 * (RFC 8693) before each token request.
 */
export function idJagAssertion(options) {
  const W = "idJagAssertion";
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw inputError("idJagAssertion: pass { idpTokenEndpoint, idToken, idpClientId, idpClientSecret? }");
  const need = (k) => {
    const v = option(options, k, W, isString, "a string");
    if (!v) throw inputError(`${W}: ${k} is required`);
    return v;
  };
  const endpoint = need("idpTokenEndpoint");
  if (!isAcceptableEndpoint(endpoint))
    throw inputError("idJagAssertion: idpTokenEndpoint must be an https URL (http only for loopback)");
  need("idToken");
  need("idpClientId");
  option(options, "idpClientSecret", W, isString, "a string");
  // the four checked fields are its config, read by the Rust (options.rs)
  const { idpTokenEndpoint, idToken, idpClientId, idpClientSecret } = options;
  const config = { idpTokenEndpoint, idToken, idpClientId, idpClientSecret };
  const f = () => Promise.reject(failure("AssertionError", "idJagAssertion(...) is used as auth.grant.assertion, not called"));
  Object.defineProperty(f, "mcpWasmClientIdJag", { value: config });
  return tag(f, "id-jag");
}
