// The public API exactly as a user meets it, against the real peers (tests/peers).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { pkg, PY, TS, EVERYTHING, fault, rejection, text } from "./peers.mjs";

const { Client, McpError } = pkg;

async function connected(url, options = {}) {
  const c = new Client(url, options);
  await c.connect();
  return c;
}

describe("McpError", () => {
  test("is an exported Error subclass constructible from JS", () => {
    const e = new McpError(-32602, "bad thing", { field: "x" });
    assert.ok(e instanceof McpError);
    assert.ok(e instanceof Error);
    assert.equal(e.code, -32602);
    assert.equal(e.message, "bad thing");
    assert.deepEqual(e.data, { field: "x" });
    assert.equal(e.name, "McpError");
    assert.match(String(e), /McpError: bad thing/);
    assert.equal(typeof e.stack, "string");
  });
});

describe("constructor and lifecycle errors", () => {
  test("a relative URL is refused with a clear McpError", () => {
    assert.throws(() => new Client("/mcp"), (e) => e instanceof McpError && e.code === -32602 && /not an absolute URL/.test(e.message));
  });
  test("a non-http scheme is refused", () => {
    assert.throws(() => new Client("ftp://127.0.0.1/mcp"), /must be http: or https:/);
  });
  test("a handshake-era mode gets the hint to use legacy", () => {
    assert.throws(() => new Client(PY, { mode: "2025-06-18" }), (e) => e instanceof McpError && /use mode: "legacy"/.test(e.message));
  });
  test("wrongly typed options name the option", () => {
    assert.throws(() => new Client(PY, { timeoutMs: -5 }), /options\.timeoutMs must be a positive number/);
    assert.throws(() => new Client(PY, { fetch: 42 }), /options\.fetch must be a function/);
    assert.throws(() => new Client(PY, { headers: { "x-a": 1 } }), /options\.headers\["x-a"\] must be a string/);
  });
  test("client.loggingCallback hands back the option (what <mcp-app-frame> sends an app's logs to)", () => {
    const log = () => {};
    assert.equal(new Client(PY, { loggingCallback: log }).loggingCallback, log);
    assert.equal(new Client(PY).loggingCallback, undefined);
  });
  test("calls before connect() and after close() reject with McpError", async () => {
    const c = new Client(PY, { mode: "legacy" });
    const e = await rejection(c.listTools());
    assert.equal(e.code, -32011);
    assert.match(e.message, /not connected/);
    await c.connect();
    await c.close();
    const e2 = await rejection(c.callTool("echo", { text: "x" }));
    assert.match(e2.message, /closed/);
    assert.equal(e2.data.kind, "closed");
  });
  test("Symbol.asyncDispose closes the client (await using), and a ClientGroup", async () => {
    const c = await connected(PY, { mode: "legacy" });
    assert.equal(typeof c[Symbol.asyncDispose], "function");
    await c[Symbol.asyncDispose]();
    const e = await rejection(c.callTool("echo", { text: "x" }));
    assert.equal(e.data.kind, "closed");
    const group = new pkg.ClientGroup({ servers: { py: { url: PY } } });
    await group.connect();
    assert.equal((await group.callTool("py__echo", { text: "up" })).content[0].text.includes("up"), true);
    await group[Symbol.asyncDispose]();
    assert.equal(group.status.py, "closed");
  });
  test("bad call arguments are refused before anything is sent", async () => {
    const c = await connected(PY, { mode: "legacy" });
    assert.match((await rejection(c.callTool("", {}))).message, /name must be a non-empty string/);
    assert.match((await rejection(c.callTool("echo", [1, 2]))).message, /arguments must be an object/);
    assert.match((await rejection(c.callTool("echo", {}, { signal: {} }))).message, /must be an AbortSignal/);
    await c.close();
  });
});

describe("era negotiation", () => {
  const cases = [
    ["Python SDK v2 peer", PY, "auto", "modern", "2026-07-28"],
    ["Python SDK v2 peer", PY, "legacy", "legacy", "2025-11-25"],
    ["TypeScript SDK peer", TS, "auto", "legacy", "2025-11-25"],
    ["TypeScript SDK peer", TS, "legacy", "legacy", "2025-11-25"],
    ["server-everything", EVERYTHING, "auto", "legacy", "2025-11-25"],
    ["server-everything", EVERYTHING, "legacy", "legacy", "2025-11-25"],
  ];
  for (const [name, url, mode, era, version] of cases) {
    test(`${name}, mode ${mode} → ${era} ${version}`, async () => {
      const c = await connected(url, { mode });
      assert.equal(c.era, era);
      assert.equal(c.protocolVersion, version);
      assert.equal(typeof c.serverInfo.name, "string");
      assert.equal(typeof c.serverCapabilities.tools, "object");
      if (era === "legacy") assert.match(c.sessionId, /^[\x21-\x7e]+$/);
      else assert.equal(c.sessionId, undefined);
      const { tools } = await c.listTools();
      assert.ok(tools.length > 0);
      assert.ok(tools.every((t) => typeof t.name === "string" && typeof t.inputSchema === "object"));
      await c.close();
    });
  }

  test("pinned 2026-07-28: no traffic on connect, then modern requests", async () => {
    const c = await connected(PY, { mode: "2026-07-28" });
    assert.equal(c.era, "modern");
    assert.equal(c.serverInfo, undefined);
    const r = await c.callTool("echo", { text: "pinned" });
    assert.equal(text(r), "pinned");
    assert.equal(r.resultType, "complete");
    await c.close();
  });

  test("pinned 2026-07-28 against a legacy-only server fails with the server's error", async () => {
    const c = await connected(TS, { mode: "2026-07-28" });
    const e = await rejection(c.listTools());
    assert.equal(e.code, -32000);
    assert.match(e.message, /session/i);
    await c.close();
  });

  for (const [label, length] of [["short", 40], ["long (crosses on its own, not inside JSON text)", 200_000]]) {
    test(`a result with ${label} strings arrives exactly, with a "__proto__" member kept as a member`, async () => {
      const c = await connected(fault("long-strings"), { mode: "legacy" });
      const unit = 'é"\\\n\t😀<\u2028x';
      const big = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
      const r = await c.callTool("echo", { text: big });
      assert.equal(r.content[0].text, big);
      assert.equal(r.structuredContent.text, big);
      assert.equal(r.structuredContent.nested[0].text, big);
      assert.equal(r.structuredContent.nested[0].n, 1.5);
      assert.ok(Object.hasOwn(r.structuredContent, "__proto__"), "__proto__ is an own member");
      assert.deepEqual(Object.getOwnPropertyDescriptor(r.structuredContent, "__proto__").value, { polluted: true });
      assert.equal(Object.getPrototypeOf(r.structuredContent), Object.prototype);
      assert.equal(r.structuredContent.polluted, undefined);
      assert.equal({}.polluted, undefined);
      await c.close();
    });
  }

  test("modern requests carry MCP-Protocol-Version, Mcp-Method, Mcp-Name and the custom headers", async () => {
    const url = fault("modern-ok");
    await fetch(url.replace(/mcp$/, "header-log"), { method: "DELETE" });
    const c = await connected(url, { headers: { "x-team": "blue" } });
    assert.equal(c.era, "modern");
    assert.deepEqual(c.serverInfo, { name: "misbehave", version: "1" });
    await c.callTool("echo", { text: "hé" });
    const log = await (await fetch(url.replace(/mcp$/, "header-log"))).json();
    const call = log.find((r) => r.method === "tools/call");
    assert.equal(call.headers["mcp-protocol-version"], "2026-07-28");
    assert.equal(call.headers["mcp-method"], "tools/call");
    assert.equal(call.headers["mcp-name"], "echo");
    assert.equal(call.headers["x-team"], "blue");
    assert.match(call.headers.accept, /application\/json/);
    assert.match(call.headers.accept, /text\/event-stream/);
    const discover = log.find((r) => r.method === "server/discover");
    assert.equal(discover.headers["mcp-method"], "server/discover");
    await c.close();
  });

  test("headers may be given as fetch takes them: a Headers object or [name, value] pairs", async () => {
    const url = fault("modern-ok");
    for (const [headers, team] of [[new Headers({ "X-Team": "green" }), "green"], [[["x-team", "red"]], "red"], [new Map([["x-team", "gold"]]), "gold"]]) {
      await fetch(url.replace(/mcp$/, "header-log"), { method: "DELETE" });
      const c = await connected(url, { headers });
      await c.callTool("echo", { text: "hi" });
      const log = await (await fetch(url.replace(/mcp$/, "header-log"))).json();
      assert.equal(log.find((r) => r.method === "tools/call").headers["x-team"], team);
      await c.close();
    }
    assert.throws(() => new Client(PY, { headers: [["x-a"]] }), /options\.headers\["x-a"\] must be a string/);
    assert.throws(() => new Client(PY, { headers: [42] }), /options\.headers must be/);
  });
});

for (const [name, url, mode] of [
  ["Python modern", PY, "auto"],
  ["Python legacy", PY, "legacy"],
  ["TypeScript legacy", TS, "auto"],
]) {
  describe(`tool calls: ${name}`, () => {
    test("echo, structured output, isError", async () => {
      const c = await connected(url, { mode });
      assert.equal(text(await c.callTool("echo", { text: "héllo ✓" })), "héllo ✓");
      const sum = await c.callTool("add", { a: 2, b: 40 });
      assert.deepEqual(sum.structuredContent, { sum: 42 });
      assert.notEqual(sum.isError, true);
      const failed = await c.callTool("fail", { message: "kaput" });
      assert.equal(failed.isError, true);
      assert.match(text(failed), /kaput/);
      await c.close();
    });

    test("an unknown tool is reported, not swallowed", async () => {
      const c = await connected(url, { mode });
      let outcome;
      try {
        outcome = await c.callTool("no_such_tool", {});
      } catch (e) {
        outcome = e;
      }
      if (outcome instanceof McpError) {
        assert.equal(outcome.code, -32602);
        assert.match(outcome.message, /no_such_tool/);
      } else {
        assert.equal(outcome.isError, true);
        assert.match(text(outcome), /no_such_tool/);
      }
      await c.close();
    });

    test("timeoutMs fires with -32001 and the client stays usable", async () => {
      const c = await connected(url, { mode });
      const e = await rejection(c.callTool("sleep", { ms: 3000 }, { timeoutMs: 150 }));
      assert.equal(e.code, -32001);
      assert.equal(e.data.kind, "timeout");
      assert.equal(e.data.timeoutMs, 150);
      assert.equal(text(await c.callTool("echo", { text: "after" })), "after");
      await c.close();
    });

    test("an AbortSignal aborts the call with -32010 and the client stays usable", async () => {
      const c = await connected(url, { mode });
      const ac = new AbortController();
      setTimeout(() => ac.abort("user pressed stop"), 100);
      const e = await rejection(c.callTool("sleep", { ms: 3000 }, { signal: ac.signal }));
      assert.equal(e.code, -32010);
      assert.equal(e.data.kind, "aborted");
      assert.match(e.message, /user pressed stop/);
      const pre = new AbortController();
      pre.abort();
      assert.equal((await rejection(c.callTool("echo", { text: "x" }, { signal: pre.signal }))).code, -32010);
      assert.equal(text(await c.callTool("echo", { text: "after" })), "after");
      await c.close();
    });

    test("50 concurrent calls on one client each get their own result", async () => {
      const c = await connected(url, { mode });
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => c.callTool("echo", { text: `n${i}` })));
      assert.deepEqual(results.map(text), Array.from({ length: 50 }, (_, i) => `n${i}`));
      await c.close();
    });
  });
}

describe("server-everything", () => {
  test("echo and get-sum", async () => {
    const c = await connected(EVERYTHING);
    const { tools } = await c.listTools();
    assert.ok(tools.some((t) => t.name === "echo"));
    assert.match(text(await c.callTool("echo", { message: "hi" })), /hi/);
    assert.match(text(await c.callTool("get-sum", { a: 2, b: 3 })), /5/);
    await c.close();
  });
});

describe("network failures", () => {
  test("a refused connection is a clear McpError, not an era verdict", async () => {
    const c = new Client("http://127.0.0.1:18199/mcp");
    const e = await rejection(c.connect());
    assert.equal(e.code, -32000);
    assert.equal(e.data.kind, "network");
    assert.match(e.message, /Could not reach http:\/\/127\.0\.0\.1:18199\/mcp/);
    assert.match(e.message, /ECONNREFUSED/);
  });

  test("a custom fetch is used for every request", async () => {
    const seen = [];
    const myFetch = (input, init) => {
      assert.equal(typeof input, "string");
      seen.push(init.method);
      return fetch(input, init);
    };
    const c = await connected(PY, { mode: "legacy", fetch: myFetch });
    await c.listTools();
    await c.close();
    // initialize, notifications/initialized, tools/list; the standalone GET stream; DELETE on close.
    assert.deepEqual(seen.sort(), ["DELETE", "GET", "POST", "POST", "POST"]);
  });
});

describe("a misbehaving server gives clear errors, never a hang", () => {
  const cases = [
    ["malformed-json", -32700, /malformed JSON/],
    ["not-jsonrpc", -32600, /not JSON-RPC 2\.0/],
    ["sse-cut", -32000, /cut in the middle of an event/],
    ["wrong-content-type", -32600, /Unexpected content type.*text\/html/],
    ["500-empty", -32603, /HTTP 500.*empty body/],
    ["500-body", -32603, /database on fire/],
  ];
  for (const [name, code, pattern] of cases) {
    test(name, async () => {
      const c = await connected(fault(name), { timeoutMs: 5000 });
      assert.equal(c.era, "legacy");
      const e = await rejection(c.callTool("echo", { text: "x" }));
      assert.equal(e.code, code, e.message);
      assert.match(e.message, pattern);
      // The client stays usable for the next call.
      const e2 = await rejection(c.listTools());
      assert.equal(e2.code, code);
      await c.close();
    });
  }

  test("a server that never answers hits the timeout", async () => {
    const c = await connected(fault("hang"), { timeoutMs: 300 });
    const e = await rejection(c.callTool("echo", { text: "x" }));
    assert.equal(e.code, -32001);
    await c.close();
  });

  test("SSE and JSON answers from a well-behaved fault path", async () => {
    for (const name of ["ok", "sse-ok"]) {
      const c = await connected(fault(name));
      assert.equal(text(await c.callTool("echo", { text: "x" })), "ok");
      await c.close();
    }
  });
});
