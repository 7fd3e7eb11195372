// "mcp-wasm-client" as the ai entry and docs/ai.md's scripts import it in these suites: the built
// Node package the tests load (MCP_PKG_NODE, else pkg/nodejs), the same instance (require cache)
// as their Clients', with the names they import.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const pkg = require(process.env.MCP_PKG_NODE ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../../pkg/nodejs"));
export const { Client, ClientGroup, McpError } = pkg;
export default pkg;
