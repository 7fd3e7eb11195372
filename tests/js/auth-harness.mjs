// The harness of the authorization tests (auth.test.mjs, auth-grants.test.mjs): one fresh
// oauth_world.mjs per test, clients that record everything the app can see, and the check that
// none of it holds a secret.

import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, rejection } from "./peers.mjs";
import { startWorld } from "./oauth_world.mjs";

const { Client, McpError } = pkg;

/** Text of anything that must not hold a secret. */
export function dump(v) {
  if (v instanceof Error) {
    return JSON.stringify({ message: v.message, data: v.data, string: String(v), stack: v.stack, code: v.code });
  }
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** client.authorization: null or exactly { issuer, scope, expiresAt }. */
export function checkStatus(status) {
  if (status === null) return;
  assert.deepEqual(Object.keys(status).sort(), ["expiresAt", "issuer", "scope"], `authorization has ${Object.keys(status)}`);
}

/** No secret in anything seen, and no PEM body. */
export function checkNoSecrets(secrets, seen) {
  const texts = seen.map(dump);
  for (const s of secrets) {
    const i = texts.findIndex((t) => t.includes(s));
    assert.equal(i, -1, `a secret (${s.slice(0, 6)}…) leaked into: ${texts[i]?.slice(0, 400)}`);
  }
  for (const t of texts) assert.ok(!/PRIVATE KEY-----(\\n|\s)*MI/.test(t), `a PEM leaked into: ${t.slice(0, 400)}`);
}

/**
 * `scenario(name, worldOpts, fn, testOpts)`: a test with its own world. `fn(h)` gets h = { world,
 * client(options, url), fails(promise, kind), status(c), secret(s), seen }; clients made with
 * h.client() get a messageHandler that records everything, and their options pass through
 * `options(given)` first (a file's defaults). Afterwards every client is closed, and nothing
 * recorded may hold a secret of the world or one added by h.secret().
 */
export function scenarios({ options = (o) => o, requireSecrets = false } = {}) {
  return function scenario(name, worldOpts, fn, testOpts = {}) {
    test(name, { timeout: 30_000, ...testOpts }, async () => {
      const world = await startWorld(worldOpts);
      const seen = [];
      const clients = [];
      const extra = new Set();
      const h = {
        world,
        seen,
        secret(s) {
          for (const x of Array.isArray(s) ? s : [s]) extra.add(x);
          return s;
        },
        client(given = {}, url = world.url) {
          const c = new Client(url, { messageHandler: (m) => seen.push(m), ...options(given) });
          clients.push(c);
          return c;
        },
        async fails(p, kind) {
          const e = await rejection(p);
          seen.push(e);
          assert.ok(e instanceof McpError);
          assert.equal(e.data?.kind, kind, `expected ${kind}: ${e.message} ${JSON.stringify(e.data)}`);
          return e;
        },
        status(c) {
          const s = c.authorization;
          checkStatus(s);
          seen.push(s);
          return s;
        },
      };
      try {
        await fn(h);
      } finally {
        for (const c of clients) {
          try {
            checkStatus(c.authorization);
            seen.push(c.authorization);
            await c.close();
          } catch (e) {
            seen.push(e);
          }
        }
        await world.close();
      }
      if (requireSecrets) {
        assert.ok(world.secrets.size > 0 || world.count("/as/token") === 0, "the world recorded its secrets");
      }
      checkNoSecrets([...world.secrets, ...extra], seen);
    });
  };
}
