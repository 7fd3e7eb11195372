// OAuth authorization of the built package in Node (pkg/nodejs), as auth.test.mjs: argument errors of
// the auth option and the exported helpers, and what they do in Node.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { rejection } from "./peers.mjs";
import { startWorld } from "./oauth_world.mjs";
import { Client, McpError, authorizeHeadless, authorizeWithPopup, authorizeWithRedirect, completeAuthorizationPopup, memoryStorage, webStorage, indexedDbStorage, REDIRECT, CLIENT_METADATA } from "./auth-common.mjs";

// ---- argument errors ---------------------------------------------------------------------------------

describe("argument errors", () => {
  const url = "http://127.0.0.1:1/mcp";
  const inputError = (re) => (e) => {
    assert.ok(e instanceof McpError, `not an McpError: ${e}`);
    assert.equal(e.data?.kind, "input");
    assert.match(e.message, re);
    return true;
  };
  const base = { redirectUri: REDIRECT };
  const cases = [
    ["auth: 5", { auth: 5 }, /options\.auth must be an object/],
    ["auth: []", { auth: [] }, /options\.auth must be an object/],
    ["auth: \"x\"", { auth: "x" }, /options\.auth must be an object/],
    ["no redirectUri", { auth: {} }, /options\.auth\.redirectUri is required/],
    ["redirectUri: 5", { auth: { redirectUri: 5 } }, /redirectUri/],
    ["storage: 5", { auth: { ...base, storage: 5 } }, /options\.auth\.storage must be an object with get, set and delete/],
    ["storage without delete", { auth: { ...base, storage: { get() {}, set() {} } } }, /options\.auth\.storage/],
    ["storage: webStorage-like", { auth: { ...base, storage: { getItem() {}, setItem() {}, removeItem() {} } } }, /options\.auth\.storage/],
    ["onInsufficientScope: \"never\"", { auth: { ...base, onInsufficientScope: "never" } }, /onInsufficientScope must be "reauthorize" or "throw"/],
    ["onInsufficientScope: 1", { auth: { ...base, onInsufficientScope: 1 } }, /onInsufficientScope/],
    ["maxStepUp: -1", { auth: { ...base, maxStepUp: -1 } }, /maxStepUp must be a whole number/],
    ["maxStepUp: 1.5", { auth: { ...base, maxStepUp: 1.5 } }, /maxStepUp/],
    ["maxStepUp: \"2\"", { auth: { ...base, maxStepUp: "2" } }, /maxStepUp/],
    ["maxStepUp: NaN", { auth: { ...base, maxStepUp: NaN } }, /maxStepUp/],
    ["authorize: \"popup\"", { auth: { ...base, authorize: "popup" } }, /authorize/],
    ["fetch: 5", { auth: { ...base, fetch: 5 } }, /fetch/],
    ["clientMetadata: 5", { auth: { ...base, clientMetadata: 5 } }, /clientMetadata/],
    ["clientInformation without client_id", { auth: { ...base, clientInformation: {} } }, /clientInformation needs a client_id/],
    ["clientInformation.client_secret: 5", { auth: { ...base, clientInformation: { client_id: "a", client_secret: 5 } } }, /clientInformation\.client_secret must be a string/],
    ["clientMetadataUrl not https", { auth: { ...base, clientMetadataUrl: "http://example.com/client.json" } }, /options\.auth/],
    ["scope: 5", { auth: { ...base, scope: 5 } }, /scope/],
    ["authorizeWithRedirect() with the default (memory) storage", { auth: { ...base, authorize: authorizeWithRedirect() } }, /authorizeWithRedirect\(\) needs storage that survives the page navigation/],
    ["authorizeWithRedirect() with memoryStorage()", { auth: { ...base, authorize: authorizeWithRedirect(), storage: memoryStorage() } }, /needs storage that survives/],
  ];
  for (const [label, options, re] of cases) {
    test(`new Client(url, { ${label} }) → McpError naming the field`, () => {
      assert.throws(() => new Client(url, options), inputError(re));
    });
  }
  test("redirectUri defaults to clientMetadata.redirect_uris[0]", () => {
    const c = new Client(url, { auth: { clientMetadata: CLIENT_METADATA } });
    assert.equal(c.authorization, null);
    c.free();
  });
  test("the exported helpers check their arguments", () => {
    assert.throws(() => webStorage(5), inputError(/webStorage: pass a Storage object/));
    assert.throws(() => webStorage({ getItem() {} }), inputError(/webStorage/));
    assert.throws(() => webStorage(), inputError(/webStorage/));
    assert.throws(() => indexedDbStorage(""), inputError(/indexedDbStorage: name must be a non-empty string/));
    assert.throws(() => indexedDbStorage(5), inputError(/indexedDbStorage: name/));
    assert.throws(() => indexedDbStorage("x"), inputError(/indexedDbStorage: this host has no indexedDB/));
    assert.throws(() => authorizeHeadless(5), inputError(/authorizeHeadless: options must be an object/));
    assert.throws(() => authorizeHeadless({ fetch: "no" }), inputError(/fetch/));
    assert.throws(() => authorizeWithPopup({ timeoutMs: -1 }), inputError(/timeoutMs/));
    assert.throws(() => authorizeWithPopup({ features: 5 }), inputError(/features/));
    assert.throws(() => completeAuthorizationPopup({ close: "yes" }), inputError(/close/));
    assert.throws(() => completeAuthorizationPopup([]), inputError(/options must be an object/));
  });
  test("the helpers in Node: memoryStorage works; popup, redirect and completeAuthorizationPopup say they need a page", async () => {
    const m = memoryStorage();
    assert.equal(m.get("k"), null);
    m.set("k", "v");
    assert.equal(m.get("k"), "v");
    m.delete("k");
    assert.equal(m.get("k"), null);
    const w = webStorage({ getItem: (k) => `got ${k}`, setItem() {}, removeItem() {} });
    assert.equal(await w.get("a"), "got a");
    assert.equal(completeAuthorizationPopup(), false);
    const signal = new AbortController().signal;
    await assert.rejects(
      Promise.resolve().then(() => authorizeWithPopup()({ url: "http://x/", state: "s", redirectUri: REDIRECT, signal })),
      /needs a browser page/,
    );
    assert.throws(() => authorizeWithRedirect()({ url: "http://x/", state: "s", redirectUri: REDIRECT, signal }), /needs a browser page/);
  });
  test("finishAuthorization and signOut without the auth option → McpError saying so", async () => {
    const c = new Client(url);
    const e1 = await rejection(c.finishAuthorization(`${REDIRECT}?code=x&state=y`));
    assert.equal(e1.data.kind, "input");
    assert.match(e1.message, /finishAuthorization needs the auth option/);
    const e2 = await rejection(c.signOut());
    assert.equal(e2.data.kind, "input");
    assert.match(e2.message, /signOut needs the auth option/);
    assert.equal(c.authorization, null);
  });
  test("finishAuthorization and signOut with wrong arguments → McpError", async () => {
    const c = new Client(url, { auth: base });
    for (const bad of [undefined, null, 5, "", {}, Symbol("s")]) {
      const e = await rejection(c.finishAuthorization(bad));
      assert.equal(e.data.kind, "input", String(e.message));
    }
    for (const bad of [5, "all", Symbol("s")]) {
      const e = await rejection(c.signOut(bad));
      assert.equal(e.data.kind, "input");
    }
    assert.equal((await rejection(c.signOut({ all: "yes" }))).data.kind, "input");
    const e = await rejection(c.finishAuthorization(`${REDIRECT}?code=x&state=y`));
    assert.equal(e.data.kind, "state_mismatch", "nothing pending");
  });
  test("an authorize function that throws or resolves with nothing → McpError; no token request", async () => {
    const world = await startWorld();
    try {
      const boom = new Client(world.url, {
        mode: "legacy",
        auth: { ...base, authorize: () => Promise.reject(Object.assign(new Error("user closed it"), { name: "PopupClosed" })) },
      });
      const e = await rejection(boom.connect());
      assert.match(e.message, /Authorization did not complete: user closed it/);
      assert.equal(e.data.reason, "PopupClosed");
      const nothing = new Client(world.url, { mode: "legacy", auth: { ...base, authorize: () => undefined } });
      const e2 = await rejection(nothing.connect());
      assert.equal(e2.data.kind, "input");
      assert.match(e2.message, /auth\.authorize must resolve with the callback URL/);
      assert.equal(world.count("/as/token"), 0);
    } finally {
      await world.close();
    }
  });
});
