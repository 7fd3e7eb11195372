// The rest of the client surface: resources, prompts, completion, pagination, legacy-only
// methods, progress, and a legacy session that expires mid-use.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { pkg, PY, TS, EVERYTHING, fault, rejection, text } from "./peers.mjs";

const { Client } = pkg;

async function connected(url, options = {}) {
  const c = new Client(url, options);
  await c.connect();
  return c;
}

for (const [name, url, mode] of [
  ["Python modern", PY, "auto"],
  ["Python legacy", PY, "legacy"],
  ["TypeScript legacy", TS, "auto"],
]) {
  test(`${name}: resources and prompts`, async () => {
    const c = await connected(url, { mode });
    const { resources } = await c.listResources();
    assert.ok(resources.some((r) => r.uri === "demo://hello"), JSON.stringify(resources));
    const read = await c.readResource("demo://hello");
    assert.equal(read.contents[0].uri, "demo://hello");
    assert.equal(typeof read.contents[0].text, "string");
    assert.ok(Array.isArray((await c.listResourceTemplates()).resourceTemplates));
    const { prompts } = await c.listPrompts();
    assert.ok(prompts.some((p) => p.name === "greet"));
    const prompt = await c.getPrompt("greet", { name: "Ada" });
    assert.ok(prompt.messages.length >= 1);
    assert.match(JSON.stringify(prompt.messages), /Ada/);
    await c.close();
  });
}

describe("server-everything (legacy)", () => {
  test("completion/complete narrows a prompt argument", async () => {
    const c = await connected(EVERYTHING);
    const r = await c.complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "department", value: "" });
    assert.ok(Array.isArray(r.completion.values));
    assert.ok(r.completion.values.length > 0, JSON.stringify(r));
    await c.close();
  });

  test("ping answers {} on a legacy session; a modern session refuses it clearly", async () => {
    const c = await connected(EVERYTHING);
    assert.deepEqual(await c.ping(), {});
    await c.close();
    const m = await connected(PY, { mode: "auto" });
    assert.match((await rejection(m.ping())).message, /only in the legacy era/);
    await m.close();
  });

  test("subscribeResource: notifications/resources/updated reaches messageHandler", async () => {
    const updates = [];
    const c = await connected(EVERYTHING, {
      messageHandler: (m) => m.method === "notifications/resources/updated" && updates.push(m.params.uri),
    });
    const { resources } = await c.listResources();
    const uri = resources[0].uri;
    assert.deepEqual(await c.subscribeResource(uri), {});
    await c.callTool("toggle-subscriber-updates", {});
    for (let i = 0; i < 160 && updates.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await c.callTool("toggle-subscriber-updates", {});
    assert.ok(updates.includes(uri), `updates: ${JSON.stringify(updates)}`);
    assert.deepEqual(await c.unsubscribeResource(uri), {});
    await c.close();
  });

  test("onProgress gets notifications/progress; progress restarts the timeout", async () => {
    const c = await connected(EVERYTHING);
    const seen = [];
    const r = await c.callTool(
      "trigger-long-running-operation",
      { duration: 2, steps: 4 },
      { timeoutMs: 900, onProgress: (p) => seen.push(p) },
    );
    assert.match(text(r), /completed/i);
    assert.deepEqual(seen.map((p) => p.progress), [1, 2, 3, 4]);
    assert.equal(seen[0].total, 4);
    assert.equal(typeof seen[0].progressToken, "string");
    await c.close();
  });

  test("resetTimeoutOnProgress: false and maxTotalTimeoutMs keep a hard limit", async () => {
    const c = await connected(EVERYTHING);
    const e1 = await rejection(
      c.callTool("trigger-long-running-operation", { duration: 2, steps: 4 }, { timeoutMs: 900, onProgress: () => {}, resetTimeoutOnProgress: false }),
    );
    assert.equal(e1.code, -32001);
    const e2 = await rejection(
      c.callTool("trigger-long-running-operation", { duration: 2, steps: 4 }, { timeoutMs: 900, onProgress: () => {}, maxTotalTimeoutMs: 1200 }),
    );
    assert.equal(e2.code, -32001);
    assert.match(e2.message, /maxTotalTimeoutMs/);
    await c.close();
  });
});

describe("pagination", () => {
  test("one page at a time; an empty-string cursor is a cursor, not the end", async () => {
    const c = await connected(fault("paged"));
    const p1 = await c.listTools();
    assert.equal(p1.nextCursor, "");
    const p2 = await c.listTools({ cursor: p1.nextCursor });
    assert.deepEqual(p2.tools.map((t) => t.name), ["t2"]);
    assert.equal(p2.nextCursor, "b");
    await c.close();
  });

  test("all: true aggregates every page", async () => {
    const c = await connected(fault("paged"));
    const all = await c.listTools({ all: true });
    assert.deepEqual(all.tools.map((t) => t.name), ["t1", "t2", "t3"]);
    assert.equal(all.nextCursor, undefined);
    await c.close();
  });

  test("a server that repeats its cursor is stopped, not followed forever", async () => {
    const c = await connected(fault("paged-loop"));
    assert.match((await rejection(c.listTools({ all: true }))).message, /cursor "again" twice/);
    assert.match((await rejection(c.listTools({ all: true, maxPages: 1 }))).message, /more than 1 pages/);
    await c.close();
  });
});

describe("legacy session expiry", () => {
  test("HTTP 404 on a live session: re-initialize transparently, retry once, tell messageHandler", async () => {
    const notices = [];
    const c = await connected(fault("expire-after-one-call"), { messageHandler: (m) => m instanceof pkg.McpError && notices.push(m) });
    const first = c.sessionId;
    assert.match(text(await c.callTool("echo", { text: "1" })), /ok on session/);
    const r = await c.callTool("echo", { text: "2" });
    assert.match(text(r), /ok on session/);
    assert.notEqual(c.sessionId, first, "a new session was started");
    assert.equal(notices.length, 1);
    assert.equal(notices[0].data.kind, "session_expired");
    assert.match(notices[0].message, /Session not found/);
    await c.close();
  });
});

describe("2026 headers and cache (Python peer)", () => {
  function recordingFetch(log) {
    return (input, init) => {
      const h = Object.fromEntries(new Headers(init.headers));
      log.push({ method: h["mcp-method"], headers: h });
      return fetch(input, init);
    };
  }

  test("x-mcp-header: a listed tool's argument travels as Mcp-Param-*", async () => {
    const log = [];
    const c = await connected(PY, { fetch: recordingFetch(log) });
    const { tools } = await c.listTools();
    assert.equal(tools.find((t) => t.name === "weather").inputSchema.properties.city["x-mcp-header"], "City");
    assert.equal(text(await c.callTool("weather", { city: "Zürich" })), "sunny in Zürich");
    const call = log.find((r) => r.method === "tools/call");
    assert.equal(call.headers["mcp-param-city"], `=?base64?${Buffer.from("Zürich").toString("base64")}?=`);
    await c.close();
  });

  test("-32020 for an unlisted tool: the client re-lists and retries once", async () => {
    const log = [];
    const c = await connected(PY, { fetch: recordingFetch(log) });
    assert.equal(text(await c.callTool("weather", { city: "Paris" })), "sunny in Paris");
    assert.deepEqual(log.map((r) => r.method), ["server/discover", "tools/call", "tools/list", "tools/call"]);
    assert.equal(log[3].headers["mcp-param-city"], "Paris");
    await c.close();
  });

  test("list results are cached for their ttlMs; cache: false turns it off", async () => {
    for (const [cache, expected] of [[undefined, 1], [false, 2]]) {
      const log = [];
      const c = await connected(PY, { fetch: recordingFetch(log), cache });
      const a = await c.listPrompts();
      const b = await c.listPrompts();
      assert.deepEqual(a, b);
      assert.equal(a.ttlMs, 60000);
      assert.equal(log.filter((r) => r.method === "prompts/list").length, expected, `cache: ${cache}`);
      await c.close();
    }
  });
});

describe("outputSchema validation", () => {
  test("structuredContent that breaks the listed outputSchema is an McpError, not a silent pass", async () => {
    const c = await connected(fault("bad-output"));
    // Unlisted: nothing to check against yet.
    assert.equal(text(await c.callTool("add", {})), "42");
    await c.listTools();
    const e = await rejection(c.callTool("add", {}));
    assert.equal(e.code, -32602);
    assert.match(e.message, /"add" returned structuredContent that does not match its outputSchema: \/sum: "forty-two" is not of type "integer"/);
    assert.deepEqual(e.data.errors, ['/sum: "forty-two" is not of type "integer"']);
    assert.match((await rejection(c.callTool("add_nothing", {}))).message, /returned no structured content/);
    await c.close();
  });

  for (const [name, url, mode] of [["Python modern", PY, "auto"], ["TypeScript legacy (draft-07)", TS, "auto"]]) {
    test(`${name}: valid structured output passes the real server's outputSchema`, async () => {
      const c = await connected(url, { mode });
      const { tools } = await c.listTools();
      assert.ok(tools.find((t) => t.name === "add").outputSchema);
      assert.deepEqual((await c.callTool("add", { a: 1, b: 2 })).structuredContent, { sum: 3 });
      await c.close();
    });
  }
});

test("2026: a tool with an invalid x-mcp-header is dropped from the listing with a warning", async () => {
  const warnings = [];
  const c = await connected(fault("modern-bad-tool"), { messageHandler: (m) => m instanceof pkg.McpError && warnings.push(m) });
  assert.equal(c.era, "modern");
  const { tools } = await c.listTools();
  assert.deepEqual(tools.map((t) => t.name), ["good"]);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].data.kind, "warning");
  assert.match(warnings[0].message, /tool "bad" dropped/);
  await c.close();
});
