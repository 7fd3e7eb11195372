// The JWT bearer grant (RFC 7523) of the built package in Node (pkg/nodejs), as auth-grants.test.mjs:
// the application's assertion callback, and an ID-JAG from the enterprise IdP of
// tests/js/oauth_world.mjs (the RFC 8693 exchange). Every scenario checks that no secret shows
// (auth-harness.mjs).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { text } from "./peers.mjs";
import { idJagAssertion, JWT_BEARER, scenario, tokenPosts, okTokens, noUserFlow } from "./auth-grants-common.mjs";


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
