// What a test page imports: the built web package (pkg/web) initialised, plus the custom elements
// bound to it exactly as the npm browser entry (pkg-template/index.js → manual.js) binds them.
// The page is served from the repository root.
import init, * as wasm from "/pkg/web/mcp_wasm_client.js";
import { defineElements } from "/pkg-template/elements/index.js";

await init();
export * from "/pkg/web/mcp_wasm_client.js";
export const { AppFrame, ElicitationForm } = defineElements(wasm);
