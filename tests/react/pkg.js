// "mcp-wasm-client" as the test page's bundle sees it (run.mjs maps the name here): the built web
// package (pkg/web), initialised, as the npm browser entry (pkg-template/index.js) does it.
import init from "../../pkg/web/mcp_wasm_client.js";

await init();
export * from "../../pkg/web/mcp_wasm_client.js";
