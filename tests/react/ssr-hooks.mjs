// Module resolution hooks for ssr.mjs (node:module register): the package names mapped to this
// checkout, React from tests/react/node_modules; each mapped name is reported on `port`.
import path from "node:path";
import { pathToFileURL } from "node:url";

let port, root, here;
export function initialize(data) {
  ({ port, root, here } = data);
}

export async function resolve(specifier, context, next) {
  if (specifier === "mcp-wasm-client/react") {
    port.postMessage(specifier);
    return { url: pathToFileURL(path.join(root, "pkg-template/react/index.js")).href, shortCircuit: true };
  }
  if (specifier === "mcp-wasm-client") {
    port.postMessage(specifier);
    return { url: pathToFileURL(path.join(root, "pkg/nodejs/mcp_wasm_client.js")).href, shortCircuit: true };
  }
  if (/^(react|react-dom|scheduler)(\/|$)/.test(specifier)) {
    return next(specifier, { ...context, parentURL: pathToFileURL(path.join(here, "index.mjs")).href });
  }
  return next(specifier, context);
}
