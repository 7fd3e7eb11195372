// Copied into the package as it is by scripts/package.sh. mcp-wasm-client/core has the full entry's API and so its types:
// there, the `auth` option, finishAuthorization() and signOut() and the authorization helpers
// (authorizeWithPopup, memoryStorage, ...) throw or reject with an McpError (data.kind "input")
// naming mcp-wasm-client, and `client.authorization` is always null.
export * from "../index.js";
export { default, default as init } from "../index.js";
