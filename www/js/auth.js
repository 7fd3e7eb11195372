// Sign-in (OAuth) on the page: the `auth` option of the page's client, the signed-in state
// (client.authorization: issuer, scope, expiry; never the token), sign-out, and a module
// worker that calls a tool with the page's sign-in.
//
// Query parameters: ?auth=popup|redirect (ticks "Sign in"; default popup)
//                   &dpop=1               (ticks "DPoP" and "Sign in": DPoP-bound tokens, kept
//                                          with their key in IndexedDB "mcp-demo")
//                   &asproxy=/as-proxy/   (auth.fetch through a same-origin proxy: for an
//                                          authorization server without CORS)
import { el, h, pretty } from "./dom.js";
import { state } from "./state.js";
import { webStorage } from "./pkg.js";
import { addMessage, errorNode, systemNote } from "./chat.js";
import { REDIRECT_KEY, authOptions } from "./auth-options.js";

const params = new URLSearchParams(location.search);
/** "redirect" with ?auth=redirect, else "popup". */
export const AUTH_MODE = params.get("auth") === "redirect" ? "redirect" : "popup";
/** The auth.fetch proxy prefix (?asproxy=), or null. */
export const AS_PROXY = params.get("asproxy") || null;

/** Ticks "Sign in" when the page was opened with ?auth=… (and "DPoP" with ?dpop=1). */
export function initAuthToggle() {
  if (params.has("auth")) el.auth.checked = true;
  if (params.get("dpop") === "1") el.dpop.checked = el.auth.checked = true;
  el.dpop.addEventListener("change", () => { if (el.dpop.checked) el.auth.checked = true; });
}

let grantOverride = null;
/**
 * Uses `grant` (an auth.grant, e.g. { type: "client_credentials", clientId, privateKey }) for
 * the next connect, instead of the sign-in page; null goes back to it. From the console or a
 * test: `(await import("/www/js/auth.js")).useGrant({...})`. A secret or private key in a page
 * is readable by anyone who loads it: the client warns (messageHandler, kind "warning").
 */
export function useGrant(grant) {
  grantOverride = grant ?? null;
  if (grant) el.auth.checked = true;
}

/** The `auth` option for a new client (remembered in state.auth), or undefined when "Sign in" is off. */
export function pageAuthOption(url) {
  state.auth = el.auth.checked ? AUTH_MODE : null;
  state.dpop = Boolean(state.auth && el.dpop.checked);
  state.grant = state.auth ? grantOverride?.type ?? null : null;
  if (state.auth === "redirect") {
    // The callback page finishes the sign-in with the same URL and options, then comes back here.
    const back = new URL(location.href);
    for (const [k, v] of Object.entries({ url, mode: el.mode.value, auth: "redirect", autoconnect: "1" })) back.searchParams.set(k, v);
    back.searchParams.delete("call");
    if (state.dpop) back.searchParams.set("dpop", "1");
    sessionStorage.setItem(REDIRECT_KEY, JSON.stringify({ url, mode: el.mode.value, asProxy: AS_PROXY, dpop: state.dpop, returnTo: back.href }));
  } else {
    sessionStorage.removeItem(REDIRECT_KEY);
  }
  return state.auth ? authOptions({ mode: state.auth, asProxy: AS_PROXY, dpop: state.dpop, grant: grantOverride }) : undefined;
}

/** A clock time and how far away it is. */
function expiry(ms) {
  if (ms == null) return "not stated";
  const mins = Math.round((ms - Date.now()) / 60000);
  const rel = mins > 1 ? `in ${mins} min` : mins >= 0 ? "in about a minute" : `${-mins} min ago`;
  return `${new Date(ms).toLocaleTimeString()} (${rel})`;
}

/** Shows the sign-in card of the current client (hidden without the auth option). */
export function renderAuth() {
  const c = state.client;
  el.authCard.hidden = !c || !state.auth;
  if (el.authCard.hidden) return;
  const a = c.authorization;
  el.authCard.dataset.signedIn = String(Boolean(a));
  el.authCard.dataset.authorization = JSON.stringify(a);
  el.authMode.textContent = `${state.grant ?? state.auth}${state.dpop ? " · DPoP" : ""}${AS_PROXY ? ` · AS via ${AS_PROXY}` : ""}`;
  el.authCard.dataset.dpop = String(Boolean(state.dpop));
  el.signOut.disabled = !a;
  if (!a) {
    el.authState.replaceChildren(h("p", { class: "muted", "data-test": "auth-signed-out",
      text: "Not signed in: the next request that needs it opens the sign-in page." }));
    return;
  }
  const scopes = (a.scope ?? "").split(" ").filter(Boolean);
  el.authState.replaceChildren(h("dl", { class: "auth-state" },
    h("dt", { text: "issuer" }), h("dd", {}, h("code", { "data-test": "auth-issuer", text: a.issuer })),
    h("dt", { text: "scope" }), h("dd", { "data-test": "auth-scope", dataset: { scope: a.scope ?? "" } },
      ...(scopes.length ? scopes.map((s) => h("span", { class: "scope-chip", text: s })) : ["(not stated)"])),
    h("dt", { text: "expires" }), h("dd", { "data-test": "auth-expires", dataset: { expiresAt: a.expiresAt ?? "" }, text: expiry(a.expiresAt) })));
}
setInterval(() => { if (!el.authCard.hidden) renderAuth(); }, 30_000);

/** Sign out: the client forgets the tokens; the next request signs in again. */
export async function signOut() {
  const c = state.client;
  if (!c) return;
  try {
    await c.signOut();
    systemNote("Signed out: tokens forgotten.", "msg-signed-out");
  } catch (err) {
    addMessage("server", { test: "msg-error" }, errorNode(err, "Sign out"));
  }
  renderAuth();
}

/** True for a 401 the page did not sign in for (kind "unauthorized", with resourceMetadata and scope). */
export function needsSignIn(err) {
  return err?.data?.kind === "unauthorized";
}

/** Extra lines under an error box for the authorization kinds; null for others. */
export function authHint(err) {
  if (needsSignIn(err)) {
    return el.auth.checked ? "Authorization did not complete." : "This server needs authorization: tick “Sign in”.";
  }
  switch (err?.data?.kind) {
    case "auth_cors":
      return `The browser could not read ${err.data.url ?? "the authorization server"}: it sends no CORS headers. ` +
        "Route authorization requests through a same-origin proxy with the auth.fetch option " +
        "(this page: add ?asproxy=/as-proxy/ when its server has such a route).";
    case "insufficient_scope":
      return "The server wants more scopes than this sign-in grants.";
    default:
      return null;
  }
}

// ----------------------------------------------------------------------------- the worker

/**
 * Calls whoami from a module worker with the page's sign-in. The client never hands out its
 * token: the worker's client has its own `auth` option whose storage is this page's
 * webStorage(sessionStorage), reached over postMessage. No popup: a worker cannot open one.
 * With DPoP the worker opens the same IndexedDB itself (tokens and key pair: a worker has
 * IndexedDB, and the key never leaves WebCrypto).
 */
export function callFromWorker(tool = "whoami", args = {}) {
  const c = state.client;
  if (!c) return Promise.resolve(null);
  const store = webStorage(sessionStorage);
  const worker = new Worker(new URL("./auth-worker.js", import.meta.url), { type: "module" });
  addMessage("user", { test: "msg-call", dataset: { tool, source: "worker" } },
    h("code", { class: "call", text: `worker: ${tool}(${Object.keys(args).length ? JSON.stringify(args) : ""})` }));
  const li = addMessage("server", { test: "worker-result", label: "Worker", dataset: { tool, state: "pending" } },
    h("span", { class: "pending", text: "working…" }));
  return new Promise((resolve) => {
    const done = (m) => {
      worker.terminate();
      const bubble = li.querySelector(".bubble");
      if (m.ok) {
        li.dataset.state = "ok";
        const text = (m.result?.content ?? []).map((b) => b.text ?? "").join("\n");
        bubble.replaceChildren(
          h("pre", { class: "plain", "data-test": "worker-text", text }),
          h("div", { class: "block-label", "data-test": "worker-storage", dataset: m.storageOps,
            text: m.dpop
              ? `signed in through the page's IndexedDB (DPoP key and tokens); scope ${m.authorization?.scope ?? "?"}`
              : `signed in through the page's storage (get ×${m.storageOps.get}, set ×${m.storageOps.set}, delete ×${m.storageOps.delete}); scope ${m.authorization?.scope ?? "?"}` }));
      } else {
        li.dataset.state = "error";
        const e = m.error ?? {};
        bubble.replaceChildren(h("div", { class: "error-box", "data-test": "error" },
          h("strong", { text: "Worker call failed" }),
          h("div", { text: `${e.code != null ? `McpError ${e.code} ` : ""}${e.message ?? ""}` }),
          e.data != null ? h("pre", { class: "json", text: pretty(e.data) }) : null));
      }
      resolve(m);
    };
    worker.onmessage = async ({ data: m }) => {
      if (m?.type === "storage" && ["get", "set", "delete"].includes(m.op)) {
        try {
          const value = await store[m.op](m.key, m.value);
          worker.postMessage({ type: "storage-reply", id: m.id, value: value ?? null });
        } catch (err) {
          worker.postMessage({ type: "storage-reply", id: m.id, error: String(err?.message ?? err) });
        }
      } else if (m?.type === "result") {
        done(m);
      }
    };
    worker.onerror = (e) => { e.preventDefault(); done({ ok: false, error: { message: e.message || "the worker failed to start" } }); };
    worker.postMessage({ type: "call", url: el.url.value.trim(), mode: el.mode.value, asProxy: AS_PROXY, dpop: Boolean(state.dpop), tool, args });
  });
}
