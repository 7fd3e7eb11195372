// DPoP (RFC 9449) of the built package in Node (pkg/nodejs), as auth-grants.test.mjs, against
// tests/js/oauth_world.mjs: proofs at the token endpoint and the MCP server, DPoP-bound tokens (ath,
// htm, htu, jti, the key, cnf.jkt), nonces at the AS and the server. Every scenario checks that no
// secret shows (auth-harness.mjs).
import { describe } from "node:test";
import assert from "node:assert/strict";
import { rejection, text } from "./peers.mjs";
import { decodeJwt, jwkThumbprint } from "./oauth_world.mjs";
import { authorizeHeadless, memoryStorage, REDIRECT, subtle, cryptoKeyPair, scenario, okTokens, calls, noFailures } from "./auth-grants-common.mjs";


// ---- DPoP --------------------------------------------------------------------------------------------

/** An authorization-code client with DPoP: headless, memory storage. */
const dpopAuth = (extra = {}) => ({
  clientMetadata: { client_name: "auth-grants.test.mjs", redirect_uris: [REDIRECT] },
  authorize: authorizeHeadless(),
  storage: memoryStorage(),
  dpop: true,
  ...extra,
});

/** Every proof the world saw, checked for its public JWK and a single key; → the thumbprint. */
function oneKey(world) {
  assert.ok(world.proofs.length > 0, "proofs were sent");
  const jkts = new Set();
  for (const p of world.proofs) {
    assert.deepEqual(Object.keys(p.header.jwk).sort(), ["crv", "kty", "x", "y"], `the proof's jwk has ${Object.keys(p.header.jwk)}`);
    assert.equal(p.header.jwk.kty, "EC");
    assert.equal(p.header.jwk.crv, "P-256");
    assert.equal(p.header.typ, "dpop+jwt");
    jkts.add(jwkThumbprint(p.header.jwk));
  }
  assert.equal(jkts.size, 1, "one key for every proof");
  return [...jkts][0];
}

describe("DPoP", () => {
  for (const mode of ["legacy", "2026-07-28"]) {
    scenario(`${mode}: authorization code + dpop: true: a proof at the token endpoint, a DPoP token bound to the key, a fresh proof with ath on every MCP request`, { dpop: true }, async (h) => {
      const { world } = h;
      const c = h.client({ mode, auth: dpopAuth() });
      await c.connect();
      assert.equal(text(await c.callTool("echo", { text: "bound" })), "bound");
      await c.listTools();
      noFailures(world);
      const jkt = oneKey(world);
      // The token endpoint: one proof, no ath, bound token.
      const [t] = okTokens(world);
      assert.equal(t.grant, "authorization_code");
      assert.equal(t.dpopJkt, jkt);
      const asProofs = world.proofs.filter((p) => p.at === "as");
      assert.equal(asProofs.length, 1);
      assert.equal(asProofs[0].claims.htm, "POST");
      assert.equal(asProofs[0].claims.htu, `${world.issuer("as")}/token`);
      assert.equal(asProofs[0].claims.ath, undefined);
      const [token] = [...world.tokens.entries()].filter(([, i]) => i.jkt).map(([k]) => k);
      assert.equal(decodeJwt(token).claims.cnf.jkt, jkt, "the test's own RFC 7638 thumbprint is the token's cnf.jkt");
      // The MCP server: Authorization: DPoP and one fresh proof per request.
      const authed = world.mcp().filter((r) => r.headers.authorization !== undefined);
      assert.ok(authed.length >= 2);
      for (const r of authed) {
        assert.match(r.headers.authorization, /^DPoP /);
        assert.ok(r.headers.dpop, "a proof with each request");
        assert.ok(r.authorized);
      }
      const mcpProofs = world.proofs.filter((p) => p.at === "mcp");
      assert.equal(mcpProofs.length, authed.length);
      assert.equal(new Set(mcpProofs.map((p) => p.claims.jti)).size, mcpProofs.length, "a fresh jti per request");
      for (const p of mcpProofs) {
        assert.equal(p.claims.htu, world.url);
        assert.ok(["POST", "GET", "DELETE"].includes(p.claims.htm));
        assert.ok(p.claims.ath);
      }
      assert.equal(world.count("/as/authorize"), 1);
    });
  }

  scenario("the AS wants a nonce (400 use_dpop_nonce + DPoP-Nonce): the token request is retried once with it", { dpop: true, asNonce: true }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy", auth: dpopAuth() });
    await c.connect();
    assert.deepEqual(world.tokenRequests.map((t) => [t.status, t.error]), [[400, "use_dpop_nonce"], [200, null]]);
    const asProofs = world.proofs.filter((p) => p.at === "as");
    assert.equal(asProofs.length, 2);
    assert.equal(asProofs[0].claims.nonce, undefined);
    assert.equal(asProofs[1].claims.nonce, world.asNonce);
    assert.notEqual(asProofs[0].claims.jti, asProofs[1].claims.jti);
    assert.equal(world.count("/as/authorize"), 1, "the code is not asked for again");
  });

  scenario("an AS that asks for a nonce again and again: one retry, then token_error", { dpop: true, asNonce: true }, async (h) => {
    const { world } = h;
    // Every refusal names a new nonce.
    const orig = world.rotateNonces;
    let n = 0;
    const c = h.client({
      mode: "legacy",
      auth: dpopAuth({
        fetch: async (url, init) => {
          const r = await fetch(url, init);
          if (String(url).endsWith("/token")) {
            n++;
            orig();
          }
          return r;
        },
      }),
    });
    const e = await rejection(c.connect());
    h.seen.push(e);
    assert.equal(e.data?.kind, "token_error", e.message);
    assert.equal(e.data.oauthError, "use_dpop_nonce");
    assert.equal(n, 2, "the first request and one retry");
  });

  scenario("the MCP server wants a nonce (401 DPoP use_dpop_nonce + DPoP-Nonce): retried once, then the nonce rides along", { dpop: true, mcpNonce: true }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "2026-07-28", auth: dpopAuth() });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "n" })), "n");
    assert.equal(text(await c.callTool("echo", { text: "m" })), "m");
    const refusedNonce = world.mcp().filter((r) => r.nonceRefused);
    assert.equal(refusedNonce.length, 1, "one nonce round trip");
    const mcpProofs = world.proofs.filter((p) => p.at === "mcp");
    assert.equal(mcpProofs[0].claims.nonce, undefined);
    for (const p of mcpProofs.slice(1)) assert.equal(p.claims.nonce, world.mcpNonce);
    // A new nonce at the server: one more round trip, not a new sign-in.
    world.rotateNonces();
    assert.equal(text(await c.callTool("echo", { text: "o" })), "o");
    assert.equal(world.mcp().filter((r) => r.nonceRefused).length, 2);
    assert.equal(world.count("/as/authorize"), 1);
    assert.equal(okTokens(world).length, 1);
    noFailures(world);
  });

  scenario("an MCP server that wants a new nonce on every request: the call fails with dpop_error after one retry", { dpop: true, mcpNonce: true }, async (h) => {
    const { world } = h;
    const c = h.client({
      mode: "2026-07-28",
      fetch: async (url, init) => {
        world.rotateNonces();
        return fetch(url, init);
      },
      auth: dpopAuth(),
    });
    await c.connect();
    const e = await h.fails(c.listTools(), "dpop_error");
    assert.match(e.message, /nonce/);
    assert.equal(world.mcp().filter((r) => r.nonceRefused).length, 2);
  });

  scenario("nonces at both the AS and the MCP server (one origin): signs in and calls, with bounded retries", { dpop: true, asNonce: true, mcpNonce: true }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy", auth: dpopAuth() });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "x" })), "x");
    assert.equal(text(await c.callTool("echo", { text: "y" })), "y");
    assert.ok(world.tokenRequests.length <= 2, `${world.tokenRequests.length} token requests`);
    assert.ok(world.mcp().filter((r) => r.nonceRefused).length <= 2);
  });

  scenario("a token bound to another key (cnf.jkt) → dpop_error; the token is never sent", { dpop: true, bindToOtherKey: true }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy", auth: dpopAuth() });
    const e = await h.fails(c.connect(), "dpop_error");
    assert.match(e.message, /cnf\.jkt/);
    assert.equal(world.tokenRequests.length, 1);
    assert.ok(world.mcp().every((r) => r.headers.authorization === undefined), "the mis-bound token was not used");
    assert.equal(c.authorization, null);
  });

  scenario("dpop: { keyPair } signs with the given key (its thumbprint is the token's cnf.jkt)", { dpop: true }, async (h) => {
    const { world } = h;
    const keyPair = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
    const expected = jwkThumbprint(await subtle.exportKey("jwk", keyPair.publicKey));
    const c = h.client({ mode: "legacy", auth: dpopAuth({ dpop: { keyPair } }) });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "k" })), "k");
    assert.equal(oneKey(world), expected);
    assert.equal(okTokens(world)[0].dpopJkt, expected);
    noFailures(world);
  });

  scenario("two clients with dpop: true have two keys", { dpop: true }, async (h) => {
    const { world } = h;
    await h.client({ mode: "legacy", auth: dpopAuth() }).connect();
    await h.client({ mode: "legacy", auth: dpopAuth() }).connect();
    assert.equal(new Set(okTokens(world).map((t) => t.dpopJkt)).size, 2);
  });

  scenario("two clients sharing one memoryStorage() share the DPoP key and its token: no second sign-in", { dpop: true }, async (h) => {
    const { world } = h;
    const storage = memoryStorage();
    const a = h.client({ mode: "legacy", auth: dpopAuth({ storage }) });
    await a.connect();
    const b = h.client({ mode: "legacy", auth: dpopAuth({ storage }) });
    await b.connect();
    assert.equal(text(await b.callTool("echo", { text: "shared" })), "shared");
    assert.equal(world.count("/as/authorize"), 1);
    assert.equal(okTokens(world).length, 1);
    oneKey(world);
    noFailures(world);
  });

  scenario("a stored DPoP token whose key is gone (a storage of strings keeps no CryptoKey): signs in again, bounded", { dpop: true }, async (h) => {
    const { world } = h;
    const map = new Map();
    const strings = { get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, String(v)), delete: (k) => void map.delete(k) };
    await h.client({ mode: "legacy", auth: dpopAuth({ storage: strings }) }).connect();
    const b = h.client({ mode: "legacy", auth: dpopAuth({ storage: strings }) });
    await b.connect();
    assert.equal(text(await b.callTool("echo", { text: "again" })), "again");
    const jkts = okTokens(world).map((t) => t.dpopJkt);
    assert.equal(new Set(jkts).size, 2, "the second client's tokens are bound to its own key");
    assert.ok(world.count("/as/authorize") <= 2);
    assert.ok(world.tokenRequests.length <= 3, world.tokenRequests.map((t) => `${t.grant} ${t.status} ${t.error}`).join(", "));
    assert.deepEqual(calls(world, "initialize").map((r) => r.status), [401, 200, 401, 200], world.mcp().map((r) => `${r.method} ${r.rpc} ${r.status}`).join(", "));
  });

  scenario("a refresh of a DPoP token carries a proof of the same key (short-lived tokens)", { dpop: true, expiresIn: 30, refreshExpiresIn: 30 }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy", auth: dpopAuth() });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "r" })), "r");
    const grants = okTokens(world).map((t) => t.grant);
    assert.equal(grants[0], "authorization_code");
    assert.ok(grants.slice(1).includes("refresh_token"), `grants ${grants}`);
    assert.equal(new Set(okTokens(world).map((t) => t.dpopJkt)).size, 1);
    assert.equal(world.count("/as/authorize"), 1);
    noFailures(world);
  });

  scenario("a DPoP challenge (WWW-Authenticate: DPoP algs, resource_metadata) starts the same sign-in", { dpop: true, challenge: (w) => `DPoP algs="ES256", resource_metadata="${w.prmUrl}", scope="mcp:read"` }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "2026-07-28", auth: dpopAuth() });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "c" })), "c");
    assert.equal(world.requests("/as/authorize")[0].query.scope, "mcp:read");
    noFailures(world);
  });

  scenario("DPoP with client_credentials and private_key_jwt: both proofs and the client assertion verified", { dpop: true, asNonce: true }, async (h) => {
    const { world } = h;
    const { pair, publicKey } = await cryptoKeyPair();
    world.addClient("as", "signer", { publicKey, alg: "ES256" });
    const c = h.client({ mode: "2026-07-28", auth: { dpop: true, grant: { type: "client_credentials", clientId: "signer", privateKey: pair.privateKey } } });
    await c.connect();
    assert.match(text(await c.callTool("whoami", {})), /^signer @/);
    assert.deepEqual(world.tokenRequests.map((t) => t.status), [400, 200]);
    // The nonce retry signs a new client assertion (the first jti may be used up).
    const jtis = world.tokenRequests.map((t) => decodeJwt(t.form.client_assertion).claims.jti);
    assert.notEqual(jtis[0], jtis[1]);
    noFailures(world);
    assert.equal(oneKey(world), okTokens(world)[0].dpopJkt);
  });

  scenario("without dpop the same AS issues nothing (its proof is required): token_error invalid_dpop_proof", { dpop: true }, async (h) => {
    const c = h.client({ mode: "legacy", auth: { ...dpopAuth(), dpop: false } });
    const e = await h.fails(c.connect(), "token_error");
    assert.equal(e.data.oauthError, "invalid_dpop_proof");
  });
});
