// mcp-wasm-client/ai: from an MCP server's tools to a language model and back. Plain JS beside
// the wasm, imported only by this name (no other entry imports it, so a page that does not use it
// downloads nothing of it). `ai` (the Vercel AI SDK) is an optional peer dependency, imported by
// toAiSdkTools only; the package itself ("mcp-wasm-client") is imported only to make an McpError.
//
//   toAiSdkTools(source, options)        a ToolSet for the AI SDK 6 and 7
//   toolsFor(source, provider, options)  the request body's tools for OpenAI (chat, responses),
//                                        Anthropic or Gemini, and call() to run what the model asks
//   toModelContent(result, provider)     a CallToolResult as the provider's tool result
// The rules for names, schemas and content: docs/ai.md.

import { PROVIDERS, mapResult } from "./content.js";

export { toAiSdkTools } from "./ai-sdk.js";
export { toolsFor } from "./providers.js";
export { mayDestroy } from "./approval.js";

/**
 * `result` (a CallToolResult) as `provider`'s tool-result item, without the call's id (add
 * `tool_call_id`, `call_id`, `tool_use_id` or `functionResponse.id`); `options.name` is the tool's
 * name that Gemini's functionResponse carries.
 */
export function toModelContent(result, provider, options) {
  if (!PROVIDERS.includes(provider))
    throw new TypeError(`toModelContent(result, provider): provider must be one of ${PROVIDERS.map((p) => JSON.stringify(p)).join(", ")}, got ${JSON.stringify(provider)}`);
  if (result === null || typeof result !== "object" || !Array.isArray(result.content ?? []))
    throw new TypeError(`toModelContent(result, provider): result must be a CallToolResult ({ content: [...] }), got ${result === null ? "null" : typeof result}`);
  if (provider === "gemini" && typeof options?.name !== "string")
    throw new TypeError('toModelContent(result, "gemini", { name }): Gemini\'s functionResponse needs the tool\'s name');
  return mapResult(result, provider, options?.name);
}
