// The one import of the WebAssembly package. The page is served from the repository root
// (scripts/demo.sh, tests/e2e/run.mjs), so www/js/ reaches the package at ../../pkg/web/.
export {
  default as init, Client, ClientGroup, McpError, elicitationForm, validateElicitation,
  authorizeWithPopup, authorizeWithRedirect, completeAuthorizationPopup, webStorage, indexedDbStorage,
} from "../../pkg/web/mcp_wasm_client.js";
