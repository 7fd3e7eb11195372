// Copied into the package as it is by scripts/package.sh: the types of require("mcp-wasm-client") for TypeScript's
// node16/nodenext CommonJS resolution (a CommonJS file may not import the ESM index.d.ts): the
// nodejs build's declarations as wasm-bindgen emits them, init/initSync as node.cjs has them, and
// the custom elements.
export * from "./dist/mcp_wasm_client.cjs";
export { AppFrame, ElicitationForm, type AppFrameEventDetails, type AppModelContext, type McpUiDisplayMode, type McpUiHostContext } from "./elements/index.cjs";
/** Resolves at once: the Node build instantiates its wasm on require (kept for code shared with the web entry). */
export declare function init(input?: unknown): Promise<void>;
/** Does nothing: the Node build instantiates its wasm on require. */
export declare function initSync(input?: unknown): void;
