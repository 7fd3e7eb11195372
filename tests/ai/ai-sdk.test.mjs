// toAiSdkTools (mcp-wasm-client/ai) with the real AI SDK 7: generateText with MockLanguageModelV4
// calling tools of the Python SDK peer, server-everything and the TS SDK schema peer, the prompt
// the mock receives checked for each mapping (text, structured, image, resource links, embedded
// resources, errors), cancellation reaching the server, approval, a ClientGroup with long names.
import { mapPackages } from "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { EVERYTHING, PY, pkg } from "../js/peers.mjs";
import { scriptedModel, toolResults } from "./model.mjs";
import { LONG_NAME, schemaClient, schemaServer } from "./schema_server.mjs";
import { buildServer, InMemoryTransport } from "../peers/ts_transport_server.mjs";

mapPackages("ai");
const { toAiSdkTools } = await import("mcp-wasm-client/ai");
const { generateText, stepCountIs } = await import("ai");
const { MockLanguageModelV4 } = await import("ai/test");
const { Client, ClientGroup, McpError } = pkg;

async function connected(url, options) {
  const client = new Client(url, options);
  await client.connect();
  return client;
}

/** generateText over `tools` with a model that makes `calls` (one step), then says "done". */
async function run(tools, calls, options = {}) {
  const { model, prompts, tools: given } = scriptedModel(MockLanguageModelV4, [calls, "done"]);
  const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(3), ...options });
  return { result, prompts, given, results: toolResults(prompts) };
}

test("a ToolSet of the Python peer's tools: dynamic tools, JSON Schemas without $schema, names as listed", async () => {
  const client = await connected(PY);
  try {
    const tools = await toAiSdkTools(client);
    const { tools: listed } = await client.listTools({ all: true });
    assert.deepEqual(Object.keys(tools).sort(), listed.map((t) => t.name).sort());
    for (const [name, tool] of Object.entries(tools)) {
      assert.equal(tool.type, "dynamic", name);
      const schema = tool.inputSchema.jsonSchema;
      assert.equal(schema.type, "object", name);
      assert.ok(!JSON.stringify(schema).includes("$schema"), `${name}: $schema left in`);
    }
    assert.equal(tools.echo.description, "Return the given text unchanged.");
  } finally {
    await client.close();
  }
});

test("generateText: text and structured results of the Python peer reach the model as text, the CallToolResult stays the output", async () => {
  const client = await connected(PY);
  try {
    const { result, results, given } = await run(await toAiSdkTools(client), [["echo", { text: "hello" }], ["add", { a: 2, b: 40 }]]);
    assert.equal(result.text, "done");
    assert.ok(given[0].some((t) => t.name === "echo" && t.inputSchema.properties.text.type === "string"), "the model was offered echo");
    assert.deepEqual(results.echo.output, { type: "text", value: "hello" });
    assert.equal(results.add.output.type, "text");
    assert.deepEqual(JSON.parse(results.add.output.value), { sum: 42 });
    const add = result.steps[0].toolResults.find((r) => r.toolName === "add");
    assert.deepEqual(add.output.structuredContent, { sum: 42 }, "the UI keeps structuredContent");
  } finally {
    await client.close();
  }
});

test("generateText: server-everything's image is a file part (never base64 in text); links, embedded resources and structured content are text", async () => {
  const client = await connected(EVERYTHING);
  try {
    const calls = [["get-tiny-image", {}], ["get-resource-links", { count: 2 }], ["get-resource-reference", { resourceType: "Text", resourceId: 1 }], ["get-structured-content", { location: "Chicago" }]];
    const { result, results } = await run(await toAiSdkTools(client), calls);
    const raw = result.steps[0].toolResults.find((r) => r.toolName === "get-tiny-image").output;
    const image = raw.content.find((c) => c.type === "image");
    const output = results["get-tiny-image"].output;
    assert.equal(output.type, "content");
    const file = output.value.find((p) => p.type === "file");
    assert.ok(file, `no file part: ${output.value.map((p) => p.type)}`);
    assert.equal(file.mediaType, image.mimeType);
    assert.deepEqual(file.data, { type: "data", data: image.data }, "the image's base64, as a file part's data");
    for (const p of output.value.filter((p) => p.type === "text")) assert.ok(!p.text.includes(image.data.slice(0, 40)), "base64 inside a text part");
    const links = results["get-resource-links"].output;
    assert.equal(links.type, "text");
    const linkBlocks = result.steps[0].toolResults.find((r) => r.toolName === "get-resource-links").output.content.filter((c) => c.type === "resource_link");
    assert.equal(linkBlocks.length, 2);
    for (const l of linkBlocks) assert.ok(links.value.includes(`Resource link: URI ${l.uri}, name ${l.name}`), `${l.uri} not named: ${links.value}`);
    const embedded = result.steps[0].toolResults.find((r) => r.toolName === "get-resource-reference").output.content.find((c) => c.type === "resource").resource;
    assert.ok(results["get-resource-reference"].output.value.includes(`Resource ${embedded.uri}`));
    assert.ok(results["get-resource-reference"].output.value.includes(embedded.text), "the resource's text");
    const structured = result.steps[0].toolResults.find((r) => r.toolName === "get-structured-content").output;
    const text = results["get-structured-content"].output.value;
    if (structured.content.some((c) => c.type === "text")) assert.ok(text.includes("temperature"), text);
    else assert.deepEqual(JSON.parse(text), structured.structuredContent);
  } finally {
    await client.close();
  }
});

test("structuredContent without text content is given to the model as JSON text", async () => {
  // the schema peer answers text and structuredContent; a filter keeps one tool, and the
  // server's answer is read without its text through a transport that drops it
  const peer = await schemaClient(Client);
  try {
    const tools = await toAiSdkTools(peer.client, { filter: (t) => t.name === "files.read" });
    const [name] = Object.keys(tools);
    const out = await tools[name].toModelOutput({ toolCallId: "x", input: {}, output: { content: [], structuredContent: { received: { path: "/a" } } } });
    assert.deepEqual(out, { type: "text", value: JSON.stringify({ received: { path: "/a" } }) });
  } finally {
    await peer.close();
  }
});

test("generateText: a tool error (isError) is the model's error-text; a call the server refuses is a tool error too", async () => {
  const client = await connected(PY);
  try {
    const { results } = await run(await toAiSdkTools(client), [["fail", { message: "the printer is on fire" }]]);
    assert.equal(results.fail.output.type, "error-text");
    assert.match(results.fail.output.value, /the printer is on fire/);
  } finally {
    await client.close();
  }
});

test("the step's abortSignal cancels the call on the server (TS SDK peer: its handler sees the abort)", async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const peer = buildServer();
  await peer.server.connect(serverSide);
  const client = new Client({ transport: clientSide });
  await client.connect();
  try {
    const tools = await toAiSdkTools(client);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error("user pressed stop")), 300);
    const { model } = scriptedModel(MockLanguageModelV4, [[["sleep", { ms: 20_000 }]], "done"]);
    await assert.rejects(generateText({ model, tools, prompt: "go", abortSignal: controller.signal, stopWhen: stepCountIs(3) }));
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    const end = Date.now() + 5_000;
    while (peer.cancelled.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assert.equal(peer.cancelled.length, 1, "the server's handler saw the cancellation");
    assert.equal(client.pendingRequests, 0);
    // execute itself rejects with the client's McpError (kind aborted)
    const aborted = AbortSignal.abort();
    await assert.rejects(tools.sleep.execute({ ms: 10_000 }, { abortSignal: aborted, toolCallId: "x", messages: [] }), (e) => e instanceof McpError && e.data?.kind === "aborted");
  } finally {
    await client.close();
  }
});

test("approval: destructive asks unless readOnlyHint/destructiveHint say otherwise; always; a function; the AI SDK stops for approval", async () => {
  const everything = await connected(EVERYTHING);
  const py = await connected(PY);
  try {
    const ev = await toAiSdkTools(everything, { approval: "destructive" });
    assert.equal(await ev.echo.needsApproval({ message: "x" }, { toolCallId: "1", messages: [] }), false, "readOnlyHint: true");
    assert.equal(await ev["toggle-simulated-logging"].needsApproval({}, { toolCallId: "1", messages: [] }), false, "destructiveHint: false");
    const pyTools = await toAiSdkTools(py, { approval: "destructive" });
    assert.equal(await pyTools.echo.needsApproval({ text: "x" }, { toolCallId: "1", messages: [] }), true, "no annotations: the spec's defaults ask");
    const always = await toAiSdkTools(everything, { approval: "always" });
    assert.equal(await always.echo.needsApproval({ message: "x" }, { toolCallId: "1", messages: [] }), true);
    const seen = [];
    const byRule = await toAiSdkTools(py, { approval: async (tool, args) => (seen.push([tool.name, args]), args.text === "ask me") });
    const { result } = await run(byRule, [["echo", { text: "ask me" }]]);
    assert.deepEqual(seen, [["echo", { text: "ask me" }]]);
    const request = result.content.find((p) => p.type === "tool-approval-request");
    assert.ok(request, `no approval request: ${JSON.stringify(result.content.map((p) => p.type))}`);
    assert.equal(request.toolCall.toolName, "echo");
    assert.equal(result.steps[0].toolResults.length, 0, "the tool did not run");
    await assert.rejects(toAiSdkTools(py, { approval: "sometimes" }), (e) => e instanceof TypeError && /options.approval must be one of/.test(e.message));
  } finally {
    await everything.close();
    await py.close();
  }
});

test("a ClientGroup with a long server and tool name: names fit (64, [a-zA-Z0-9_-]), unique, and the call reaches its server", async () => {
  const server = "python_sdk_peer_with_a_rather_long_descriptive_server_name_one"; // + "__echo": 68 characters
  const schemas = await schemaServer();
  const group = new ClientGroup({ servers: { [server]: { url: PY } } });
  await group.connect();
  await group.addServer("schemas", { transport: schemas.clientSide });
  try {
    const reports = [];
    const tools = await toAiSdkTools(group, { messageHandler: (e) => reports.push(e) });
    const names = Object.keys(tools);
    for (const n of names) assert.match(n, /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/, n);
    assert.equal(new Set(names).size, names.length);
    const echo = names.find((n) => n.startsWith(server.slice(0, 40)) && n !== `${server}__echo` && tools[n].description === "Return the given text unchanged.");
    assert.ok(echo, `no shortened echo among ${names}`);
    const { results } = await run(tools, [[echo, { text: "through the group" }]]);
    assert.deepEqual(results[echo].output, { type: "text", value: "through the group" });
    const long = names.find((n) => tools[n].description === "A name over 64 characters.");
    assert.ok(long && long.length <= 64, long);
    const { results: r2 } = await run(tools, [[long, {}]]);
    assert.equal(r2[long].output.type, "text");
    assert.ok(schemas.seen.some((c) => c.name === LONG_NAME), "the long tool reached the schema server");
    assert.deepEqual(reports.map((e) => e.data.tool).sort(), ["schemas__listing", "schemas__remote"]);
    for (const e of reports) assert.ok(e instanceof McpError && e.data.kind === "tool_schema" && e.data.server === "schemas", e.message);
  } finally {
    await group.close();
    await schemas.close();
  }
});

test("bad input: a source that is no client and unknown or mistyped options are clear TypeErrors", async () => {
  await assert.rejects(toAiSdkTools({}), (e) => e instanceof TypeError && /source must be a Client or a ClientGroup/.test(e.message));
  await assert.rejects(toAiSdkTools(null), /got null/);
  const client = await connected(PY);
  try {
    await assert.rejects(toAiSdkTools(client, { approve: () => true }), /options.approve is not an option/);
    await assert.rejects(toAiSdkTools(client, { filter: "echo" }), /options.filter must be a function/);
  } finally {
    await client.close();
  }
});
