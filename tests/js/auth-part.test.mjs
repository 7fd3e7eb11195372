// pkg-template/auth-part.js's storedToken: what the default entry reads (in pages and workers) to
// decide that a returning user's client can send its stored token from the lean module. It reads
// the document the Rust flow writes (src/auth/store.rs), so it is checked here against documents a
// real sign-in of the built package stored (pkg/nodejs, headless, tests/js/oauth_world.mjs), and
// against hand-made ones for every case it must decline (the full module then does the work).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { storedToken } from "../../pkg-template/auth-part.js";
import { memoryStorage, scenario, bearerOf } from "./auth-common.mjs";

const URL_ = "https://mcp.example.com/mcp";
const KEY = `mcp-wasm-client:auth:${URL_}`;

/** A store holding `grant` (merged over a fresh Bearer grant) as the flow's document. */
function storeWith(grant, document = {}) {
  const text = JSON.stringify({
    v: 1,
    grant: {
      access_token: "at-1",
      token_type: "Bearer",
      refresh_token: "rt-1",
      expires_at: Date.now() + 3_600_000,
      scope: "mcp:read",
      issuer: "https://as.example.com",
      token_endpoint: "https://as.example.com/token",
      resource: URL_,
      auth_methods: ["none"],
      ...grant,
    },
    clients: [],
    pending: null,
    ...document,
  });
  const map = new Map([[KEY, text]]);
  return { get: (k) => map.get(k) ?? null, set: (k, v) => map.set(k, v), delete: (k) => map.delete(k) };
}

describe("storedToken reads what the flow stored", () => {
  scenario(
    "after a sign-in: the Bearer token the flow sends, and the status client.authorization shows",
    {},
    async (h) => {
      const storage = memoryStorage();
      const c = h.client({ mode: "legacy", auth: { storage } });
      await c.connect();
      await c.listTools();
      const sent = bearerOf(h.world.mcp().at(-1));
      assert.ok(sent, "the flow sent a Bearer token");
      const stored = await storedToken(h.world.url, { storage });
      assert.equal(stored?.authorization, `Bearer ${sent}`);
      assert.deepEqual(stored.status, c.authorization);
      assert.equal(await storedToken(`${h.world.url}/other`, { storage }), null, "another server's key holds nothing");
      await c.signOut();
      assert.equal(await storedToken(h.world.url, { storage }), null, "signed out: nothing to send");
      await c.close();
    },
  );
});

describe("storedToken declines what only the full module can do", () => {
  test("a fresh Bearer token of the authorization-code grant is sent as it is", async () => {
    const t = await storedToken(URL_, { storage: storeWith({}) });
    assert.equal(t.authorization, "Bearer at-1");
    assert.deepEqual(t.status, { issuer: "https://as.example.com", scope: "mcp:read", expiresAt: t.expiresAt });
    const explicit = await storedToken(URL_, { storage: storeWith({}), grant: { type: "authorization_code" }, dpop: false });
    assert.equal(explicit.authorization, "Bearer at-1");
    const noExpiry = await storedToken(URL_, { storage: storeWith({ expires_at: null, scope: null }) });
    assert.deepEqual(noExpiry.status, { issuer: "https://as.example.com", scope: null, expiresAt: null });
    const async = await storedToken(URL_, { storage: { ...storeWith({}), get: async () => storeWith({}).get(KEY) } });
    assert.equal(async.authorization, "Bearer at-1", "an async store");
  });

  const declined = [
    ["a token within a minute of expiry (the flow refreshes it first)", () => ({ storage: storeWith({ expires_at: Date.now() + 59_000 }) })],
    ["an expired token", () => ({ storage: storeWith({ expires_at: Date.now() - 1 }) })],
    ["a DPoP-bound token (any case)", () => ({ storage: storeWith({ token_type: "dpop" }) })],
    ["the dpop option", () => ({ storage: storeWith({}), dpop: true })],
    ["dpop: { keyPair }", () => ({ storage: storeWith({}), dpop: {} })],
    ["a grant without a user (it renews before the token lapses)", () => ({ storage: storeWith({}), grant: { type: "client_credentials" } })],
    ["no storage (memory: nothing stored yet)", () => ({})],
    ["a storage without delete", () => ({ storage: { get: () => null, set() {} } })],
    ["another document version", () => ({ storage: storeWith({}, { v: 2 }) })],
    ["no grant", () => ({ storage: storeWith({}, { grant: null }) })],
    ["an empty access token", () => ({ storage: storeWith({ access_token: "" }) })],
    ["a grant without issuer", () => ({ storage: storeWith({ issuer: 7 }) })],
    ["a grant without token endpoint", () => ({ storage: storeWith({ token_endpoint: undefined }) })],
    ["a damaged document", () => ({ storage: { get: () => "{not json", set() {}, delete() {} } })],
    ["a store whose get throws", () => ({ storage: { get: () => { throw new Error("denied"); }, set() {}, delete() {} } })],
    ["a store whose get rejects", () => ({ storage: { get: async () => { throw new Error("denied"); }, set() {}, delete() {} } })],
    ["an auth option whose getter throws", () => Object.defineProperty({}, "storage", { get() { throw new Error("hostile"); } })],
  ];
  for (const [what, auth] of declined)
    test(`declined: ${what}`, async () => {
      assert.equal(await storedToken(URL_, auth()), null);
    });

  test("declined: no auth object", async () => {
    assert.equal(await storedToken(URL_, null), null);
    assert.equal(await storedToken(URL_, "auth"), null);
  });
});
