// "mcp-wasm-client" as the ai entry imports it in these suites: the built Node package the tests
// load (MCP_PKG_NODE, else pkg/nodejs), the same instance (require cache) as their Clients'.
const path = require("node:path");
module.exports = require(process.env.MCP_PKG_NODE ?? path.join(__dirname, "../../pkg/nodejs"));
