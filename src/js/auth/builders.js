// The `auth` option's builders, exported by the package: `authorizeWithPopup`,
// `authorizeWithRedirect`, `authorizeHeadless`, `completeAuthorizationPopup`, `memoryStorage`,
// `webStorage`, `indexedDbStorage`, `idJagAssertion`. Plain JS, so they work right after the import,
// before (and without) the WebAssembly module: they check their arguments, throwing an McpError of
// kind "input" that names what is wrong, and return what helpers.js builds. The Rust that reads
// the `auth` option (src/js/auth/options.rs) checks what they made again where it matters.

import { McpError } from "../boundary/error.js";
import {
  completePopup,
  headlessAuthorizer,
  idbStore,
  idJag,
  memoryStore,
  popupAuthorizer,
  read,
  redirectAuthorizer,
  webStore,
} from "./helpers.js";

/** Default popup window features. */
const POPUP_FEATURES = "popup,width=520,height=720";
/** Default wait for the popup's callback: five minutes. */
const POPUP_TIMEOUT_MS = 300_000;
/** Redirects a headless authorization follows on the AS before the callback. */
const HEADLESS_MAX_HOPS = 10;

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
  return popupAuthorizer(features ?? POPUP_FEATURES, timeoutMs === undefined ? POPUP_TIMEOUT_MS : Math.ceil(timeoutMs), givenWindow(o));
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
  return redirectAuthorizer();
}

/**
 * `authorizeHeadless({ fetch })`: fetches the authorization URL with `redirect: "manual"` and
 * reads the callback from `Location` (Node, Deno, tests; not in a browser).
 */
export function authorizeHeadless(options) {
  const o = optionsObject(options, "authorizeHeadless");
  const fetchFn = option(o, "fetch", "authorizeHeadless options", (v) => typeof v === "function", "a function");
  return headlessAuthorizer(fetchFn, HEADLESS_MAX_HOPS);
}

/**
 * `completeAuthorizationPopup({ close })`: on the callback page, hands the callback URL to the
 * page that opened the popup (same origin only) and closes the window. True when handed over.
 */
export function completeAuthorizationPopup(options) {
  const o = optionsObject(options, "completeAuthorizationPopup");
  const close = option(o, "close", "completeAuthorizationPopup options", (v) => typeof v === "boolean", "a boolean");
  return completePopup(close ?? true);
}

/** `memoryStorage()`: tokens live as long as the page or process (the default). */
export function memoryStorage() {
  return memoryStore();
}

/** A helpers.js outcome's value, or its failure as an input error. */
function valueOf(outcome) {
  if (outcome.failure) throw inputError(outcome.failure.message);
  return outcome.value;
}

/** `webStorage(sessionStorage | localStorage)`: a Web Storage area as auth storage. */
export function webStorage(storage) {
  return valueOf(webStore(storage));
}

/** `indexedDbStorage(name)`: an IndexedDB database of that name as auth storage. */
export function indexedDbStorage(name) {
  if (typeof name !== "string" || name === "") throw inputError("indexedDbStorage: name must be a non-empty string");
  return valueOf(idbStore(name));
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
  return idJag(options);
}
