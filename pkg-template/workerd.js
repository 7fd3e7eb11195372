// Copied into the package as it is by scripts/package.sh. Cloudflare Workers and workerd (export condition "workerd"):
// the web glue, initialised synchronously from the .wasm imported as a module. A Worker cannot
// fetch its own files by URL (index.js's way), but workerd and wrangler hand
// `import … from "*.wasm"` over as a compiled WebAssembly.Module, and instantiating a compiled
// module needs no code generation from strings, which Workers forbid.
import wasm from './dist/mcp_wasm_client_bg.wasm';
import { initSync } from './manual.js';

export * from './manual.js';
export { init as default } from './manual.js';

initSync({ module: wasm });
