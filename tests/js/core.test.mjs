// The core entry's build (the crate without its `auth` feature: pkg/core-nodejs, what
// `mcp-wasm-client/core` ships) against the real peers: the same client on both eras, and what
// needs authorization refused with an McpError naming the full entry. The package's stand-ins for
// the authorization helpers (pkg-template/core/absent.js) are checked against this build's
// McpError; tests/packaging imports them from the packed tarball.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pkg as full, PY, TS, text } from "./peers.mjs";
import { absent } from "../../pkg-template/core/absent.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const core = createRequire(import.meta.url)(process.env.MCP_PKG_NODE_CORE ?? path.join(here, "../../pkg/core-nodejs"));
const { Client, McpError } = core;

/** Awaits `p` and returns its rejection, an McpError of the core build (peers.mjs's is the full's). */
async function rejection(p) {
  const outcome = await p.then((v) => ({ resolved: v }), (e) => ({ rejected: e }));
  if (!("rejected" in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.resolved)}`);
  if (!(outcome.rejected instanceof McpError)) throw outcome.rejected;
  return outcome.rejected;
}

/** An McpError of the core build: local, kind `input`, naming the full entry. */
function namesTheFullEntry(e, what) {
  assert.ok(e instanceof McpError, `not an McpError: ${e}`);
  assert.equal(e.code, -32602);
  assert.equal(e.data?.local, true);
  assert.equal(e.data?.kind, "input");
  assert.ok(e.message.startsWith(`${what} needs authorization`), e.message);
  assert.match(e.message, /mcp-wasm-client\/core leaves out/);
  assert.match(e.message, /import .*from mcp-wasm-client \(the full entry\)/);
  return true;
}

describe("core entry: the client without authorization, against real peers", () => {
  const cases = [
    ["Python SDK v2 peer", PY, "auto", "modern", "2026-07-28"],
    ["Python SDK v2 peer", PY, "legacy", "legacy", "2025-11-25"],
    ["TypeScript SDK peer", TS, "auto", "legacy", "2025-11-25"],
  ];
  for (const [name, url, mode, era, version] of cases) {
    test(`${name}, mode ${mode}: connect, list, call (${era})`, async () => {
      const c = new Client(url, { mode });
      await c.connect();
      assert.equal(c.era, era);
      assert.equal(c.protocolVersion, version);
      const { tools } = await c.listTools();
      assert.ok(tools.some((t) => t.name === "echo"), tools.map((t) => t.name).join(", "));
      assert.equal(text(await c.callTool("echo", { text: "from core" })), "from core");
      assert.equal(c.authorization, null);
      await c.close();
    });
  }
});

describe("core entry: what needs authorization names the full entry", () => {
  test("new Client(url, { auth }) throws an input McpError", () => {
    assert.throws(() => new Client(PY, { auth: {} }), (e) => namesTheFullEntry(e, "options.auth"));
    assert.throws(() => new Client(PY, { auth: { clientMetadataUrl: "https://app.example/client.json" } }), (e) => namesTheFullEntry(e, "options.auth"));
  });

  test("auth: undefined or null is no option", async () => {
    for (const auth of [undefined, null]) {
      const c = new Client(PY, { auth });
      await c.connect();
      await c.close();
    }
  });

  test("an earlier option's error still comes first", () => {
    assert.throws(() => new Client(PY, { timeoutMs: -1, auth: {} }), (e) => e instanceof McpError && /timeoutMs/.test(e.message));
  });

  test("finishAuthorization and signOut reject with it", async () => {
    const c = new Client(PY);
    namesTheFullEntry(await rejection(c.finishAuthorization("https://app.example/cb?code=x&state=y")), "finishAuthorization");
    namesTheFullEntry(await rejection(c.signOut({ all: true })), "signOut");
    c.free();
  });

  test("the build exports exactly the full build's names less the authorization helpers", () => {
    const names = (m) => Object.keys(m).filter((k) => !k.startsWith("__")).sort();
    const missing = names(full).filter((n) => !names(core).includes(n));
    assert.deepEqual(missing, [
      "authorizeHeadless", "authorizeWithPopup", "authorizeWithRedirect", "completeAuthorizationPopup",
      "idJagAssertion", "indexedDbStorage", "memoryStorage", "webStorage",
    ]);
    assert.deepEqual(names(core).filter((n) => !names(full).includes(n)), []);
  });

  test("the package's stand-in for a helper throws the same McpError, under the helper's name", () => {
    for (const name of ["authorizeWithPopup", "memoryStorage", "idJagAssertion"]) {
      const helper = absent(McpError, name);
      assert.equal(helper.name, name);
      assert.throws(() => helper(), (e) => namesTheFullEntry(e, name));
    }
  });

  test("a 401 is unauthorized, with the challenge's hints, and says this build cannot sign in", async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(401, { "www-authenticate": 'Bearer resource_metadata="https://rs.example/.well-known/oauth-protected-resource", scope="files:read"' });
      res.end();
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const c = new Client(`http://127.0.0.1:${server.address().port}/mcp`, { mode: "legacy" });
      const e = await rejection(c.connect());
      assert.equal(e.data?.kind, "unauthorized", e.message);
      assert.equal(e.data?.resourceMetadata, "https://rs.example/.well-known/oauth-protected-resource");
      assert.equal(e.data?.scope, "files:read");
      assert.match(e.message, /mcp-wasm-client\/core, cannot sign in: import mcp-wasm-client and pass the auth option/);
      c.free();
    } finally {
      server.close();
    }
  });
});
