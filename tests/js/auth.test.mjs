// OAuth authorization of the built package in Node (pkg/nodejs), against a misbehaving OAuth
// world of our own (tests/js/oauth_world.mjs: an MCP resource server, its protected resource
// metadata and two authorization servers, each behaviour switchable per test): sign-in on each
// request a 401 can meet, both eras, and a misbehaving world. The rest of the auth option's tests:
// tokens over time in auth-tokens.test.mjs, authorizeWithPopup and storage in
// auth-popup-storage.test.mjs, argument errors in auth-arguments.test.mjs, the Python SDK's OAuth peer
// (tests/peers/oauth_server.py, peer `oauth` of peers.sh) in auth-peer.test.mjs; what they share in
// auth-common.mjs.
//
// Every scenario also checks that no secret (access or refresh token, client secret, code, PKCE
// verifier) shows in an error's message or data, in anything given to messageHandler, or in
// client.authorization, which never has a token field.
//
//   Env: MCP_PKG_NODE (tests/js/peers.mjs); AUTH_TEST_PORT (the world's port, default 0 = one
//        the OS assigns per scenario).
import { describe } from "node:test";
import assert from "node:assert/strict";
import { rejection, text } from "./peers.mjs";
import { memoryStorage, REDIRECT, scenario, bearerOf, rpcs, until } from "./auth-common.mjs";

// ---- sign-in on each request a 401 can meet, both eras -----------------------------------------------

describe("sign-in, both eras", () => {
  scenario("legacy: a 401 on initialize signs in headless (PKCE S256, resource, scope), then every request carries the token", {}, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy" });
    assert.equal(c.authorization, null);
    await c.connect();
    assert.equal(c.era, "legacy");
    assert.equal(text(await c.callTool("echo", { text: "hi" })), "hi");
    const s = h.status(c);
    assert.equal(s.issuer, world.issuer("as"));
    assert.equal(s.scope, "mcp:read");
    assert.ok(s.expiresAt > Date.now());
    // The order of the flow.
    const paths = world.log.map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(paths.slice(0, 7), [
      "POST /mcp",
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-authorization-server/as",
      "POST /as/register",
      "GET /as/authorize",
      "POST /as/token",
      "POST /mcp",
    ]);
    const [authz] = world.requests("/as/authorize");
    assert.equal(authz.query.response_type, "code");
    assert.equal(authz.query.code_challenge_method, "S256");
    assert.equal(authz.query.resource, world.url);
    assert.equal(authz.query.scope, "mcp:read");
    assert.equal(authz.query.redirect_uri, REDIRECT);
    const reg = JSON.parse(world.requests("/as/register")[0].body);
    assert.deepEqual(reg.redirect_uris, [REDIRECT]);
    assert.ok(reg.grant_types.includes("refresh_token"));
    const tokenForm = new URLSearchParams(world.requests("/as/token")[0].body);
    assert.equal(tokenForm.get("grant_type"), "authorization_code");
    assert.equal(tokenForm.get("resource"), world.url);
    // After the sign-in, every MCP request carries a valid token.
    const after = world.mcp().slice(1);
    assert.ok(after.length >= 3);
    for (const r of after) assert.ok(r.authorized, `${r.method} ${r.rpc} without a valid token`);
    assert.equal(world.count("/as/authorize"), 1);
  });

  scenario("2026-07-28 pinned: nothing on connect; a 401 on tools/list signs in and the retry is stamped for 2026", {}, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "2026-07-28" });
    await c.connect();
    assert.equal(world.mcp().length, 0, "no traffic on connect");
    const { tools } = await c.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["echo", "whoami", "write"]);
    assert.equal(text(await c.callTool("echo", { text: "modern" })), "modern");
    const mcp = world.mcp();
    assert.equal(mcp[0].status, 401);
    assert.ok(mcp.every((r) => r.era === "modern"), "every request stamped 2026");
    assert.ok(mcp.slice(1).every((r) => r.authorized && r.status === 200));
    assert.equal(world.count("/as/authorize"), 1);
    assert.equal(h.status(c).scope, "mcp:read");
  });

  scenario("auto: a 401 on server/discover signs in, then the probe is retried and the era is modern", {}, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "auto" });
    await c.connect();
    assert.equal(c.era, "modern");
    const discover = rpcs(world, "server/discover");
    assert.deepEqual(discover.map((r) => r.status), [401, 200]);
    assert.equal(world.count("/as/authorize"), 1);
    assert.equal(text(await c.callTool("echo", { text: "x" })), "x");
    assert.equal(rpcs(world, "initialize").length, 0);
  });

  for (const mode of ["legacy", "2026-07-28"]) {
    scenario(
      `${mode}: a 401 on a tools/call only (the rest is open) signs in and resends that call`,
      { protect: (_req, msg) => msg?.method === "tools/call" },
      async (h) => {
        const { world } = h;
        const c = h.client({ mode });
        await c.connect();
        await c.listTools();
        assert.equal(world.count("/as/authorize"), 0, "no sign-in before it is needed");
        assert.equal(text(await c.callTool("whoami", {})).split(" @ ")[1].split(" ")[0], world.issuer("as"));
        const calls = rpcs(world, "tools/call");
        assert.deepEqual(calls.map((r) => r.status), [401, 200]);
        assert.equal(bearerOf(calls[0]), undefined);
        assert.ok(calls[1].authorized);
        assert.equal(JSON.parse(calls[0].body).params.name, JSON.parse(calls[1].body).params.name);
      },
    );
  }

  scenario("legacy: a 401 on the GET stream signs in and the GET is sent again with the token", { protect: (req) => req.method === "GET" }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy" });
    await c.connect();
    await until(() => world.mcp().some((r) => r.method === "GET" && r.authorized), "a GET with a token");
    const gets = world.mcp().filter((r) => r.method === "GET");
    assert.equal(gets[0].status, 401);
    assert.equal(world.count("/as/authorize"), 1);
    assert.equal(text(await c.callTool("echo", { text: "after" })), "after");
  });

  scenario("legacy: a 401 on the DELETE of close() signs in and the DELETE is sent again with the token", { protect: (req) => req.method === "DELETE" }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy" });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "x" })), "x");
    assert.equal(world.count("/as/authorize"), 0);
    await c.close();
    await until(() => world.mcp().some((r) => r.method === "DELETE" && r.authorized), "a DELETE with a token");
    const deletes = world.mcp().filter((r) => r.method === "DELETE");
    assert.deepEqual(deletes.map((r) => r.status), [401, 200]);
  });

  scenario("2025-03-26 server: no PRM; the AS metadata at the server's origin is used", { prm: false, rootAs: true }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy" });
    await c.connect();
    assert.equal(h.status(c).issuer, world.origin);
    assert.equal(world.count("/authorize"), 1);
    assert.equal(world.requests("/authorize")[0].query.resource, undefined, "no PRM: no resource parameter");
  });
});

// ---- the world misbehaves ------------------------------------------------------------------------

describe("a misbehaving OAuth world", () => {
  scenario(
    "PRM for another server → resource_mismatch before any registration or authorization request",
    { prmResource: "http://127.0.0.1:1/other" },
    async (h) => {
      const e = await h.fails(h.client({ mode: "legacy" }).connect(), "resource_mismatch");
      assert.match(e.message, /127\.0\.0\.1:1\/other/);
      assert.equal(h.world.count((r) => r.path.endsWith("/register")), 0);
      assert.equal(h.world.count((r) => r.path.endsWith("/authorize")), 0);
      assert.equal(h.world.count((r) => r.path.endsWith("/token")), 0);
    },
  );

  scenario("AS metadata naming another issuer → issuer_mismatch, no authorization request", { metadataIssuer: "http://127.0.0.1:1/evil" }, async (h) => {
    await h.fails(h.client({ mode: "legacy" }).connect(), "issuer_mismatch");
    assert.equal(h.world.count("/as/register"), 0);
    assert.equal(h.world.count("/as/authorize"), 0);
  });

  scenario("AS without S256 → auth_metadata, no authorization request", { noS256: true }, async (h) => {
    const e = await h.fails(h.client({ mode: "legacy" }).connect(), "auth_metadata");
    assert.match(e.message, /S256/);
    assert.equal(h.world.count("/as/authorize"), 0);
    assert.equal(h.world.count("/as/register"), 0);
  });

  scenario("no AS metadata at any well-known URL → auth_metadata with data.tried (every URL and its status)", { asMetadata: false }, async (h) => {
    const { world } = h;
    const e = await h.fails(h.client({ mode: "legacy" }).connect(), "auth_metadata");
    assert.deepEqual(e.data.tried, [
      { url: `${world.origin}/.well-known/oauth-authorization-server/as`, status: 404 },
      { url: `${world.origin}/.well-known/openid-configuration/as`, status: 404 },
      { url: `${world.origin}/as/.well-known/openid-configuration`, status: 404 },
    ]);
    for (const t of e.data.tried) assert.ok(e.message.includes(t.url));
    assert.equal(world.count((r) => r.path.endsWith("/authorize")), 0);
  });

  scenario("no metadata at all (no PRM, no AS metadata, no default endpoints) → an auth error, no authorization request", { prm: false }, async (h) => {
    const { world } = h;
    const e = await rejection(h.client({ mode: "legacy" }).connect());
    h.seen.push(e);
    // The 2025-03-26 defaults (<origin>/register, /authorize, /token) are tried: registration
    // at the default endpoint is refused with 404.
    assert.equal(e.data?.kind, "registration_rejected", `${e.message} ${JSON.stringify(e.data)}`);
    assert.equal(e.data.status, 404);
    assert.deepEqual(
      world.log.filter((r) => r.path.startsWith("/.well-known/")).map((r) => `${r.path} ${r.status}`),
      [
        "/.well-known/oauth-protected-resource/mcp 404",
        "/.well-known/oauth-protected-resource 404",
        "/.well-known/oauth-authorization-server 404",
        "/.well-known/openid-configuration 404",
      ],
    );
    assert.equal(world.count("/authorize"), 0);
  });

  scenario(
    "registration refused (400 invalid_client_metadata) → registration_rejected with the description",
    { registration: { status: 400, body: { error: "invalid_client_metadata", error_description: "client_name is not acceptable here" } } },
    async (h) => {
      const e = await h.fails(h.client({ mode: "legacy" }).connect(), "registration_rejected");
      assert.match(e.message, /invalid_client_metadata/);
      assert.match(e.message, /client_name is not acceptable here/);
      assert.equal(e.data.oauthError, "invalid_client_metadata");
      assert.equal(h.world.count("/as/authorize"), 0);
    },
  );

  scenario(
    "token endpoint 400 invalid_grant → token_error with data.oauthError and the description",
    { tokenError: { status: 400, body: { error: "invalid_grant", error_description: "the code was already used" } } },
    async (h) => {
      const c = h.client({ mode: "legacy" });
      const e = await h.fails(c.connect(), "token_error");
      assert.equal(c.authorization, null);
      assert.equal(e.data.oauthError, "invalid_grant");
      assert.match(e.message, /the code was already used/);
      assert.equal(h.world.count("/as/token"), 1, "a failed code redemption is not retried");
    },
  );

  scenario("a callback with another state → state_mismatch; the code is never redeemed", { callbackState: "wrong" }, async (h) => {
    const c = h.client({ mode: "legacy" });
    await h.fails(c.connect(), "state_mismatch");
    assert.equal(h.world.count("/as/authorize"), 1);
    assert.equal(h.world.count("/as/token"), 0);
    assert.equal(c.authorization, null);
  });

  scenario("a callback with another iss → issuer_mismatch; the code is never redeemed", { callbackIss: "http://127.0.0.1:1/as" }, async (h) => {
    const c = h.client({ mode: "legacy" });
    await h.fails(c.connect(), "issuer_mismatch");
    assert.equal(h.world.count("/as/token"), 0);
    assert.equal(c.authorization, null);
  });

  for (const [mode, where] of [["legacy", "initialize"], ["auto", "server/discover"], ["2026-07-28", "tools/call"]]) {
    scenario(`a 401 without the auth option (${mode}, on ${where}) → unauthorized with data.resourceMetadata and data.scope`, {}, async (h) => {
      const c = h.client({ mode, auth: null });
      const e = await h.fails(mode === "2026-07-28" ? c.connect().then(() => c.callTool("echo", {})) : c.connect(), "unauthorized");
      assert.equal(e.data.resourceMetadata, h.world.prmUrl);
      assert.equal(e.data.scope, "mcp:read");
      assert.match(e.message, /auth option/);
      assert.deepEqual(h.world.log.map((r) => `${r.path} ${r.rpc} ${r.status}`), [`/mcp ${where} 401`], "nothing but the request itself");
    });
  }

  scenario("403 insufficient_scope with onInsufficientScope \"throw\" → insufficient_scope, no second authorization", {}, async (h) => {
    const c = h.client({ mode: "legacy", auth: { onInsufficientScope: "throw" } });
    await c.connect();
    const e = await h.fails(c.callTool("write", {}), "insufficient_scope");
    assert.match(JSON.stringify(e.data), /mcp:write/);
    assert.equal(h.world.count("/as/authorize"), 1);
    assert.equal(text(await c.callTool("echo", { text: "still" })), "still");
  });

  scenario("403 insufficient_scope (default \"reauthorize\") → one step-up with the union of the scopes", {}, async (h) => {
    const c = h.client({ mode: "2026-07-28" });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "a" })), "a");
    assert.equal(text(await c.callTool("write", {})), "written");
    const authz = h.world.requests("/as/authorize");
    assert.equal(authz.length, 2);
    assert.deepEqual(authz[1].query.scope.split(" ").sort(), ["mcp:read", "mcp:write"]);
    assert.equal(h.world.count("/as/register"), 1, "the registration is reused");
    assert.deepEqual(h.status(c).scope.split(" ").sort(), ["mcp:read", "mcp:write"]);
  });

  for (const maxStepUp of [undefined, 10]) {
    scenario(
      `a server that keeps answering 403 insufficient_scope (maxStepUp ${maxStepUp ?? "default"}) → at most 3 authorization requests, then insufficient_scope`,
      { alwaysInsufficient: true },
      async (h) => {
        const c = h.client({ mode: "legacy", auth: maxStepUp === undefined ? {} : { maxStepUp } });
        await c.connect();
        await h.fails(c.callTool("echo", { text: "x" }), "insufficient_scope");
        const n = h.world.count("/as/authorize");
        assert.ok(n >= 1 && n <= 3, `${n} authorization requests`);
      },
    );
  }

  scenario("authorize returns \"redirected\" → auth_redirect; finishAuthorization on a new client with the same storage signs in; a second one → state_mismatch", {}, async (h) => {
    const { world } = h;
    const storage = memoryStorage();
    const asked = [];
    const redirecting = ({ url, state, redirectUri, signal }) => {
      assert.equal(typeof state, "string");
      assert.equal(redirectUri, REDIRECT);
      assert.ok(signal instanceof AbortSignal);
      asked.push(url);
      return "redirected";
    };
    const first = h.client({ mode: "legacy", auth: { storage, authorize: redirecting } });
    const e = await h.fails(first.connect(), "auth_redirect");
    assert.match(e.message, /finishAuthorization/);
    assert.equal(asked.length, 1);
    // The "page load" at the AS, then the callback.
    const r = await fetch(asked[0], { redirect: "manual" });
    assert.equal(r.status, 302);
    const callback = r.headers.get("location");
    assert.ok(callback.startsWith(`${REDIRECT}?`));
    const second = h.client({ mode: "legacy", auth: { storage, authorize: () => assert.fail("no second sign-in") } });
    await second.finishAuthorization(new URL(callback));
    assert.equal(h.status(second).issuer, world.issuer("as"));
    await second.connect();
    assert.equal(text(await second.callTool("echo", { text: "back" })), "back");
    assert.equal(world.count("/as/authorize"), 1);
    assert.equal(world.count("/as/token"), 1);
    await h.fails(second.finishAuthorization(callback), "state_mismatch");
    const third = h.client({ mode: "legacy", auth: { storage } });
    await h.fails(third.finishAuthorization(callback), "state_mismatch");
    assert.equal(world.count("/as/token"), 1, "a replayed callback never reaches the token endpoint");
  });
});
