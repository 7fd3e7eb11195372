// Copied into the package as it is by scripts/package.sh: the package's types are wasm-bindgen's, as the build emits them.
export * from "./dist/mcp_wasm_client.js";
export { default, default as init } from "./dist/mcp_wasm_client.js";
export { AppFrame, ElicitationForm, type AppFrameEventDetails, type AppModelContext, type McpUiDisplayMode, type McpUiHostContext } from "./elements/index.js";
