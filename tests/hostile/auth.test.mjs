// Hostile authorization: the built Node package against an MCP server and authorization server
// that refuse, lie and send what no honest server would (tests/js/oauth_world.mjs, on 127.0.0.1,
// every request logged). Issue 27, points 1–2:
//   1. a resource server refusing every token (401 invalid_token forever, or 403
//      insufficient_scope forever) gets a bounded recovery per operation, counted here at the
//      authorization server: one refresh, one new sign-in (at most 3 token requests and 1
//      authorization request), step-ups within maxStepUp; five calls refused at once share one
//      recovery;
//   2. a scope from the network (a challenge's, PRM scopes_supported) reaches the authorization
//      request as its valid RFC 6749 §3.3 scope-tokens only;
//   3. a 100 MiB token response is refused at the cap while it is read: RSS measured in a child
//      process (auth_rss_child.mjs), against the same answer read whole (the Chromium figure is
//      tests/e2e/auth.mjs's, the in-process one tests/js/auth.test.mjs's).
//
// Run: bash tests/hostile/run.sh (with hostile.test.mjs), or
//      MCP_PKG_NODE=pkg/nodejs node --test tests/hostile/auth.test.mjs (the world needs no peer).
import { describe } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pkg, PKG_PATH, rejection } from "../js/peers.mjs";
import { scenarios } from "../js/auth-harness.mjs";

const { authorizeHeadless } = pkg;
const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(here, "auth_rss_child.mjs");
const execFileAsync = promisify(execFile);

const REDIRECT = "http://127.0.0.1/callback";
const CLIENT_METADATA = { client_name: "hostile/auth.test.mjs", redirect_uris: [REDIRECT] };
/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

const scenario = scenarios({
  options: ({ auth, ...rest }) => ({
    mode: "legacy",
    ...rest,
    auth: { clientMetadata: CLIENT_METADATA, authorize: authorizeHeadless(), ...auth },
  }),
});

/** A 401 challenge refusing the token. */
const invalidToken = (w) => `Bearer error="invalid_token", resource_metadata="${w.prmUrl}", scope="mcp:read"`;

/** What the authorization server received from `from` on in the log: token requests (by
 *  grant_type) and authorization requests. */
function spent(world, from) {
  const later = world.log.slice(from);
  const tokens = later.filter((r) => r.method === "POST" && /\/token$/.test(r.path));
  return {
    token: tokens.map((r) => new URLSearchParams(r.body).get("grant_type")),
    authorize: later.filter((r) => /\/authorize$/.test(r.path)).length,
  };
}

/** A connected client of scenario `h` whose resource server then refuses every token (401
 *  invalid_token forever), and where the log stood at that point (for spent()). */
async function signedInThenRefused(h) {
  const c = h.client();
  await c.connect();
  h.world.opts.challenge = invalidToken;
  h.world.opts.refuseTokens = true;
  return { c, from: h.world.log.length };
}

describe("bounded recovery per operation (issue 27.1)", () => {
  scenario("401 invalid_token forever to a signed-in client: one refresh, one new sign-in, then unauthorized", {}, async (h) => {
    const { world } = h;
    const { c, from } = await signedInThenRefused(h);
    const e = await h.fails(c.callTool("echo", { text: "x" }), "unauthorized");
    const s = spent(world, from);
    console.log(`[401 forever, signed in] token requests ${s.token.length} (${s.token.join(", ")}), authorization requests ${s.authorize}: ${e.message}`);
    assert.ok(s.token.length <= 3, `${s.token.length} token requests`);
    assert.ok(s.authorize <= 1, `${s.authorize} authorization requests`);
    assert.equal(s.token.filter((g) => g === "refresh_token").length, 1, "one refresh");
    assert.deepEqual(s.token, ["refresh_token", "authorization_code"]);
  });

  scenario("401 invalid_token forever from the first request: one sign-in, one refresh, then unauthorized", {}, async (h) => {
    const { world } = h;
    world.opts.challenge = invalidToken;
    world.opts.refuseTokens = true;
    const e = await h.fails(h.client().connect(), "unauthorized");
    const s = spent(world, 0);
    console.log(`[401 forever, fresh] token requests ${s.token.length} (${s.token.join(", ")}), authorization requests ${s.authorize}`);
    assert.equal(s.authorize, 1);
    assert.ok(s.token.length <= 3, `${s.token.length} token requests`);
    assert.match(e.message, /still/);
  });

  scenario("five calls refused at once (401 forever) share one recovery", {}, async (h) => {
    const { world } = h;
    const { c, from } = await signedInThenRefused(h);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => rejection(c.callTool("echo", { text: `${i}` }))));
    for (const e of results) assert.equal(e.data?.kind, "unauthorized", e.message);
    const s = spent(world, from);
    console.log(`[401 forever, 5 concurrent] token requests ${s.token.length} (${s.token.join(", ")}), authorization requests ${s.authorize}`);
    assert.ok(s.token.length <= 3, `${s.token.length} token requests for five calls`);
    assert.ok(s.authorize <= 1, `${s.authorize} authorization requests for five calls`);
    // A later call gets a budget of its own, and works once the server accepts tokens again.
    world.opts.refuseTokens = false;
    assert.equal((await c.callTool("echo", { text: "back" })).content[0].text, "back");
  });

  for (const maxStepUp of [1, 2]) {
    scenario(
      `403 insufficient_scope forever, a new scope each time, maxStepUp ${maxStepUp}, five calls at once: ${maxStepUp} step-up(s) in all`,
      {},
      async (h) => {
        const { world } = h;
        const c = h.client({ auth: { maxStepUp } });
        await c.connect();
        let n = 0;
        world.opts.alwaysInsufficient = () => `mcp:read s${++n}`;
        const from = world.log.length;
        const results = await Promise.all(Array.from({ length: 5 }, () => rejection(c.callTool("echo", { text: "x" }))));
        for (const e of results) assert.equal(e.data?.kind, "insufficient_scope", e.message);
        const s = spent(world, from);
        console.log(`[403 forever, maxStepUp ${maxStepUp}, 5 concurrent] authorization requests ${s.authorize}, token requests ${s.token.length}`);
        assert.equal(s.authorize, maxStepUp, `${s.authorize} step-ups for five calls`);
        assert.ok(s.token.length <= maxStepUp, `${s.token.length} token requests`);
      },
    );
  }
});

describe("scopes from the network are scope-tokens (issue 27.2)", () => {
  scenario("a challenge's scope with quotes, backslashes, a tab and non-ASCII: only the valid tokens reach /authorize", {}, async (h) => {
    const { world } = h;
    // Node writes é as one latin1 byte; fetch reads it back as U+00E9. The quoted-pairs
    // unescape to `"admin"` and `x\y`.
    world.opts.challenge = (w) =>
      `Bearer resource_metadata="${w.prmUrl}", scope="mcp:read \\"admin\\" caf\u00e9 a\tb x\\\\y mcp:write"`;
    await h.client().connect();
    const [authz] = world.requests("/as/authorize");
    console.log(`[bad challenge scope] /authorize got scope=${JSON.stringify(authz.query.scope)}`);
    assert.equal(authz.query.scope, "mcp:read mcp:write");
    const token = world.requests("/as/token")[0];
    assert.ok(!/admin|caf|\\/.test(token.body), `the token request holds no invalid token: ${token.body}`);
  });

  scenario("a challenge scope with no valid token: PRM scopes_supported instead, its invalid entries dropped whole", {
    prmScopes: ["mcp:read", "mcp:write extra", "caf\u00e9", 'q"', "mcp:write"],
  }, async (h) => {
    const { world } = h;
    world.opts.challenge = (w) => `Bearer resource_metadata="${w.prmUrl}", scope="\\"\\" \u00e9"`;
    await h.client().connect();
    const [authz] = world.requests("/as/authorize");
    console.log(`[no valid challenge scope] /authorize got scope=${JSON.stringify(authz.query.scope)}`);
    assert.equal(authz.query.scope, "mcp:read mcp:write");
    for (const t of authz.query.scope.split(" ")) assert.match(t, SCOPE_TOKEN);
  });

  scenario("nothing valid anywhere: the authorization request has no scope parameter", { prmScopes: ["caf\u00e9", "a b"] }, async (h) => {
    const { world } = h;
    world.opts.challenge = (w) => `Bearer resource_metadata="${w.prmUrl}", scope="\\\\"`;
    await h.client().connect();
    const [authz] = world.requests("/as/authorize");
    assert.equal(authz.query.scope, undefined, `scope=${authz.query.scope}`);
  });
});

describe("every authorization response is capped while it is read (issue 27.3)", () => {
  const MiB = 1024 * 1024;
  /** Runs auth_rss_child.mjs against the world (its token endpoint oversized): its JSON line.
   *  Asynchronously: the world answers from this process. */
  async function child(world, how = "") {
    const { stdout } = await execFileAsync(process.execPath, ["--expose-gc", CHILD, world.url, how], {
      env: { ...process.env, MCP_PKG_NODE: PKG_PATH },
      timeout: 60_000,
    });
    return JSON.parse(stdout.trim().split("\n").pop());
  }

  scenario("a 100 MiB token response, streamed: refused at the 64 KiB cap, the child's RSS grows < 30 MiB (peak included)", {
    oversized: { path: "/as/token", after: 1 },
  }, async (h) => {
    const { world } = h;
    const got = await child(world);
    const grown = got.maxRss - got.rssBefore;
    const s = world.streams.find((x) => x.path === "/as/token");
    await s.done;
    console.log(`[100 MiB token, child process] ${got.kind}: RSS +${((got.rssAfter - got.rssBefore) / MiB).toFixed(1)} MiB, peak +${(grown / MiB).toFixed(1)} MiB; ${s.written} bytes written before the client closed`);
    assert.equal(got.kind, "auth_metadata", got.message);
    assert.match(got.message, /larger than 65536 bytes/);
    assert.ok(s.closedEarly && s.written < 16 * 64 * 1024, `${s.written} bytes written`);
    assert.ok(grown < 30 * MiB, `peak RSS grew ${(grown / MiB).toFixed(1)} MiB`);
  });

  scenario("the same answer read whole (a fetch without body streams, the only text() left): the cap still refuses it, at the cost the reader avoids", {
    oversized: { path: "/as/token", intervalMs: 0, after: 1 },
  }, async (h) => {
    const got = await child(h.world, "streamless");
    const grown = got.maxRss - got.rssBefore;
    console.log(`[100 MiB token read whole, child process] ${got.kind}: peak RSS +${(grown / MiB).toFixed(1)} MiB`);
    assert.equal(got.kind, "auth_metadata", got.message);
    assert.ok(grown > 100 * MiB, `read whole, the peak grew ${(grown / MiB).toFixed(1)} MiB`);
  }, { timeout: 90_000 });
});
