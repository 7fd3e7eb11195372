// The grants without a user (client_credentials with a secret or a private_key_jwt assertion,
// jwt_bearer with the application's assertion or an ID-JAG from an enterprise IdP) and DPoP, of
// the built package in Node (pkg/nodejs), against tests/js/oauth_world.mjs: its AS verifies client
// assertion signatures (ES256 raw r||s, RS256) and DPoP proofs with node:crypto, its IdP does the
// RFC 8693 exchange, its MCP server checks DPoP-bound tokens (ath, htm, htu, jti, the key).
//
// Every scenario also checks that no secret (client secret, private key PEM, assertion, ID token,
// ID-JAG, access or refresh token, DPoP proof) shows in an error's message or data, in anything
// given to messageHandler, or in client.authorization.
//
//   Env: MCP_PKG_NODE (tests/js/peers.mjs); AUTH_TEST_PORT (the world's port, default 0).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, KeyObject } from "node:crypto";
import { pkg, rejection, text } from "./peers.mjs";
import { startWorld, decodeJwt, jwkThumbprint } from "./oauth_world.mjs";
import { checkStatus, dump, scenarios } from "./auth-harness.mjs";

const { Client, McpError, authorizeHeadless, memoryStorage, idJagAssertion } = pkg;

const REDIRECT = "http://127.0.0.1/callback";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const subtle = globalThis.crypto.subtle;

// ---- keys ----------------------------------------------------------------------------------------

/** A PKCS#8 PEM private key and its node:crypto public key. */
function pemPair(kind) {
  const { privateKey, publicKey } =
    kind === "ES256"
      ? generateKeyPairSync("ec", { namedCurve: "P-256" })
      : generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { pem: privateKey.export({ type: "pkcs8", format: "pem" }), publicKey };
}

/** A non-extractable ES256 CryptoKey pair (WebCrypto) and its public key as a KeyObject. */
async function cryptoKeyPair() {
  const pair = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  return { pair, publicKey: KeyObject.from(pair.publicKey) };
}

/** The lines of a PEM body: each is a secret that must not show anywhere. */
const pemLines = (pem) => pem.split("\n").filter((l) => l && !l.startsWith("-----"));

// ---- the harness (auth-harness.mjs) -------------------------------------------------------------

// Clients get the auth option as given: no redirectUri, no authorize function.
const scenario = scenarios();

const form = (r) => new URLSearchParams(r.body);
const tokenPosts = (world) => world.requests("/as/token");
const okTokens = (world) => world.tokenRequests.filter((r) => r.status === 200);
const calls = (world, method = "tools/call") => world.mcp().filter((r) => r.rpc === method);
/** Nothing refused by the world but stale or missing nonces (those are asserted where wanted). */
const noFailures = (world) =>
  assert.deepEqual(world.failures.filter((f) => !/: nonce /.test(f)), [], "the world refused something");

/** The grant's sign-in made no use of the user flow: no registration, no authorization page. */
function noUserFlow(world) {
  assert.equal(world.count((r) => r.path.endsWith("/register")), 0, "no registration");
  assert.equal(world.count((r) => r.path.endsWith("/authorize")), 0, "no authorization page");
}

// ---- client_credentials ----------------------------------------------------------------------------

describe("client_credentials", () => {
  for (const mode of ["legacy", "2026-07-28"]) {
    scenario(`${mode}: a client secret, Basic by default; scope and resource sent; no registration, no authorization page`, {}, async (h) => {
      const { world } = h;
      world.addClient("as", "m2m", { secret: "cs-m2m-basic-secret-1" });
      const c = h.client({ mode, auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-m2m-basic-secret-1" } } });
      await c.connect();
      assert.equal(c.era, mode === "legacy" ? "legacy" : "modern");
      assert.match(text(await c.callTool("whoami", {})), new RegExp(`^m2m @ ${world.issuer("as")} scope=mcp:read$`));
      assert.equal(world.tokenRequests.length, 1);
      const [t] = world.tokenRequests;
      assert.equal(t.grant, "client_credentials");
      assert.equal(t.clientAuth, "basic");
      assert.equal(t.clientId, "m2m");
      assert.equal(t.form.client_secret, undefined, "Basic: no secret in the body");
      assert.equal(t.form.scope, "mcp:read");
      assert.equal(t.form.resource, world.url);
      const [post] = tokenPosts(world);
      assert.equal(post.headers.authorization, `Basic ${Buffer.from("m2m:cs-m2m-basic-secret-1").toString("base64")}`);
      noUserFlow(world);
      const s = h.status(c);
      assert.equal(s.issuer, world.issuer("as"));
      assert.equal(s.scope, "mcp:read");
      assert.ok(s.expiresAt > Date.now());
      // After the token, every MCP request carries it.
      const mcp = world.mcp();
      assert.equal(mcp[0].status, 401);
      assert.ok(mcp.slice(1).every((r) => r.authorized), "every request after the token carries it");
      noFailures(world);
    });
  }

  scenario("method client_secret_post: client_id and client_secret in the body, no Authorization header", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m-post", { secret: "cs-m2m-post-secret-1" });
    const c = h.client({
      mode: "2026-07-28",
      auth: { grant: { type: "client_credentials", clientId: "m2m-post", clientSecret: "cs-m2m-post-secret-1", method: "client_secret_post" } },
    });
    await c.connect();
    assert.match(text(await c.callTool("whoami", {})), /^m2m-post @/);
    const [t] = world.tokenRequests;
    assert.equal(t.clientAuth, "post");
    assert.equal(t.form.client_id, "m2m-post");
    assert.equal(t.form.client_secret, "cs-m2m-post-secret-1");
    assert.equal(tokenPosts(world)[0].headers.authorization, undefined);
  });

  for (const method of [undefined, "client_secret_basic"]) {
    scenario(
      `an AS listing only client_secret_post overrides the basic preference (method ${method ?? "default"})`,
      { authMethods: ["client_secret_post"] },
      async (h) => {
        const { world } = h;
        world.addClient("as", "m2m", { secret: "cs-only-post-secret-1" });
        const c = h.client({
          mode: "legacy",
          auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-only-post-secret-1", ...(method ? { method } : {}) } },
        });
        await c.connect();
        assert.deepEqual(world.tokenRequests.map((t) => t.clientAuth), ["post"]);
        assert.equal(tokenPosts(world)[0].headers.authorization, undefined);
      },
    );
  }

  scenario("an AS listing only client_secret_basic overrides a post preference", { authMethods: ["client_secret_basic"] }, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-only-basic-secret-1" });
    const c = h.client({
      mode: "legacy",
      auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-only-basic-secret-1", method: "client_secret_post" } },
    });
    await c.connect();
    assert.deepEqual(world.tokenRequests.map((t) => t.clientAuth), ["basic"]);
  });

  /** private_key_jwt: the assertion of each successful token request, checked by the world too. */
  function assertionsOf(world, clientId) {
    return world.tokenRequests
      .filter((t) => t.clientAuth === "private_key_jwt")
      .map((t) => {
        assert.equal(t.form.client_assertion_type, "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
        assert.equal(t.form.client_id, clientId);
        assert.equal(t.form.client_secret, undefined);
        const jws = decodeJwt(t.form.client_assertion);
        assert.ok(jws, "a compact JWS");
        assert.equal(jws.claims.iss, clientId);
        assert.equal(jws.claims.sub, clientId);
        assert.equal(jws.claims.aud, world.issuer("as"), "aud is the AS issuer, verbatim");
        assert.ok(jws.claims.exp > jws.claims.iat);
        assert.ok(Math.abs(jws.claims.iat - Date.now() / 1000) < 60);
        return jws;
      });
  }

  for (const mode of ["legacy", "2026-07-28"]) {
    scenario(`${mode}: private_key_jwt with a non-extractable ES256 CryptoKey; a token that expires brings a new assertion (new jti)`, {}, async (h) => {
      const { world } = h;
      const { pair, publicKey } = await cryptoKeyPair();
      assert.equal(pair.privateKey.extractable, false);
      world.addClient("as", "signer", { publicKey, alg: "ES256" });
      const c = h.client({ mode, auth: { grant: { type: "client_credentials", clientId: "signer", privateKey: pair.privateKey, algorithm: "ES256" } } });
      await c.connect();
      assert.match(text(await c.callTool("whoami", {})), /^signer @/);
      world.expireAll();
      assert.match(text(await c.callTool("whoami", {})), /^signer @/);
      const jws = assertionsOf(world, "signer");
      assert.equal(jws.length, 2);
      assert.equal(jws[0].header.alg, "ES256");
      assert.equal(jws[0].signature.length, 64, "ES256: raw r||s, 64 bytes");
      assert.notEqual(jws[0].claims.jti, jws[1].claims.jti);
      assert.deepEqual(world.tokenRequests.map((t) => t.status), [200, 200]);
      noFailures(world);
      noUserFlow(world);
    });
  }

  for (const alg of ["ES256", "RS256"]) {
    scenario(`private_key_jwt with a PKCS#8 PEM (${alg}): verified by the AS; the PEM shows nowhere`, {}, async (h) => {
      const { world } = h;
      const { pem, publicKey } = pemPair(alg);
      h.secret(pemLines(pem));
      world.addClient("as", `pem-${alg}`, { publicKey, alg });
      const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: `pem-${alg}`, privateKey: pem, algorithm: alg } } });
      await c.connect();
      assert.match(text(await c.callTool("whoami", {})), new RegExp(`^pem-${alg} @`));
      const [jws] = assertionsOf(world, `pem-${alg}`);
      assert.equal(jws.header.alg, alg);
      assert.equal(jws.signature.length, alg === "ES256" ? 64 : 256);
      noFailures(world);
    });
  }

  scenario("private_key_jwt with the wrong key → token_error invalid_client, one token request", {}, async (h) => {
    const { world } = h;
    const { pem } = pemPair("ES256");
    const { publicKey } = pemPair("ES256");
    h.secret(pemLines(pem));
    world.addClient("as", "signer", { publicKey, alg: "ES256" });
    const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: "signer", privateKey: pem } } });
    const e = await h.fails(c.connect(), "token_error");
    assert.equal(e.data.oauthError, "invalid_client");
    assert.equal(world.tokenRequests.length, 1);
    assert.deepEqual(world.failures, ["client assertion: signature"]);
    assert.equal(c.authorization, null);
  });

  for (const [label, pem, re] of [
    ["SEC1 (BEGIN EC PRIVATE KEY)", () => generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "sec1", format: "pem" }), /PKCS#8/],
    ["not a PEM", () => "this-is-not-a-pem-key-material-123456", /PKCS#8 PEM/],
    ["an RSA PEM with algorithm ES256", () => pemPair("RS256").pem, /privateKey/],
  ]) {
    scenario(`a privateKey that does not import (${label}) → input error at first use, no token request, no key material in it`, {}, async (h) => {
      const { world } = h;
      const key = pem();
      h.secret(key.includes("-----") ? pemLines(key) : [key]);
      const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: "signer", privateKey: key, algorithm: "ES256" } } });
      const e = await h.fails(c.connect(), "input");
      assert.match(e.message, re);
      assert.equal(world.tokenRequests.length, 0);
    });
  }

  scenario("a 401 after the token expired at the server → one new client_credentials token, the call resent once", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-expiry-secret-1" });
    const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-expiry-secret-1" } } });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "a" })), "a");
    world.expireAll();
    assert.equal(text(await c.callTool("echo", { text: "b" })), "b");
    assert.deepEqual(calls(world).map((r) => r.status), [200, 401, 200]);
    assert.deepEqual(world.tokenRequests.map((t) => `${t.grant} ${t.status}`), ["client_credentials 200", "client_credentials 200"]);
    noUserFlow(world);
    assert.equal(text(await c.callTool("echo", { text: "c" })), "c");
    assert.equal(world.tokenRequests.length, 2, "the new token is kept");
  });

  scenario("a token that expires on the client's clock (expires_in 1) is renewed before the next call: never sent expired, no second 401", { expiresIn: 1 }, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-short-secret-1" });
    const c = h.client({ mode: "2026-07-28", auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-short-secret-1" } } });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "a" })), "a");
    assert.equal(world.tokenRequests.length, 1, "the first token is not renewed within the call that got it");
    await sleep(1100);
    assert.equal(text(await c.callTool("echo", { text: "b" })), "b");
    assert.equal(world.tokenRequests.length, 2);
    assert.deepEqual(calls(world).map((r) => [r.status, r.headers.authorization === undefined]), [[401, true], [200, false], [200, false]]);
  });

  scenario("the server refuses every token: the call fails, with a bounded number of token and MCP requests", { refuseTokens: true }, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-refused-secret-1" });
    const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-refused-secret-1" } } });
    const e = await rejection(c.connect());
    h.seen.push(e);
    assert.equal(e.data?.kind, "unauthorized", e.message);
    assert.ok(world.tokenRequests.length >= 1 && world.tokenRequests.length <= 5, `${world.tokenRequests.length} token requests`);
    assert.ok(world.mcp().length <= 6, `${world.mcp().length} MCP requests`);
    const before = world.log.length;
    await sleep(300);
    assert.equal(world.log.length, before, "nothing more after the failure");
  });

  scenario("token endpoint 401 invalid_client → token_error with the description, one request", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-right-secret-1" });
    const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-wrong-secret-1" } } });
    h.secret("cs-wrong-secret-1");
    const e = await h.fails(c.connect(), "token_error");
    assert.equal(e.data.oauthError, "invalid_client");
    assert.match(e.message, /client authentication failed/);
    assert.equal(world.tokenRequests.length, 1);
  });

  scenario("an AS that does not list client_credentials in grant_types_supported → unsupported_grant, no token request", { grantTypes: ["authorization_code", "refresh_token"] }, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-unlisted-secret-1" });
    const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-unlisted-secret-1" } } });
    const e = await h.fails(c.connect(), "unsupported_grant");
    assert.match(e.message, /client_credentials/);
    assert.equal(world.tokenRequests.length, 0);
  });

  scenario("credentials bound to another issuer (grant.issuer) are not sent: issuer_mismatch, no token request", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-bound-secret-1" });
    const c = h.client({
      mode: "legacy",
      auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-bound-secret-1", issuer: world.issuer("as2") } },
    });
    await h.fails(c.connect(), "issuer_mismatch");
    assert.equal(world.tokenRequests.length, 0);
    assert.equal(world.count((r) => r.path.endsWith("/token")), 0);
  });

  scenario("grant.issuer equal to the AS: used", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-bound-secret-2" });
    const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-bound-secret-2", issuer: world.issuer("as") } } });
    await c.connect();
    assert.equal(okTokens(world).length, 1);
  });

  scenario("an AS that also returns a refresh token: tokens keep working after the server expires them", { grantRefresh: true }, async (h) => {
    const { world } = h;
    world.addClient("as", "m2m", { secret: "cs-with-refresh-1" });
    const c = h.client({ mode: "legacy", auth: { grant: { type: "client_credentials", clientId: "m2m", clientSecret: "cs-with-refresh-1" } } });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "a" })), "a");
    world.expireAll();
    assert.equal(text(await c.callTool("echo", { text: "b" })), "b");
    assert.deepEqual(calls(world).map((r) => r.status), [200, 401, 200]);
    // The refresh token is not redeemed without client credentials for it: a new grant instead.
    assert.deepEqual(world.tokenRequests.map((t) => t.grant), ["client_credentials", "client_credentials"]);
  });
});

// ---- jwt_bearer ------------------------------------------------------------------------------------

describe("jwt_bearer", () => {
  for (const mode of ["legacy", "2026-07-28"]) {
    scenario(`${mode}: the assertion callback gets { issuer, resource, scope }; its JWT goes as the assertion`, {}, async (h) => {
      const { world } = h;
      world.addClient("as", "workload");
      const asked = [];
      const c = h.client({
        mode,
        auth: {
          grant: {
            type: "jwt_bearer",
            clientId: "workload",
            assertion: async (req) => {
              asked.push(req);
              return world.assertion({ aud: req.issuer });
            },
          },
        },
      });
      await c.connect();
      assert.match(text(await c.callTool("whoami", {})), /^workload @/);
      assert.deepEqual(asked, [{ issuer: world.issuer("as"), resource: world.url, scope: "mcp:read" }]);
      const [t] = world.tokenRequests;
      assert.equal(t.grant, JWT_BEARER);
      assert.ok(world.assertions.has(t.form.assertion));
      assert.equal(t.form.scope, "mcp:read");
      assert.equal(t.form.resource, world.url);
      assert.equal(t.clientAuth, "none");
      assert.equal(t.form.client_id, "workload");
      noUserFlow(world);
      // A new token asks the callback again.
      world.expireAll();
      assert.match(text(await c.callTool("whoami", {})), /^workload @/);
      assert.equal(asked.length, 2);
      assert.equal(okTokens(world).length, 2);
    });
  }

  scenario("with a clientSecret the jwt_bearer request authenticates with Basic", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "workload", { secret: "cs-workload-secret-1" });
    const c = h.client({
      mode: "legacy",
      auth: { grant: { type: "jwt_bearer", clientId: "workload", clientSecret: "cs-workload-secret-1", assertion: () => world.assertion() } },
    });
    await c.connect();
    assert.deepEqual(world.tokenRequests.map((t) => [t.grant, t.clientAuth, t.status]), [[JWT_BEARER, "basic", 200]]);
  });

  scenario("a token endpoint invalid_grant → token_error, exactly one token request (a refused assertion is not sent again)", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "workload");
    let n = 0;
    const refused = h.secret("eyJhbGciOiJub25lIn0.eyJzdWIiOiJub2JvZHkifQ.refused-assertion");
    const c = h.client({ mode: "legacy", auth: { grant: { type: "jwt_bearer", clientId: "workload", assertion: () => (n++, refused) } } });
    const e = await h.fails(c.connect(), "token_error");
    assert.equal(e.data.oauthError, "invalid_grant");
    assert.match(e.message, /unknown assertion/);
    assert.equal(world.tokenRequests.length, 1);
    assert.equal(n, 1);
    assert.equal(c.authorization, null);
  });

  scenario("the callback throws → assertion_error, no token request", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "workload");
    const c = h.client({
      mode: "legacy",
      auth: { grant: { type: "jwt_bearer", clientId: "workload", assertion: () => { throw new Error("workload identity unavailable"); } } },
    });
    const e = await h.fails(c.connect(), "assertion_error");
    assert.match(e.message, /workload identity unavailable/);
    assert.equal(world.tokenRequests.length, 0);
    const c2 = h.client({
      mode: "legacy",
      auth: { grant: { type: "jwt_bearer", clientId: "workload", assertion: () => Promise.reject(new Error("metadata server down")) } },
    });
    assert.match((await h.fails(c2.connect(), "assertion_error")).message, /metadata server down/);
    assert.equal(world.tokenRequests.length, 0);
  });

  for (const [label, value] of [["\"\"", ""], ["42", 42], ["undefined", undefined], ["null", null], ["an object", { jwt: "x" }], ["a Promise of 7", Promise.resolve(7)]]) {
    scenario(`the callback returns ${label} → assertion_error, no token request`, {}, async (h) => {
      const { world } = h;
      world.addClient("as", "workload");
      const c = h.client({ mode: "2026-07-28", auth: { grant: { type: "jwt_bearer", clientId: "workload", assertion: () => value } } });
      await c.connect();
      const e = await h.fails(c.listTools(), "assertion_error");
      assert.match(e.message, /assertion/);
      assert.equal(world.tokenRequests.length, 0);
    });
  }

  scenario("an AS without the jwt-bearer grant type → unsupported_grant, the callback is not asked", { grantTypes: ["authorization_code", "client_credentials"] }, async (h) => {
    let n = 0;
    h.world.addClient("as", "workload");
    const c = h.client({ mode: "legacy", auth: { grant: { type: "jwt_bearer", clientId: "workload", assertion: () => (n++, h.world.assertion()) } } });
    await h.fails(c.connect(), "unsupported_grant");
    assert.equal(n, 0);
    assert.equal(h.world.tokenRequests.length, 0);
  });

  for (const mode of ["legacy", "2026-07-28"]) {
    scenario(`${mode}: idJagAssertion: the IdP gets the RFC 8693 exchange, the AS gets the ID-JAG with the client's Basic auth`, {}, async (h) => {
      const { world } = h;
      world.addClient("as", "mcp-app", { secret: "cs-mcp-app-secret-1" });
      const idToken = world.idToken();
      const c = h.client({
        mode,
        auth: {
          grant: {
            type: "jwt_bearer",
            clientId: "mcp-app",
            clientSecret: "cs-mcp-app-secret-1",
            assertion: idJagAssertion({
              idpTokenEndpoint: world.idpTokenEndpoint,
              idToken,
              idpClientId: world.idpClient.id,
              idpClientSecret: world.idpClient.secret,
            }),
          },
        },
      });
      await c.connect();
      assert.match(text(await c.callTool("whoami", {})), /^mcp-app @/);
      assert.equal(world.exchanges.length, 1);
      const [x] = world.exchanges;
      assert.equal(x.status, 200);
      assert.deepEqual(x.basic, [world.idpClient.id, world.idpClient.secret]);
      assert.equal(x.form.grant_type, "urn:ietf:params:oauth:grant-type:token-exchange");
      assert.equal(x.form.subject_token, idToken);
      assert.equal(x.form.subject_token_type, "urn:ietf:params:oauth:token-type:id_token");
      assert.equal(x.form.requested_token_type, "urn:ietf:params:oauth:token-type:id-jag");
      assert.equal(x.form.audience, world.issuer("as"));
      assert.equal(x.form.resource, world.url);
      assert.equal(x.form.client_secret, undefined, "the IdP client uses Basic");
      const [t] = world.tokenRequests;
      assert.equal(t.grant, JWT_BEARER);
      assert.equal(t.clientAuth, "basic");
      assert.equal(t.clientId, "mcp-app");
      assert.ok(world.idJags.has(t.form.assertion), "the assertion is the ID-JAG the IdP issued");
      assert.equal(world.idJags.get(t.form.assertion).audience, world.issuer("as"));
      const [post] = tokenPosts(world);
      assert.equal(post.headers.authorization, `Basic ${Buffer.from("mcp-app:cs-mcp-app-secret-1").toString("base64")}`);
      // The exchange happened before the AS request.
      const order = world.log.filter((r) => r.path === "/idp/token" || r.path === "/as/token").map((r) => r.path);
      assert.deepEqual(order, ["/idp/token", "/as/token"]);
      noUserFlow(world);
    });
  }

  scenario("idJagAssertion: the IdP refuses the exchange → an auth error naming it, no AS token request", { idpError: { status: 400, body: { error: "invalid_grant", error_description: "the ID token expired" } } }, async (h) => {
    const { world } = h;
    world.addClient("as", "mcp-app", { secret: "cs-mcp-app-secret-2" });
    const c = h.client({
      mode: "legacy",
      auth: {
        grant: {
          type: "jwt_bearer",
          clientId: "mcp-app",
          clientSecret: "cs-mcp-app-secret-2",
          assertion: idJagAssertion({ idpTokenEndpoint: world.idpTokenEndpoint, idToken: world.idToken(), idpClientId: world.idpClient.id, idpClientSecret: world.idpClient.secret }),
        },
      },
    });
    const e = await h.fails(c.connect(), "token_error");
    assert.match(e.message, /ID-JAG/);
    assert.match(e.message, /the ID token expired/);
    assert.equal(world.exchanges.length, 1);
    assert.equal(world.tokenRequests.length, 0);
  });

  scenario("idJagAssertion without idpClientSecret: the IdP client is identified by client_id alone", {}, async (h) => {
    const { world } = h;
    world.addClient("as", "mcp-app", { secret: "cs-mcp-app-secret-3" });
    const c = h.client({
      mode: "legacy",
      auth: {
        grant: {
          type: "jwt_bearer",
          clientId: "mcp-app",
          clientSecret: "cs-mcp-app-secret-3",
          assertion: idJagAssertion({ idpTokenEndpoint: world.idpTokenEndpoint, idToken: world.idToken(), idpClientId: "public-idp-client" }),
        },
      },
    });
    const e = await h.fails(c.connect(), "token_error");
    assert.equal(e.data.oauthError, "invalid_client");
    const [x] = world.exchanges;
    assert.equal(x.basic, null);
    assert.equal(x.form.client_id, "public-idp-client");
  });

  test("an idJagAssertion function called directly rejects (it is an option value, not a callback)", async () => {
    const f = idJagAssertion({ idpTokenEndpoint: "https://idp.example/token", idToken: "id-token-value-1", idpClientId: "c" });
    assert.equal(typeof f, "function");
    await assert.rejects(() => f({ issuer: "x" }), /used as auth\.grant\.assertion, not called/);
  });
});

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

// ---- argument errors --------------------------------------------------------------------------------

describe("argument errors", () => {
  const url = "http://127.0.0.1:1/mcp";
  const failsWith = (kind, re) => (e) => {
    assert.ok(e instanceof McpError, `not an McpError: ${e}`);
    assert.equal(e.data?.kind, kind, e.message);
    if (re) assert.match(e.message, re);
    return true;
  };
  const cc = { type: "client_credentials", clientId: "a", clientSecret: "s" };
  const jb = { type: "jwt_bearer", clientId: "a", assertion: () => "x" };
  const keyPairP = subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  const cases = [
    ["grant: 5", { grant: 5 }, "input", /options\.auth\.grant must be an object/],
    ["grant: \"client_credentials\"", { grant: "client_credentials" }, "input", /grant must be an object/],
    ["grant: []", { grant: [] }, "input", /grant must be an object/],
    ["grant: true", { grant: true }, "input", /grant must be an object/],
    ["grant.type: \"password\"", { grant: { ...cc, type: "password" } }, "unsupported_grant", /"password"/],
    ["grant.type: \"password\" without other fields", { grant: { type: "password" } }, "unsupported_grant", /"password"/],
    ["grant.type: \"refresh_token\"", { grant: { ...cc, type: "refresh_token" } }, "unsupported_grant", /type must be/],
    ["grant without type", { grant: { clientId: "a", clientSecret: "s" } }, "unsupported_grant", /missing/],
    ["grant.type: 5", { grant: { ...cc, type: 5 } }, "input", /type/],
    ["no clientId", { grant: { type: "client_credentials", clientSecret: "s" } }, "input", /grant\.clientId is required/],
    ["clientId: \"\"", { grant: { ...cc, clientId: "" } }, "input", /clientId is required/],
    ["clientId: 5", { grant: { ...cc, clientId: 5 } }, "input", /clientId/],
    ["client_credentials without secret or key", { grant: { type: "client_credentials", clientId: "a" } }, "input", /needs clientSecret or privateKey/],
    ["client_credentials with clientSecret \"\"", { grant: { type: "client_credentials", clientId: "a", clientSecret: "" } }, "input", /needs clientSecret or privateKey/],
    ["clientSecret: 5", { grant: { ...cc, clientSecret: 5 } }, "input", /clientSecret/],
    ["privateKey: 5", { grant: { type: "client_credentials", clientId: "a", privateKey: 5 } }, "input", /privateKey must be a CryptoKey or a PKCS#8 PEM string/],
    ["privateKey: {}", { grant: { type: "client_credentials", clientId: "a", privateKey: {} } }, "input", /privateKey must be/],
    ["privateKey: []", { grant: { type: "client_credentials", clientId: "a", privateKey: [] } }, "input", /privateKey must be/],
    ["algorithm: \"HS256\"", { grant: { type: "client_credentials", clientId: "a", privateKey: "x", algorithm: "HS256" } }, "input", /algorithm must be "ES256" or "RS256"/],
    ["algorithm: \"es256\"", { grant: { type: "client_credentials", clientId: "a", privateKey: "x", algorithm: "es256" } }, "input", /algorithm/],
    ["algorithm: 5", { grant: { ...cc, algorithm: 5 } }, "input", /algorithm/],
    ["method: \"private_key_jwt\"", { grant: { ...cc, method: "private_key_jwt" } }, "input", /method must be "client_secret_basic" or "client_secret_post"/],
    ["method: \"none\"", { grant: { ...cc, method: "none" } }, "input", /method must be/],
    ["method: 5", { grant: { ...cc, method: 5 } }, "input", /method/],
    ["issuer: 5", { grant: { ...cc, issuer: 5 } }, "input", /issuer/],
    ["jwt_bearer without assertion", { grant: { type: "jwt_bearer", clientId: "a" } }, "input", /assertion must be a function/],
    ["jwt_bearer with assertion: a string", { grant: { ...jb, assertion: "eyJ.a.b" } }, "input", /assertion must be a function/],
    ["jwt_bearer with assertion: {}", { grant: { ...jb, assertion: {} } }, "input", /assertion must be a function/],
    ["dpop: \"yes\"", { dpop: "yes" }, "input", /options\.auth\.dpop must be true or \{ keyPair \}/],
    ["dpop: 1", { dpop: 1 }, "input", /dpop must be/],
    ["dpop: {}", { dpop: {} }, "input", /dpop\.keyPair must be a CryptoKeyPair/],
    ["dpop: { keyPair: {} }", { dpop: { keyPair: {} } }, "input", /dpop\.keyPair must be a CryptoKeyPair/],
    ["dpop: { keyPair: { privateKey: 1, publicKey: 2 } }", { dpop: { keyPair: { privateKey: 1, publicKey: 2 } } }, "input", /keyPair/],
    ["dpop: []", { dpop: [] }, "input", /dpop/],
  ];
  for (const [label, auth, kind, re] of cases) {
    test(`new Client(url, { auth: { ${label} } }) → ${kind}`, () => {
      assert.throws(() => new Client(url, { auth: { redirectUri: REDIRECT, ...auth } }), failsWith(kind, re));
    });
  }

  test("no secret in the argument errors", () => {
    const secretText = "cs-argument-secret-123456";
    for (const grant of [
      { ...cc, clientSecret: secretText, method: "bogus" },
      { ...cc, clientSecret: secretText, algorithm: "HS1" },
      { type: "nope", clientId: "a", clientSecret: secretText },
      { type: "jwt_bearer", clientId: "a", clientSecret: secretText, assertion: secretText },
    ]) {
      try {
        new Client(url, { auth: { grant } });
        assert.fail("constructed");
      } catch (e) {
        assert.ok(e instanceof McpError);
        assert.ok(!dump(e).includes(secretText), dump(e));
      }
    }
  });

  test("redirectUri is not required with a grant (and is with authorization_code)", async () => {
    const { pair } = await cryptoKeyPair();
    const { pem } = pemPair("RS256");
    for (const grant of [
      cc,
      { type: "client_credentials", clientId: "a", privateKey: pair.privateKey },
      { type: "client_credentials", clientId: "a", privateKey: pem, algorithm: "RS256" },
      { type: "client_credentials", clientId: "a", clientSecret: "s", method: "client_secret_post", issuer: "https://as.example" },
      jb,
      { ...jb, assertion: idJagAssertion({ idpTokenEndpoint: "https://idp.example/token", idToken: "t", idpClientId: "c" }) },
    ]) {
      const c = new Client(url, { auth: { grant } });
      assert.equal(c.authorization, null);
      c.free();
    }
    assert.throws(() => new Client(url, { auth: { grant: { type: "authorization_code" } } }), failsWith("input", /redirectUri is required/));
    const c = new Client(url, { auth: { grant: cc, dpop: true } });
    c.free();
    const c2 = new Client(url, { auth: { grant: cc, dpop: { keyPair: await keyPairP } } });
    c2.free();
    const c3 = new Client(url, { auth: { grant: cc, dpop: false } });
    c3.free();
    const c4 = new Client(url, { auth: { grant: null, redirectUri: REDIRECT } });
    c4.free();
  });

  test("idJagAssertion checks its options", () => {
    const ok = { idpTokenEndpoint: "https://idp.example/token", idToken: "id-token-1", idpClientId: "c", idpClientSecret: "s" };
    assert.equal(typeof idJagAssertion(ok), "function");
    for (const endpoint of ["http://127.0.0.1:9/token", "http://localhost:8080/token", "http://[::1]/token"]) {
      assert.equal(typeof idJagAssertion({ ...ok, idpTokenEndpoint: endpoint }), "function", endpoint);
    }
    const bad = [
      [undefined, /idJagAssertion: pass \{ idpTokenEndpoint, idToken, idpClientId, idpClientSecret\? \}/],
      [null, /idJagAssertion: pass/],
      [5, /idJagAssertion: pass/],
      ["https://idp.example/token", /idJagAssertion: pass/],
      [[], /idJagAssertion: pass/],
      [{ ...ok, idpTokenEndpoint: undefined }, /idpTokenEndpoint is required/],
      [{ ...ok, idpTokenEndpoint: "" }, /idpTokenEndpoint is required/],
      [{ ...ok, idpTokenEndpoint: 5 }, /idpTokenEndpoint/],
      [{ ...ok, idpTokenEndpoint: "http://idp.example/token" }, /idpTokenEndpoint must be an https URL \(http only for loopback\)/],
      [{ ...ok, idpTokenEndpoint: "ftp://idp.example/token" }, /https/],
      [{ ...ok, idpTokenEndpoint: "not a url" }, /https/],
      [{ ...ok, idToken: undefined }, /idToken is required/],
      [{ ...ok, idToken: "" }, /idToken is required/],
      [{ ...ok, idToken: 5 }, /idToken/],
      [{ ...ok, idpClientId: undefined }, /idpClientId is required/],
      [{ ...ok, idpClientId: {} }, /idpClientId/],
      [{ ...ok, idpClientSecret: 5 }, /idpClientSecret/],
    ];
    for (const [arg, re] of bad) {
      assert.throws(() => idJagAssertion(arg), failsWith("input", re), JSON.stringify(arg));
    }
    // The ID token is not echoed in its errors.
    try {
      idJagAssertion({ ...ok, idToken: "secret-id-token-abcdef", idpTokenEndpoint: "http://idp.example/t" });
    } catch (e) {
      assert.ok(!dump(e).includes("secret-id-token-abcdef"));
    }
  });
});
