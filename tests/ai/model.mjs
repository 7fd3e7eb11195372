// A scripted language model for the AI SDK suites: the real MockLanguageModelV4 (AI SDK 7) or
// MockLanguageModelV3 (AI SDK 6) from `ai/test`, answering each step from a script (tool calls,
// or a closing text) and keeping every prompt and tool list it was given.

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/**
 * `steps`: one entry per model call, an array of tool calls `[toolName, input]` or a string (the
 * final text). Returns `{ model, prompts, tools }` (what each call received).
 */
export function scriptedModel(Mock, steps) {
  const prompts = [];
  const tools = [];
  let n = 0;
  const model = new Mock({
    doGenerate: async (options) => {
      prompts.push(structuredClone(options.prompt));
      tools.push(options.tools);
      const step = steps[n++] ?? "done";
      if (typeof step === "string") return { content: [{ type: "text", text: step }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
      const content = step.map(([toolName, input], i) => ({ type: "tool-call", toolCallId: `call-${n}-${i}`, toolName, input: JSON.stringify(input) }));
      return { content, finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
    },
  });
  return { model, prompts, tools };
}

/** The tool-result parts of the last prompt, by tool name. */
export function toolResults(prompts) {
  const out = {};
  for (const message of prompts.at(-1) ?? []) if (message.role === "tool") for (const part of message.content) if (part.type === "tool-result") out[part.toolName] = part;
  return out;
}
