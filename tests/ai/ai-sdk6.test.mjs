// toAiSdkTools with the real AI SDK 6 (the package ai6 = ai@6, MockLanguageModelV3): the same
// ToolSet works, and media goes as AI SDK 6's image-data parts (it has no tagged `file` part).
import { mapPackages } from "./setup.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { EVERYTHING, pkg } from "../js/peers.mjs";
import { scriptedModel, toolResults } from "./model.mjs";

mapPackages("ai6");
const { toAiSdkTools } = await import("mcp-wasm-client/ai");
const { generateText, stepCountIs } = await import("ai6");
const { MockLanguageModelV3 } = await import("ai6/test");

test("AI SDK 6: generateText calls server-everything's echo and image tools; the image is an image-data part", async () => {
  const client = new pkg.Client(EVERYTHING);
  await client.connect();
  try {
    const tools = await toAiSdkTools(client);
    const { model, prompts } = scriptedModel(MockLanguageModelV3, [[["echo", { message: "six" }], ["get-tiny-image", {}]], "done"]);
    const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(3) });
    assert.equal(result.text, "done");
    const results = toolResults(prompts);
    assert.equal(results.echo.output.type, "text");
    assert.match(results.echo.output.value, /six/);
    const image = result.steps[0].toolResults.find((r) => r.toolName === "get-tiny-image").output.content.find((c) => c.type === "image");
    const part = results["get-tiny-image"].output.value.find((p) => p.type !== "text");
    assert.deepEqual(part, { type: "image-data", data: image.data, mediaType: image.mimeType });
  } finally {
    await client.close();
  }
});
