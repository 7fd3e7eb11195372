// The grants without a user (client_credentials with a secret or a private_key_jwt assertion,
// jwt_bearer with the application's assertion or an ID-JAG from an enterprise IdP) and DPoP, of
// the built package in Node (pkg/nodejs), against tests/js/oauth_world.mjs: its AS verifies client
// assertion signatures (ES256 raw r||s, RS256) and DPoP proofs with node:crypto, its IdP does the
// RFC 8693 exchange, its MCP server checks DPoP-bound tokens (ath, htm, htu, jti, the key). This
// file: client_credentials; auth-jwt-bearer.test.mjs: jwt_bearer and ID-JAG; auth-dpop.test.mjs:
// DPoP; auth-grants-arguments.test.mjs: argument errors; what they share in auth-grants-common.mjs.
//
// Every scenario also checks that no secret (client secret, private key PEM, assertion, ID token,
// ID-JAG, access or refresh token, DPoP proof) shows in an error's message or data, in anything
// given to messageHandler, or in client.authorization.
//
//   Env: MCP_PKG_NODE (tests/js/peers.mjs); AUTH_TEST_PORT (the world's port, default 0).
import { describe } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { rejection, text } from "./peers.mjs";
import { decodeJwt } from "./oauth_world.mjs";
import { sleep, pemPair, cryptoKeyPair, pemLines, scenario, tokenPosts, okTokens, calls, noFailures, noUserFlow } from "./auth-grants-common.mjs";

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
