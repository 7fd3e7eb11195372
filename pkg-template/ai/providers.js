// toolsFor(source, provider, options): the tools as the provider's request body takes them, and
// call(), which runs what the model asked for and answers in the provider's tool-result form.

import { approvalRule } from "./approval.js";
import { PROVIDERS, mapResult } from "./content.js";
import { buildTools, checkOptions, describe, follow, parseArgs } from "./tools.js";
import { callTool, checkSource, mcpError } from "./source.js";

/** The tool definition `provider`'s request body takes for one entry of buildTools. */
function definition(provider, e) {
  const description = describe(e.tool);
  const desc = description === undefined ? {} : { description };
  switch (provider) {
    case "openai-chat":
      return { type: "function", function: { name: e.modelName, ...desc, parameters: e.schema, strict: e.strict } };
    case "openai-responses":
      return { type: "function", name: e.modelName, ...desc, parameters: e.schema, strict: e.strict };
    case "anthropic":
      return { name: e.modelName, ...desc, input_schema: e.schema };
    case "gemini":
      if (e.jsonSchema) return { name: e.modelName, ...desc, parametersJsonSchema: e.jsonSchema };
      return e.empty ? { name: e.modelName, ...desc } : { name: e.modelName, ...desc, parameters: e.parameters };
  }
  throw new Error(`no definition for ${provider}`); // unreachable: checked by toolsFor
}

/** The key of the call's id in `provider`'s tool-result item. */
function withId(item, provider, id) {
  if (id === undefined) return item;
  if (typeof id !== "string") throw new TypeError(`call: options.id must be the model's tool call id (a string), got ${typeof id}`);
  if (provider === "openai-chat") item.tool_call_id = id;
  else if (provider === "openai-responses") item.call_id = id;
  else if (provider === "anthropic") item.tool_use_id = id;
  else item.functionResponse.id = id;
  return item;
}

/** `result` (a CallToolResult) as `provider`'s item, the result itself kept on it (non-enumerable) for the UI. */
function resultItem(result, provider, modelName, id, extra = {}) {
  const item = mapResult(result, provider, modelName);
  Object.defineProperty(item, "result", { value: result, enumerable: false });
  for (const [k, v] of Object.entries(extra)) Object.defineProperty(item, k, { value: v, enumerable: false });
  return withId(item, provider, id);
}

/**
 * `{ tools, call, toolName, skipped, close }` for `provider` ("openai-chat", "openai-responses",
 * "anthropic", "gemini"): `tools` is exactly the request body's `tools`; `call(name, args,
 * { signal, id })` runs the tool the model named (arguments as a JSON string or an object) and
 * resolves with the provider's tool-result item; `toolName(modelName)` is the MCP name back.
 */
export async function toolsFor(source, provider, options) {
  const fn = "toolsFor";
  checkSource(source, fn);
  if (!PROVIDERS.includes(provider))
    throw new TypeError(`${fn}(source, provider): provider must be one of ${PROVIDERS.map((p) => JSON.stringify(p)).join(", ")}, got ${JSON.stringify(provider)}`);
  const opts = checkOptions(options, fn);
  const needs = approvalRule(opts.approval, fn);
  if (needs && !opts.approve)
    throw new TypeError(`${fn}: options.approval ${typeof opts.approval === "function" ? "(a function)" : JSON.stringify(opts.approval)} asks the user, so options.approve(tool, args) => boolean must ask them`);
  const set = await providerTools(source, provider, opts, needs);
  const stop = follow(source, opts, (listed) => providerTools(source, provider, opts, needs, listed));
  return { ...set, close: stop };
}

/** toolsFor's result over the tools listed now (or `given`), without `close`. */
async function providerTools(source, provider, opts, needs, given) {
  const { entries, skipped } = await buildTools(source, provider, opts, given);
  const defs = [...entries.values()].map((e) => definition(provider, e));
  const tools = provider === "gemini" ? (defs.length ? [{ functionDeclarations: defs }] : []) : defs;

  async function call(name, args, callOptions = {}) {
    const entry = entries.get(name);
    if (!entry) {
      const known = [...entries.keys()].slice(0, 20).join(", ");
      throw await mcpError(-32602, `the model called ${JSON.stringify(name)}, which is not one of these tools (${known || "none"})`, { kind: "unknown_tool", tool: String(name) });
    }
    const { signal, id } = callOptions ?? {};
    const input = entry.clean(await parseArgs(args, name));
    if (needs && (await needs(entry.tool, input)) && !(await opts.approve(entry.tool, input))) {
      const declined = { content: [{ type: "text", text: `The user declined this call of ${name}; the tool was not run.` }], isError: true };
      return resultItem(declined, provider, name, id, { declined: true });
    }
    const result = await callTool(source, entry.tool.name, input, signal);
    return resultItem(result, provider, name, id);
  }
  const toolName = (modelName) => entries.get(modelName)?.tool.name;
  return { tools, call, toolName, skipped, close: () => {} };
}
