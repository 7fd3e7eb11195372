// OAuth authorization of the built package in Node (pkg/nodejs) against tests/js/oauth_world.mjs, as
// auth.test.mjs: tokens over time. Oversized answers refused while reading; refresh,
// re-authorization, another AS, concurrency. Every scenario checks that no secret shows (auth-harness.mjs).
import { describe } from "node:test";
import assert from "node:assert/strict";
import { text } from "./peers.mjs";
import { memoryStorage, sleep, scenario, bearerOf, until } from "./auth-common.mjs";

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
