// toolsFor and toModelContent (mcp-wasm-client/ai) for OpenAI chat and responses, Anthropic and
// Gemini: each request body's `tools` checked against the provider's documented rules (names,
// strict mode, the Gemini Schema subset), call() against the TS SDK schema peer (what reaches the
// server), server-everything (images per provider) and the Python SDK peer (errors), approval,
// and list_changed against tests/react/peer.py (a tool that comes and goes).
import { mapPackages } from "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EVERYTHING, PY, eventually, pkg } from "../js/peers.mjs";
import { LONG_NAME, schemaClient } from "./schema_server.mjs";

mapPackages("ai");
const { toAiSdkTools, toolsFor, toModelContent } = await import("mcp-wasm-client/ai");
const { Client, McpError } = pkg;
const here = path.dirname(fileURLToPath(import.meta.url));
const PROVIDERS = ["openai-chat", "openai-responses", "anthropic", "gemini"];

// ---- the providers' documented rules -----------------------------------------------------------
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const STRICT_KEYS = new Set(["type", "description", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems"]);
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const GEMINI_KEYS = new Set(["anyOf", "default", "description", "enum", "example", "format", "items", "maxItems", "maxLength", "maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "nullable", "pattern", "properties", "propertyOrdering", "required", "title", "type"]);
const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]);

/** Every subschema of a JSON Schema or Gemini Schema (properties, items, anyOf). */
function* walk(node, where = "") {
  yield [node, where];
  for (const [k, v] of Object.entries(node.properties ?? {})) yield* walk(v, `${where}.${k}`);
  if (node.items) yield* walk(node.items, `${where}[]`);
  for (const [i, b] of (node.anyOf ?? []).entries()) yield* walk(b, `${where}|${i}`);
}

/** OpenAI strict mode's rules (Structured Outputs: supported schemas). */
function assertStrict(schema, tool) {
  assert.equal(schema.type, "object", `${tool}: root`);
  for (const [node, where] of walk(schema)) {
    for (const k of Object.keys(node)) assert.ok(STRICT_KEYS.has(k), `${tool}${where}: ${k} is not supported in strict mode`);
    if (node.format) assert.ok(STRICT_FORMATS.has(node.format), `${tool}${where}: format ${node.format}`);
    if (node.properties) {
      assert.equal(node.additionalProperties, false, `${tool}${where}: additionalProperties`);
      assert.deepEqual([...node.required].sort(), Object.keys(node.properties).sort(), `${tool}${where}: every property required`);
    }
    assert.ok(node.type || node.anyOf || node.enum || "const" in node, `${tool}${where}: no type`);
  }
}

/** Gemini's Schema (the OpenAPI subset of FunctionDeclaration.parameters). */
function assertGemini(schema, tool) {
  assert.equal(schema.type, "OBJECT", `${tool}: root`);
  for (const [node, where] of walk(schema)) {
    for (const k of Object.keys(node)) assert.ok(GEMINI_KEYS.has(k), `${tool}${where}: ${k} is not a Schema field`);
    if (node.type) assert.ok(GEMINI_TYPES.has(node.type), `${tool}${where}: type ${node.type}`);
    if (node.enum) assert.ok(node.enum.every((v) => typeof v === "string"), `${tool}${where}: enum of strings`);
    for (const k of ["minLength", "maxLength", "minItems", "maxItems"]) if (k in node) assert.equal(typeof node[k], "string", `${tool}${where}: ${k} (int64) as a string`);
    if (node.type === "OBJECT") assert.ok(Object.keys(node.properties ?? {}).length > 0 || where === "", `${tool}${where}: OBJECT without properties`);
  }
}

/** The tool definitions of a body's `tools`, by model name, and each one's schema. */
function definitions(provider, tools) {
  const out = new Map();
  if (provider === "openai-chat") for (const t of tools) out.set(t.function.name, { def: t, name: t.function.name, schema: t.function.parameters, strict: t.function.strict });
  if (provider === "openai-responses") for (const t of tools) out.set(t.name, { def: t, name: t.name, schema: t.parameters, strict: t.strict });
  if (provider === "anthropic") for (const t of tools) out.set(t.name, { def: t, name: t.name, schema: t.input_schema });
  if (provider === "gemini") for (const t of tools[0].functionDeclarations) out.set(t.name, { def: t, name: t.name, schema: t.parameters, json: t.parametersJsonSchema });
  return out;
}

for (const provider of PROVIDERS) {
  test(`${provider}: the request body's tools follow the provider's rules; unconvertible schemas are reported and left out`, async () => {
    const reports = [];
    const peer = await schemaClient(Client);
    try {
      const set = await toolsFor(peer.client, provider, { messageHandler: (e) => reports.push(e) });
      assert.deepEqual(JSON.parse(JSON.stringify(set.tools)), set.tools, "plain JSON");
      const defs = definitions(provider, set.tools);
      const byMcp = new Map([...defs.values()].map((d) => [set.toolName(d.name), d]));
      assert.deepEqual([...byMcp.keys()].sort(), ["book_flight", "files.read", LONG_NAME, "tag", "tree"].sort());
      const rule = { gemini: GEMINI_NAME, anthropic: ANTHROPIC_NAME }[provider] ?? OPENAI_NAME;
      for (const d of defs.values()) assert.match(d.name, rule);
      assert.ok(byMcp.get(LONG_NAME).name.length <= 64);
      assert.equal(set.toolName("no_such_tool"), undefined);
      assert.deepEqual(reports.map((e) => e.data.tool).sort(), ["listing", "remote"]);
      for (const e of reports) {
        assert.ok(e instanceof McpError, e.message);
        assert.equal(e.data.kind, "tool_schema");
        assert.equal(e.data.provider, provider);
      }
      assert.match(reports.find((e) => e.data.tool === "listing").message, /not an object/);
      assert.match(reports.find((e) => e.data.tool === "remote").message, /outside the schema/);
      assert.deepEqual(set.skipped.map((s) => s.name).sort(), ["listing", "remote"]);
      const flight = byMcp.get("book_flight");
      assert.ok(!JSON.stringify(set.tools).includes("$schema"), "$schema removed");
      if (provider.startsWith("openai")) {
        assert.equal(flight.strict, true);
        assertStrict(flight.schema, "book_flight");
        assert.deepEqual(flight.schema.properties.seats.type, ["integer", "null"], "optional → nullable");
        assert.match(flight.schema.properties.website.description, /format: uri/, "an unsupported format said in words");
        assert.equal(flight.schema.properties.traveller.properties.loyalty.enum.at(-1), null, "$ref inlined, optional enum nullable");
        assert.equal(byMcp.get("tree").strict, false, "a cycle is not strict");
        assert.equal(byMcp.get("tag").strict, false, "an open map is not strict");
        assert.ok(JSON.stringify(byMcp.get("tree").schema).includes("$defs"), "non-strict keeps the cycle's $defs");
      } else if (provider === "anthropic") {
        for (const d of defs.values()) assert.equal(d.schema.type, "object");
        assert.equal(flight.schema.properties.traveller.properties.loyalty.type, "string", "$ref inlined");
        assert.ok(!("$defs" in flight.schema));
      } else {
        assertGemini(flight.schema, "book_flight");
        assertGemini(byMcp.get("files.read").schema, "files.read");
        assert.equal(byMcp.get("files.read").name, "files.read", "dots are allowed in Gemini names");
        assert.equal(flight.schema.properties.traveller.properties.loyalty.type, "STRING");
        assert.deepEqual(byMcp.get("files.read").schema.properties.encoding, { type: "STRING", nullable: true, enum: ["utf8", "base64"] });
        assert.ok(byMcp.get("tree").json && !byMcp.get("tree").schema, "a cycle goes as parametersJsonSchema");
        assert.ok(byMcp.get("tag").json, "an open map goes as parametersJsonSchema");
        assert.equal(byMcp.get(LONG_NAME).schema, undefined, "no properties: no parameters");
      }
    } finally {
      await peer.close();
    }
  });
}

test("call(): the arguments the model sends (JSON text, strict nulls) reach the server as the tool's schema wants them", async () => {
  const peer = await schemaClient(Client);
  try {
    const chat = await toolsFor(peer.client, "openai-chat");
    const name = [...definitions("openai-chat", chat.tools).keys()].find((n) => chat.toolName(n) === "book_flight");
    const sent = { from: "AMS", to: "LIS", date: "2026-09-01", contact: null, website: null, seats: null, traveller: { name: "Ada", age: null, loyalty: null } };
    const item = await chat.call(name, JSON.stringify(sent), { id: "call_1" });
    assert.deepEqual(peer.seen.at(-1), { name: "book_flight", args: { from: "AMS", to: "LIS", date: "2026-09-01", traveller: { name: "Ada" } } });
    assert.equal(item.role, "tool");
    assert.equal(item.tool_call_id, "call_1");
    assert.deepEqual(item.result.structuredContent, { received: peer.seen.at(-1).args }, "the CallToolResult stays on the item for the UI");
    const encoding = await chat.call(chat.tools.find((t) => chat.toolName(t.function.name) === "files.read").function.name, { path: "/a", encoding: null });
    assert.deepEqual(peer.seen.at(-1).args, { path: "/a", encoding: null }, "a property that may be null keeps its null");
    assert.equal(encoding.content[0].type, "text");
    await assert.rejects(chat.call("nope", {}), (e) => e instanceof McpError && e.data.kind === "unknown_tool" && e.data.tool === "nope");
    await assert.rejects(chat.call(name, "{not json"), (e) => e instanceof McpError && e.data.kind === "input" && /not JSON/.test(e.message));
    await assert.rejects(chat.call(name, "[1]"), (e) => e instanceof McpError && e.data.kind === "input" && /an array/.test(e.message));
  } finally {
    await peer.close();
  }
});

test("server-everything's image per provider: image parts, never base64 in text; OpenAI chat's in attachments for a user message", async () => {
  const client = new Client(EVERYTHING);
  await client.connect();
  try {
    const raw = await client.callTool("get-tiny-image", {});
    const image = raw.content.find((c) => c.type === "image");
    const items = {};
    for (const provider of PROVIDERS) {
      const set = await toolsFor(client, provider);
      items[provider] = await set.call("get-tiny-image", "{}", { id: "c9" });
      const texts = JSON.stringify(items[provider]).match(/"(text|output)":"[^"]*"/g) ?? [];
      for (const t of texts) assert.ok(!t.includes(image.data.slice(0, 40)), `${provider}: base64 inside text`);
    }
    const chat = items["openai-chat"];
    assert.deepEqual(chat.attachments, [{ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } }]);
    assert.ok(!Object.keys(chat).includes("attachments"), "attachments stay out of the tool message");
    assert.ok(chat.content.every((p) => p.type === "text"), "a tool message takes text only");
    assert.deepEqual(items["openai-responses"].output.find((p) => p.type === "input_image"), { type: "input_image", image_url: `data:${image.mimeType};base64,${image.data}`, detail: "auto" });
    assert.equal(items["openai-responses"].call_id, "c9");
    assert.deepEqual(items.anthropic.content.find((p) => p.type === "image"), { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } });
    assert.equal(items.anthropic.tool_use_id, "c9");
    assert.deepEqual(items.gemini.functionResponse.parts, [{ inlineData: { mimeType: image.mimeType, data: image.data } }]);
    assert.equal(items.gemini.functionResponse.id, "c9");
    assert.deepEqual(toModelContent(raw, "anthropic"), { type: "tool_result", content: items.anthropic.content }, "toModelContent is call()'s mapping, without the id");
  } finally {
    await client.close();
  }
});

test("a tool error (isError) in each provider's error form (Python SDK peer's fail)", async () => {
  const client = new Client(PY);
  await client.connect();
  try {
    const items = {};
    for (const provider of PROVIDERS) items[provider] = await (await toolsFor(client, provider)).call("fail", { message: "disk full" });
    assert.match(items["openai-chat"].content[0].text, /^Error: .*disk full/);
    assert.match(items["openai-responses"].output[0].text, /^Error: .*disk full/);
    assert.equal(items.anthropic.is_error, true);
    assert.match(items.anthropic.content[0].text, /disk full/);
    assert.match(items.gemini.functionResponse.response.error, /disk full/);
    assert.ok(!("output" in items.gemini.functionResponse.response));
    const ok = await (await toolsFor(client, "anthropic")).call("echo", { text: "fine" });
    assert.deepEqual({ ...ok }, { type: "tool_result", content: [{ type: "text", text: "fine" }] }, "no is_error on success");
  } finally {
    await client.close();
  }
});

test("approval: call() asks approve(tool, args) before the server sees the call; a declined call is the provider's error form", async () => {
  const peer = await schemaClient(Client);
  try {
    const asked = [];
    const set = await toolsFor(peer.client, "anthropic", { approval: "destructive", approve: async (tool, args) => (asked.push([tool.name, args]), args.from === "AMS") });
    const flight = set.tools.find((t) => set.toolName(t.name) === "book_flight").name;
    const read = set.tools.find((t) => set.toolName(t.name) === "files.read").name;
    await set.call(read, { path: "/x" });
    assert.deepEqual(asked, [], "readOnlyHint: true does not ask");
    const declined = await set.call(flight, { from: "BER", to: "LIS", date: "2026-09-01" });
    assert.equal(declined.is_error, true);
    assert.equal(declined.declined, true);
    assert.match(declined.content[0].text, /declined/);
    assert.ok(!peer.seen.some((c) => c.args.from === "BER"), "the server never saw the declined call");
    await set.call(flight, { from: "AMS", to: "LIS", date: "2026-09-01" });
    assert.equal(peer.seen.at(-1).args.from, "AMS");
    assert.equal(asked.length, 2);
    await assert.rejects(toolsFor(peer.client, "anthropic", { approval: "always" }), (e) => e instanceof TypeError && /options.approve/.test(e.message));
  } finally {
    await peer.close();
  }
});

test("bad input: an unknown provider, a source that is no client, a result that is none", async () => {
  await assert.rejects(toolsFor({ listTools() {}, callTool() {} }, "mistral"), (e) => e instanceof TypeError && /provider must be one of/.test(e.message));
  await assert.rejects(toolsFor("http://x", "anthropic"), /source must be a Client or a ClientGroup/);
  assert.throws(() => toModelContent({ content: [] }, "cohere"), /provider must be one of/);
  assert.throws(() => toModelContent(null, "anthropic"), /must be a CallToolResult/);
  assert.throws(() => toModelContent({ content: [] }, "gemini"), /needs the tool's name/);
});

test("list_changed: onChange gets fresh tools (toolsFor and toAiSdkTools) when the server's list changes, and the next call lists them", async (t) => {
  const port = Number(process.env.AI_TEST_PORT ?? 18148);
  const child = spawn("python3", [path.join(here, "../react/peer.py"), String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  t.after(() => child.kill());
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/test/stats`).catch(() => null))?.ok, 20_000).catch(() => {
    throw new Error(`tests/react/peer.py on ${port} did not start: ${stderr.slice(-2000)}`);
  });
  const client = new Client(`http://127.0.0.1:${port}/mcp`);
  await client.connect();
  try {
    const changes = [];
    const set = await toolsFor(client, "openai-responses", { onChange: (next) => changes.push(next) });
    const toolSets = [];
    const stop = new AbortController();
    assert.ok(!("bonus" in (await toAiSdkTools(client, { onChange: (next) => toolSets.push(next), signal: stop.signal }))));
    const names = (s) => s.tools.map((x) => x.name).sort();
    assert.ok(!names(set).includes("bonus"));
    await new Promise((r) => setTimeout(r, 300)); // the 2026 listen stream opens for the listener
    await set.call("toggle_bonus", {});
    await eventually(() => changes.some((c) => names(c).includes("bonus")), 10_000);
    const next = changes.find((c) => names(c).includes("bonus"));
    assert.deepEqual((await next.call("bonus", {})).output, [{ type: "input_text", text: "bonus!" }]);
    assert.ok(names(await toolsFor(client, "openai-responses")).includes("bonus"), "a fresh toolsFor lists it");
    await eventually(() => toolSets.some((t) => "bonus" in t), 10_000);
    assert.equal(await toolSets.find((t) => "bonus" in t).bonus.execute({}, { toolCallId: "b", messages: [] }).then((r) => r.content[0].text), "bonus!");
    assert.ok("bonus" in (await toAiSdkTools(client)), "a fresh ToolSet has it");
    await new Promise((r) => setTimeout(r, 500));
    // one change, a few events: not a loop (listing a Client from its own toolschange fires it again)
    assert.ok(changes.length <= 4 && toolSets.length <= 4, `onChange ran ${changes.length} and ${toolSets.length} times`);
    set.close();
    stop.abort();
    await client.callTool("toggle_bonus", {});
  } finally {
    await client.close();
  }
});
