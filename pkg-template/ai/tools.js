// The tools of a source as one provider sees them: each tool's model name and converted schema,
// the ones left out (their schema cannot be converted, or their name collides) reported as
// tool_schema, and the checks shared by toAiSdkTools and toolsFor (options, arguments).

import { nameTools } from "./names.js";
import { SchemaError, toolSchema } from "./schema.js";
import { listTools, mcpError, onToolsChange } from "./source.js";

const OPTIONS = ["filter", "approval", "approve", "messageHandler", "onChange", "signal"];

/** Checks the options object (known keys, functions where functions go); throws a TypeError naming the first wrong one. */
export function checkOptions(options, fn, allowed = OPTIONS) {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object") throw new TypeError(`${fn}: options must be an object, got ${options === null ? "null" : typeof options}`);
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw new TypeError(`${fn}: options.${key} is not an option (options: ${allowed.join(", ")})`);
    if (key === "signal") {
      if (options.signal !== undefined && typeof options.signal?.addEventListener !== "function") throw new TypeError(`${fn}: options.signal must be an AbortSignal`);
    } else if (key !== "approval" && options[key] !== undefined && typeof options[key] !== "function")
      throw new TypeError(`${fn}: options.${key} must be a function, got ${typeof options[key]}`);
  }
  return options;
}

/** Tells `messageHandler` (else console.warn) that `tool` was left out, with an McpError of kind tool_schema. */
async function report(options, provider, tool, reason) {
  const server = tool.server === undefined ? {} : { server: tool.server };
  const error = await mcpError(-32600, `tool ${JSON.stringify(tool.name)} left out for ${provider}: ${reason}`, { kind: "tool_schema", tool: tool.name, provider, reason, ...server });
  try {
    if (options.messageHandler) await options.messageHandler(error);
    else console.warn(`mcp-wasm-client/ai: ${error.message}`);
  } catch {} // a handler that throws changes nothing: the tool is left out either way
  return error;
}

/**
 * The tools `source` lists now (or `given`, a list already had) that pass `options.filter`, for
 * `provider` (`ai-sdk` or one of toolsFor's): `{ entries: Map modelName → { tool, schema… },
 * skipped: [{ name, error }] }`.
 */
export async function buildTools(source, provider, options, given) {
  const listed = await listTools(source, given);
  const kept = [];
  for (const tool of listed) {
    if (options.filter && !(await options.filter(tool))) continue;
    kept.push(tool);
  }
  const { byName, collisions } = nameTools(kept, provider);
  const entries = new Map();
  const skipped = [];
  for (const { tool, name, other } of collisions)
    skipped.push({ name: tool.name, error: await report(options, provider, tool, `its model name ${name} is also ${JSON.stringify(other)}'s`) });
  for (const [modelName, tool] of byName) {
    try {
      entries.set(modelName, { tool, modelName, ...toolSchema(tool.inputSchema, provider) });
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      skipped.push({ name: tool.name, error: await report(options, provider, tool, `its inputSchema cannot be converted: ${e.message}`) });
    }
  }
  return { entries, skipped };
}

/** The arguments the model sent (a JSON string or an object) as an object; an McpError (kind input) naming the tool when they are neither. */
export async function parseArgs(args, name) {
  if (args === undefined || args === null || args === "") return {};
  let value = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch (e) {
      throw await mcpError(-32602, `the arguments the model sent for ${name} are not JSON (${e.message})`, { kind: "input" });
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw await mcpError(-32602, `the arguments the model sent for ${name} are ${Array.isArray(value) ? "an array" : typeof value}, not an object`, { kind: "input" });
  return value;
}

/**
 * Follows the source's tool list for `options.onChange`: after each toolschange, `make(listed)`
 * builds the next set (from the Client's new list, or listing a group again) and onChange gets
 * it; until `options.signal` aborts or the returned function is called. A failure to build goes to
 * messageHandler (else console.warn).
 */
export function follow(source, options, make) {
  if (!options.onChange || options.signal?.aborted) return () => {};
  const stop = onToolsChange(source, (listed) => {
    make(listed).then(
      (next) => options.onChange(next),
      (error) => (options.messageHandler ? options.messageHandler(error) : console.warn(`mcp-wasm-client/ai: the tools could not be made again: ${error?.message}`)),
    );
  });
  options.signal?.addEventListener("abort", stop, { once: true });
  return stop;
}

/** The description a tool is given: its description, else its title. */
export const describe = (tool) => tool.description ?? tool.title;
