// The `auth` option of the demo's clients, shared by the page (js/session.js), the sign-in
// callback page (oauth/callback.js) and the worker (js/auth-worker.js): the same client
// metadata, redirect URI and storage everywhere, or a redirect-mode sign-in could not be
// finished on the callback page. No DOM here (the worker imports it too).
import { authorizeWithPopup, authorizeWithRedirect, indexedDbStorage, webStorage } from "./pkg.js";

/** Where the authorization server sends the browser back: www/oauth/callback.html. */
export const REDIRECT_URI = new URL("../oauth/callback.html", import.meta.url).href;

/** sessionStorage key of a redirect-mode sign-in in progress: { url, mode, asProxy, dpop, returnTo }. */
export const REDIRECT_KEY = "mcp-wasm-demo:redirect";

export const CLIENT_METADATA = {
  client_name: "mcp-wasm-client demo",
  redirect_uris: [REDIRECT_URI],
};

/**
 * auth.fetch through a same-origin proxy: `${asProxy}${url}`, e.g. /as-proxy/https://as.example/token.
 * For authorization servers that send no CORS headers (the browser hides their answers).
 */
export function proxiedFetch(asProxy) {
  const prefix = new URL(asProxy, location.href).href;
  return (url, init) => fetch(prefix + url, init);
}

/** The IndexedDB database of a DPoP sign-in: tokens and the non-extractable key pair. */
export const DPOP_DB = "mcp-demo";

/**
 * The auth option. mode "popup" | "redirect"; storage: where tokens live (the page:
 * webStorage(sessionStorage); the worker: a bridge to the page's); asProxy: see proxiedFetch.
 * dpop: DPoP-bound tokens, kept with their key in indexedDbStorage(DPOP_DB) (a key pair is
 * an object: sessionStorage cannot hold it, and the key must survive a reload). grant: an
 * auth.grant (client_credentials …), set from the console or a test with auth.js useGrant().
 */
export function authOptions({ mode = "popup", storage, asProxy, authorize, dpop = false, grant } = {}) {
  return {
    clientMetadata: CLIENT_METADATA,
    authorize: authorize ?? (mode === "redirect" ? authorizeWithRedirect() : authorizeWithPopup()),
    storage: storage ?? (dpop ? indexedDbStorage(DPOP_DB) : webStorage(globalThis.sessionStorage)),
    ...(dpop ? { dpop: true } : {}),
    ...(grant ? { grant } : {}),
    ...(asProxy ? { fetch: proxiedFetch(asProxy) } : {}),
  };
}
