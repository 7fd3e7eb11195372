// Copied into the package as it is by scripts/package.sh. mcp-wasm-client/core (no authorization) for Cloudflare Workers
// and workerd: the core .wasm imported as a module and initialised synchronously (see the full
// entry's workerd.js).
import wasm from '../dist/core/mcp_wasm_client_bg.wasm';
import { initSync } from './manual.js';

export * from './manual.js';
export { init as default } from './manual.js';

initSync({ module: wasm });
