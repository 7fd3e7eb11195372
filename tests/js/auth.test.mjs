// OAuth authorization of the built package in Node (pkg/nodejs), against a misbehaving OAuth
// world of our own (tests/js/oauth_world.mjs: an MCP resource server, its protected resource
// metadata and two authorization servers, each behaviour switchable per test) and, when it runs,
// the Python SDK's OAuth peer (tests/peers/oauth_server.py, peer `oauth` of peers.sh).
//
// Every scenario also checks that no secret (access or refresh token, client secret, code, PKCE
// verifier) shows in an error's message or data, in anything given to messageHandler, or in
// client.authorization, which never has a token field.
//
//   Env: MCP_PKG_NODE (tests/js/peers.mjs); AUTH_TEST_PORT (the world's port, default 0 = one
//        the OS assigns per scenario); PEERS_OAUTH_PORT / PEERS_OAUTH_AS_PORT (the Python peer,
//        default 18106 / 18107; its tests are skipped when nothing answers there).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { pkg, rejection, text } from "./peers.mjs";
import { startWorld } from "./oauth_world.mjs";
import { checkStatus, dump, scenarios } from "./auth-harness.mjs";

const {
  Client,
  McpError,
  authorizeHeadless,
  authorizeWithPopup,
  authorizeWithRedirect,
  completeAuthorizationPopup,
  memoryStorage,
  webStorage,
  indexedDbStorage,
} = pkg;

const REDIRECT = "http://127.0.0.1/callback";
const CLIENT_METADATA = { client_name: "auth.test.mjs", redirect_uris: [REDIRECT] };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- the harness (auth-harness.mjs) -------------------------------------------------------------

// Clients get the auth option with headless sign-in and this file's client metadata unless a
// test passes auth: null.
const scenario = scenarios({
  requireSecrets: true,
  options: ({ auth, ...rest }) => ({
    ...rest,
    ...(auth === null ? {} : { auth: { clientMetadata: CLIENT_METADATA, authorize: authorizeHeadless(), ...auth } }),
  }),
});

const bearerOf = (r) => /^Bearer (.+)$/.exec(r.headers.authorization ?? "")?.[1];
const rpcs = (world, method) => world.mcp().filter((r) => r.rpc === method);
/** Waits until `pred()` holds (polling), failing after `ms`. */
async function until(pred, what, ms = 5000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

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

// ---- tokens over time -----------------------------------------------------------------------------

// ---- oversized answers: refused while reading, not after -----------------------------------------

const MiB = 1024 * 1024;
/** The caps of the flow: token, registration and IdP answers (src/auth/tokens.rs
 *  MAX_RESPONSE_BYTES), metadata documents (src/auth/metadata.rs MAX_DOCUMENT_BYTES). */
const TOKEN_CAP = 64 * 1024;
const METADATA_CAP = 256 * 1024;

/** The world's oversized answer to `path`, once its connection closed (failing after `ms`). */
async function streamEnded(world, path, ms = 10_000) {
  await until(() => world.streams.some((s) => s.path === path), `an oversized answer to ${path}`);
  const s = world.streams.find((x) => x.path === path);
  const ended = await Promise.race([s.done, sleep(ms).then(() => null)]);
  assert.ok(ended, `the client still reads ${path} after ${ms} ms (${s.written} bytes written)`);
  return s;
}

/** A fetch whose Responses have no body stream, as some polyfills make them. */
async function streamlessFetch(url, init) {
  const r = await fetch(url, init);
  Object.defineProperty(r, "body", { value: null });
  return r;
}

describe("oversized answers are refused while reading", () => {
  scenario(
    "a 100 MiB token response → auth_metadata naming the token endpoint and the 64 KiB cap; the connection closes after about the cap; RSS grows < 30 MiB",
    {},
    async (h) => {
      const { world } = h;
      // One sign-in with ordinary answers first: what follows measures only the refusal.
      const warm = h.client({ mode: "legacy" });
      await warm.connect();
      await warm.close();
      world.opts.oversized = { path: "/as/token" };
      const c = h.client({ mode: "legacy", auth: { storage: memoryStorage() } });
      const rss = process.memoryUsage().rss;
      const e = await h.fails(c.connect(), "auth_metadata");
      const grown = process.memoryUsage().rss - rss;
      const s = await streamEnded(world, "/as/token");
      const endpoint = `${world.issuer("as")}/token`;
      assert.ok(e.message.includes(endpoint), e.message);
      assert.match(e.message, /larger than 65536 bytes \(reading stopped there; the rest was cancelled unread\)/);
      assert.equal(e.data.url, endpoint);
      assert.equal(e.data.maxBytes, TOKEN_CAP);
      assert.ok(s.closedEarly, "the client closed the connection");
      assert.ok(s.written < 16 * TOKEN_CAP, `${s.written} bytes written before the client closed`);
      console.log(`[oversized token] ${s.written} bytes written before the client closed; RSS ${grown >= 0 ? "+" : ""}${(grown / MiB).toFixed(1)} MiB`);
      assert.ok(grown < 30 * MiB, `RSS grew ${(grown / MiB).toFixed(1)} MiB`);
      assert.equal(c.authorization, null);
    },
  );

  scenario(
    "a 100 MiB authorization server metadata document → refused after about the 256 KiB cap; no registration, no authorization request",
    { oversized: { path: "/.well-known/oauth-authorization-server/as" } },
    async (h) => {
      const { world } = h;
      const e = await h.fails(h.client({ mode: "legacy" }).connect(), "auth_metadata");
      const s = await streamEnded(world, "/.well-known/oauth-authorization-server/as");
      assert.ok(e.message.includes(`${world.origin}/.well-known/oauth-authorization-server/as`), e.message);
      assert.ok(s.closedEarly, "the client closed the connection");
      console.log(`[oversized metadata] ${s.written} bytes written before the client closed: ${e.message}`);
      assert.ok(s.written < 16 * METADATA_CAP, `${s.written} bytes written before the client closed`);
      assert.equal(world.count("/as/register"), 0);
      assert.equal(world.count("/as/authorize"), 0);
    },
  );

  scenario(
    "a fetch without body streams (some polyfills): answers are read whole by text(), and the cap is checked after",
    {},
    async (h) => {
      const { world } = h;
      const c = h.client({ mode: "legacy", auth: { fetch: streamlessFetch } });
      await c.connect();
      assert.equal(text(await c.callTool("echo", { text: "through text()" })), "through text()");
      world.opts.oversized = { path: "/as/token", totalBytes: MiB, intervalMs: 0 };
      const c2 = h.client({ mode: "legacy", auth: { fetch: streamlessFetch, storage: memoryStorage() } });
      const e = await h.fails(c2.connect(), "auth_metadata");
      assert.match(e.message, /larger than 65536 bytes/);
      const s = await streamEnded(world, "/as/token");
      assert.equal(s.closedEarly, false, "read whole: no stream to cancel");
    },
  );
});

describe("refresh, re-authorization, another AS, concurrency", () => {
  scenario("a token about to expire is refreshed (grant_type=refresh_token, resource) before the next request", { expiresIn: 61 }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy" });
    await c.connect();
    const firstExpiry = h.status(c).expiresAt;
    assert.equal(world.count("/as/token"), 1);
    await sleep(1100); // now within the client's minute of skew
    const before = world.log.length;
    assert.equal(text(await c.callTool("echo", { text: "fresh" })), "fresh");
    const later = world.log.slice(before);
    assert.deepEqual(later.map((r) => `${r.method} ${r.path}`).slice(0, 2), ["POST /as/token", "POST /mcp"]);
    const form = new URLSearchParams(later[0].body);
    assert.equal(form.get("grant_type"), "refresh_token");
    assert.equal(form.get("resource"), world.url);
    assert.equal(later[1].status, 200);
    assert.ok(h.status(c).expiresAt > firstExpiry + 3000_000);
    assert.equal(world.count("/as/authorize"), 1);
  });

  scenario("expires_in 1: the client refreshes before using the token, and calls succeed", { expiresIn: 1 }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "2026-07-28" });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "x" })), "x");
    const grants = world.requests("/as/token").map((r) => new URLSearchParams(r.body).get("grant_type"));
    assert.deepEqual(grants, ["authorization_code", "refresh_token"]);
    const withToken = world.mcp().filter((r) => bearerOf(r));
    assert.ok(withToken.length >= 1);
    assert.ok(withToken.every((r) => r.status === 200 && r.grant === "refresh_token"), "no request went out with the 1 s token");
  });

  scenario(
    "refresh refused with invalid_grant → the tokens are dropped and the client signs in again",
    { expiresIn: 61, refreshError: { status: 400, body: { error: "invalid_grant", error_description: "refresh token revoked" } } },
    async (h) => {
      const { world } = h;
      const c = h.client({ mode: "legacy" });
      await c.connect();
      await sleep(1100);
      world.opts.expiresIn = 3600;
      assert.equal(text(await c.callTool("echo", { text: "again" })), "again");
      const grants = world.requests("/as/token").map((r) => new URLSearchParams(r.body).get("grant_type"));
      assert.deepEqual(grants, ["authorization_code", "refresh_token", "authorization_code"]);
      assert.equal(world.count("/as/authorize"), 2);
      assert.equal(world.count("/as/register"), 1);
    },
  );

  scenario("a revoked token (401 after it was accepted) is refreshed at the same AS, no new sign-in", {}, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy" });
    await c.connect();
    world.revokeAll();
    assert.equal(text(await c.callTool("echo", { text: "x" })), "x");
    assert.equal(world.count("/as/authorize"), 1);
    assert.deepEqual(
      world.requests("/as/token").map((r) => new URLSearchParams(r.body).get("grant_type")),
      ["authorization_code", "refresh_token"],
    );
  });

  scenario("a 401 after an accepted token with PRM now naming a second AS → registers there; the first client_id never reaches it (SEP-2352)", {}, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy" });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "one" })), "one");
    const firstId = world.requests("/as/authorize")[0].query.client_id;
    assert.match(firstId, /^as-client-/);
    world.opts.activeAs = "as2";
    world.revokeAll();
    assert.equal(text(await c.callTool("echo", { text: "two" })), "two");
    assert.equal(h.status(c).issuer, world.issuer("as2"));
    assert.equal(world.count("/as2/register"), 1);
    assert.equal(world.count("/as2/authorize"), 1);
    const toSecond = world.log.filter((r) => r.path.startsWith("/as2/") || r.path.endsWith("/as2"));
    assert.ok(toSecond.length >= 3);
    for (const r of toSecond) {
      const all = JSON.stringify([r.query, r.headers, r.body]);
      assert.ok(!all.includes(firstId), `${r.method} ${r.path} carried the first AS's client_id`);
      for (const s of world.secrets) {
        if (world.tokens.get(s)?.issuer === world.issuer("as") || world.refreshTokens.get(s)?.issuer === world.issuer("as")) {
          assert.ok(!all.includes(s), `${r.method} ${r.path} carried a token of the first AS`);
        }
      }
    }
    assert.equal(world.count("/as/token"), 1, "no refresh at the old AS once PRM names another");
  });

  scenario("5 parallel tool calls meeting a 401 → exactly one authorization request", { protect: (_req, msg) => msg?.method === "tools/call" }, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "legacy" });
    await c.connect();
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => c.callTool("echo", { text: `n${i}` })));
    assert.deepEqual(results.map(text), ["n1", "n2", "n3", "n4", "n5"]);
    assert.equal(world.count("/as/authorize"), 1);
    assert.equal(world.count("/as/register"), 1);
    assert.equal(world.count("/as/token"), 1);
  });

  scenario("5 parallel tool calls, 2026 pinned, every request 401 until signed in → exactly one authorization request", {}, async (h) => {
    const { world } = h;
    const c = h.client({ mode: "2026-07-28" });
    await c.connect();
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => c.callTool("echo", { text: `m${i}` })));
    assert.deepEqual(results.map(text), ["m1", "m2", "m3", "m4", "m5"]);
    assert.equal(world.count("/as/authorize"), 1);
  });
});

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

// ---- the real peer: the Python SDK's authorization server and resource server ---------------------

const OAUTH_PORT = Number(process.env.PEERS_OAUTH_PORT ?? 18106);
const OAUTH_AS_PORT = Number(process.env.PEERS_OAUTH_AS_PORT ?? 18107);
const OAUTH = `http://127.0.0.1:${OAUTH_PORT}/mcp`;
const OAUTH_AS = `http://127.0.0.1:${OAUTH_AS_PORT}`;
const peerUp = await fetch(`http://127.0.0.1:${OAUTH_PORT}/.well-known/oauth-protected-resource/mcp`)
  .then((r) => r.ok)
  .catch(() => false);
const stats = async () => (await fetch(`${OAUTH_AS}/test/stats`)).json();
/** `after` minus `before` for the counters of /test/stats. */
const delta = (before, after) => ({
  registrations: after.registrations - before.registrations,
  authorizations: after.authorization_requests - before.authorization_requests,
  code: (after.token_requests.authorization_code ?? 0) - (before.token_requests.authorization_code ?? 0),
  refresh: (after.token_requests.refresh_token ?? 0) - (before.token_requests.refresh_token ?? 0),
});

/**
 * A client of the Python peer whose auth.fetch (discovery, registration, tokens) records every
 * secret that passes, and whose messageHandler records everything: `check()` then asserts that
 * none of the secrets showed anywhere the application can see.
 */
function peerClient(mode, extra = {}) {
  const secrets = new Set();
  const seen = [];
  const keep = (s) => typeof s === "string" && s.length >= 8 && secrets.add(s);
  const recordingFetch = async (url, init) => {
    if (typeof init?.body === "string") {
      const form = new URLSearchParams(init.body);
      for (const k of ["code", "code_verifier", "refresh_token", "client_secret"]) keep(form.get(k));
    }
    const r = await fetch(url, init);
    const body = await r.clone().text();
    try {
      const j = JSON.parse(body);
      for (const k of ["access_token", "refresh_token", "client_secret"]) keep(j[k]);
    } catch {}
    return r;
  };
  const headless = authorizeHeadless();
  const c = new Client(OAUTH, {
    mode,
    messageHandler: (m) => seen.push(m),
    auth: {
      clientMetadata: { client_name: `auth.test.mjs ${mode}`, redirect_uris: [REDIRECT] },
      fetch: recordingFetch,
      authorize: async (req) => {
        const callback = await headless(req);
        keep(new URL(callback).searchParams.get("code"));
        return callback;
      },
      ...extra,
    },
  });
  const check = async (...more) => {
    seen.push(c.authorization, ...more);
    checkStatus(c.authorization);
    const texts = seen.map(dump);
    assert.ok(secrets.size >= 4, `recorded ${secrets.size} secrets`);
    for (const s of secrets) assert.ok(!texts.some((t) => t.includes(s)), "a secret leaked");
  };
  return { c, seen, check };
}

describe("the Python SDK's OAuth peer (tests/peers/oauth_server.py)", { skip: peerUp ? false : `nothing answers on ${OAUTH}` }, () => {
  for (const mode of ["legacy", "2026-07-28", "auto"]) {
    test(`${mode}: signs in headless, whoami, write_note steps up to mcp:write, refreshes after the short TTL, signOut`, { timeout: 60_000 }, async () => {
      const s0 = await stats();
      const { c, check } = peerClient(mode);
      await c.connect();
      assert.equal(c.era, mode === "legacy" ? "legacy" : "modern");
      const who = text(await c.callTool("whoami", {}));
      assert.match(who, /^client_id=\S+ scopes=/);
      assert.ok(who.includes("mcp:read"));
      const status = c.authorization;
      assert.equal(status.issuer, OAUTH_AS, "the issuer exactly as the AS states it");
      assert.ok(status.scope.split(" ").includes("mcp:read"));
      const s1 = await stats();
      assert.deepEqual({ ...delta(s0, s1), refresh: 0 }, { registrations: 1, authorizations: 1, code: 1, refresh: 0 });
      assert.equal(s1.last_authorization_request.resource, OAUTH);

      // write_note needs mcp:write: a 403 insufficient_scope, one step-up, the call succeeds.
      assert.match(text(await c.callTool("write_note", { text: `from ${mode}` })), new RegExp(`noted #\\d+: from ${mode}`));
      assert.ok(c.authorization.scope.split(" ").includes("mcp:write"));
      assert.match(text(await c.callTool("whoami", {})), /mcp:write/);
      const s2 = await stats();
      assert.deepEqual(
        { registrations: delta(s1, s2).registrations, authorizations: delta(s1, s2).authorizations },
        { registrations: 0, authorizations: 1 },
      );

      // The peer's tokens live a few seconds: past that, calls go on with refreshed tokens and
      // no new sign-in.
      const wait = Math.max(0, c.authorization.expiresAt - Date.now()) + 300;
      assert.ok(wait < 20_000, `token TTL ${wait} ms (PEERS_OAUTH_TOKEN_TTL)`);
      await sleep(wait);
      assert.equal(text(await c.callTool("echo", { text: "later" })), "later");
      // And after the AS expires every access token at once (a 401 on a token held as valid).
      await fetch(`${OAUTH_AS}/test/expire-tokens`, { method: "POST" });
      assert.equal(text(await c.callTool("echo", { text: "expired" })), "expired");
      const s3 = await stats();
      assert.ok(delta(s2, s3).refresh >= 1, "refreshed");
      assert.equal(delta(s2, s3).authorizations, 0, "no new sign-in to refresh");
      assert.ok(c.authorization.expiresAt > Date.now());

      // signOut forgets the tokens but keeps the registration; signOut({ all }) both.
      await c.signOut();
      assert.equal(c.authorization, null);
      assert.equal(text(await c.callTool("echo", { text: "again" })), "again");
      const s4 = await stats();
      assert.deepEqual({ registrations: delta(s3, s4).registrations, authorizations: delta(s3, s4).authorizations }, { registrations: 0, authorizations: 1 });
      await c.signOut({ all: true });
      assert.equal(c.authorization, null);
      assert.equal(text(await c.callTool("echo", { text: "fresh" })), "fresh");
      const s5 = await stats();
      assert.deepEqual({ registrations: delta(s4, s5).registrations, authorizations: delta(s4, s5).authorizations }, { registrations: 1, authorizations: 1 });
      await c.close();
      await check();
    });
  }

  test("without the auth option the peer's 401 is unauthorized with its resource_metadata and scope", async () => {
    const c = new Client(OAUTH, { mode: "legacy" });
    const e = await rejection(c.connect());
    assert.equal(e.data.kind, "unauthorized");
    assert.equal(e.data.resourceMetadata, `http://127.0.0.1:${OAUTH_PORT}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(e.data.scope, "mcp:read");
  });

  test("onInsufficientScope \"throw\": write_note → insufficient_scope naming mcp:write", async () => {
    const { c, check } = peerClient("2026-07-28", { onInsufficientScope: "throw" });
    await c.connect();
    assert.equal(text(await c.callTool("echo", { text: "ok" })), "ok");
    const e = await rejection(c.callTool("write_note", { text: "no" }));
    assert.equal(e.data.kind, "insufficient_scope");
    assert.match(JSON.stringify(e.data), /mcp:write/);
    await c.close();
    await check(e);
  });
});
