// Declared capabilities and extensions (issue 24 point 1) against the Python peer on both eras:
// the capabilities, extensions and apps options as the server's SDK reads them, the caller's
// _meta winning over the envelope, server extensions, discoverResult (stored, adopted without a
// probe, probed again when refused), unknown options with "did you mean", ClientGroup.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { pkg, PY, TS, rejection } from "./peers.mjs";

const { ClientGroup, McpError } = pkg;

// Every client a test makes is closed when the file ends, so a failed assertion cannot leave a
// session (and its GET stream) open and the file hanging.
const opened = new Set();
const Client = new Proxy(pkg.Client, {
  construct(Target, args) {
    const c = new Target(...args);
    opened.add(c);
    return c;
  },
});
after(async () => {
  for (const c of opened) await c.close().catch(() => {});
});

const APPS = "io.modelcontextprotocol/ui";
const declared = {
  capabilities: { experimental: { "x-demo": { on: true } } },
  extensions: { "io.example/thing": { level: 2 } },
  apps: true,
};

/** What the Python peer saw of the request that called client_capabilities. */
async function seen(client, options) {
  const r = await client.callTool("client_capabilities", {}, options);
  return r.structuredContent;
}

/** A fetch that records each request's JSON-RPC method (the body's; a GET is "GET"). */
function recordingFetch(log) {
  return async (url, init = {}) => {
    const method = init.method === "GET" ? "GET" : init.body ? JSON.parse(init.body).method : init.method;
    log.push(method);
    return fetch(url, init);
  };
}

for (const [name, mode] of [["2026", "auto"], ["legacy", "legacy"]]) {
  describe(`declared capabilities: Python ${name}`, () => {
    test("capabilities, extensions and apps reach the server beside the callbacks' own", async () => {
      const c = new Client(PY, {
        mode,
        ...declared,
        elicitationCallback: async () => ({ action: "decline" }),
      });
      await c.connect();
      const { capabilities, apps } = await seen(c);
      assert.deepEqual(capabilities.experimental, { "x-demo": { on: true } });
      assert.deepEqual(capabilities.extensions["io.example/thing"], { level: 2 });
      assert.deepEqual(capabilities.extensions[APPS], { mimeTypes: ["text/html;profile=mcp-app"] });
      assert.ok(capabilities.elicitation, "the callback's capability is still declared");
      assert.equal(apps, true, "the Python SDK's client_supports_apps() sees apps: true");
      await c.close();
    });

    test("nothing declared: no extensions, and the SDK sees no apps support", async () => {
      const c = new Client(PY, { mode });
      await c.connect();
      const { capabilities, apps } = await seen(c);
      assert.equal(capabilities?.extensions, undefined);
      assert.equal(apps, false);
      await c.close();
    });

    test("serverCapabilities (extensions among them) as the server sent them", async () => {
      // The handshake's answer as it came over the wire, read beside the client.
      let sent;
      const fetchAndRead = async (url, init) => {
        const response = await fetch(url, init);
        const method = init.body ? JSON.parse(init.body).method : undefined;
        if (method === "server/discover" || method === "initialize") {
          const body = await response.clone().text(); // JSON, or one SSE event (legacy)
          const json = body.trimStart().startsWith("{") ? body : body.split("\n").find((l) => l.startsWith("data:")).slice(5);
          sent = JSON.parse(json).result.capabilities;
        }
        return response;
      };
      const c = new Client(PY, { mode, fetch: fetchAndRead });
      await c.connect();
      assert.deepEqual(c.serverCapabilities, sent);
      if (mode === "auto") {
        assert.deepEqual(c.serverCapabilities.extensions, { "io.example/thing": { level: 2 } });
      }
      // (The Python SDK declares its extensions only to 2026 clients: its initialize result has none.)
      await c.close();
    });

    test("a _meta call option reaches params._meta", async () => {
      const c = new Client(PY, { mode });
      await c.connect();
      const { meta } = await seen(c, { _meta: { "io.example/trace": "t-1" } });
      assert.equal(meta["io.example/trace"], "t-1");
      await c.close();
    });
  });
}

describe("the caller's _meta wins over the 2026 envelope", () => {
  test("request() params._meta and the _meta call option replace envelope keys", async () => {
    const c = new Client(PY, { extensions: { "io.example/thing": { level: 2 } } });
    await c.connect();
    const mine = { name: "my-host", version: "9.9.9" };
    const r = await c.request("tools/call", {
      name: "client_capabilities",
      arguments: {},
      _meta: { "io.modelcontextprotocol/clientInfo": mine },
    });
    const meta = r.structuredContent.meta;
    assert.deepEqual(meta["io.modelcontextprotocol/clientInfo"], mine);
    assert.equal(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    assert.deepEqual(meta["io.modelcontextprotocol/clientCapabilities"].extensions, { "io.example/thing": { level: 2 } });
    const narrowed = await seen(c, {
      _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.example/other": {} } } },
    });
    assert.deepEqual(narrowed.capabilities.extensions, { "io.example/other": {} }, "the SDK reads the caller's capabilities");
    await c.close();
  });
});

describe("discoverResult", () => {
  test("null before connecting and on a legacy session; the probe's result on 2026", async () => {
    const legacy = new Client(PY, { mode: "legacy" });
    assert.equal(legacy.discoverResult, null);
    await legacy.connect();
    assert.equal(legacy.discoverResult, null);
    await legacy.close();
    const modern = new Client(PY);
    await modern.connect();
    assert.deepEqual(modern.discoverResult.supportedVersions, ["2026-07-28"]);
    assert.deepEqual(modern.discoverResult.capabilities, modern.serverCapabilities);
    assert.equal(modern.discoverResult._meta["io.modelcontextprotocol/serverInfo"].name, "python-peer");
    await modern.close();
  });

  test("a stored result is adopted without a probe (a reload pays no round trip)", async () => {
    const first = new Client(PY);
    await first.connect();
    const stored = JSON.parse(JSON.stringify(first.discoverResult));
    await first.close();
    const log = [];
    const c = new Client(PY, { discoverResult: stored, fetch: recordingFetch(log) });
    await c.connect();
    assert.deepEqual(log, [], "connect sent nothing");
    assert.equal(c.era, "modern");
    assert.equal(c.protocolVersion, "2026-07-28");
    assert.equal(c.serverInfo.name, "python-peer");
    assert.deepEqual(c.discoverResult, stored);
    const { tools } = await c.listTools();
    assert.ok(tools.some((t) => t.name === "client_capabilities"));
    assert.deepEqual(log, ["tools/list"]);
    await c.close();
  });

  test("a server that refuses the stored result is probed again, and the call goes through", async () => {
    const first = new Client(PY);
    await first.connect();
    const stored = first.discoverResult;
    await first.close();
    const log = [];
    const warnings = [];
    // The TypeScript SDK 1.x peer speaks only the legacy era: it answers a sessionless 2026
    // request with HTTP 400.
    const c = new Client(TS, {
      discoverResult: stored,
      fetch: recordingFetch(log),
      messageHandler: (m) => {
        if (m instanceof Error) warnings.push(m);
      },
    });
    await c.connect();
    assert.equal(c.era, "modern", "adopted as stored");
    const { tools } = await c.listTools();
    assert.ok(tools.length > 0);
    assert.equal(c.era, "legacy");
    assert.equal(c.discoverResult, null);
    assert.deepEqual(log.slice(0, 4), ["tools/list", "server/discover", "initialize", "notifications/initialized"]);
    assert.equal(log.filter((m) => m === "tools/list").length, 2, "the call was sent again once");
    assert.ok(
      warnings.some((w) => /refused the stored discoverResult/.test(w.message)),
      `messageHandler heard why: ${warnings.map((w) => w.message)}`,
    );
    await c.close();
  });

  test("a result this client cannot adopt is an input error at construction", () => {
    const bad = [
      [{ capabilities: {} }, /options\.discoverResult must be a server\/discover result/],
      [{ supportedVersions: ["2025-11-25"] }, /lists no protocol version this client speaks/],
      [{ supportedVersions: ["2026-07-28"], capabilities: [] }, /capabilities must be an object/],
    ];
    for (const [discoverResult, message] of bad) {
      assert.throws(() => new Client(PY, { discoverResult }), (e) => {
        assert.ok(e instanceof McpError);
        assert.equal(e.data.kind, "input");
        assert.match(e.message, message);
        return true;
      });
    }
    assert.throws(
      () => new Client(PY, { mode: "legacy", discoverResult: { supportedVersions: ["2026-07-28"] } }),
      /cannot be adopted with mode "legacy"/,
    );
  });
});

describe("unknown options", () => {
  const inputError = (pattern) => (e) => {
    assert.ok(e instanceof McpError, String(e));
    assert.equal(e.data.kind, "input");
    assert.match(e.message, pattern);
    return true;
  };

  test("a misspelt Client option names the closest known one", () => {
    assert.throws(() => new Client(PY, { timeout: 5000 }), inputError(/options\.timeout is not an option of new Client\(\): did you mean timeoutMs\?/));
    assert.throws(() => new Client(PY, { elicitationCalback: () => {} }), inputError(/did you mean elicitationCallback\?/));
    assert.throws(() => new Client(PY, { Mode: "legacy" }), inputError(/did you mean mode\?/));
    assert.throws(() => new Client(PY, { extension: {} }), inputError(/did you mean extensions\?/));
  });

  test("an option nothing resembles lists the options", () => {
    assert.throws(() => new Client(PY, { zzz: 1 }), inputError(/options\.zzz is not an option of new Client\(\) \(its options: transport, mode, .*discoverResult/));
    assert.throws(() => new Client(PY, { "odd key": 1 }), inputError(/options\["odd key"\] is not an option/));
  });

  test("a misspelt call option is refused before anything is sent", async () => {
    const log = [];
    const c = new Client(PY, { fetch: recordingFetch(log) });
    await c.connect();
    const before = log.length;
    const e = await rejection(c.callTool("echo", { text: "x" }, { timeOut: 10 }));
    assert.equal(e.data.kind, "input");
    assert.match(e.message, /options\.timeOut is not an option of a call: did you mean timeoutMs\?/);
    const e2 = await rejection(c.listTools({ cursr: "x" }));
    assert.match(e2.message, /did you mean cursor\?/);
    assert.equal(log.length, before, "nothing was sent");
    await c.close();
  });

  test("capabilities a callback stands behind need the callback", () => {
    assert.throws(
      () => new Client(PY, { capabilities: { sampling: {} } }),
      inputError(/options\.capabilities\.sampling is declared without samplingCallback/),
    );
    assert.throws(
      () => new Client(PY, { extensions: { "io.example/thing": true } }),
      inputError(/extensions\["io\.example\/thing"\] must be an object/),
    );
    assert.throws(
      () => new Client(PY, { apps: true, extensions: { [APPS]: {} } }),
      inputError(/declare it once/),
    );
  });
});

describe("ClientGroup", () => {
  test("capabilities, extensions, apps and tasks reach every server of the group", async () => {
    const group = new ClientGroup({
      servers: { modern: { url: PY }, legacy: { url: PY, mode: "legacy" } },
      ...declared,
      tasks: true,
    });
    opened.add(group);
    await group.connect();
    for (const server of ["modern", "legacy"]) {
      const r = await group.callTool(`${server}__client_capabilities`, {});
      const { capabilities, apps } = r.structuredContent;
      assert.deepEqual(capabilities.extensions["io.example/thing"], { level: 2 }, server);
      assert.deepEqual(capabilities.experimental, { "x-demo": { on: true } }, server);
      assert.equal(apps, true, server);
      if (server === "modern") assert.deepEqual(capabilities.extensions["io.modelcontextprotocol/tasks"], {});
      else assert.deepEqual(capabilities.tasks, {}, "tasks: true declares the 2025-11-25 capability");
    }
    await group.close();
  });

  test("a misspelt option is the Client's error, tagged with the server", () => {
    assert.throws(
      () => new ClientGroup({ servers: { py: { url: PY, timeot: 1 } } }),
      (e) => e instanceof McpError && /did you mean timeoutMs\?/.test(e.message) && e.data.server === "py",
    );
  });
});
