// docs/ai.md's provider scripts run as written (the MCP server's URL swapped for the Python SDK
// peer's), each with its real SDK (openai, @anthropic-ai/sdk, @google/genai) pointed by its base
// URL variable at a local endpoint that answers like the provider: first a call of `add`
// {a: 2, b: 40}, then, once the tool result comes back, the text "the sum is 42". The endpoint
// keeps each request body: the first must carry exactly toolsFor(...).tools, the second the tool
// result in the provider's form, with the call's id. (The AI SDK script's model is the AI
// Gateway's, another protocol: ai-sdk.test.mjs runs toAiSdkTools through generateText instead.)
import { mapPackages } from "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PY, pkg } from "../js/peers.mjs";

mapPackages("ai");
const { toolsFor } = await import("mcp-wasm-client/ai");
const here = path.dirname(fileURLToPath(import.meta.url));
const docs = readFileSync(path.join(here, "../../docs/ai.md"), "utf8");
const ARGS = { a: 2, b: 40 };

/** The script of docs/ai.md whose first line names `file`. */
function script(file) {
  const block = [...docs.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.startsWith(`// ${file}:`));
  assert.ok(block, `docs/ai.md has no script ${file}`);
  assert.ok(block.includes("http://127.0.0.1:8081/mcp"), `${file} does not use the demo server's URL`);
  return block.replaceAll("http://127.0.0.1:8081/mcp", PY);
}

/** What each provider's endpoint answers: a call of add, then (given the result) the final text. */
const ANSWERS = {
  "/v1/chat/completions": (n) => ({
    id: `chatcmpl-${n}`, object: "chat.completion", created: 0, model: "gpt-5-mini",
    choices: [n === 1
      ? { index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [{ id: "call_add", type: "function", function: { name: "add", arguments: JSON.stringify(ARGS) } }] } }
      : { index: 0, finish_reason: "stop", message: { role: "assistant", content: "the sum is 42" } }],
  }),
  "/v1/responses": (n) => ({
    id: `resp_${n}`, object: "response", created_at: 0, model: "gpt-5-mini", status: "completed",
    output: n === 1
      ? [{ type: "function_call", id: "fc_1", call_id: "call_add", name: "add", arguments: JSON.stringify(ARGS), status: "completed" }]
      : [{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "the sum is 42", annotations: [] }] }],
  }),
  "/v1/messages": (n) => ({
    id: `msg_${n}`, type: "message", role: "assistant", model: "claude-sonnet-4-5", stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
    ...(n === 1
      ? { stop_reason: "tool_use", content: [{ type: "tool_use", id: "toolu_add", name: "add", input: ARGS }] }
      : { stop_reason: "end_turn", content: [{ type: "text", text: "the sum is 42" }] }),
  }),
  "/v1beta/models/gemini-2.5-flash:generateContent": (n) => ({
    candidates: [{ index: 0, finishReason: "STOP", content: { role: "model", parts: n === 1 ? [{ functionCall: { id: "call_add", name: "add", args: ARGS } }] : [{ text: "the sum is 42" }] } }],
  }),
};

/** The local provider endpoint: `{ url, bodies, close }`. */
async function provider() {
  const bodies = [];
  const server = http.createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const route = new URL(req.url, "http://x").pathname;
    const answer = ANSWERS[route];
    if (!answer) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no ${route} here` } }));
      return;
    }
    bodies.push({ route, body: JSON.parse(text) });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(bodies.length)));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, bodies, close: () => server.close() };
}

/** Runs docs/ai.md's `file` with `env`; its stdout. */
async function run(file, env) {
  const dir = mkdtempSync(path.join(tmpdir(), "ai-docs-"));
  writeFileSync(path.join(dir, file), script(file));
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", path.join(here, "register.mjs"), path.join(dir, file)], {
    env: { ...process.env, ...env }, timeout: 30_000,
  });
  return stdout;
}

/** The tools the script must have sent: toolsFor over the same server. */
async function expectedTools(name) {
  const client = new pkg.Client(PY);
  await client.connect();
  try {
    return JSON.parse(JSON.stringify((await toolsFor(client, name)).tools));
  } finally {
    await client.close();
  }
}

test("docs/ai.md openai-chat.mjs: the tools as sent, the tool message with the call's id and the sum", async () => {
  const p = await provider();
  try {
    const out = await run("openai-chat.mjs", { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${p.url}/v1` });
    assert.match(out, /the sum is 42/);
    assert.equal(p.bodies.length, 2);
    assert.deepEqual(p.bodies[0].body.tools, await expectedTools("openai-chat"));
    const tool = p.bodies[1].body.messages.find((m) => m.role === "tool");
    assert.equal(tool.tool_call_id, "call_add");
    assert.deepEqual(JSON.parse(tool.content[0].text), { sum: 42 });
  } finally {
    p.close();
  }
});

test("docs/ai.md openai-responses.mjs: the function_call_output with the call's id", async () => {
  const p = await provider();
  try {
    const out = await run("openai-responses.mjs", { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${p.url}/v1` });
    assert.match(out, /the sum is 42/);
    assert.deepEqual(p.bodies[0].body.tools, await expectedTools("openai-responses"));
    const output = p.bodies[1].body.input.find((i) => i.type === "function_call_output");
    assert.equal(output.call_id, "call_add");
    assert.deepEqual(JSON.parse(output.output[0].text), { sum: 42 });
  } finally {
    p.close();
  }
});

test("docs/ai.md anthropic.mjs: the tool_result with the tool_use id", async () => {
  const p = await provider();
  try {
    const out = await run("anthropic.mjs", { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: p.url });
    assert.match(out, /the sum is 42/);
    assert.deepEqual(p.bodies[0].body.tools, await expectedTools("anthropic"));
    const result = p.bodies[1].body.messages.at(-1).content[0];
    assert.equal(result.type, "tool_result");
    assert.equal(result.tool_use_id, "toolu_add");
    assert.deepEqual(JSON.parse(result.content[0].text), { sum: 42 });
  } finally {
    p.close();
  }
});

test("docs/ai.md gemini.mjs: the functionResponse with the call's id", async () => {
  const p = await provider();
  try {
    const out = await run("gemini.mjs", { GEMINI_API_KEY: "test-key", GOOGLE_API_KEY: "", GOOGLE_GEMINI_BASE_URL: p.url });
    assert.match(out, /the sum is 42/);
    assert.deepEqual(p.bodies[0].body.tools, await expectedTools("gemini"));
    const part = p.bodies[1].body.contents.at(-1).parts[0];
    assert.equal(part.functionResponse.name, "add");
    assert.equal(part.functionResponse.id, "call_add");
    assert.deepEqual(JSON.parse(part.functionResponse.response.output), { sum: 42 });
  } finally {
    p.close();
  }
});
