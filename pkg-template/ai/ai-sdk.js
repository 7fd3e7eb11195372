// toAiSdkTools(source, options): a ToolSet for the Vercel AI SDK 6 and 7 (generateText, streamText,
// useChat's server route): one dynamicTool per tool, its JSON Schema through jsonSchema(), an
// execute that calls the tool with the step's abortSignal, toModelOutput mapping the result (the
// rule of content.js), needsApproval from the approval option. `ai` is imported here only, when
// toAiSdkTools is first called: an optional peer dependency.

import { approvalRule } from "./approval.js";
import { aiSdkOutput } from "./content.js";
import { buildTools, checkOptions, describe, follow } from "./tools.js";
import { callTool, checkSource } from "./source.js";

let loading;
/** The `ai` package, imported on first use; a clear TypeError when it is not installed. */
function loadAi() {
  loading ??= import("ai").catch((e) => {
    loading = undefined;
    throw new TypeError(`toAiSdkTools needs the "ai" package (AI SDK 6 or 7): npm install ai (${e?.message ?? e})`);
  });
  return loading;
}

/**
 * A ToolSet (tool name → dynamicTool) of the tools `source` (a Client or ClientGroup) lists now.
 * Names fit every provider (letters, digits, _ and -, at most 64, a hash where cut); a tool whose
 * schema cannot be converted is left out and reported (messageHandler, kind tool_schema).
 * `onChange(next)` gets a fresh ToolSet after each tools/list_changed, until `signal` aborts.
 */
export async function toAiSdkTools(source, options) {
  const fn = "toAiSdkTools";
  checkSource(source, fn);
  const opts = checkOptions(options, fn, ["filter", "approval", "messageHandler", "onChange", "signal"]);
  const needs = approvalRule(opts.approval, fn);
  const ai = await loadAi();
  const tools = await toolSet(source, opts, needs, ai);
  follow(source, opts, (listed) => toolSet(source, opts, needs, ai, listed));
  return tools;
}

/** The ToolSet of the tools listed now (or `given`). */
async function toolSet(source, opts, needs, ai, given) {
  // AI SDK 7 has uploadFile and the tagged `file` tool-result part; AI SDK 6 has neither
  const v7 = typeof ai.uploadFile === "function";
  const { entries } = await buildTools(source, "ai-sdk", opts, given);
  const tools = {};
  for (const [name, { tool, schema }] of entries) {
    const description = describe(tool);
    tools[name] = ai.dynamicTool({
      ...(description === undefined ? {} : { description }),
      ...(tool.title ? { title: tool.title } : {}),
      inputSchema: ai.jsonSchema(schema),
      execute: (input, { abortSignal } = {}) => callTool(source, tool.name, input ?? {}, abortSignal),
      toModelOutput: ({ output }) => aiSdkOutput(output, v7),
      ...(needs ? { needsApproval: (input) => needs(tool, input ?? {}) } : {}),
    });
  }
  return tools;
}
