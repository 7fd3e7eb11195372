// What a test page imports: the default entry's lean module (pkg/lean-web: the build a page gets,
// split into parts loaded on first use) initialised with the parts its synchronous exports need
// (ClientCore.loadParts, as the entry's init() does), plus the custom elements bound to it exactly
// as the npm browser entry (pkg-template/index.js → lean/manual.js) binds them.
// The page is served from the repository root.
import init, * as wasm from "/pkg/lean-web/mcp_wasm_client.js";
import { defineElements } from "/pkg-template/elements/index.js";

await init();
await wasm.ClientCore.loadParts();
export * from "/pkg/lean-web/mcp_wasm_client.js";
export const { AppFrame, ElicitationForm } = defineElements(wasm);
