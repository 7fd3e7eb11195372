// OAuth authorization of the built package in Node (pkg/nodejs), as auth.test.mjs, against the Python
// SDK's OAuth peer (tests/peers/oauth_server.py, peer `oauth` of peers.sh): its authorization server
// and resource server.
//
//   Env: MCP_PKG_NODE (tests/js/peers.mjs); PEERS_OAUTH_PORT / PEERS_OAUTH_AS_PORT (the Python peer,
//        default 18106 / 18107; its tests are skipped when nothing answers there).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { rejection, text } from "./peers.mjs";
import { checkStatus, dump } from "./auth-harness.mjs";
import { Client, authorizeHeadless, REDIRECT, sleep } from "./auth-common.mjs";

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
