// The one import of the WebAssembly package. The page is served from the repository root
// (scripts/demo.sh, tests/e2e/run.mjs), so www/js/ reaches the package at ../../pkg/web/.
// The custom elements are bound to it as the npm browser entry binds them (defineElements also
// defines <mcp-elicitation-form> and <mcp-app-frame>).
import * as wasm from "../../pkg/web/mcp_wasm_client.js";
import { defineElements } from "../../pkg-template/elements/index.js";

export {
  default as init, Client, ClientGroup, McpError, elicitationForm, validateElicitation,
  authorizeWithPopup, authorizeWithRedirect, completeAuthorizationPopup, webStorage, indexedDbStorage,
} from "../../pkg/web/mcp_wasm_client.js";

/** The package's elements, bound to the web package. */
export const { AppFrame, ElicitationForm } = defineElements(wasm);
