// Module hooks for the ai suites (registered by setup.mjs): "mcp-wasm-client/ai" is
// pkg-template/ai/index.js (this checkout's entry, not a copy), "mcp-wasm-client" the built Node
// package (pkg.mjs: pkg/nodejs, the one instance the tests' Clients come from), and "ai" as
// imported by the entry the AI SDK of this folder, 7 ("ai") or 6 ("ai6") as the suite asks. The
// provider SDKs, imported by docs/ai.md's scripts from a temporary folder, are this folder's.
import path from "node:path";
import { pathToFileURL } from "node:url";

let here;
let ai = "ai";

export function initialize(data) {
  here = data.here;
  ai = data.ai ?? "ai";
}

export async function resolve(specifier, context, next) {
  if (specifier === "mcp-wasm-client/ai") return { url: pathToFileURL(path.join(here, "../../pkg-template/ai/index.js")).href, shortCircuit: true };
  if (specifier === "mcp-wasm-client") return { url: pathToFileURL(path.join(here, "pkg.mjs")).href, shortCircuit: true };
  if (specifier === "ai" && context.parentURL?.includes("/pkg-template/ai/"))
    return next(ai, { ...context, parentURL: pathToFileURL(path.join(here, "setup.mjs")).href });
  if (/^(openai|@anthropic-ai\/sdk|@google\/genai)(\/|$)/.test(specifier) && !context.parentURL?.includes("/node_modules/"))
    return next(specifier, { ...context, parentURL: pathToFileURL(path.join(here, "setup.mjs")).href });
  return next(specifier, context);
}
