// OAuth authorization of the built package in Node (pkg/nodejs), as auth.test.mjs: authorizeWithPopup
// in a stand-in page (a blocked popup, a window the app opened) and the storage options (memory, web,
// IndexedDB, an async storage of the app's) against tests/js/oauth_world.mjs.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { rejection, text } from "./peers.mjs";
import { McpError, authorizeWithPopup, REDIRECT, sleep, scenario, bearerOf, until } from "./auth-common.mjs";

// ---- storage -----------------------------------------------------------------------------------

/** An async { get, set, delete } over a Map, logging each call. */
function asyncStorage() {
  const map = new Map();
  const calls = [];
  return {
    map,
    calls,
    get: async (k) => {
      calls.push(["get", k]);
      await sleep(1);
      return map.get(k) ?? null;
    },
    set: async (k, v) => {
      calls.push(["set", k]);
      await sleep(1);
      map.set(k, v);
    },
    delete: async (k) => {
      calls.push(["delete", k]);
      await sleep(1);
      map.delete(k);
    },
  };
}

// ---- authorizeWithPopup in a (stand-in) page: a blocked popup, a window the app opened --------------

describe("authorizeWithPopup: a blocked popup, a window opened by the app", () => {
  const MESSAGE = "mcp-wasm-client:authorization-callback";
  /** Runs `fn(page)` with globalThis.window standing in for a page whose window.open answers `opened`. */
  async function inPage(opened, fn) {
    const listeners = [];
    const page = {
      fetch: (...args) => fetch(...args),
      open: (...args) => (page.opens.push(args), opened),
      opens: [],
      addEventListener: (type, f) => type === "message" && listeners.push(f),
      removeEventListener: (type, f) => listeners.splice(listeners.indexOf(f) >>> 0, 1),
      deliver: (url) => listeners.slice().forEach((f) => f({ data: { type: MESSAGE, url }, origin: new URL(url).origin })),
    };
    const before = Object.getOwnPropertyDescriptor(globalThis, "window");
    globalThis.window = page;
    try {
      return await fn(page);
    } finally {
      if (before) Object.defineProperty(globalThis, "window", before);
      else delete globalThis.window;
    }
  }
  /** The callback URL the world's AS redirects the authorization URL to (it approves at once). */
  async function callbackOf(authorizationUrl) {
    let next = authorizationUrl;
    for (let hop = 0; hop < 5; hop++) {
      const r = await fetch(next, { redirect: "manual" });
      const location = new URL(r.headers.get("location"), next).href;
      if (location.startsWith(REDIRECT)) return location;
      next = location;
    }
    assert.fail(`no callback from ${authorizationUrl}`);
  }
  const inputError = (re) => (e) => {
    assert.ok(e instanceof McpError, `not an McpError: ${e}`);
    assert.equal(e.data?.kind, "input");
    assert.match(e.message, re);
    return true;
  };
  const fakeWindow = () => ({ closed: false, location: { href: "about:blank" }, close() { this.closed = true; } });

  scenario("window.open answers null → popup_blocked with data.authorizationUrl (state, code_challenge, no secret); the URL, opened as a link, finishes the sign-in", {}, async (h) => {
    const { world } = h;
    await inPage(null, async (page) => {
      const c = h.client({ mode: "legacy", auth: { authorize: authorizeWithPopup() } });
      const e = await h.fails(c.connect(), "popup_blocked");
      assert.equal(e.code, -32012);
      assert.match(e.message, /blocked the sign-in popup.*authorizeWithPopup\(\{ window \}\).*data\.authorizationUrl/);
      assert.equal(page.opens.length, 1, "one window.open");
      const u = new URL(e.data.authorizationUrl);
      assert.equal(u.origin + u.pathname, `${world.issuer("as")}/authorize`);
      assert.equal(e.data.authorizationUrl, page.opens[0][0], "the URL the popup would have opened");
      assert.match(u.searchParams.get("state") ?? "", /^[A-Za-z0-9_-]{16,}$/);
      assert.match(u.searchParams.get("code_challenge") ?? "", /^[A-Za-z0-9_-]{43}$/);
      assert.equal(u.searchParams.get("code_challenge_method"), "S256");
      for (const k of ["client_secret", "code_verifier", "code", "access_token"]) assert.equal(u.searchParams.get(k), null, k);
      assert.equal(world.count("/as/token"), 0);
      // The user follows the link; the callback page hands the URL back: finishAuthorization redeems it.
      const callback = await callbackOf(e.data.authorizationUrl);
      await c.finishAuthorization(callback);
      await c.connect();
      assert.equal(text(await c.callTool("echo", { text: "after the link" })), "after the link");
      assert.equal(world.count("/as/token"), 1);
    });
  });

  scenario("authorizeWithPopup({ window }): the window the app opened is navigated (no window.open); its callback signs in", {}, async (h) => {
    const { world } = h;
    await inPage(null, async (page) => {
      const w = fakeWindow();
      const c = h.client({ mode: "legacy", auth: { authorize: authorizeWithPopup({ window: w }) } });
      const connected = c.connect();
      await until(() => w.location.href !== "about:blank", "the window navigated");
      assert.ok(w.location.href.startsWith(`${world.issuer("as")}/authorize?`), w.location.href);
      assert.equal(page.opens.length, 0, "no window.open");
      page.deliver(await callbackOf(w.location.href));
      await connected;
      assert.equal(w.closed, true, "the window is closed once the callback came");
      assert.equal(text(await c.callTool("echo", { text: "pre-opened" })), "pre-opened");
    });
  });

  scenario("authorizeWithPopup({ window }) closed before the page opened in it → unauthorized (PopupClosed), not navigated", {}, async (h) => {
    await inPage(null, async (page) => {
      const w = fakeWindow();
      w.closed = true;
      const c = h.client({ mode: "legacy", auth: { authorize: authorizeWithPopup({ window: w }) } });
      const e = await h.fails(c.connect(), "unauthorized");
      assert.equal(e.data.reason, "PopupClosed");
      assert.match(e.message, /sign-in window was closed before the authorization page opened/);
      assert.equal(w.location.href, "about:blank");
      assert.equal(page.opens.length, 0);
    });
  });

  test("authorizeWithPopup({ window }) refuses what is not a window: input errors", () => {
    for (const bad of ["https://as.example/", 5, true, {}, [], { href: "x" }]) {
      assert.throws(() => authorizeWithPopup({ window: bad }), inputError(/window must be a window the app opened/), String(bad));
    }
    const hostile = { get window() { throw new Error("no"); } };
    assert.throws(() => authorizeWithPopup(hostile), inputError(/window could not be read/));
    for (const none of [undefined, null]) assert.equal(typeof authorizeWithPopup({ window: none }), "function");
    assert.equal(typeof authorizeWithPopup({ window: { location: {}, closed: false } }), "function");
  });
});

describe("storage", () => {
  scenario("a custom async storage holds one JSON document under mcp-wasm-client:auth:<server url>; signOut keeps the registration; signOut({ all }) deletes the key", {}, async (h) => {
    const { world } = h;
    const storage = asyncStorage();
    const key = `mcp-wasm-client:auth:${world.url}`;
    const c = h.client({ mode: "legacy", auth: { storage } });
    await c.connect();
    assert.deepEqual([...new Set(storage.calls.map(([, k]) => k))], [key]);
    assert.deepEqual([...storage.map.keys()], [key]);
    const doc = JSON.parse(storage.map.get(key));
    assert.equal(typeof doc, "object");
    const at = bearerOf(world.mcp().at(-1));
    assert.ok(storage.map.get(key).includes(at), "the tokens are in the application's storage");

    // A second client on the same storage is signed in without any OAuth traffic.
    const before = world.log.length;
    const again = h.client({ mode: "legacy", auth: { storage } });
    await again.connect();
    assert.equal(text(await again.callTool("echo", { text: "reuse" })), "reuse");
    assert.ok(world.log.slice(before).every((r) => r.path === "/mcp"));
    await again.close();

    await c.signOut();
    assert.equal(c.authorization, null);
    const kept = storage.map.get(key);
    assert.ok(kept, "the document stays (registration)");
    assert.ok(!kept.includes(at), "no access token after signOut()");
    for (const [t, info] of world.refreshTokens) if (info) assert.ok(!kept.includes(t), "no refresh token after signOut()");

    const third = h.client({ mode: "legacy", auth: { storage } });
    await third.connect();
    assert.equal(world.count("/as/register"), 1, "the registration is reused");
    assert.equal(world.count("/as/authorize"), 2);
    await third.signOut({ all: true });
    assert.equal(storage.map.has(key), false);
    assert.ok(storage.calls.some(([op, k]) => op === "delete" && k === key));
    assert.equal(third.authorization, null);
  });

  scenario("a synchronous { get, set, delete } storage works too, and storage errors are McpErrors naming the storage", {}, async (h) => {
    const map = new Map();
    const sync = { get: (k) => map.get(k), set: (k, v) => void map.set(k, v), delete: (k) => void map.delete(k) };
    const c = h.client({ mode: "legacy", auth: { storage: sync } });
    await c.connect();
    assert.equal(map.size, 1);
    const broken = { get: () => Promise.reject(new Error("disk on fire")), set() {}, delete() {} };
    const e = await rejection(h.client({ mode: "legacy", auth: { storage: broken } }).connect());
    h.seen.push(e);
    assert.match(e.message, /auth\.storage\.get failed: disk on fire/);
  });
});
